import CSDL2

/// Why a `LayerWindow` could not be opened or answer. (A missing or unusable Vulkan driver throws the
/// backend's `VulkanError`, whose message names the Debian package to install.)
public enum LayerWindowError: Error, Equatable, CustomStringConvertible {
    /// SDL cannot open a display: `DISPLAY` and `WAYLAND_DISPLAY` are unset, or SDL's video subsystem
    /// failed to start. Hosts fall back to headless rendering (`CARenderer`).
    case noDisplay(String)
    /// SDL opened the display but not the window (or not with Vulkan support).
    case windowCreationFailed(String)
    /// SDL could not create the window's Vulkan surface or list its instance extensions.
    case surfaceCreationFailed(String)
    /// `snapshot()` got no frame in time: the window is minimized, or the render thread is stuck or failed.
    case snapshotUnavailable(String)
    /// `renderFrame()` saw no frame finish in time: the render thread is stuck.
    case frameTimedOut(String)

    public var description: String {
        switch self {
        case let .noDisplay(detail): "no display: \(detail)"
        case let .windowCreationFailed(detail): "cannot create the window: \(detail)"
        case let .surfaceCreationFailed(detail): "cannot create the window's Vulkan surface: \(detail)"
        case let .snapshotUnavailable(detail): "no snapshot: \(detail)"
        case let .frameTimedOut(detail): "no frame: \(detail)"
        }
    }
}

/// SDL's last error message, the one seam where SDL failures become text.
func sdlErrorMessage() -> String {
    guard let message = SDL_GetError() else { return "unknown SDL error" }
    let text = String(cString: message)
    return text.isEmpty ? "unknown SDL error" : text
}
