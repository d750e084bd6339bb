import Foundation

/// A Sendable value behind an `NSLock`, reached only inside `withLock`: the lock that types keeping
/// cross-thread state use, so that they are checked `Sendable` themselves.
///
/// Why not the standard library's `Mutex`: on Linux its lock is futex calls and atomics inside the
/// Synchronization library, which ThreadSanitizer does not see, so under `Tools/test --tsan` two
/// accesses a `Mutex` does serialize are reported as a race. `NSLock` is a pthread mutex, which
/// ThreadSanitizer understands, so a race it reports behind this lock is a real one.
/// Sendable (unchecked, here only): `value` is touched only between `lock()` and `unlock()` in
/// `withLock`, and it is Sendable, so what a body returns may leave the lock. Checked by
/// `SendableInvariantTests`. Cost: one uncontended pthread mutex per access.
package final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, as the only thread touching it.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
