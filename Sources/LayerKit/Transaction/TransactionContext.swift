import Foundation

/// The stack of open transactions on the model thread, their properties and completion groups, and the
/// commit itself.
///
/// The bottom frame is the implicit transaction. `begin()` pushes a frame inheriting its parent's
/// properties; the outermost `commit()` (or `flush()` with no explicit frame open) packs the pending
/// changes and hands them to the hosts whose trees they touch (`CommitDistributor`). Animations added while frames are
/// open join each frame's completion group; a group fires its block when its count returns to zero
/// after its transaction committed.
package final class TransactionContext: @unchecked Sendable {
    package static let shared = TransactionContext()

    /// `CATransaction.lock()`: recursive, for apps that touch layers from several threads.
    let transactionLock = NSRecursiveLock()

    private let lock = NSRecursiveLock()
    private var frames: [Frame] = [Frame(values: [:])]

    private final class Frame {
        var values: [String: Any]
        var completion: CompletionGroup?
        init(values: [String: Any]) { self.values = values }
    }

    /// Counts the animations a transaction added until they finish.
    package final class CompletionGroup: @unchecked Sendable {
        let block: () -> Void
        var outstanding = 0
        var committed = false
        var fired = false
        init(block: @escaping () -> Void) { self.block = block }
    }

    // MARK: Nesting

    func begin() {
        lock.lock()
        frames.append(Frame(values: frames.last!.values))
        lock.unlock()
    }

    func commit() {
        lock.lock()
        guard frames.count > 1 else {
            lock.unlock()
            return
        }
        let frame = frames.removeLast()
        let outermost = frames.count == 1
        lock.unlock()
        if outermost { send() }
        if let group = frame.completion { finishCommit(of: group) }
    }

    func flush() {
        // Callbacks the render thread queued are delivered on this (the model) thread first.
        AnimationCallbacks.shared.deliverPending()
        lock.lock()
        let explicitOpen = frames.count > 1
        let implicit = explicitOpen ? nil : frames[0]
        lock.unlock()
        guard let implicit else { return }
        send()
        // The implicit transaction ends here; a new one starts with default properties.
        lock.lock()
        let group = implicit.completion
        frames[0] = Frame(values: [:])
        lock.unlock()
        if let group { finishCommit(of: group) }
    }

    // MARK: Properties

    func value(forKey key: String) -> Any? {
        if key == kCATransactionCompletionBlock { return completionBlock }
        lock.lock()
        defer { lock.unlock() }
        return frames.last!.values[key]
    }

    func setValue(_ value: Any?, forKey key: String) {
        if key == kCATransactionCompletionBlock {
            completionBlock = value as? () -> Void
            return
        }
        lock.lock()
        frames.last!.values[key] = value
        lock.unlock()
    }

    var completionBlock: (() -> Void)? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return frames.last!.completion?.block
        }
        set {
            lock.lock()
            frames.last!.completion = newValue.map(CompletionGroup.init)
            lock.unlock()
        }
    }

    // MARK: Completion groups

    /// The groups of every open transaction; an animation added now counts toward each.
    package func openCompletionGroups() -> [CompletionGroup] {
        lock.lock()
        defer { lock.unlock() }
        let groups = frames.compactMap(\.completion)
        for group in groups { group.outstanding += 1 }
        return groups
    }

    /// One animation of `groups` finished or was removed.
    package func animationEnded(in groups: [CompletionGroup]) {
        var ready: [CompletionGroup] = []
        lock.lock()
        for group in groups {
            group.outstanding -= 1
            if group.committed && group.outstanding == 0 && !group.fired {
                group.fired = true
                ready.append(group)
            }
        }
        lock.unlock()
        for group in ready { group.block() }
    }

    private func finishCommit(of group: CompletionGroup) {
        lock.lock()
        group.committed = true
        let fire = group.outstanding == 0 && !group.fired
        if fire { group.fired = true }
        lock.unlock()
        if fire { group.block() }
    }

    // MARK: The commit

    private func send() {
        LayoutQueue.shared.layOutPending()
        LayerDisplay.displayPendingLayers()
        let changes = LayerChangeLog.shared.drain()
        let released = LayerChangeLog.shared.drainReleased()
        guard !changes.isEmpty || !released.isEmpty else { return }
        CommitDistributor.shared.distribute(changes, released: released)
    }
}
