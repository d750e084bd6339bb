import Foundation

/// The transactions of the calling thread, their properties and completion groups, and the commit.
///
/// Transactions are per thread, as Core Animation's are (`ThreadTransaction`): each thread has its own
/// stack of open transactions, whose bottom frame is its implicit transaction, and its own record of the
/// layers it changed and marked for layout. `begin()` pushes a frame inheriting its parent's properties;
/// the outermost `commit()` (or `flush()` with no explicit frame open) lays out what the thread marked,
/// displays, and hands the changes the thread made to the hosts whose trees they touch
/// (`CommitDistributor`) — a background thread's open transaction is never committed by another thread.
/// Commits are serialized by the transaction lock (`CATransaction.lock()`), so a thread holding it
/// changes layers that no commit is reading. Animations added while frames are open join each frame's
/// completion group; a group fires its block when its count returns to zero after its transaction
/// committed.
package enum TransactionContext {
    /// `CATransaction.lock()`: recursive; every commit holds it.
    static let transactionLock = NSRecursiveLock()

    /// Counts the animations a transaction added until they finish. Animations end on the main thread
    /// (`AnimationCallbacks`), transactions commit on theirs: the counts have a lock of their own.
    package final class CompletionGroup: @unchecked Sendable {
        // Guarded by `lock`; `block` is immutable.
        let block: () -> Void
        private let lock = NSLock()
        private var outstanding = 0
        private var committed = false
        private var fired = false

        init(block: @escaping () -> Void) { self.block = block }

        /// One more animation counts toward the group.
        func addAnimation() {
            lock.lock()
            outstanding += 1
            lock.unlock()
        }

        /// One of its animations ended, or (`commit`) its transaction committed; runs the block once
        /// both its transaction committed and no animation is outstanding.
        func settle(animationEnded: Bool = false, committed commit: Bool = false) {
            lock.lock()
            if animationEnded { outstanding -= 1 }
            if commit { committed = true }
            let fire = committed && outstanding == 0 && !fired
            if fire { fired = true }
            lock.unlock()
            if fire { block() }
        }
    }

    // MARK: Nesting

    static func begin() {
        let thread = ThreadTransaction.current
        thread.frames.append(ThreadTransaction.Frame(values: thread.frames.last!.values))
    }

    static func commit() {
        let thread = ThreadTransaction.current
        guard thread.frames.count > 1 else { return }
        let frame = thread.frames.removeLast()
        if thread.frames.count == 1 { send(thread) }
        frame.completion?.settle(committed: true)
    }

    static func flush() {
        // Callbacks the render thread queued are delivered on this (the model) thread first.
        AnimationCallbacks.shared.deliverPending()
        let thread = ThreadTransaction.current
        guard thread.frames.count == 1 else { return }
        let implicit = thread.frames[0]
        send(thread)
        // The implicit transaction ends here; a new one starts with default properties.
        thread.frames[0] = ThreadTransaction.Frame(values: [:])
        implicit.completion?.settle(committed: true)
    }

    // MARK: Properties

    static func value(forKey key: String) -> Any? {
        if key == kCATransactionCompletionBlock { return completionBlock }
        return ThreadTransaction.current.frames.last!.values[key]
    }

    static func setValue(_ value: Any?, forKey key: String) {
        if key == kCATransactionCompletionBlock {
            completionBlock = value as? () -> Void
            return
        }
        ThreadTransaction.current.frames.last!.values[key] = value
    }

    static var completionBlock: (() -> Void)? {
        get { ThreadTransaction.current.frames.last!.completion?.block }
        set { ThreadTransaction.current.frames.last!.completion = newValue.map(CompletionGroup.init) }
    }

    // MARK: Completion groups

    /// The groups of the calling thread's open transactions; an animation added now counts toward each.
    package static func openCompletionGroups() -> [CompletionGroup] {
        let groups = ThreadTransaction.current.frames.compactMap(\.completion)
        for group in groups { group.addAnimation() }
        return groups
    }

    /// One animation of `groups` finished or was removed.
    package static func animationEnded(in groups: [CompletionGroup]) {
        for group in groups { group.settle(animationEnded: true) }
    }

    // MARK: The commit

    /// Commits what `thread` changed, under the transaction lock.
    private static func send(_ thread: ThreadTransaction) {
        let began = CACurrentMediaTime()
        transactionLock.lock()
        defer { transactionLock.unlock() }
        thread.layout.layOutPending()
        LayerDisplay.displayPendingLayers()
        let changes = thread.changes.drain()
        let released = CommitDistributor.shared.drainReleased()
        guard !changes.isEmpty || !released.isEmpty else { return }
        CommitDistributor.shared.distribute(changes, released: released, began: began)
    }
}
