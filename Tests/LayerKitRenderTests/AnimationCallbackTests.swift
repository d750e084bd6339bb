import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKitRender

/// Animation delegates and transaction completion blocks, driven by frames: the render side reports
/// started/stopped, `AnimationCallbacks` carries the events to the main thread, and delivery calls the
/// delegate, removes finished animations from the model and completes transactions.
final class AnimationCallbackTests: XCTestCase {
    private var harness: AnimationHarness!

    override func setUp() {
        super.setUp()
        harness = AnimationHarness()
        AnimationCallbacks.shared.deliverPending()  // nothing left over from earlier tests
    }

    override func tearDown() {
        harness = nil
        CATransaction.flush()
        super.tearDown()
    }

    /// Records what the delegate heard, in order.
    private final class EventLog: CAAnimationDelegate {
        var events: [String] = []
        func animationDidStart(_ anim: CAAnimation) { events.append("start") }
        func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { events.append("stop \(flag)") }
    }

    private func slide(begin: Double = 1000, duration: Double = 1, delegate: CAAnimationDelegate? = nil) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: "position.x")
        animation.fromValue = 0
        animation.toValue = 40
        animation.beginTime = begin
        animation.duration = duration
        animation.delegate = delegate
        return animation
    }

    /// Builds the frame at `time` and delivers its events on this (the main) thread.
    private func frameAndDeliver(_ time: Double) {
        harness.deliver(harness.frame(at: time).events)
    }

    // MARK: - Delegates

    func testDelegateHearsStartThenStopFinishedAfterTheEnd() {
        let log = EventLog()
        harness.box.add(slide(delegate: log), forKey: "slide")
        harness.commit()
        frameAndDeliver(999)
        XCTAssertEqual(log.events, [], "not begun")
        frameAndDeliver(1000.5)
        XCTAssertEqual(log.events, ["start"])
        frameAndDeliver(1000.9)
        XCTAssertEqual(log.events, ["start"], "once")
        frameAndDeliver(1001.5)
        XCTAssertEqual(log.events, ["start", "stop true"])
        frameAndDeliver(1002)
        XCTAssertEqual(log.events, ["start", "stop true"], "once")
        XCTAssertNil(harness.box.animationKeys(), "removed from the model on completion")
    }

    func testEventsPostedButNotDeliveredReachNobody() {
        let log = EventLog()
        harness.box.add(slide(delegate: log), forKey: "slide")
        harness.commit()
        AnimationCallbacks.shared.post(harness.frame(at: 1010).events)
        XCTAssertEqual(log.events, [], "only the main thread's delivery calls delegates")
        XCTAssertEqual(harness.box.animationKeys(), ["slide"])
        CATransaction.flush()  // a host's flush delivers
        XCTAssertEqual(log.events, ["start", "stop true"])
        XCTAssertNil(harness.box.animationKeys())
    }

    func testRemoveAnimationStopsUnfinished() {
        let log = EventLog()
        harness.box.add(slide(delegate: log), forKey: "slide")
        harness.commit()
        frameAndDeliver(1000.5)
        harness.box.removeAnimation(forKey: "slide")
        XCTAssertEqual(log.events, ["start"], "delivered later, on the main thread")
        AnimationCallbacks.shared.deliverPending()
        XCTAssertEqual(log.events, ["start", "stop false"])
        // The render side learns at the next commit and never reports a stop of its own.
        harness.commit()
        frameAndDeliver(1001.5)
        XCTAssertEqual(log.events, ["start", "stop false"])
    }

    func testRemovedBeforeItStartedStopsUnfinishedWithoutStarting() {
        let log = EventLog()
        harness.box.add(slide(delegate: log), forKey: "slide")
        harness.commit()
        frameAndDeliver(999)
        harness.box.removeAllAnimations()
        AnimationCallbacks.shared.deliverPending()
        XCTAssertEqual(log.events, ["stop false"])
    }

    func testReplacingAnAnimationStopsTheOldOneUnfinished() {
        let old = EventLog(), new = EventLog()
        harness.box.add(slide(delegate: old), forKey: "slide")
        harness.commit()
        harness.box.add(slide(duration: 2, delegate: new), forKey: "slide")
        harness.commit()
        XCTAssertEqual(old.events, ["stop false"])
        frameAndDeliver(1001.5)
        XCTAssertEqual(old.events, ["stop false"])
        XCTAssertEqual(new.events, ["start"])
    }

    func testNotRemovedOnCompletionStaysInAnimationKeys() {
        let log = EventLog()
        let hold = slide(delegate: log)
        hold.isRemovedOnCompletion = false
        hold.fillMode = .forwards
        harness.box.add(hold, forKey: "hold")
        harness.commit()
        frameAndDeliver(1000.5)
        frameAndDeliver(1001.5)
        XCTAssertEqual(log.events, ["start", "stop true"])
        XCTAssertEqual(harness.box.animationKeys(), ["hold"])
        harness.commit()
        XCTAssertNil(harness.box.presentation()?.animationKeys(), "presentation copies carry no animations")
        XCTAssertEqual(Double(harness.boxOrigin(at: 1003)?.x ?? .nan), 40, accuracy: 1e-3, "still filling in frames")
    }

    func testRemovedOnCompletionLeavesTheModelAndCommitsThat() {
        harness.box.add(slide(), forKey: "slide")
        harness.commit()
        frameAndDeliver(1001.5)
        XCTAssertNil(harness.box.animationKeys())
        XCTAssertTrue(harness.box.pendingChanges.contains(.animations), "the removal is a change for the next commit")
        harness.commit()
        XCTAssertEqual(harness.producer.tree[harness.box.layerID]?.animations.count, 0)
    }

    func testGroupDelegateHearsTheGroupsEvents() {
        let groupLog = EventLog(), childLog = EventLog()
        let group = CAAnimationGroup()
        group.animations = [slide(begin: 0, duration: 1, delegate: childLog)]
        group.beginTime = 1000
        group.duration = 2
        group.delegate = groupLog
        harness.box.add(group, forKey: "group")
        harness.commit()
        frameAndDeliver(1001.5)  // the child is over, the group is not
        XCTAssertEqual(groupLog.events, ["start"])
        frameAndDeliver(1002.5)
        XCTAssertEqual(groupLog.events, ["start", "stop true"])
        XCTAssertEqual(childLog.events, [], "children's delegates are ignored, as in Core Animation")
    }

    func testDelegateIsCalledOnTheMainThread() {
        final class ThreadCheck: CAAnimationDelegate {
            var onMain: [Bool] = []
            func animationDidStart(_ anim: CAAnimation) { onMain.append(Thread.isMainThread) }
            func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { onMain.append(Thread.isMainThread) }
        }
        let check = ThreadCheck()
        harness.box.add(slide(delegate: check), forKey: "slide")
        harness.commit()
        // The events are produced on another thread, as the render thread would.
        let events = LockedEvents()
        let done = DispatchSemaphore(value: 0)
        let handed = HandedOver(harness!)
        let thread = Thread {
            events.set(handed.value.frame(at: 1010).events)
            done.signal()
        }
        thread.start()
        done.wait()
        AnimationCallbacks.shared.post(events.value)
        AnimationCallbacks.shared.deliverPending()
        XCTAssertEqual(check.onMain, [true, true])
    }

    // MARK: - Transaction completion

    func testCompletionRunsOnlyAfterEveryAnimationOfTheTransactionFinished() {
        var runs = 0
        CATransaction.begin()
        CATransaction.setCompletionBlock { runs += 1 }
        harness.box.add(slide(duration: 1), forKey: "short")
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1
        fade.toValue = 0
        fade.beginTime = 1000
        fade.duration = 2
        harness.box.add(fade, forKey: "long")
        CATransaction.commit()
        harness.applyPending()
        XCTAssertEqual(runs, 0, "two animations outstanding")
        frameAndDeliver(1000.5)
        XCTAssertEqual(runs, 0, "both started")
        frameAndDeliver(1001.5)
        XCTAssertEqual(runs, 0, "the short one finished, the long one still runs")
        frameAndDeliver(1002.5)
        XCTAssertEqual(runs, 1, "both finished")
        frameAndDeliver(1003)
        CATransaction.flush()
        XCTAssertEqual(runs, 1, "once")
    }

    func testCompletionRunsWhenOneFinishesAndTheOtherIsRemoved() {
        var runs = 0
        CATransaction.begin()
        CATransaction.setCompletionBlock { runs += 1 }
        harness.box.add(slide(duration: 1), forKey: "short")
        harness.box.add(slide(duration: 100), forKey: "long")
        CATransaction.commit()
        harness.applyPending()
        frameAndDeliver(1001.5)
        XCTAssertEqual(runs, 0)
        harness.box.removeAnimation(forKey: "long")
        AnimationCallbacks.shared.deliverPending()
        XCTAssertEqual(runs, 1)
    }

    func testCompletionOfAnImplicitAnimation() {
        var runs = 0
        CATransaction.begin()
        CATransaction.setAnimationDuration(0.5)
        CATransaction.setCompletionBlock { runs += 1 }
        harness.box.position = CGPoint(x: 80, y: 30)  // implicit animation, beginning "now"
        CATransaction.commit()
        harness.applyPending()
        guard let begin = harness.producer.tree[harness.box.layerID]?.animations.first?.timing.beginTime else {
            return XCTFail("no implicit animation")
        }
        frameAndDeliver(begin + 0.25)
        XCTAssertEqual(runs, 0)
        frameAndDeliver(begin + 0.5)
        XCTAssertEqual(runs, 1)
    }

    func testCompletionIgnoresAnimationsOfOtherTransactions() {
        var runs = 0
        harness.box.add(slide(duration: 100), forKey: "other")  // in the implicit transaction
        CATransaction.begin()
        CATransaction.setCompletionBlock { runs += 1 }
        harness.box.add(slide(duration: 1), forKey: "mine")
        CATransaction.commit()
        harness.commit()
        frameAndDeliver(1001.5)
        XCTAssertEqual(runs, 1)
    }

    // MARK: - With a running render server

    func testCallbacksFlowFromARenderServerThread() {
        final class NullExecutor: RenderGraphExecutor {
            func execute(_ graph: RenderGraph) throws {}
        }
        let log = EventLog()
        let clock = ManualClock()
        let server = RenderServer(root: harness.root, builder: harness.producer.builder, clock: clock, executor: NullExecutor())
        harness.box.add(slide(delegate: log), forKey: "slide")
        CATransaction.flush()
        server.start()
        defer { server.stop() }
        func render(at time: Double, frames: Int) {
            clock.tick(at: time)
            let deadline = Date().addingTimeInterval(5)
            while server.framesRendered < frames && Date() < deadline { usleep(1000) }
            XCTAssertEqual(server.framesRendered, frames, "frame at \(time)")
        }
        render(at: 1000.5, frames: 1)
        AnimationCallbacks.shared.deliverPending()
        XCTAssertEqual(log.events, ["start"])
        render(at: 1001.5, frames: 2)
        AnimationCallbacks.shared.deliverPending()
        XCTAssertEqual(log.events, ["start", "stop true"])
        XCTAssertNil(harness.box.animationKeys())
    }
}

/// Events handed from one thread to another.
private final class LockedEvents: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [AnimationEvent] = []
    func set(_ new: [AnimationEvent]) {
        lock.lock()
        events = new
        lock.unlock()
    }
    var value: [AnimationEvent] {
        lock.lock()
        defer { lock.unlock() }
        return events
    }
}
