import LayerKit
import XCTest
@testable import LayerKitRender

/// The swapchain-paced frame clock with its time injected: presents are reported by hand, as the
/// window executor reports them. Times are exact in binary (nominal 1/64 s, presents 1/128 s apart).
final class PresentPacedClockTests: XCTestCase {
    private let now = Locked(0.0)

    private func makeClock() -> PresentPacedClock {
        let now = self.now
        return PresentPacedClock(nominalFramesPerSecond: 64, now: { now.withLock { $0 } })
    }

    private func setNow(_ time: Double) { now.withLock { $0 = time } }

    func testTheFirstFrameStartsAtOnceAndIsShownOneNominalIntervalLater() {
        let clock = makeClock()
        setNow(5)
        XCTAssertEqual(clock.waitForNextFrame(), 5 + 1.0 / 64)
    }

    func testAFrameStartsWhenThePreviousPresentCompletesAtThatPresentPlusOneInterval() {
        let clock = makeClock()
        setNow(1)
        _ = clock.waitForNextFrame()
        clock.presentQueued()
        clock.presentCompleted(at: 1, shown: true)
        _ = clock.waitForNextFrame()
        clock.presentQueued()
        // The next frame waits for this present: were it to start before, its time would count the
        // present in flight (1 + 2/64); after, it is the present's time plus the measured 1/128.
        let next = Thread.detachNewThreadWithResult { clock.waitForNextFrame() }
        setNow(1 + 1.0 / 128)
        clock.presentCompleted(at: 1 + 1.0 / 128, shown: true)
        XCTAssertEqual(next.wait(), 1 + 2.0 / 128)
        XCTAssertEqual(clock.presentInterval, 1.0 / 128)
    }

    func testPresentedFramesPairEachFramesTimeWithItsPresent() {
        let clock = makeClock()
        setNow(1)
        var targets: [Double] = []
        for k in 0..<4 {
            let frameTime = clock.waitForNextFrame()!
            targets.append(frameTime)
            clock.presentQueued()
            let presented = 1 + Double(k + 1) / 128
            setNow(presented)
            clock.presentCompleted(at: presented, shown: true)
        }
        // Frame 0: one nominal interval (1/64) from now; frame 1: the present (1 + 1/128) plus the
        // nominal interval; then the present plus the measured 1/128 (frame 2 equal to frame 1: targets
        // never go backwards).
        let expectedTargets: [Double] = [130.0 / 128, 131.0 / 128, 131.0 / 128, 132.0 / 128]
        let expectedPresents: [Double] = [129.0 / 128, 130.0 / 128, 131.0 / 128, 132.0 / 128]
        XCTAssertEqual(targets, expectedTargets)
        XCTAssertEqual(clock.presentedFrames.map(\.targetTimestamp), expectedTargets)
        XCTAssertEqual(clock.presentedFrames.map(\.presentedAt), expectedPresents)
    }

    func testATickThatPresentedNothingIsFollowedOneIntervalLater() {
        // A skipped frame (a minimized window) queues no present: the next tick is due one interval
        // after the last, not at once. Here that time has come.
        let clock = makeClock()
        setNow(2)
        XCTAssertEqual(clock.waitForNextFrame(), 2 + 1.0 / 64)
        setNow(2 + 1.0 / 64)
        XCTAssertEqual(clock.waitForNextFrame(), 2 + 2.0 / 64)
    }

    func testWithACapTicksAreAtLeastItsPeriodApartEvenWhenPresentsCompleteSooner() {
        // Capped at 64 a second: the present completes 1/128 s after the tick, but the next tick is due
        // 1/64 s after the last one (its time has come here).
        let now = self.now
        let clock = PresentPacedClock(nominalFramesPerSecond: 64, maximumFramesPerSecond: 64, now: { now.withLock { $0 } })
        setNow(1)
        _ = clock.waitForNextFrame()
        clock.presentQueued()
        clock.presentCompleted(at: 1 + 1.0 / 128, shown: true)
        XCTAssertEqual(clock.minimumTickInterval, 1.0 / 64)
        setNow(1 + 1.0 / 64)
        XCTAssertEqual(clock.waitForNextFrame(), 1 + 3.0 / 128, "the present plus the nominal 1/64 s")
    }

    func testStopEndsAWaitForAPresent() {
        let clock = makeClock()
        _ = clock.waitForNextFrame()
        clock.presentQueued()
        let next = Thread.detachNewThreadWithResult { clock.waitForNextFrame() }
        clock.stop()
        XCTAssertNil(next.wait())
    }

    func testADisplayLinkFollowingThePresentsGetsTheNextFramesTime() {
        let clock = makeClock()
        setNow(1)
        _ = clock.waitForNextFrame()
        clock.presentQueued()
        clock.presentCompleted(at: 1 + 1.0 / 128, shown: true)
        let (presents, target) = clock.waitForPresent(after: 0, timeout: 10)
        XCTAssertEqual(presents, 1)
        XCTAssertEqual(target, 1 + 1.0 / 128 + 1.0 / 64, "the last present plus the nominal interval (none measured yet)")
    }
}

extension Thread {
    /// Runs `body` on a new thread; `wait()` on the result blocks until it has returned.
    fileprivate static func detachNewThreadWithResult<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> PendingResult<Value> {
        let pending = PendingResult<Value>()
        Thread.detachNewThread { pending.finish(body()) }
        return pending
    }
}

/// A value another thread produces, waited for without polling.
private final class PendingResult<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var value: Value?

    func finish(_ result: Value) {
        value = result
        done.signal()
    }

    func wait() -> Value {
        done.wait()
        return value!
    }
}
