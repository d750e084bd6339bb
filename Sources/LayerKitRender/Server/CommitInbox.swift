import Foundation
import LayerKit

/// Commit packets waiting for a render server: received on the committing thread, taken on the thread
/// that renders. Every host (`CARenderer`, `RenderServer`) and benchmark holds one.
package final class CommitInbox: CommitReceiver, @unchecked Sendable {
    private let lock = NSLock()
    private var packets: [CommitPacket] = []
    private let onReceive: (@Sendable () -> Void)?

    /// An inbox registered with `CommitDistributor.shared`. `onReceive` runs after each packet arrives
    /// (a render thread wakes itself with it).
    package init(onReceive: (@Sendable () -> Void)? = nil) {
        self.onReceive = onReceive
        CommitDistributor.shared.register(self)
    }

    package func receive(_ packet: CommitPacket) {
        lock.lock()
        packets.append(packet)
        lock.unlock()
        onReceive?()
    }

    /// Every waiting packet, in commit order; the inbox is empty afterwards.
    package func take() -> [CommitPacket] {
        lock.lock()
        defer { lock.unlock() }
        let taken = packets
        packets.removeAll()
        return taken
    }

    package var isEmpty: Bool {
        lock.lock()
        defer { lock.unlock() }
        return packets.isEmpty
    }
}
