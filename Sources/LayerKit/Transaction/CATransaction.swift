import Foundation

/// Groups layer-tree changes into atomic updates for the render server: Core Animation's `CATransaction`.
///
/// Every change belongs to a transaction of the thread that makes it: transactions are per thread, as
/// Core Animation's are. Without an explicit `begin()`, changes go into the thread's implicit
/// transaction, which opens on the first change and which the host (`CARenderer` at each frame,
/// `LayerWindow` once per event-loop iteration) commits with `flush()` on its thread; another thread
/// commits its own with `flush()` or an explicit transaction. Explicit transactions nest on their thread;
/// only the outermost `commit()` sends the changes. Properties (`animationDuration`, `disableActions`, …)
/// are per transaction: a nested transaction starts with its parent's values.
///
/// Threads: every method acts on the calling thread's transactions. Changing layers from several threads
/// is safe when each thread changes layers inside its own explicit transactions and holds `lock()` while
/// it touches layers another thread may commit; every commit holds the lock. Delegate callbacks and
/// completion blocks run on the thread that delivers animation callbacks: the host's (`CARenderer`'s
/// `endFrame()`, the window's loop, `flush()`).
public final class CATransaction {
    private init() {}

    /// Begins an explicit transaction (they nest).
    public static func begin() { TransactionContext.begin() }

    /// Ends the innermost explicit transaction; the outermost one sends its changes to the render server.
    public static func commit() { TransactionContext.commit() }

    /// Commits the implicit transaction now. Inside an explicit transaction it does nothing: the
    /// outermost `commit()` sends everything.
    public static func flush() { TransactionContext.flush() }

    /// Duration of implicit animations (and of added animations with no duration). Default 0.25 s.
    public static func animationDuration() -> CFTimeInterval {
        value(forKey: kCATransactionAnimationDuration) as? CFTimeInterval ?? 0.25
    }

    public static func setAnimationDuration(_ dur: CFTimeInterval) {
        setValue(dur, forKey: kCATransactionAnimationDuration)
    }

    /// Timing function of implicit animations. Default nil (Core Animation's default curve for implicit
    /// animations is used).
    public static func animationTimingFunction() -> CAMediaTimingFunction? {
        value(forKey: kCATransactionAnimationTimingFunction) as? CAMediaTimingFunction
    }

    public static func setAnimationTimingFunction(_ function: CAMediaTimingFunction?) {
        setValue(function, forKey: kCATransactionAnimationTimingFunction)
    }

    /// Whether property changes in this transaction skip their implicit animations.
    public static func disableActions() -> Bool {
        value(forKey: kCATransactionDisableActions) as? Bool ?? false
    }

    public static func setDisableActions(_ flag: Bool) {
        setValue(flag, forKey: kCATransactionDisableActions)
    }

    /// Runs on the main thread once every animation added in this transaction (and its nested ones) has
    /// finished or been removed; at commit when none was added.
    public static func completionBlock() -> (() -> Void)? {
        TransactionContext.completionBlock
    }

    public static func setCompletionBlock(_ block: (() -> Void)?) {
        TransactionContext.completionBlock = block
    }

    /// A transaction property by key (the keys above, or your own).
    public static func value(forKey key: String) -> Any? {
        TransactionContext.value(forKey: key)
    }

    public static func setValue(_ anObject: Any?, forKey key: String) {
        TransactionContext.setValue(anObject, forKey: key)
    }

    /// Takes the transaction lock (recursive), for changing layers from several threads: no commit runs
    /// while another thread holds it.
    public static func lock() { TransactionContext.transactionLock.lock() }

    /// Releases the transaction lock.
    public static func unlock() { TransactionContext.transactionLock.unlock() }
}

public let kCATransactionAnimationDuration = "animationDuration"
public let kCATransactionAnimationTimingFunction = "animationTimingFunction"
public let kCATransactionDisableActions = "disableActions"
public let kCATransactionCompletionBlock = "completionBlock"
