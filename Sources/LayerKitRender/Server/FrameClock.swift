import Foundation

/// Paces the render server: tells it when the next frame is due and what time that frame shows.
///
/// Time is injected (STYLE.md 14): the display clock follows the real monotonic clock at a fixed rate;
/// tests drive a `ManualClock` instead of sleeping.
package protocol FrameClock: AnyObject, Sendable {
    /// Blocks until the next frame is due and returns its presentation time (`CACurrentMediaTime()`'s
    /// clock). Returns nil when the clock was stopped.
    func waitForNextFrame() -> Double?
    /// Wakes a waiting `waitForNextFrame()` so the server can stop.
    func stop()
}

/// A display-rate clock: frames at `framesPerSecond` on the monotonic clock, skipping ticks that were
/// missed rather than bunching them up. `waitForTick(after:timeout:)` lets another thread (a window's
/// event loop) follow the frames the clock's thread starts.
/// Sendable (unchecked): `stopped` and `ticks` are touched only under `condition`; `lastTick` only by the
/// thread that takes the ticks.
package final class DisplayClock: FrameClock, @unchecked Sendable {
    package let framesPerSecond: Double
    private let condition = NSCondition()
    private var stopped = false
    private var lastTick: Double?
    /// Ticks handed out so far.
    private var ticks = 0

    package init(framesPerSecond: Double = 60) {
        self.framesPerSecond = framesPerSecond
    }

    package func waitForNextFrame() -> Double? {
        let interval = 1 / framesPerSecond
        let now = CACurrentMediaTime()
        var next = (lastTick ?? now - interval) + interval
        if next < now { next = now }  // missed ticks are dropped
        condition.lock()
        defer { condition.unlock() }
        while !stopped {
            let remaining = next - CACurrentMediaTime()
            if remaining <= 0 { break }
            _ = condition.wait(until: Date(timeIntervalSinceNow: remaining))
        }
        if stopped { return nil }
        lastTick = next
        ticks += 1
        condition.broadcast()
        return next
    }

    package func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until more than `seen` ticks have been handed out, or `timeout` passed, or the clock stopped;
    /// returns how many have been.
    package func waitForTick(after seen: Int, timeout: Double) -> Int {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while ticks <= seen && !stopped {
            if !condition.wait(until: deadline) { break }
        }
        return ticks
    }
}

/// A clock tests advance by hand: each `tick(at:)` releases one frame at the given time.
package final class ManualClock: FrameClock, @unchecked Sendable {
    private let condition = NSCondition()
    private var queued: [Double] = []
    private var stopped = false

    package init() {}

    /// Releases one frame showing time `time`.
    package func tick(at time: Double) {
        condition.lock()
        queued.append(time)
        condition.broadcast()
        condition.unlock()
    }

    /// Ticks released that no frame has taken yet.
    package var queuedTicks: Int {
        condition.lock()
        defer { condition.unlock() }
        return queued.count
    }

    package func waitForNextFrame() -> Double? {
        condition.lock()
        defer { condition.unlock() }
        while queued.isEmpty && !stopped { condition.wait() }
        if stopped { return nil }
        return queued.removeFirst()
    }

    package func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
