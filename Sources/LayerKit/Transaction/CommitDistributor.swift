import Foundation

/// Something that receives every commit: a render server (a `CARenderer`, a window).
package protocol CommitReceiver: AnyObject, Sendable {
    /// Called on the committing thread; the receiver queues the packet for its render thread.
    func receive(_ packet: CommitPacket)
}

/// Hands each commit packet to every live receiver (held weakly), in commit order.
package final class CommitDistributor: @unchecked Sendable {
    package static let shared = CommitDistributor()

    private struct WeakReceiver {
        weak var receiver: CommitReceiver?
    }

    private let lock = NSLock()
    private var receivers: [WeakReceiver] = []

    package func register(_ receiver: CommitReceiver) {
        lock.lock()
        receivers.removeAll { $0.receiver == nil }
        receivers.append(WeakReceiver(receiver: receiver))
        lock.unlock()
    }

    package func distribute(_ packet: CommitPacket) {
        lock.lock()
        let live = receivers.compactMap(\.receiver)
        lock.unlock()
        for receiver in live { receiver.receive(packet) }
    }
}
