import Foundation
import LayerKit

/// Commit packets waiting for a render server: received on the committing thread, taken on the thread
/// that renders. Every host (`CARenderer`, `RenderServer`) holds one showing its tree; benchmarks and tests
/// that feed a producer by hand hold one that observes every commit.
/// Ownership: the waiting packets are behind a lock (`Locked`; committing threads append, the rendering
/// thread takes), so the inbox is checked `Sendable`.
package final class CommitInbox: CommitReceiver, Sendable {
    private let packets = Locked<[CommitPacket]>([])
    private let onReceive: (@Sendable () -> Void)?
    /// Where commits are traced (`LK_TRACE`), on the committing thread as they arrive.
    private let trace: TraceRecorder?

    /// An inbox that receives every commit of the process until it shows a tree (`show(_:)`), as tests
    /// that feed a producer by hand want. `onReceive` runs after each packet arrives (a render thread
    /// wakes itself with it); `trace` records each commit.
    package init(onReceive: (@Sendable () -> Void)? = nil, trace: TraceRecorder? = nil) {
        self.onReceive = onReceive
        self.trace = trace
        CommitDistributor.shared.observe(self)
    }

    deinit {
        CommitDistributor.shared.remove(self)
    }

    /// From now on receives only commits that touch the tree rooted at `root` (`CommitDistributor`);
    /// drops the packets waiting and returns the snapshot a render tree of `root` starts from. Commit
    /// first (`CATransaction.flush()`) what belongs to the snapshot.
    package func show(_ root: CALayer?) -> CommitPacket? {
        let snapshot = CommitDistributor.shared.show(root, to: self)
        _ = take()
        return snapshot
    }

    /// Whether work pending on `layers` (uncommitted changes, drawings) concerns this inbox's tree.
    package func concerns(anyOf layers: [CALayer]) -> Bool {
        CommitDistributor.shared.concerns(self, anyOf: layers)
    }

    package func receive(_ packet: CommitPacket) {
        trace?.recordCommit(packet)
        packets.withLock { $0.append(packet) }
        onReceive?()
    }

    /// Every waiting packet, in commit order; the inbox is empty afterwards.
    package func take() -> [CommitPacket] {
        packets.withLock { waiting in
            let taken = waiting
            waiting.removeAll()
            return taken
        }
    }

    package var isEmpty: Bool {
        packets.withLock { $0.isEmpty }
    }
}
