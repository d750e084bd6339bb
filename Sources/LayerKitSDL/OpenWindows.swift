import Foundation

/// The windows still open, so that process exit can stop their rendering first.
///
/// A program's last window usually outlives `run()` (a global in `main.swift` is never deinitialized).
/// If the process exits while a render thread is inside the driver, exit's handlers can destroy the
/// driver's or the validation layer's static state under it (lavapipe and VK_LAYER_KHRONOS_validation
/// crash so). An `atexit` hook stops each open window's render thread and drains its queue. Handlers run
/// in the reverse order of registration and the driver registers destructors for statics it creates
/// lazily while rendering, so the hook is armed again when a window opens and each time an event loop
/// returns (control goes back to the app, which may be about to exit): every time for the first
/// `freeArmings`, then at most once a second, so loops run a frame at a time (tests) do not pile up
/// entries. Windows deregister in `deinit`. Cost: one lock per window open, close and loop return; one
/// `atexit` entry per arming.
///
/// Process-wide by nature: process exit is, and an `atexit` handler can reach only a global. Ownership:
/// the table belongs to no thread; it is behind a lock (`Locked`; hence checked `Sendable`), windows add and
/// remove their own entries from their threads, and the stoppers run outside the lock.
final class OpenWindows: Sendable {
    static let shared = OpenWindows()

    private struct State {
        var stoppers: [ObjectIdentifier: @Sendable () -> Void] = [:]
        var lastArmed: CFTimeInterval?
        var armings = 0
    }

    private let state = Locked(State())
    /// Armings made unconditionally before the once-a-second limit applies.
    static let freeArmings = 32

    /// Remembers how to stop `window`'s rendering at exit.
    func register(_ window: AnyObject, stop: @escaping @Sendable () -> Void) {
        let id = ObjectIdentifier(window)
        state.withLock { $0.stoppers[id] = stop }
        armExitHook()
    }

    func deregister(_ window: AnyObject) {
        let id = ObjectIdentifier(window)
        state.withLock { $0.stoppers[id] = nil }
    }

    /// Registers the exit hook again, so that it runs before whatever was registered until now.
    func armExitHook() {
        let now = CACurrentMediaTime()
        state.withLock { state in
            guard state.armings < Self.freeArmings || state.lastArmed.map({ now - $0 >= 1 }) ?? true else { return }
            state.armings += 1
            state.lastArmed = now
            atexit { OpenWindows.shared.stopAll() }
        }
    }

    /// Stops every registered window's rendering, once: the exit hook.
    func stopAll() {
        let all = state.withLock { state in
            let all = Array(state.stoppers.values)
            state.stoppers.removeAll()
            return all
        }
        for stop in all { stop() }
    }
}
