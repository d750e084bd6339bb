import CSDL2
import Foundation
import LayerKitRender

/// Paces a window's event loop on the main thread, as a `CADisplayLink` paces a run loop:
/// `waitForNextFrame()` sleeps until the next tick and returns the time the next frame will be shown
/// (`targetTimestamp`), the value `LayerWindow.onFrame` receives.
///
/// Two sources of ticks. Under FIFO the loop follows the window's presents (`follow(_:)`): a tick comes
/// as a present completes — the moment the render thread starts its next frame — so the loop reads input
/// and commits once per presented frame, as late as the render thread's clock allows without the render
/// thread ever waiting for the main thread; with no present for half a period more (nothing animating) it
/// ticks anyway; ticks are at least one period (1 / `framesPerSecond`) apart. Otherwise, ticks follow a `DisplayClock` at `framesPerSecond` (STYLE.md 14): missed
/// ticks are dropped, never bunched up; the render thread has its own clock at the same rate, not
/// phase-locked with this one.
/// Threads: the window's (main) thread only. Cost: one timed wait per iteration.
final class DisplayLink {
    /// Used when SDL does not know the display's rate (virtual displays, some drivers).
    static let fallbackFramesPerSecond: Double = 60

    let framesPerSecond: Double
    private let clock: DisplayClock
    /// The presents followed, and how many of them the last tick had seen.
    private var presents: PresentPacedClock?
    private var presentsSeen = 0

    init(framesPerSecond: Double) {
        self.framesPerSecond = framesPerSecond
        clock = DisplayClock(framesPerSecond: framesPerSecond)
    }

    /// Ticks with `clock`'s presents from now on (a window's new rendering); nil: on the timer.
    func follow(_ clock: PresentPacedClock?) {
        presents = clock
        presentsSeen = 0
        lastTick = nil
    }

    /// Sleeps until the next tick and returns the time the next frame will be shown (always later than
    /// the last tick's).
    func waitForNextFrame() -> CFTimeInterval {
        guard let presents else { return clock.waitForNextFrame() ?? CACurrentMediaTime() }
        let period = 1 / framesPerSecond
        // At most `framesPerSecond` ticks a second, as the render thread's clock: the next present after
        // the earliest time, or half a period after it without one (an idle window's loop ticks at two
        // thirds of the rate).
        let earliest = (lastTick?.time ?? 0) + period
        let early = earliest - CACurrentMediaTime()
        if early > 0 { Thread.sleep(forTimeInterval: early) }
        var (seen, target) = presents.waitForPresent(after: presentsSeen, timeout: period / 2)
        presentsSeen = seen
        if let last = lastTick?.target, target <= last { target = last + presents.presentInterval }
        lastTick = (CACurrentMediaTime(), target)
        return target
    }

    /// When the last tick came and the time it handed out.
    private var lastTick: (time: CFTimeInterval, target: CFTimeInterval)?

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
