import CSDL2
import Foundation

/// SDL's video subsystem, held by each window: started when the first window opens, stopped when the
/// last one goes (SDL counts `SDL_InitSubSystem` calls).
///
/// Input: the environment. Output: a started subsystem, or `LayerWindowError.noDisplay` — without
/// calling SDL when no display variable is set (`DISPLAY`, `WAYLAND_DISPLAY`, or an explicit
/// `SDL_VIDEODRIVER`), so a headless machine fails fast and never grabs a console through KMS/DRM.
/// Closing a window does not quit the application (`SDL_HINT_QUIT_ON_LAST_WINDOW_CLOSE` is 0): the
/// window's close button reaches `onQuit` as a window event, and `SDL_QUIT` (Ctrl-C, SIGTERM) as well.
final class SDLVideo {
    /// Why no display can be opened with this environment, or nil when one may be.
    static func missingDisplayReason(environment: [String: String]) -> String? {
        let names = ["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"]
        if names.contains(where: { !(environment[$0] ?? "").isEmpty }) { return nil }
        return "DISPLAY and WAYLAND_DISPLAY are unset, so SDL cannot open a window (run under a desktop session or "
            + "xvfb-run, or render headless with CARenderer)"
    }

    init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if let reason = Self.missingDisplayReason(environment: environment) {
            throw LayerWindowError.noDisplay(reason)
        }
        SDL_SetHint(SDL_HINT_QUIT_ON_LAST_WINDOW_CLOSE, "0")
        guard SDL_InitSubSystem(SDL_INIT_VIDEO) == 0 else {
            throw LayerWindowError.noDisplay("SDL_Init(SDL_INIT_VIDEO) failed: \(sdlErrorMessage())")
        }
    }

    deinit {
        SDL_QuitSubSystem(SDL_INIT_VIDEO)
    }

    /// The video driver SDL chose ("x11", "wayland").
    var driverName: String {
        SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
    }
}
