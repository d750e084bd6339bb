/// Predicts when the frame about to be drawn will be shown, from the times past frames were presented:
/// the frame's `targetTimestamp`, at which its animations are evaluated.
///
/// Input: `presentQueued()` as each frame's present is handed to the swapchain, `presentCompleted(at:)`
/// when it is done (`vkQueuePresentKHR` returned, or the time the driver says the image was shown where
/// it reports one), and `beginFrame(at:)` as a frame starts. Output: the frame's target timestamp, and
/// `presentInterval`, the smoothed interval between presents.
///
/// Rule: the target is the last present's time plus one interval per present still in flight plus one
/// for the frame itself, moved on by whole intervals until it is not in the past (a late frame misses
/// the display's next refresh, not the animation's step). So while presents come at a steady interval
/// the animation steps by exactly that interval. Before the first measured interval, and after the
/// render thread was idle (nothing presented for more than two intervals), the target is `now` plus one
/// interval and the next present starts a new run (the idle gap is not an interval). A target within
/// half an interval of the last frame's target plus one interval is that exactly (frames on the beat:
/// the jitter of when presents complete does not reach the animation; a hitch, a late or an early
/// present by half an interval or more, moves the beat). The interval is the
/// median of the last `intervalWindow` measured intervals: one late present (a hitch) does not move it.
/// Targets never go backwards.
///
/// Time is injected (STYLE.md 14): every method takes its time; tests drive it by hand.
/// Cost: O(`intervalWindow`) per present (a sort of at most that many values), O(1) per frame.
package struct DisplayTimePredictor: Sendable {
    /// How many measured intervals the median is taken over.
    package let intervalWindow: Int
    /// The smoothed interval between presents, in seconds: the nominal one until an interval is measured.
    package private(set) var presentInterval: Double
    /// When the last present completed (the clock of the times passed in); nil before the first.
    package private(set) var lastPresentTime: Double?
    /// Presents handed over and not completed yet.
    package private(set) var presentsInFlight = 0

    /// The last intervals measured, oldest first (at most `intervalWindow`).
    private var recentIntervals: [Double] = []
    /// Whether the next completed present continues a run of frames (its interval from the last one counts).
    private var continuesRun = false
    private var lastTarget: Double?

    /// - Parameters:
    ///   - nominalInterval: the display's refresh period, used until presents have been measured.
    ///   - intervalWindow: how many intervals the median is taken over (at least 1).
    package init(nominalInterval: Double, intervalWindow: Int = 8) {
        precondition(nominalInterval > 0 && nominalInterval.isFinite, "a present interval is positive")
        presentInterval = nominalInterval
        self.intervalWindow = max(intervalWindow, 1)
    }

    /// A frame starts being built at `now`: the time it will be shown (its `targetTimestamp`).
    package mutating func beginFrame(at now: Double) -> Double {
        var target: Double
        if let last = lastPresentTime, presentsInFlight > 0 || now - last <= 2 * presentInterval {
            target = last + presentInterval * Double(1 + presentsInFlight)
            if target < now {
                // Late: shown at the first refresh after now.
                target += (((now - target) / presentInterval).rounded(.up)) * presentInterval
            }
            // On the beat: within half an interval of one interval after the last frame, it is that frame's
            // next refresh; the presents' own jitter does not reach the animation.
            if let lastTarget, abs(target - (lastTarget + presentInterval)) < presentInterval / 2 {
                target = lastTarget + presentInterval
            }
        } else {
            // First frame, or the first after an idle time: no present to count from.
            target = now + presentInterval
            if presentsInFlight == 0 { continuesRun = false }
        }
        if let lastTarget, target < lastTarget { target = lastTarget }
        lastTarget = target
        return target
    }

    /// A frame's present was handed to the swapchain.
    package mutating func presentQueued() {
        presentsInFlight += 1
    }

    /// The oldest present in flight completed at `time`; `shown` false when the swapchain did not show
    /// it (out of date), which ends the run: the next interval would span two presents.
    package mutating func presentCompleted(at time: Double, shown: Bool = true) {
        presentsInFlight = max(presentsInFlight - 1, 0)
        guard shown else {
            continuesRun = false
            return
        }
        if continuesRun, let last = lastPresentTime, time > last {
            recentIntervals.append(time - last)
            if recentIntervals.count > intervalWindow { recentIntervals.removeFirst(recentIntervals.count - intervalWindow) }
            presentInterval = Self.median(recentIntervals)
        }
        lastPresentTime = time
        continuesRun = true
    }

    /// The median of `values` (the mean of the middle two for an even count); `values` is not empty.
    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
