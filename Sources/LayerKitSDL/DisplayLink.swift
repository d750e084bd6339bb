import CSDL2
import Foundation
import LayerKitRender

/// Paces a window's event loop on the main thread at the display's refresh rate, as a `CADisplayLink`
/// paces a run loop: `waitForNextFrame()` sleeps until the next tick and returns its timestamp
/// (`CACurrentMediaTime()`'s clock), the value `LayerWindow.onFrame` receives.
///
/// Ticks follow a `DisplayClock` (STYLE.md 14): missed ticks are dropped, never bunched up, so a slow
/// iteration delays the next one by at most one period. The render thread has its own clock at the same
/// rate; the two are not phase-locked (the render thread never waits for the main thread).
/// Cost: one timed wait per iteration.
final class DisplayLink {
    /// Used when SDL does not know the display's rate (virtual displays, some drivers).
    static let fallbackFramesPerSecond: Double = 60

    let framesPerSecond: Double
    private let clock: DisplayClock

    init(framesPerSecond: Double) {
        self.framesPerSecond = framesPerSecond
        clock = DisplayClock(framesPerSecond: framesPerSecond)
    }

    /// Sleeps until the next tick and returns its time.
    func waitForNextFrame() -> CFTimeInterval {
        clock.waitForNextFrame() ?? CACurrentMediaTime()
    }

    /// The refresh rate of the display showing `window` (`SDL_GetCurrentDisplayMode`), or 60 Hz.
    static func refreshRate(of window: OpaquePointer) -> Double {
        let display = SDL_GetWindowDisplayIndex(window)
        var mode = SDL_DisplayMode()
        guard display >= 0, SDL_GetCurrentDisplayMode(display, &mode) == 0, mode.refresh_rate > 0 else {
            return fallbackFramesPerSecond
        }
        return Double(mode.refresh_rate)
    }
}
