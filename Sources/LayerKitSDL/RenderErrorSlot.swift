import Foundation
import Synchronization

/// The render thread's first unreported error, handed to the main thread's loop.
///
/// Ownership: the render thread records, the window's loop takes; the slot is behind a `Mutex` (hence
/// checked `Sendable`), and an error recorded is handed over (`sending`), never touched again by the
/// render thread. Errors recorded while one waits are dropped: the first one says what went wrong.
final class RenderErrorSlot: Sendable {
    private let slot = Mutex<(any Error)?>(nil)

    /// Keeps `error` unless an earlier one waits to be taken.
    func record(_ error: sending any Error) {
        slot.withLock { waiting in
            if waiting == nil { waiting = error }
        }
    }

    /// The waiting error, if any, leaving the slot empty.
    func take() -> (any Error)? {
        slot.withLock { waiting in
            let taken = waiting
            waiting = nil
            return taken
        }
    }
}
