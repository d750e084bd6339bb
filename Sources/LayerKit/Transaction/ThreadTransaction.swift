import Foundation

/// One thread's transaction state: its stack of open transactions (the bottom frame is its implicit
/// transaction), the layers it changed since its last commit (`LayerChangeLog`), and the layers it marked
/// as needing layout (`LayoutQueue`).
///
/// Core Animation's transactions are per thread: a `CATransaction.begin()` on a background thread nests
/// in that thread's transactions only, and a commit sends the changes of its own thread. Each thread's
/// state is made on its first use and released when the thread ends (`ThreadLocal`).
/// Threads: only the owning thread touches its state (`current`), so it needs no lock; what it shares
/// with other threads (completion groups, the distributor) has locks of its own.
package final class ThreadTransaction {
    /// One open transaction: its properties and completion group.
    final class Frame {
        var values: [String: Any]
        var completion: TransactionContext.CompletionGroup?
        init(values: [String: Any]) { self.values = values }
    }

    var frames: [Frame] = [Frame(values: [:])]
    /// The layers this thread changed since it last committed.
    package let changes = LayerChangeLog()
    /// The layers this thread marked as needing layout.
    package let layout = LayoutQueue()

    private static let storage = ThreadLocal { ThreadTransaction() }

    /// The calling thread's transaction state.
    package static var current: ThreadTransaction { storage.value }
}
