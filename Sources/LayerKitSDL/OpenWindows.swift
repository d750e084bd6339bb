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
final class OpenWindows: @unchecked Sendable {
    static let shared = OpenWindows()

    private let lock = NSLock()
    private var stoppers: [ObjectIdentifier: () -> Void] = [:]
    private var lastArmed: CFTimeInterval?
    private var armings = 0
    /// Armings made unconditionally before the once-a-second limit applies.
    static let freeArmings = 32

    /// Remembers how to stop `window`'s rendering at exit.
    func register(_ window: AnyObject, stop: @escaping () -> Void) {
        lock.lock()
        stoppers[ObjectIdentifier(window)] = stop
        lock.unlock()
        armExitHook()
    }

    func deregister(_ window: AnyObject) {
        lock.lock()
        stoppers[ObjectIdentifier(window)] = nil
        lock.unlock()
    }

    /// Registers the exit hook again, so that it runs before whatever was registered until now.
    func armExitHook() {
        let now = CACurrentMediaTime()
        lock.lock()
        defer { lock.unlock() }
        guard armings < Self.freeArmings || lastArmed.map({ now - $0 >= 1 }) ?? true else { return }
        armings += 1
        lastArmed = now
        atexit { OpenWindows.shared.stopAll() }
    }

    private func stopAll() {
        lock.lock()
        let all = Array(stoppers.values)
        stoppers.removeAll()
        lock.unlock()
        for stop in all { stop() }
    }
}
