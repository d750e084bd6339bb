import Foundation

/// What a swapchain tells the clock pacing its frames. The executor calls `presentQueued()` on the render
/// thread as it hands a frame's present over, and `presentCompleted(at:shown:)` on the thread that
/// presents, once the present is done, with the time (`CACurrentMediaTime()`'s clock) it was done or,
/// where the driver reports it, the time the image was shown.
package protocol PresentObserver: AnyObject, Sendable {
    func presentQueued()
    func presentCompleted(at time: Double, shown: Bool)
}

/// One presented frame: the time its animations were evaluated at and the time its present completed.
package struct PresentedFrame: Equatable, Sendable {
    /// The frame's predicted display time (`DisplayTimePredictor`), its animations' time.
    package var targetTimestamp: Double
    /// When its present completed.
    package var presentedAt: Double
}

/// A frame clock paced by the swapchain: the render thread's next frame starts when the previous frame's
/// present has completed (the present engine took it and a swapchain image is free), not on a timer,
/// and its time is the predicted display time (`DisplayTimePredictor`), so animation time steps by the
/// measured present interval.
///
/// Contract: `waitForNextFrame()` (render thread) waits while a present is in flight; when the last tick
/// led to no present (nothing drawn, a skipped frame: a minimized window) it waits one present interval
/// from that tick instead, so a swapchain that presents nothing never lets the thread spin. With
/// `maximumFramesPerSecond` (as `CADisplayLink.preferredFramesPerSecond`: the window's refresh rate or
/// the app's choice) ticks are also at least its period apart: a display that paces FIFO (every real
/// one) sets the rate below that cap; a window system that does not (Xvfb, whose presents complete as
/// soon as the image is copied) gets the cap instead of a spinning render thread. The observer
/// calls may come from any thread. `waitForPresent(after:timeout:)` lets another thread (the window's
/// event loop) follow the same presents. `presentedFrames` keeps the last `historyLimit` presented frames
/// for measurement (LayerKitBench's pacing figures).
/// Sendable (unchecked): every stored var is touched only under `condition`.
/// Cost per frame: two lock round trips and one wake.
package final class PresentPacedClock: FrameClock, PresentObserver, @unchecked Sendable {
    /// How many presented frames `presentedFrames` keeps.
    package let historyLimit: Int
    /// The shortest time between two ticks (1 / `maximumFramesPerSecond`); 0: no cap.
    package let minimumTickInterval: Double
    private let condition = NSCondition()
    private let now: @Sendable () -> Double
    private var predictor: DisplayTimePredictor
    private var stopped = false
    /// The last tick's time and target, and whether a present was queued since.
    private var lastTick: (time: Double, target: Double)?
    private var presentedSinceTick = false
    /// Targets of the presents in flight, oldest first.
    private var targetsInFlight: [Double] = []
    private var history: [PresentedFrame] = []
    private var presentsCompleted = 0

    /// - Parameters:
    ///   - nominalFramesPerSecond: the display's refresh rate, used until presents are measured.
    ///   - maximumFramesPerSecond: the most ticks a second; nil: as many as the presents allow.
    ///   - now: the clock (`CACurrentMediaTime()` by default; a test's own).
    package init(nominalFramesPerSecond: Double, maximumFramesPerSecond: Double? = nil, historyLimit: Int = 2048,
                 now: @escaping @Sendable () -> Double = { CACurrentMediaTime() }) {
        predictor = DisplayTimePredictor(nominalInterval: 1 / nominalFramesPerSecond)
        minimumTickInterval = maximumFramesPerSecond.map { 1 / $0 } ?? 0
        self.historyLimit = historyLimit
        self.now = now
    }

    /// The measured, smoothed interval between presents (the nominal one before any).
    package var presentInterval: Double {
        condition.lock()
        defer { condition.unlock() }
        return predictor.presentInterval
    }

    /// The last presented frames (at most `historyLimit`), oldest first.
    package var presentedFrames: [PresentedFrame] {
        condition.lock()
        defer { condition.unlock() }
        return history
    }

    package func waitForNextFrame() -> Double? {
        condition.lock()
        defer { condition.unlock() }
        while !stopped {
            if predictor.presentsInFlight > 0 {
                condition.wait()
                continue
            }
            guard let lastTick else { break }
            // The cap; and when the last tick presented nothing, the interval instead of the present.
            let due = lastTick.time + (presentedSinceTick ? minimumTickInterval : max(minimumTickInterval, predictor.presentInterval))
            let remaining = due - now()
            if remaining <= 0 { break }
            _ = condition.wait(until: Date(timeIntervalSinceNow: remaining))
        }
        if stopped { return nil }
        let time = now()
        let target = predictor.beginFrame(at: time)
        lastTick = (time, target)
        presentedSinceTick = false
        return target
    }

    package func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    package func presentQueued() {
        condition.lock()
        predictor.presentQueued()
        presentedSinceTick = true
        targetsInFlight.append(lastTick?.target ?? now())
        condition.unlock()
    }

    package func presentCompleted(at time: Double, shown: Bool) {
        condition.lock()
        predictor.presentCompleted(at: time, shown: shown)
        let target = targetsInFlight.isEmpty ? nil : targetsInFlight.removeFirst()
        if shown, let target {
            history.append(PresentedFrame(targetTimestamp: target, presentedAt: time))
            if history.count > historyLimit { history.removeFirst(history.count - historyLimit) }
        }
        presentsCompleted += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until more than `seen` presents have completed, or `timeout` passed, or the clock stopped.
    /// Returns the count of completed presents and the predicted display time of the next frame to
    /// start (the `targetTimestamp` a display link on another thread hands its callback).
    package func waitForPresent(after seen: Int, timeout: Double) -> (presents: Int, targetTimestamp: Double) {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while presentsCompleted <= seen && !stopped {
            if !condition.wait(until: deadline) { break }
        }
        return (presentsCompleted, nextTargetTimestamp())
    }

    /// The predicted display time of a frame starting now (read-only: no tick is taken). Under `condition`.
    private func nextTargetTimestamp() -> Double {
        let interval = predictor.presentInterval
        let time = now()
        var target = (predictor.lastPresentTime ?? time) + interval
        if target < time { target += ((time - target) / interval).rounded(.up) * interval }
        return target
    }
}
