import Foundation

/// Groups layer-tree changes into atomic updates for the render server: Core Animation's `CATransaction`.
///
/// Every property change belongs to a transaction. Without an explicit `begin()`, changes go into the
/// implicit transaction, which the host (`CARenderer` at each frame, `LayerWindow` once per event-loop
/// iteration) commits by calling `flush()`. Explicit transactions nest; only the outermost `commit()`
/// sends the changes.
public final class CATransaction {
    private init() {}

    /// Begins an explicit transaction (they nest).
    public static func begin() {
        TransactionContext.shared.begin()
    }

    /// Ends the innermost explicit transaction; the outermost one sends its changes to the render server.
    public static func commit() {
        TransactionContext.shared.commit()
    }

    /// Commits the implicit transaction now, unless an explicit transaction is open (then its outermost
    /// `commit()` will).
    public static func flush() {
        TransactionContext.shared.flush()
    }
}

/// Transaction nesting on the model thread, and the commit itself.
package final class TransactionContext: @unchecked Sendable {
    package static let shared = TransactionContext()

    private let lock = NSLock()
    private var depth = 0

    func begin() {
        lock.lock()
        depth += 1
        lock.unlock()
    }

    func commit() {
        lock.lock()
        depth = max(0, depth - 1)
        let outermost = depth == 0
        lock.unlock()
        if outermost { send() }
    }

    func flush() {
        lock.lock()
        let open = depth > 0
        lock.unlock()
        if !open { send() }
    }

    private func send() {
        let packet = CommitPacket.collect()
        guard !packet.isEmpty else { return }
        CommitDistributor.shared.distribute(packet)
    }
}
