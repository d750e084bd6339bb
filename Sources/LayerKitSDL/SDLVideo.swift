import CSDL2
import Foundation

/// SDL's video subsystem: started by the first window, then kept until the process exits.
///
/// Input: the environment. Output: a started subsystem on a real display, or
/// `LayerWindowError.noDisplay` — without calling SDL when no display variable is set (`DISPLAY`,
/// `WAYLAND_DISPLAY`, or an explicit `SDL_VIDEODRIVER`), so a headless machine fails fast and never grabs
/// a console through KMS/DRM; and when SDL could only start its `offscreen` or `dummy` driver (which
/// cannot show a Vulkan window) without being asked to.
/// Kept running because restarting it is unreliable: SDL 2.26 unloads and reloads Xlib on every
/// restart, and a window opened right after the last one closed then fails one time in ten or so with
/// "x11 not available". Closing a window does not quit the application
/// (`SDL_HINT_QUIT_ON_LAST_WINDOW_CLOSE` is 0): the close button reaches `onQuit` as a window event, and
/// `SDL_QUIT` (Ctrl-C, SIGTERM) as well. Cost: once per process.
///
/// Process-wide by nature: SDL's video subsystem is global to the process (one `SDL_InitSubSystem` for
/// every window). Ownership: whether it started is behind a lock (`Locked`; hence checked `Sendable`), held
/// across the start, so concurrent first windows start it exactly once.
final class SDLVideo: Sendable {
    static let shared = SDLVideo()

    private let started = Locked(false)

    /// Why no display can be opened with this environment, or nil when one may be.
    static func missingDisplayReason(environment: [String: String]) -> String? {
        let names = ["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"]
        if names.contains(where: { !(environment[$0] ?? "").isEmpty }) { return nil }
        return "DISPLAY and WAYLAND_DISPLAY are unset, so SDL cannot open a window (run under a desktop session or "
            + "xvfb-run, or render headless with CARenderer)"
    }

    /// Starts the subsystem unless it runs already.
    func start(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if let reason = Self.missingDisplayReason(environment: environment) {
            throw LayerWindowError.noDisplay(reason)
        }
        try started.withLock { started in
            guard !started else { return }
            try Self.startSubsystem(environment: environment)
            started = true
        }
    }

    /// Initializes SDL's video subsystem; called once, under the lock.
    private static func startSubsystem(environment: [String: String]) throws {
        SDL_SetHint(SDL_HINT_QUIT_ON_LAST_WINDOW_CLOSE, "0")
        guard SDL_InitSubSystem(SDL_INIT_VIDEO) == 0 else {
            throw LayerWindowError.noDisplay("SDL_Init(SDL_INIT_VIDEO) failed: \(sdlErrorMessage())")
        }
        let driver = currentDriverName
        if ["offscreen", "dummy"].contains(driver), (environment["SDL_VIDEODRIVER"] ?? "").isEmpty {
            SDL_QuitSubSystem(SDL_INIT_VIDEO)
            throw LayerWindowError.noDisplay(
                "SDL could open no display (DISPLAY=\(environment["DISPLAY"] ?? "") WAYLAND_DISPLAY=\(environment["WAYLAND_DISPLAY"] ?? "")) "
                    + "and fell back to its \(driver) driver, which cannot show a Vulkan window")
        }
    }

    /// The video driver SDL chose ("x11", "wayland").
    var driverName: String { Self.currentDriverName }

    private static var currentDriverName: String {
        SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
    }
}
