import Foundation

/// Asserts that an object which is not thread-safe is never entered from two threads at once (the
/// ownership check of STYLE.md guideline 13). Moving the object between threads is fine; overlapping
/// calls trap with the object's name. Cost: one uncontended lock per call.
final class ExclusiveAccess: Sendable {
    private let lock = NSLock()
    private let name: String

    init(name: String) {
        self.name = name
    }

    /// Runs `body` as the only user of the object.
    func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        precondition(lock.try(), "\(name) is used from two threads at once; use it from one thread at a time (the render thread)")
        defer { lock.unlock() }
        return try body()
    }
}
