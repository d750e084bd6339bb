import XCTest
@testable import LayerKitRender

/// The predicted display time of a frame, driven by hand. Times are sums of powers of two (the interval
/// is 1/128 s, the nominal one 1/64 s), so every expected value below is exact in binary and compared
/// with `==`.
final class DisplayTimePredictorTests: XCTestCase {
    private let nominal = 1.0 / 64
    private let interval = 1.0 / 128

    /// A predictor that has seen presents at 2 + k/128 for k = 0…`count - 1`, one frame each.
    private func steady(presents count: Int) -> DisplayTimePredictor {
        var predictor = DisplayTimePredictor(nominalInterval: nominal)
        for k in 0..<count {
            let time = 2 + Double(k) * interval
            _ = predictor.beginFrame(at: time - interval)
            predictor.presentQueued()
            predictor.presentCompleted(at: time)
        }
        return predictor
    }

    func testBeforeAnyPresentAFrameIsShownOneNominalIntervalFromNow() {
        var predictor = DisplayTimePredictor(nominalInterval: nominal)
        XCTAssertEqual(predictor.beginFrame(at: 10), 10 + 1.0 / 64)
        XCTAssertEqual(predictor.presentInterval, nominal)
    }

    func testTheIntervalIsMeasuredBetweenPresentsOfARun() {
        let predictor = steady(presents: 3)
        XCTAssertEqual(predictor.presentInterval, interval, "the two intervals between three presents")
        XCTAssertEqual(predictor.lastPresentTime, 2 + 2.0 / 128)
    }

    func testAtASteadyPresentRateAnimationTimeStepsByThePresentInterval() {
        var predictor = steady(presents: 4)
        // Each frame starts as the last present completes and is shown one interval later.
        var targets: [Double] = []
        for k in 4..<12 {
            let presented = 2 + Double(k - 1) * interval
            targets.append(predictor.beginFrame(at: presented))
            predictor.presentQueued()
            predictor.presentCompleted(at: presented + interval)
        }
        XCTAssertEqual(targets.first, 2 + 4.0 / 128, "the last present (2 + 3/128) plus one interval")
        let steps = zip(targets.dropFirst(), targets).map { $0 - $1 }
        XCTAssertEqual(steps, Array(repeating: 1.0 / 128, count: 7))
    }

    func testPresentsThatJitterLessThanHalfAnIntervalLeaveTheAnimationOnTheBeat() {
        var predictor = steady(presents: 8)  // last present at 2 + 7/128
        // Three presents off the 1/128 grid by +1/1024, −1/1024 and +2/1024 (the median interval stays
        // 1/128: five of the eight intervals are exactly that): each frame still steps by 1/128.
        var targets = [predictor.beginFrame(at: 2 + 7.0 / 128)]
        let jittered: [(k: Double, jitter: Double)] = [(8, 1.0 / 1024), (9, -1.0 / 1024), (10, 2.0 / 1024)]
        for (k, jitter) in jittered {
            let presented: Double = 2 + k / 128 + jitter
            predictor.presentQueued()
            predictor.presentCompleted(at: presented)
            targets.append(predictor.beginFrame(at: presented))
        }
        XCTAssertEqual(predictor.presentInterval, interval)
        let expected: [Double] = [264.0 / 128, 265.0 / 128, 266.0 / 128, 267.0 / 128]  // 2 + 8/128 … 2 + 11/128
        XCTAssertEqual(targets, expected)
    }

    func testEachPresentInFlightPutsTheFrameOneIntervalLater() {
        var predictor = steady(presents: 3)  // last present at 2 + 2/128
        predictor.presentQueued()
        predictor.presentQueued()
        XCTAssertEqual(predictor.presentsInFlight, 2)
        XCTAssertEqual(predictor.beginFrame(at: 2 + 2.0 / 128), 2 + 5.0 / 128, "2 + 2/128 + (1 + 2) · 1/128")
    }

    func testAFrameStartedLateIsShownAtTheFirstRefreshAfterNow() {
        var predictor = steady(presents: 3)  // last present at 2 + 2/128
        // Woken 1.5 intervals after the present: the next refresh (2 + 3/128) has passed; 2 + 4/128 is next.
        XCTAssertEqual(predictor.beginFrame(at: 2 + 3.5 / 128), 2 + 4.0 / 128)
    }

    func testOneLatePresentDoesNotMoveTheInterval() {
        var predictor = steady(presents: 8)  // seven intervals of 1/128
        _ = predictor.beginFrame(at: 2 + 7.0 / 128)
        predictor.presentQueued()
        predictor.presentCompleted(at: 2 + 10.0 / 128)  // three intervals late (a hitch)
        XCTAssertEqual(predictor.presentInterval, interval, "the median of seven 1/128 and one 3/128")
        // The animation follows the late present: the next frame is shown one interval after it.
        XCTAssertEqual(predictor.beginFrame(at: 2 + 10.0 / 128), 2 + 11.0 / 128)
    }

    func testTheIntervalFollowsARateThatChanges() {
        // Window of 4: after presents every 1/64 s the median is 1/64 once three of four intervals are.
        var predictor = DisplayTimePredictor(nominalInterval: interval, intervalWindow: 4)
        var time = 2.0
        for _ in 0..<5 {
            predictor.presentQueued()
            predictor.presentCompleted(at: time)
            time += interval
        }
        XCTAssertEqual(predictor.presentInterval, interval)
        time += interval  // the first interval of 2/128 s after the last present
        for expected in [interval, 1.5 * interval, 2 * interval] {
            predictor.presentQueued()
            predictor.presentCompleted(at: time)
            time += 2 * interval
            XCTAssertEqual(predictor.presentInterval, expected)
        }
    }

    func testAfterAnIdleTimeTheGapIsNotAnIntervalAndTheFrameIsShownOneIntervalFromNow() {
        var predictor = steady(presents: 3)  // last present at 2 + 2/128, interval 1/128
        XCTAssertEqual(predictor.beginFrame(at: 3), 3 + 1.0 / 128, "idle for a second: one interval from now")
        predictor.presentQueued()
        predictor.presentCompleted(at: 3 + 1.0 / 128)
        XCTAssertEqual(predictor.presentInterval, interval, "the second-long gap was not measured")
        XCTAssertEqual(predictor.beginFrame(at: 3 + 1.0 / 128), 3 + 2.0 / 128)
    }

    func testAPresentTheSwapchainDidNotShowEndsTheRun() {
        var predictor = steady(presents: 3)
        predictor.presentQueued()
        predictor.presentCompleted(at: 2 + 3.0 / 128, shown: false)
        XCTAssertEqual(predictor.presentsInFlight, 0)
        XCTAssertEqual(predictor.lastPresentTime, 2 + 2.0 / 128, "an image not shown is no present time")
        predictor.presentQueued()
        predictor.presentCompleted(at: 2 + 6.0 / 128)
        XCTAssertEqual(predictor.presentInterval, interval, "the 4/128 s across the unshown present was not measured")
    }

    func testTargetsNeverGoBackwards() {
        var predictor = DisplayTimePredictor(nominalInterval: nominal)
        XCTAssertEqual(predictor.beginFrame(at: 1), 1 + 1.0 / 64)
        predictor.presentQueued()
        predictor.presentCompleted(at: 1 - 1.0 / 128)  // a present time before the last target's reckoning
        XCTAssertEqual(predictor.beginFrame(at: 1), 1 + 1.0 / 64, "last present + 1/64 would be earlier")
    }
}
