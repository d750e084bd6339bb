import Foundation
import XCTest
@testable import LayerKit

/// The timing model: parent time → active local time → progress within an iteration, with repeats,
/// autoreverse, fill modes, speed, timeOffset and hierarchical chains.
///
/// Conventions used in the worked numbers: elapsed = (t − beginTime) × |speed|; the active local time is
/// elapsed + timeOffset (measured back from the end of the active duration for a negative speed),
/// wrapped into the active duration when timeOffset pushes it out; a cycle is `duration`, or
/// 2 × `duration` with autoreverses; progress is the fraction through the cycle, folded back on the
/// backward half.
final class MediaTimingTests: XCTestCase {
    private func assertTiming(_ timing: MediaTimingParameters, at t: Double, _ phase: TimingResult.Phase,
                              _ progress: Double?, iteration: Int? = nil,
                              file: StaticString = #filePath, line: UInt = #line) {
        let result = timing.evaluate(parentTime: t)
        XCTAssertEqual(result.phase, phase, "phase at t = \(t)", file: file, line: line)
        switch (result.progress, progress) {
        case let (actual?, expected?):
            XCTAssertEqual(actual, expected, accuracy: 1e-9, "progress at t = \(t)", file: file, line: line)
        case (nil, nil):
            break
        default:
            XCTFail("progress at t = \(t): got \(String(describing: result.progress)), expected \(String(describing: progress))",
                    file: file, line: line)
        }
        if let iteration {
            XCTAssertEqual(result.iteration, iteration, "iteration at t = \(t)", file: file, line: line)
        }
        XCTAssertEqual(result.isFinished, phase == .after, "isFinished at t = \(t)", file: file, line: line)
    }

    // MARK: - One iteration

    func testSingleIterationRunsFromBeginTimeForOneDuration() {
        let timing = MediaTimingParameters(duration: 2)
        assertTiming(timing, at: -1, .before, nil)          // before beginTime 0, no fill
        assertTiming(timing, at: 0, .active, 0)             // 0 / 2
        assertTiming(timing, at: 0.5, .active, 0.25)        // 0.5 / 2
        assertTiming(timing, at: 1.5, .active, 0.75)        // 1.5 / 2
        assertTiming(timing, at: 2, .after, nil)            // the end is excluded: finished, removed
        assertTiming(timing, at: 7, .after, nil)
        XCTAssertEqual(timing.activeDuration, 2)
        XCTAssertEqual(timing.activeEndTime, 2)
    }

    func testDefaultsAreCoreAnimations() {
        let timing = MediaTimingParameters()
        XCTAssertEqual(timing.beginTime, 0)
        XCTAssertEqual(timing.timeOffset, 0)
        XCTAssertEqual(timing.speed, 1)
        XCTAssertEqual(timing.repeatCount, 0)
        XCTAssertEqual(timing.repeatDuration, 0)
        XCTAssertFalse(timing.autoreverses)
        XCTAssertEqual(timing.duration, 0)
        XCTAssertEqual(timing.fillMode, .removed)
    }

    /// Cycles are counted down to whole ones on either side of zero and far from it: played backwards
    /// forever, local time runs below zero (−0.5 s into 2 s cycles is a quarter before the start of
    /// cycle 0: cycle −1, three quarters through); whole cycle counts start their cycle; counts past 2^52
    /// (every double there is whole) are their own cycle.
    func testCyclesAreCountedDownOnEitherSideOfZero() {
        let backwards = MediaTimingParameters(speed: -1, repeatCount: .infinity, duration: 2)
        assertTiming(backwards, at: 0, .active, 0, iteration: 0)
        assertTiming(backwards, at: 0.5, .active, 0.75, iteration: -1)     // active −0.5: cycles −0.25
        assertTiming(backwards, at: 4, .active, 0, iteration: -2)          // active −4: cycles −2 exactly
        assertTiming(backwards, at: 5.5, .active, 0.25, iteration: -3)     // active −5.5: cycles −2.75
        let forwards = MediaTimingParameters(repeatCount: .infinity, duration: 2)
        assertTiming(forwards, at: 1e9, .active, 0, iteration: 500_000_000)
        assertTiming(forwards, at: 1e9 + 0.5, .active, 0.25, iteration: 500_000_000)
        let far = MediaTimingParameters(repeatCount: .infinity, duration: 1)
        assertTiming(far, at: 0x1p53, .active, 0, iteration: 1 << 53)
    }

    /// The render thread evaluates timings where they lie; a copy of one must move whole words (see the
    /// type's `flags`), and the flags must still read back as set.
    func testParametersAreWholeWordsAndKeepTheirFlags() {
        XCTAssertEqual(MemoryLayout<MediaTimingParameters>.size, 56)
        var timing = MediaTimingParameters(autoreverses: true, duration: 1, fillMode: .backwards)
        XCTAssertEqual([timing.autoreverses, timing.fillsBackwards, timing.fillsForwards], [true, true, false])
        timing.fillMode = .forwards
        timing.autoreverses = false
        XCTAssertEqual([timing.autoreverses, timing.fillsBackwards, timing.fillsForwards], [false, false, true])
        XCTAssertEqual(timing.fillMode, .forwards)
        XCTAssertNotEqual(timing, MediaTimingParameters(duration: 1, fillMode: .both))
    }

    // MARK: - Repeat and autoreverse

    func testWholeRepeatCountRestartsEachIteration() {
        let timing = MediaTimingParameters(repeatCount: 3, duration: 1)
        XCTAssertEqual(timing.activeDuration, 3)            // 3 × 1
        assertTiming(timing, at: 0.25, .active, 0.25, iteration: 0)
        assertTiming(timing, at: 1.25, .active, 0.25, iteration: 1)   // 1.25 = 1 cycle + 0.25
        assertTiming(timing, at: 2.75, .active, 0.75, iteration: 2)   // 2 cycles + 0.75
        assertTiming(timing, at: 3, .after, nil, iteration: 2)
    }

    func testAutoreversePlaysBackwardAfterForward() {
        let timing = MediaTimingParameters(autoreverses: true, duration: 1, fillMode: .forwards)
        XCTAssertEqual(timing.activeDuration, 2)            // forward 1 + backward 1
        assertTiming(timing, at: 0.25, .active, 0.25)       // forward pass
        assertTiming(timing, at: 1, .active, 1)             // the turn: 2 × 0.5 of the cycle = 1
        assertTiming(timing, at: 1.25, .active, 0.75)       // 0.25 into the backward pass: 1 − 0.25
        assertTiming(timing, at: 1.9, .active, 0.1)         // 1 − 0.9
        assertTiming(timing, at: 2, .after, 0)              // back at the start
    }

    func testAutoreverseWithRepeatCountCountsForwardPlusBackwardAsOneRepeat() {
        let timing = MediaTimingParameters(repeatCount: 2, autoreverses: true, duration: 1, fillMode: .forwards)
        XCTAssertEqual(timing.activeDuration, 4)            // 2 × (1 + 1)
        assertTiming(timing, at: 2.5, .active, 0.5, iteration: 1)     // 0.5 into the second cycle (forward)
        assertTiming(timing, at: 3.25, .active, 0.75, iteration: 1)   // 1.25 into the cycle: 1 − 0.25
        assertTiming(timing, at: 4, .after, 0, iteration: 1)          // whole repeatCount + autoreverse ends at 0
        assertTiming(timing, at: 9, .after, 0, iteration: 1)
    }

    func testFractionalRepeatCountEndsPartWayThroughTheLastIteration() {
        let timing = MediaTimingParameters(repeatCount: 2.5, duration: 1, fillMode: .forwards)
        XCTAssertEqual(timing.activeDuration, 2.5)          // 2.5 × 1
        assertTiming(timing, at: 2.25, .active, 0.25, iteration: 2)
        assertTiming(timing, at: 2.5, .after, 0.5, iteration: 2)      // held at 2.5 − 2
        assertTiming(timing, at: 10, .after, 0.5, iteration: 2)
    }

    func testFractionalRepeatCountWithAutoreverseEndsAtTheTurn() {
        let timing = MediaTimingParameters(repeatCount: 2.5, autoreverses: true, duration: 1, fillMode: .forwards)
        XCTAssertEqual(timing.activeDuration, 5)            // 2.5 × 2
        assertTiming(timing, at: 4.5, .active, 0.5, iteration: 2)     // 0.5 into the third cycle
        assertTiming(timing, at: 5, .after, 1, iteration: 2)          // half of a cycle: the forward pass done
    }

    func testRepeatCountBelowOnePlaysPartOfOneIteration() {
        let timing = MediaTimingParameters(repeatCount: 0.5, duration: 2, fillMode: .forwards)
        XCTAssertEqual(timing.activeDuration, 1)            // 0.5 × 2
        assertTiming(timing, at: 0.5, .active, 0.25)
        assertTiming(timing, at: 1, .after, 0.5)
    }

    func testInfiniteRepeatCountNeverFinishes() {
        for count in [Double.infinity, Double(Float.greatestFiniteMagnitude), Double(Float.infinity)] {
            let timing = MediaTimingParameters(repeatCount: count, duration: 1)
            XCTAssertEqual(timing.activeDuration, .infinity)
            XCTAssertEqual(timing.activeEndTime, .infinity)
            assertTiming(timing, at: 1000.25, .active, 0.25, iteration: 1000)
            assertTiming(timing, at: 1_000_000.5, .active, 0.5, iteration: 1_000_000)
        }
    }

    func testInfiniteRepeatWithAutoreverseKeepsBouncing() {
        let timing = MediaTimingParameters(repeatCount: .infinity, autoreverses: true, duration: 0.5)
        // cycle 1 s; t = 100.75 → 0.75 into cycle 100 → 0.25 into the backward pass → 1 − 0.5
        assertTiming(timing, at: 100.75, .active, 0.5, iteration: 100)
    }

    /// An iteration index past Int's range reads as the nearer end of it; within the range it is the
    /// cycle count rounded down, up to the largest whole double below 2^63.
    func testIterationIndicesPastIntsRangeSaturate() {
        // 1 s of 2^-70 s cycles: 2^70 cycles, past Int.max (2^63 − 1).
        let tiny = MediaTimingParameters(repeatCount: .infinity, duration: 0x1p-70)
        XCTAssertEqual(tiny.evaluate(parentTime: 1).iteration, Int.max)
        // Played backwards from no end, the same count below zero: −2^70, past Int.min (−2^63).
        let backwards = MediaTimingParameters(speed: -1, repeatCount: .infinity, duration: 0x1p-70)
        XCTAssertEqual(backwards.evaluate(parentTime: 1).iteration, Int.min)
        // Exactly 2^63 cycles is one past Int.max: saturates too; 2^62 cycles is an index as it is.
        XCTAssertEqual(MediaTimingParameters(repeatCount: .infinity, duration: 0x1p-63).evaluate(parentTime: 1).iteration, Int.max)
        XCTAssertEqual(MediaTimingParameters(repeatCount: .infinity, duration: 0x1p-62).evaluate(parentTime: 1).iteration, 1 << 62)
    }

    func testRepeatDurationIsTheWholeActiveDuration() {
        let timing = MediaTimingParameters(repeatDuration: 2.5, duration: 1, fillMode: .forwards)
        XCTAssertEqual(timing.activeDuration, 2.5)
        XCTAssertEqual(timing.iterationCount, 2.5)          // 2.5 / 1
        assertTiming(timing, at: 2.25, .active, 0.25, iteration: 2)
        assertTiming(timing, at: 2.5, .after, 0.5, iteration: 2)
    }

    func testRepeatDurationIsNotDoubledByAutoreverse() {
        let timing = MediaTimingParameters(repeatDuration: 3, autoreverses: true, duration: 1, fillMode: .forwards)
        XCTAssertEqual(timing.activeDuration, 3)
        XCTAssertEqual(timing.iterationCount, 1.5)          // 3 / (2 × 1)
        assertTiming(timing, at: 2.5, .active, 0.5, iteration: 1)     // 0.5 into the second cycle
        assertTiming(timing, at: 3, .after, 1, iteration: 1)          // 1.5 cycles: ends at the turn
    }

    func testInfiniteRepeatDurationNeverFinishes() {
        let timing = MediaTimingParameters(repeatDuration: .infinity, duration: 2)
        XCTAssertEqual(timing.activeDuration, .infinity)
        assertTiming(timing, at: 51, .active, 0.5, iteration: 25)     // 51 = 25 × 2 + 1
    }

    func testRepeatCountAndRepeatDurationTogetherTakeTheShorter() {
        // Apple leaves this undefined; SMIL's rule: the active duration is the minimum of the two.
        let countShorter = MediaTimingParameters(repeatCount: 1.5, repeatDuration: 4, duration: 1)
        XCTAssertEqual(countShorter.activeDuration, 1.5)    // min(1.5 × 1, 4)
        let durationShorter = MediaTimingParameters(repeatCount: 3, repeatDuration: 2, duration: 1)
        XCTAssertEqual(durationShorter.activeDuration, 2)   // min(3 × 1, 2)
        XCTAssertEqual(durationShorter.iterationCount, 2)
        let autoreversing = MediaTimingParameters(repeatCount: 2, repeatDuration: 3, autoreverses: true, duration: 1)
        XCTAssertEqual(autoreversing.activeDuration, 3)     // min(2 × 2, 3)
    }

    func testNegativeRepeatValuesAreIgnored() {
        let timing = MediaTimingParameters(repeatCount: -2, repeatDuration: -1, duration: 1.5)
        XCTAssertEqual(timing.activeDuration, 1.5)          // one iteration
    }

    func testActiveDurationWorkedExamples() {
        // duration × repeatCount × (2 with autoreverses)
        XCTAssertEqual(MediaTimingParameters(repeatCount: 2, autoreverses: true, duration: 1.5).activeDuration, 6)
        XCTAssertEqual(MediaTimingParameters(repeatCount: 4, duration: 0.25).activeDuration, 1)
        XCTAssertEqual(MediaTimingParameters(autoreverses: true, duration: 0.75).activeDuration, 1.5)
        XCTAssertEqual(MediaTimingParameters(repeatDuration: 0.7, autoreverses: true, duration: 1).activeDuration, 0.7)
        XCTAssertEqual(MediaTimingParameters(duration: 0).activeDuration, 0)
        XCTAssertEqual(MediaTimingParameters(repeatCount: .infinity, duration: 0).activeDuration, 0)
    }

    // MARK: - Fill modes

    /// begin 1, duration 2: before at t = 0, halfway at t = 2, after at t = 4.
    private func fillTiming(_ mode: CAMediaTimingFillMode) -> MediaTimingParameters {
        MediaTimingParameters(beginTime: 1, duration: 2, fillMode: mode)
    }

    func testRemovedFillShowsNothingOutsideTheActiveDuration() {
        let timing = fillTiming(.removed)
        assertTiming(timing, at: 0, .before, nil)
        assertTiming(timing, at: 2, .active, 0.5)           // (2 − 1) / 2
        assertTiming(timing, at: 4, .after, nil)
    }

    func testForwardsFillHoldsTheEndOnly() {
        let timing = fillTiming(.forwards)
        assertTiming(timing, at: 0, .before, nil)
        assertTiming(timing, at: 2, .active, 0.5)
        assertTiming(timing, at: 3, .after, 1)              // exactly the end: finished, held at 1
        assertTiming(timing, at: 4, .after, 1)
    }

    func testBackwardsFillHoldsTheStartOnly() {
        let timing = fillTiming(.backwards)
        assertTiming(timing, at: 0, .before, 0)
        assertTiming(timing, at: 2, .active, 0.5)
        assertTiming(timing, at: 4, .after, nil)
    }

    func testBothFillHoldsStartAndEnd() {
        let timing = fillTiming(.both)
        assertTiming(timing, at: 0, .before, 0)
        assertTiming(timing, at: 2, .active, 0.5)
        assertTiming(timing, at: 4, .after, 1)
    }

    func testUnknownFillModeBehavesAsRemoved() {
        let timing = fillTiming(CAMediaTimingFillMode(rawValue: "frozen"))
        assertTiming(timing, at: 0, .before, nil)
        assertTiming(timing, at: 4, .after, nil)
    }

    func testFillModeRawValuesAreCoreAnimations() {
        XCTAssertEqual(CAMediaTimingFillMode.removed.rawValue, "removed")
        XCTAssertEqual(CAMediaTimingFillMode.forwards.rawValue, "forwards")
        XCTAssertEqual(CAMediaTimingFillMode.backwards.rawValue, "backwards")
        XCTAssertEqual(CAMediaTimingFillMode.both.rawValue, "both")
        XCTAssertEqual(CAMediaTimingFillMode("both"), .both)
    }

    func testBackwardsFillHoldsTheOffsetStart() {
        let timing = MediaTimingParameters(beginTime: 1, timeOffset: 0.5, duration: 2, fillMode: .backwards)
        assertTiming(timing, at: 0, .before, 0.25)          // the start is at active time 0.5: 0.5 / 2
    }

    func testForwardsFillAfterAutoreverseWithFractionalRepeatInRepeatDuration() {
        // repeatDuration 1.5, autoreverse, duration 1: cycles 0.75 → 1.5 into the cycle → 1 − 0.5
        let timing = MediaTimingParameters(repeatDuration: 1.5, autoreverses: true, duration: 1, fillMode: .forwards)
        assertTiming(timing, at: 1.5, .after, 0.5, iteration: 0)
    }

    // MARK: - Begin time

    func testBeginTimeInThePastStartsPartWay() {
        let timing = MediaTimingParameters(beginTime: -0.5, duration: 1)
        assertTiming(timing, at: 0, .active, 0.5)           // 0 − (−0.5) = 0.5 elapsed
        assertTiming(timing, at: 0.5, .after, nil)          // ended at −0.5 + 1
    }

    func testBeginTimeInTheFutureWaits() {
        let timing = MediaTimingParameters(beginTime: 5, duration: 1)
        assertTiming(timing, at: 4, .before, nil)
        assertTiming(timing, at: 4.999, .before, nil)
        assertTiming(timing, at: 5.25, .active, 0.25)       // 5.25 − 5
        assertTiming(timing, at: 6, .after, nil)
        XCTAssertEqual(timing.activeEndTime, 6)
    }

    // MARK: - Speed

    func testSpeedTwoPlaysInHalfTheParentTime() {
        let timing = MediaTimingParameters(beginTime: 1, speed: 2, duration: 1)
        assertTiming(timing, at: 1.25, .active, 0.5)        // (1.25 − 1) × 2
        assertTiming(timing, at: 1.45, .active, 0.9)        // (1.45 − 1) × 2
        assertTiming(timing, at: 1.5, .after, nil)          // (1.5 − 1) × 2 = 1 = the end
        XCTAssertEqual(timing.activeEndTime, 1.5)           // 1 + 1 / 2
    }

    func testSpeedHalfPlaysInTwiceTheParentTime() {
        let timing = MediaTimingParameters(speed: 0.5, duration: 1)
        assertTiming(timing, at: 1, .active, 0.5)           // 1 × 0.5
        assertTiming(timing, at: 1.9, .active, 0.95)        // 1.9 × 0.5
        assertTiming(timing, at: 2, .after, nil)
        XCTAssertEqual(timing.activeEndTime, 2)             // 0 + 1 / 0.5
    }

    func testBeginTimeIsInParentTimeAndNotScaledBySpeed() {
        let timing = MediaTimingParameters(beginTime: 2, speed: 4, duration: 1)
        assertTiming(timing, at: 1.9, .before, nil)
        assertTiming(timing, at: 2.1, .active, 0.4)         // (2.1 − 2) × 4
    }

    func testSpeedZeroFreezesLocalTimeAtTimeOffset() {
        let timing = MediaTimingParameters(timeOffset: 0.5, speed: 0, duration: 2)
        for t in [-100.0, 0, 3, 1e6] {
            assertTiming(timing, at: t, .active, 0.25)      // 0.5 / 2 at every parent time
        }
        XCTAssertEqual(timing.localTime(fromParentTime: 42), 0.5)
        XCTAssertEqual(timing.activeEndTime, .infinity)
    }

    func testSpeedZeroScrubsWithTimeOffset() {
        func scrubbed(_ offset: Double) -> MediaTimingParameters {
            MediaTimingParameters(timeOffset: offset, speed: 0, duration: 2)
        }
        assertTiming(scrubbed(0), at: 10, .active, 0)
        assertTiming(scrubbed(1.5), at: 10, .active, 0.75)  // 1.5 / 2
        assertTiming(scrubbed(2), at: 10, .active, 1)       // exactly the end of the active duration
        assertTiming(scrubbed(2.5), at: 10, .active, 0.25)  // 2.5 wraps to 0.5 → 0.5 / 2
    }

    func testNegativeSpeedPlaysFromTheEndToTheStart() {
        let timing = MediaTimingParameters(speed: -1, duration: 2, fillMode: .both)
        assertTiming(timing, at: -1, .before, 1)            // backward fill holds the first frame: the end
        assertTiming(timing, at: 0, .active, 1)             // active time 2 − 0
        assertTiming(timing, at: 0.5, .active, 0.75)        // (2 − 0.5) / 2
        assertTiming(timing, at: 1.5, .active, 0.25)        // (2 − 1.5) / 2
        assertTiming(timing, at: 2, .after, 0)              // ends at the start
        XCTAssertEqual(timing.activeEndTime, 2)             // 0 + 2 / |−1|
    }

    func testNegativeSpeedScalesLikeAPositiveOne() {
        let timing = MediaTimingParameters(speed: -2, duration: 2)
        assertTiming(timing, at: 0.25, .active, 0.75)       // elapsed 0.5 → (2 − 0.5) / 2
        assertTiming(timing, at: 1, .after, nil)            // elapsed 2 = the end
    }

    func testNegativeSpeedWithRepeatsReversesTheWholeActiveDuration() {
        let timing = MediaTimingParameters(speed: -1, repeatCount: 2, duration: 1)
        assertTiming(timing, at: 0.25, .active, 0.75, iteration: 1)   // active time 2 − 0.25 = 1.75
        assertTiming(timing, at: 1.25, .active, 0.75, iteration: 0)   // 2 − 1.25 = 0.75
    }

    // MARK: - Time offset

    func testTimeOffsetStartsPartWayAndWrapsAround() {
        let timing = MediaTimingParameters(timeOffset: 0.3, duration: 1, fillMode: .forwards)
        assertTiming(timing, at: 0, .active, 0.3)           // 0 + 0.3
        assertTiming(timing, at: 0.5, .active, 0.8)         // 0.5 + 0.3
        assertTiming(timing, at: 0.8, .active, 0.1)         // 1.1 wraps to 0.1
        assertTiming(timing, at: 0.95, .active, 0.25)       // 1.25 wraps to 0.25
        assertTiming(timing, at: 1, .after, 0.3)            // still 1 s long; ends where it started
    }

    func testTimeOffsetWrapsIntoTheMiddleOfAnIteration() {
        let timing = MediaTimingParameters(timeOffset: 0.5, repeatCount: 2, duration: 1)
        assertTiming(timing, at: 0, .active, 0.5, iteration: 0)
        assertTiming(timing, at: 1.2, .active, 0.7, iteration: 1)     // 1.7: 0.7 into the second iteration
        assertTiming(timing, at: 1.7, .active, 0.2, iteration: 0)     // 2.2 wraps (active duration 2) to 0.2
    }

    func testTimeOffsetWrapsAutoreversingIterations() {
        let timing = MediaTimingParameters(timeOffset: 1.5, autoreverses: true, duration: 1)
        assertTiming(timing, at: 0, .active, 0.5)           // 1.5: 0.5 into the backward pass → 1 − 0.5
        assertTiming(timing, at: 0.75, .active, 0.25)       // 2.25 wraps to 0.25
    }

    func testNegativeTimeOffsetWrapsFromTheEnd() {
        let timing = MediaTimingParameters(timeOffset: -0.25, duration: 1)
        assertTiming(timing, at: 0, .active, 0.75)          // −0.25 wraps to 0.75
        assertTiming(timing, at: 0.5, .active, 0.25)        // 0.25
    }

    func testTimeOffsetLargerThanTheActiveDurationWraps() {
        let timing = MediaTimingParameters(timeOffset: 7.25, duration: 2)
        assertTiming(timing, at: 0, .active, 0.625)         // 7.25 − 3 × 2 = 1.25 → 1.25 / 2
    }

    func testTimeOffsetOnAnInfiniteRepeatShiftsWithoutEnding() {
        let timing = MediaTimingParameters(timeOffset: 0.4, repeatCount: .infinity, duration: 1)
        assertTiming(timing, at: 10.2, .active, 0.6, iteration: 10)   // 10.6
    }

    // MARK: - Zero duration

    func testZeroDurationWithForwardFillJumpsToTheEnd() {
        let timing = MediaTimingParameters(beginTime: 1, duration: 0, fillMode: .both)
        assertTiming(timing, at: 0, .before, 0)             // backward fill: the start
        assertTiming(timing, at: 1, .after, 1)              // finished at once, held at the end
        assertTiming(timing, at: 5, .after, 1)
        let removed = MediaTimingParameters(beginTime: 1, duration: 0)
        assertTiming(removed, at: 1, .after, nil)
        let reversing = MediaTimingParameters(autoreverses: true, duration: 0, fillMode: .forwards)
        assertTiming(reversing, at: 0, .after, 0)           // autoreversed: back at the start
    }

    // MARK: - Local time and hierarchy

    func testLocalTimeIsCoreAnimationsFormula() {
        let timing = MediaTimingParameters(beginTime: 1, timeOffset: 0.5, speed: 2)
        XCTAssertEqual(timing.localTime(fromParentTime: 3), 4.5)      // (3 − 1) × 2 + 0.5
        XCTAssertEqual(timing.localTime(fromParentTime: 0), -1.5)     // (0 − 1) × 2 + 0.5
        XCTAssertEqual(timing.parentTime(fromLocalTime: 4.5), 3)      // (4.5 − 0.5) / 2 + 1
        XCTAssertEqual(timing.parentTime(fromLocalTime: -1.5), 0)
    }

    func testParentTimeIsUndefinedWhenPaused() {
        XCTAssertNil(MediaTimingParameters(timeOffset: 3, speed: 0).parentTime(fromLocalTime: 3))
    }

    func testNestedChainComposesSpeedsAndBeginTimes() {
        // A layer at speed 2 holding an animation with speed 0.5, beginTime 1 and duration 1.
        let layer = MediaTimingParameters(speed: 2)
        let animation = MediaTimingParameters(beginTime: 1, speed: 0.5, duration: 1)
        let chain = [layer, animation]
        XCTAssertEqual(MediaTimingParameters.localTime(1, through: chain), 0.5)     // (2 × 1 − 1) × 0.5
        XCTAssertEqual(MediaTimingParameters.localTime(0.5, through: chain), 0)     // starts at layer time 1
        XCTAssertEqual(MediaTimingParameters.localTime(1.5, through: chain), 1)     // ends at layer time 3
        XCTAssertEqual(MediaTimingParameters.parentTime(0.5, through: chain), 1)    // (0.5 / 0.5 + 1) / 2
        assertTiming(animation, at: layer.localTime(fromParentTime: 0.25), .before, nil)  // layer time 0.5
        assertTiming(animation, at: layer.localTime(fromParentTime: 1), .active, 0.5)     // layer time 2
        assertTiming(animation, at: layer.localTime(fromParentTime: 1.25), .active, 0.75) // (2.5 − 1) × 0.5
        assertTiming(animation, at: layer.localTime(fromParentTime: 1.5), .after, nil)    // layer time 3
    }

    func testChainOfLayersAppliesEachMappingInOrder() {
        let root = MediaTimingParameters(beginTime: 10)
        let sublayer = MediaTimingParameters(timeOffset: 3, speed: 2)
        let chain = [root, sublayer]
        XCTAssertEqual(MediaTimingParameters.localTime(12, through: chain), 7)      // (12 − 10) × 2 + 3
        XCTAssertEqual(MediaTimingParameters.parentTime(7, through: chain), 12)     // (7 − 3) / 2 + 10
        XCTAssertEqual(MediaTimingParameters.localTime(12, through: []), 12)
        XCTAssertEqual(MediaTimingParameters.parentTime(12, through: []), 12)
    }

    func testPausedLayerInAChainFreezesItsAnimations() {
        let layer = MediaTimingParameters(timeOffset: 1.5, speed: 0)
        let animation = MediaTimingParameters(beginTime: 1, duration: 1)
        for t in [0.0, 5, 500] {
            let layerTime = MediaTimingParameters.localTime(t, through: [layer])
            XCTAssertEqual(layerTime, 1.5)
            assertTiming(animation, at: layerTime, .active, 0.5)      // 1.5 − 1
        }
        XCTAssertNil(MediaTimingParameters.parentTime(0.5, through: [layer, animation]))
        // Scrubbing the paused layer's offset moves the animation.
        let scrubbed = MediaTimingParameters(timeOffset: 1.75, speed: 0)
        assertTiming(animation, at: scrubbed.localTime(fromParentTime: 0), .active, 0.75)
    }

    func testParametersReadFromACAMediaTimingObject() {
        final class Timed: CAMediaTiming {
            var beginTime: CFTimeInterval = 1
            var timeOffset: CFTimeInterval = 2
            var speed: Float = 3
            var repeatCount: Float = 4.5
            var repeatDuration: CFTimeInterval = 5
            var autoreverses = true
            var duration: CFTimeInterval = 6
            var fillMode = CAMediaTimingFillMode.both
        }
        let timing = MediaTimingParameters(Timed())
        XCTAssertEqual(timing, MediaTimingParameters(beginTime: 1, timeOffset: 2, speed: 3, repeatCount: 4.5,
                                                     repeatDuration: 5, autoreverses: true, duration: 6, fillMode: .both))
    }

    /// The fill mode is kept as two flags: each of Core Animation's four reads back as itself, and a raw
    /// value naming none of them reads back, and behaves, as `.removed`.
    func testFillModeKeptAsFlagsReadsBackAndHolds() {
        for mode in [CAMediaTimingFillMode.removed, .forwards, .backwards, .both] {
            XCTAssertEqual(MediaTimingParameters(beginTime: 1, duration: 1, fillMode: mode).fillMode, mode)
        }
        var timing = MediaTimingParameters(beginTime: 1, duration: 1, fillMode: CAMediaTimingFillMode(rawValue: "sideways"))
        XCTAssertEqual(timing.fillMode, .removed)
        assertTiming(timing, at: 0.5, .before, nil)
        assertTiming(timing, at: 2.5, .after, nil)
        // Before the start only a backward fill holds (progress 0); after the end only a forward one (1).
        timing.fillMode = .both
        assertTiming(timing, at: 0.5, .before, 0)
        assertTiming(timing, at: 2.5, .after, 1)
        timing.fillMode = .forwards
        assertTiming(timing, at: 0.5, .before, nil)
        assertTiming(timing, at: 2.5, .after, 1)
    }
}
