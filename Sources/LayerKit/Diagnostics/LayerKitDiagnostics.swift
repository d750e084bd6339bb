import Foundation
import Logging

/// Where diagnostics go: a swift-log logger labelled "LayerKit", plus observers (tests capture with them).
///
/// Observers are held by the shared instance behind a lock, so diagnostics may be emitted from any thread.
///
/// Process-wide by nature, like the logger it feeds: a diagnostic arises wherever bad input is met (a
/// path, a layer's property, a drawing on a worker thread), with no host or transaction at hand, and an
/// app subscribes once for all of them. Ownership: `observers` and `nextObserverID` are behind `lock`;
/// observers are called outside it, on the emitting thread. Hence `@unchecked Sendable` (the lock is an
/// `NSLock` beside the state rather than a `Mutex` around it). Checked by `SendableInvariantTests`.
public final class LayerKitDiagnostics: @unchecked Sendable {
    /// The process-wide diagnostic sink (see the type's comment for why there is one).
    public static let shared = LayerKitDiagnostics()

    /// An observation; emission stops when it is cancelled or deallocated. Sendable (checked): its `id`
    /// and weak `owner` are constants, and `cancel()` goes through the owner's lock.
    public final class Observation: Sendable {
        fileprivate let id: Int
        fileprivate weak let owner: LayerKitDiagnostics?
        fileprivate init(id: Int, owner: LayerKitDiagnostics) { self.id = id; self.owner = owner }
        public func cancel() { owner?.removeObserver(id) }
        deinit { cancel() }
    }

    private let logger = Logger(label: "LayerKit")
    private let lock = NSLock()
    private var observers: [Int: @Sendable (LayerKitDiagnostic) -> Void] = [:]
    private var nextObserverID = 0

    /// Logs `diagnostic` as a warning with its case name as metadata and hands it to every observer.
    public static func emit(_ diagnostic: LayerKitDiagnostic) { shared.emit(diagnostic) }

    public func emit(_ diagnostic: LayerKitDiagnostic) {
        logger.warning("\(diagnostic.description)", metadata: ["diagnostic": .string(diagnostic.name)])
        lock.lock()
        let current = Array(observers.values)
        lock.unlock()
        for observer in current { observer(diagnostic) }
    }

    /// Calls `handler` for every diagnostic emitted until the returned observation is cancelled or released.
    public func observe(_ handler: @escaping @Sendable (LayerKitDiagnostic) -> Void) -> Observation {
        lock.lock()
        defer { lock.unlock() }
        nextObserverID += 1
        observers[nextObserverID] = handler
        return Observation(id: nextObserverID, owner: self)
    }

    private func removeObserver(_ id: Int) {
        lock.lock()
        observers[id] = nil
        lock.unlock()
    }
}
