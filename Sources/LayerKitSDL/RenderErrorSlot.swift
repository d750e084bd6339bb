import Foundation

/// The render thread's first unreported error, handed to the main thread's loop.
///
/// Sendable (unchecked: an `Error` need not be Sendable): the render thread records and the window's
/// loop takes, both behind `lock`; the render thread never touches an error after recording it, so the
/// hand-over is a transfer. Errors recorded while one waits are dropped: the first one says what went
/// wrong. Checked by `SDLSendableInvariantTests`.
final class RenderErrorSlot: @unchecked Sendable {
    private let lock = NSLock()
    private var error: Error?

    /// Keeps `error` unless an earlier one waits to be taken.
    func record(_ error: Error) {
        lock.lock()
        if self.error == nil { self.error = error }
        lock.unlock()
    }

    /// The waiting error, if any, leaving the slot empty.
    func take() -> Error? {
        lock.lock()
        defer { lock.unlock() }
        let taken = error
        error = nil
        return taken
    }
}
