import Foundation
@testable import LayerKitSDL
import XCTest

private final class AnimationLog: CAAnimationDelegate {
    var started = 0
    var stopped: [Bool] = []
    func animationDidStart(_ anim: CAAnimation) { started += 1 }
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { stopped.append(flag) }
}

final class LayerWindowAnimationTests: LayerWindowTestCase {
    private let red = RGB(1, 0, 0)

    private func addBox(to window: LayerWindow) -> CALayer {
        let box = CALayer()
        box.anchorPoint = .zero
        box.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        box.position = CGPoint(x: 220, y: 40)
        box.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        window.rootLayer.addSublayer(box)
        return box
    }

    func testAnAnimationAdvancesWhileTheLoopRunsAndEndsAtTheModelValue() throws {
        let window = try makeWindow(width: 260, height: 80, framesPerSecond: 60)
        let box = addBox(to: window)
        let log = AnimationLog()
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.fromValue = 20
        slide.toValue = 220
        slide.duration = 3
        slide.timingFunction = CAMediaTimingFunction(name: .linear)
        slide.delegate = log
        box.add(slide, forKey: "slide")

        let presentedBefore = window.executor.status.framesPresented
        var ticks: [CFTimeInterval] = []
        window.onFrame = { ticks.append($0) }
        try window.run(frames: 30)
        XCTAssertEqual(ticks.count, 30, "onFrame once per iteration")
        XCTAssertTrue(zip(ticks, ticks.dropFirst()).allSatisfy { $0 < $1 }, "tick times increase")
        XCTAssertGreaterThanOrEqual(ticks.last! - ticks.first!, 29 / 60 - 0.01, "iterations are paced at 60 Hz")
        // The render thread draws each tick while something animates (lavapipe with validation may drop a few).
        XCTAssertGreaterThanOrEqual(window.executor.status.framesPresented - presentedBefore, 10)
        XCTAssertEqual(log.started, 1, "animationDidStart delivered by the loop's flush")
        XCTAssertEqual(log.stopped, [])

        // Mid-animation (0.5 s < t < 3 s): the box is strictly between its start and end.
        let middle = try window.snapshot()
        let x = try XCTUnwrap(middle.firstColumn(of: red, inRow: 50), "the box is visible")
        XCTAssertGreaterThan(x, 20 + 20, "at least 0.5 s of a 200-point, 3 s slide has passed")
        XCTAssertLessThan(x, 220)

        try runUntil(window, timeout: 10, "animationDidStop") { !log.stopped.isEmpty }
        XCTAssertEqual(log.stopped, [true])
        let end = try window.snapshot()
        XCTAssertEqual(end.firstColumn(of: red, inRow: 50), 220, "after the animation the model value shows")
        XCTAssertNil(box.animation(forKey: "slide"), "removed on completion")
    }

    func testTheRenderThreadKeepsAnimatingWhileTheMainThreadIsBusy() throws {
        let window = try makeWindow(width: 260, height: 80, framesPerSecond: 60)
        let box = addBox(to: window)
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.fromValue = 20
        slide.toValue = 220
        slide.duration = 10
        box.add(slide, forKey: "slide")
        try window.run(frames: 1)
        let before = window.executor.status.framesPresented
        // The main thread blocks here, running no loop iterations (nothing committed, no events), until the
        // render thread has presented ten more frames on its own; the deadline only guards against a hang.
        let deadline = Date(timeIntervalSinceNow: 30)
        while window.executor.status.framesPresented - before < 10 && Date() < deadline { usleep(1000) }
        let during = window.executor.status.framesPresented - before
        XCTAssertGreaterThanOrEqual(during, 10, "frames presented with the main thread blocked")
    }

    func testAnIdleWindowPresentsNothing() throws {
        let window = try makeWindow()
        try runUntilPresented(window)
        try window.run(frames: 3)
        let idle = window.executor.status.framesPresented
        try window.run(frames: 20)
        XCTAssertEqual(window.executor.status.framesPresented, idle, "nothing committed, nothing animating: no frames")
    }
}
