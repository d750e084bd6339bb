import CSDL2
import Foundation
import LayerKitRender

/// Paces a window's event loop on the main thread, as a `CADisplayLink` paces a run loop:
/// `waitForNextFrame()` sleeps until the next tick and returns the time the next frame will be shown
/// (`targetTimestamp`), the value `LayerWindow.onFrame` receives.
///
/// Ticks follow the window's frames (`follow(_:)`), one per frame, as a display link's callbacks do.
/// Under FIFO the loop follows the window's presents: a tick comes as a present completes — the moment
/// the render thread starts its next frame — so the loop reads input and commits once per presented
/// frame, as late as the render thread's clock allows without the render thread ever waiting for the main
/// thread; with no present for half a period more (nothing animating) it ticks anyway; ticks are at least
/// one period (1 / `framesPerSecond`) apart. Under the other present modes the render thread runs on its
/// own `DisplayClock` at `framesPerSecond`, and the loop ticks as that clock starts a frame, so that
/// what a tick commits goes into the frame after the one being drawn, as under FIFO; with no frame
/// started for half a display refresh (a frame slower than that) it ticks anyway. Either way ticks also
/// follow a `DisplayClock` of the loop's own at `framesPerSecond` (STYLE.md 14): missed ticks are
/// dropped, never bunched up. (On that clock alone, a benchmark's 1,000 Hz loop ticked some 25 times per
/// frame of a slow scene, 1.0–1.4 ms of CPU a frame on the cores the frame's rasterizer needed.)
/// Threads: the window's (main) thread only. Cost: one or two timed waits per iteration.
final class DisplayLink {
    /// Used when SDL does not know the display's rate (virtual displays, some drivers).
    static let fallbackFramesPerSecond: Double = 60

    /// What the loop's ticks follow.
    enum Frames {
        /// The presents of a FIFO swapchain, which pace the render thread.
        case presents(PresentPacedClock)
        /// The frames the render thread's own clock starts.
        case rendered(DisplayClock)

        /// The clock that paces the render thread.
        var renderClock: FrameClock {
            switch self {
            case .presents(let clock): clock
            case .rendered(let clock): clock
            }
        }
    }

    let framesPerSecond: Double
    /// The longest a tick waits for a frame of the render thread's clock: half a display refresh.
    private let renderedFrameTimeout: Double
    private let clock: DisplayClock
    /// The frames followed, and how many of them the last tick had seen.
    private var frames: Frames?
    private var framesSeen = 0

    init(framesPerSecond: Double, displayRefreshRate: Double) {
        self.framesPerSecond = framesPerSecond
        renderedFrameTimeout = 0.5 / min(framesPerSecond, displayRefreshRate)
        clock = DisplayClock(framesPerSecond: framesPerSecond)
    }

    /// Ticks with `frames` from now on (a window's new rendering); nil: on the timer alone.
    func follow(_ frames: Frames?) {
        self.frames = frames
        framesSeen = 0
        lastTick = nil
    }

    /// Sleeps until the next tick and returns the time the next frame will be shown (always later than
    /// the last tick's).
    func waitForNextFrame() -> CFTimeInterval {
        switch frames {
        case nil:
            return clock.waitForNextFrame() ?? CACurrentMediaTime()
        case .rendered(let rendered):
            framesSeen = rendered.waitForTick(after: framesSeen, timeout: renderedFrameTimeout)
            return clock.waitForNextFrame() ?? CACurrentMediaTime()
        case .presents(let presents):
            return waitForNextPresent(of: presents)
        }
    }

    /// The tick of a loop following `presents`: see the type's contract.
    private func waitForNextPresent(of presents: PresentPacedClock) -> CFTimeInterval {
        let period = 1 / framesPerSecond
        // At most `framesPerSecond` ticks a second, as the render thread's clock: the next present after
        // the earliest time, or half a period after it without one (an idle window's loop ticks at two
        // thirds of the rate).
        let earliest = (lastTick?.time ?? 0) + period
        let early = earliest - CACurrentMediaTime()
        if early > 0 { Thread.sleep(forTimeInterval: early) }
        var (seen, target) = presents.waitForPresent(after: framesSeen, timeout: period / 2)
        framesSeen = seen
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
