import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKitRender

/// Animations as the render thread evaluates them: commits applied to a `FrameProducer`, frames built at
/// explicit times, positions and colors read back from the frame's draw items, and the started/stopped
/// events the frames report.
///
/// The scene (`AnimationHarness`): a 100 × 100 root filling a 100 × 100 target, with one 10 × 10 red box
/// anchored at its top-left corner, so the box's origin in pixels is its `position`.
final class FrameProducerAnimationTests: XCTestCase {
    private var harness: AnimationHarness!

    override func setUp() {
        super.setUp()
        harness = AnimationHarness()
    }

    override func tearDown() {
        harness = nil
        CATransaction.flush()
        super.tearDown()
    }

    private func slide(_ keyPath: String = "position.x", from: Any? = 0, to: Any? = 40, begin: Double = 1000,
                       duration: Double = 1) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: keyPath)
        animation.fromValue = from
        animation.toValue = to
        animation.beginTime = begin
        animation.duration = duration
        return animation
    }

    private func assertOrigin(at time: Double, x: Double, y: Double = 30, file: StaticString = #filePath, line: UInt = #line) {
        guard let origin = harness.boxOrigin(at: time) else { return XCTFail("no box drawn at \(time)", file: file, line: line) }
        XCTAssertEqual(Double(origin.x), x, accuracy: 1e-3, "x at \(time)", file: file, line: line)
        XCTAssertEqual(Double(origin.y), y, accuracy: 1e-3, "y at \(time)", file: file, line: line)
    }

    // MARK: - Values in frames

    func testPositionAnimationIsEvaluatedAtTheFrameTime() {
        harness.box.add(slide(), forKey: "slide")
        harness.commit()
        // x = 40 · (t − 1000) inside [1000, 1001); the model (0) before and after.
        assertOrigin(at: 999, x: 0)
        assertOrigin(at: 1000, x: 0)
        assertOrigin(at: 1000.25, x: 10)
        assertOrigin(at: 1000.5, x: 20)
        assertOrigin(at: 1000.75, x: 30)
        assertOrigin(at: 1002, x: 0)
    }

    func testFramesMayGoBackInTime() {
        // Evaluation is a pure function of the frame time (until the animation is removed).
        harness.box.add(slide(duration: 10), forKey: "slide")
        harness.commit()
        assertOrigin(at: 1005, x: 20)
        assertOrigin(at: 1002.5, x: 10)
        assertOrigin(at: 1007.5, x: 30)
    }

    func testBackgroundColorInterpolatesPerComponent() {
        harness.box.add(slide("backgroundColor", from: CGColor(red: 1, green: 0, blue: 0, alpha: 1),
                              to: CGColor(red: 0, green: 0, blue: 1, alpha: 1)), forKey: "tint")
        harness.commit()
        // p = 0.5: (0.5, 0, 0.5, 1); premultiplied by alpha 1.
        let color = harness.boxItem(at: 1000.5)?.instance.color
        XCTAssertEqual(color?.x ?? -1, 0.5, accuracy: 1e-5)
        XCTAssertEqual(color?.y ?? -1, 0, accuracy: 1e-5)
        XCTAssertEqual(color?.z ?? -1, 0.5, accuracy: 1e-5)
        XCTAssertEqual(color?.w ?? -1, 1, accuracy: 1e-5)
    }

    func testOpacityAnimationScalesThePremultipliedColor() {
        harness.box.add(slide("opacity", from: 1, to: 0), forKey: "fade")
        harness.commit()
        // p = 0.25: opacity 0.75 → (0.75, 0, 0, 0.75).
        let color = harness.boxItem(at: 1000.25)?.instance.color
        XCTAssertEqual(color?.x ?? -1, 0.75, accuracy: 1e-5)
        XCTAssertEqual(color?.w ?? -1, 0.75, accuracy: 1e-5)
    }

    func testRotationTurnsTheBoxAboutItsAnchor() {
        harness.box.add(slide("transform.rotation.z", from: 0, to: 4 * CGFloat.pi, duration: 4), forKey: "spin")
        harness.commit()
        // θ = π·(t − 1000). localToClip column 0 is the image of the layer's x axis: (cos θ, sin θ)·(2/100).
        for (t, c, s) in [(1000.5, 0.0, 1.0), (1001.0, -1.0, 0.0), (1002.5, 0.0, 1.0), (1003.0, -1.0, 0.0)] {
            let column = harness.boxItem(at: t)?.instance.localToClip.0
            XCTAssertEqual(Double(column?.x ?? .nan), 0.02 * c, accuracy: 1e-6, "cos at \(t)")
            XCTAssertEqual(Double(column?.y ?? .nan), 0.02 * s, accuracy: 1e-6, "sin at \(t)")
        }
    }

    func testAdditiveAnimationsAddInTheFrame() {
        for (key, amount) in [("a", 10), ("b", 20)] {
            let nudge = slide(from: 0, to: amount)
            nudge.isAdditive = true
            harness.box.add(nudge, forKey: key)
        }
        harness.commit()
        // p = 0.5: model 0 + 5 + 10.
        assertOrigin(at: 1000.5, x: 15)
    }

    func testKeyframesAndSpringsReachTheFrame() {
        let keys = CAKeyframeAnimation(keyPath: "position.y")
        keys.values = [30, 70, 30]
        keys.duration = 2
        keys.beginTime = 1000
        harness.box.add(keys, forKey: "bob")
        let spring = CASpringAnimation(keyPath: "position.x")
        spring.fromValue = 0
        spring.toValue = 50
        spring.duration = 2
        spring.beginTime = 1000
        harness.box.add(spring, forKey: "spring")
        harness.commit()
        // Keyframes at p = 0.25: 30 + 40 · 0.5 = 50. Spring (m 1, k 100, c 10) at τ = 0.5:
        // 1 − e^(−2.5)·(cos 5√3·0.5 + (1/√3)·sin 5√3·0.5).
        let wd = 75.0.squareRoot()
        let fraction = 1 - exp(-2.5) * (cos(wd * 0.5) + 5 / wd * sin(wd * 0.5))
        assertOrigin(at: 1000.5, x: 50 * fraction, y: 50)
    }

    func testRemovingAnAnimationReachesTheRenderTreeAtTheNextCommit() {
        harness.box.add(slide(duration: 10), forKey: "slide")
        harness.commit()
        assertOrigin(at: 1005, x: 20)
        harness.box.removeAnimation(forKey: "slide")
        assertOrigin(at: 1005, x: 20)  // not committed yet
        harness.commit()
        assertOrigin(at: 1005, x: 0)
        XCTAssertEqual(harness.producer.tree[harness.box.layerID]?.animations.count, 0)
    }

    func testModelChangesWithoutActionsShowAtOnce() {
        CATransaction.setDisableActions(true)
        harness.box.position = CGPoint(x: 60, y: 10)
        harness.commit()
        assertOrigin(at: 0, x: 60, y: 10)
    }

    func testImplicitAnimationRunsFromTheOldValueToTheNewOne() {
        harness.box.position = CGPoint(x: 40, y: 30)  // the box was committed at (0, 30)
        harness.commit()
        guard let record = harness.producer.tree[harness.box.layerID]?.animations.first else { return XCTFail("no implicit animation") }
        XCTAssertEqual(record.key, "position")
        XCTAssertEqual(record.timing.duration, 0.25)
        // Half the duration in: x = 40 · y(0.5) on Core Animation's default curve (0.25, 0.1, 0.25, 1).
        let begin = record.timing.beginTime
        assertOrigin(at: begin + 0.125, x: 40 * renderReferenceBezierY(0.5, (0.25, 0.1, 0.25, 1)))
        assertOrigin(at: begin + 1, x: 40)
    }

    // MARK: - Fill and removal

    func testFillForwardsNotRemovedKeepsTheFinalValueInFrames() {
        let hold = slide()
        hold.fillMode = .forwards
        hold.isRemovedOnCompletion = false
        harness.box.add(hold, forKey: "hold")
        harness.commit()
        let (_, events) = harness.frame(at: 1005)
        XCTAssertEqual(events.count, 2, "started and stopped: \(events)")
        assertOrigin(at: 1006, x: 40)
        XCTAssertEqual(harness.box.position.x, 0, "the model keeps its own")
        XCTAssertEqual(harness.producer.tree[harness.box.layerID]?.animations.count, 1, "kept")
        XCTAssertFalse(harness.producer.isAnimating, "finished: nothing left to animate")
        harness.box.removeAnimation(forKey: "hold")
        harness.commit()
        assertOrigin(at: 1007, x: 0)
    }

    func testFinishedAnimationsRemovedOnCompletionLeaveTheRenderTree() {
        harness.box.add(slide(), forKey: "slide")
        harness.commit()
        _ = harness.frame(at: 1000.5)
        XCTAssertEqual(harness.producer.tree[harness.box.layerID]?.animations.count, 1)
        XCTAssertTrue(harness.producer.isAnimating)
        _ = harness.frame(at: 1001.5)
        XCTAssertEqual(harness.producer.tree[harness.box.layerID]?.animations.count, 0)
        XCTAssertFalse(harness.producer.isAnimating)
        XCTAssertFalse(harness.producer.needsFrame, "nothing committed, nothing animating")
    }

    // MARK: - Events

    func testStartedOnceThenStoppedOnce() {
        harness.box.add(slide(), forKey: "slide")
        harness.commit()
        guard let id = harness.box.animationList.entries.first?.id else { return XCTFail("not added") }
        XCTAssertEqual(harness.frame(at: 999).events, [], "not begun")
        XCTAssertTrue(harness.producer.isAnimating, "waiting to begin counts as animating")
        XCTAssertEqual(harness.frame(at: 1000.25).events, [.started(id)])
        XCTAssertEqual(harness.frame(at: 1000.5).events, [])
        XCTAssertEqual(harness.frame(at: 1001).events, [.stopped(id)], "the active duration is open at its end")
        XCTAssertEqual(harness.frame(at: 1002).events, [])
    }

    func testAFrameAfterTheWholeAnimationReportsBothEvents() {
        harness.box.add(slide(), forKey: "slide")
        harness.commit()
        guard let id = harness.box.animationList.entries.first?.id else { return XCTFail("not added") }
        XCTAssertEqual(harness.frame(at: 1010).events, [.started(id), .stopped(id)])
    }

    func testEveryAnimationReportsItsOwnEvents() {
        harness.box.add(slide(duration: 1), forKey: "short")
        harness.box.add(slide("opacity", from: 1, to: 0.5, duration: 2), forKey: "long")
        harness.commit()
        let ids = harness.box.animationList.entries.map(\.id)
        let first = harness.frame(at: 1000.5).events
        XCTAssertEqual(first.count, 2)
        XCTAssertTrue(first.contains(.started(ids[0])) && first.contains(.started(ids[1])), "\(first)")
        XCTAssertEqual(harness.frame(at: 1001.5).events, [.stopped(ids[0])])
        XCTAssertEqual(harness.frame(at: 1002.5).events, [.stopped(ids[1])])
    }

    // MARK: - Layer timing

    func testLayerSpeedTwoRunsItsAnimationsTwiceAsFast() {
        let harness = AnimationHarness { _, box in box.speed = 2 }
        self.harness = harness
        // Box time = 2t: an animation over box time 2000…2001 runs over absolute 1000…1000.5.
        harness.box.add(slide(begin: 2000), forKey: "slide")
        harness.commit()
        assertOrigin(at: 1000.125, x: 10)
        assertOrigin(at: 1000.25, x: 20)
        assertOrigin(at: 1000.375, x: 30)
        assertOrigin(at: 1000.5, x: 0)
    }

    func testSpeedZeroPausesAndTimeOffsetScrubs() {
        let harness = AnimationHarness { root, _ in
            root.speed = 0
            root.timeOffset = 1000.25
        }
        self.harness = harness
        harness.box.add(slide(), forKey: "slide")
        harness.commit()
        assertOrigin(at: 5, x: 10)
        assertOrigin(at: 5000, x: 10)
        harness.root.timeOffset = 1000.75
        harness.commit()
        assertOrigin(at: 5000, x: 30)
        harness.root.timeOffset = 1000.5
        harness.commit()
        assertOrigin(at: 7, x: 20)
    }

    func testPresentationAgreesWithTheFrame() {
        let harness = AnimationHarness { root, _ in
            root.speed = 0
            root.timeOffset = 1000.3
        }
        self.harness = harness
        let keys = CAKeyframeAnimation(keyPath: "position")
        keys.values = [CGPoint(x: 0, y: 0), CGPoint(x: 60, y: 20), CGPoint(x: 20, y: 80)]
        keys.calculationMode = .cubic
        keys.beginTime = 1000
        keys.duration = 1
        harness.box.add(keys, forKey: "path")
        harness.box.add(slide("backgroundColor", from: CGColor(red: 0, green: 1, blue: 0, alpha: 1),
                              to: CGColor(red: 0, green: 0, blue: 1, alpha: 1)), forKey: "tint")
        harness.commit()
        guard let presented = harness.box.presentation(), let item = harness.boxItem(at: 12345) else { return XCTFail("nothing") }
        guard let origin = harness.boxOrigin(at: 12345) else { return XCTFail("no origin") }
        XCTAssertEqual(Double(origin.x), Double(presented.position.x), accuracy: 1e-3)
        XCTAssertEqual(Double(origin.y), Double(presented.position.y), accuracy: 1e-3)
        let rgba = presented.backgroundColor?.rgba
        XCTAssertEqual(Double(item.instance.color.y), Double(rgba?.g ?? -1), accuracy: 1e-5)
        XCTAssertEqual(Double(item.instance.color.z), Double(rgba?.b ?? -1), accuracy: 1e-5)
        XCTAssertEqual(Double(item.instance.color.y), 0.7, accuracy: 1e-5, "green 1 → 0 at p 0.3")
    }

    // MARK: - Bad input

    func testInvalidAnimationsDoNotStopValidOnes() {
        let capture = DiagnosticCapture()
        harness.box.add(slide("nonsense"), forKey: "bad")
        harness.box.add(slide("position", from: 1, to: 2), forKey: "mismatch")
        harness.box.add(slide(), forKey: "good")
        harness.commit()
        XCTAssertEqual(capture.names.sorted(), ["unknownKeyPath", "valueTypeMismatch"])
        assertOrigin(at: 1000.5, x: 20)
        XCTAssertEqual(harness.producer.tree[harness.box.layerID]?.animations.map(\.key), ["good"])
    }

    func testNaNNeverReachesAFrame() {
        let capture = DiagnosticCapture()
        harness.box.add(slide(from: CGFloat.nan, to: 40), forKey: "nanValue")  // refused at commit
        let nanSpeed = slide("position.y", from: 0, to: 50)
        nanSpeed.speed = .nan
        harness.box.add(nanSpeed, forKey: "nanSpeed")
        let nanCurve = slide("opacity", from: 0, to: 1)
        nanCurve.timingFunction = CAMediaTimingFunction(controlPoints: .nan, .nan, .nan, .nan)
        harness.box.add(nanCurve, forKey: "nanCurve")
        let nanKeys = CAKeyframeAnimation(keyPath: "bounds.size.width")
        nanKeys.values = [10, 20]
        nanKeys.keyTimes = [NSNumber(value: Double.nan), 1]
        nanKeys.beginTime = 1000
        nanKeys.duration = 1
        harness.box.add(nanKeys, forKey: "nanKeyTimes")
        harness.commit()
        XCTAssertTrue(capture.names.contains("nonFiniteGeometry"), "the NaN fromValue is refused: \(capture.names)")
        // The NaN-speed and NaN-curve animations show the model; the keyframes (key times ignored) run.
        // (Checked first: frames past the end remove finished animations from the render tree.)
        assertOrigin(at: 1000.5, x: 0, y: 30)
        XCTAssertEqual(harness.boxItem(at: 1000.5)?.instance.quad.z ?? -1, 15, accuracy: 1e-5, "width 10 → 20 half way")
        XCTAssertEqual(harness.boxItem(at: 1000.5)?.instance.color ?? .zero, SIMD4<Float>(1, 0, 0, 1), "opacity stays 1")
        for t in [999.0, 1000, 1000.25, 1000.5, 1000.99, 1001, 1002] {
            for item in harness.frame(at: t).graph.passes.flatMap(\.items) {
                let m = item.instance.localToClip
                let numbers = [m.0, m.1, m.2, m.3, item.instance.color, item.instance.quad].flatMap { [$0.x, $0.y, $0.z, $0.w] }
                XCTAssertTrue(numbers.allSatisfy(\.isFinite), "finite at \(t): \(numbers)")
            }
        }
    }
}

// MARK: - Harness shared by the render-side animation tests

/// A root (100 × 100, filling a 100 × 100 target) with one red 10 × 10 box at (0, 30) anchored at its
/// top-left corner, and a `FrameProducer` fed with every commit made after it was built.
final class AnimationHarness {
    let root = CALayer()
    let box = CALayer()
    let receiver = CommitInbox()
    var producer: FrameProducer

    /// `configure` runs before the first commit (e.g. to set layer timing).
    init(configure: (_ root: CALayer, _ box: CALayer) -> Void = { _, _ in }) {
        CATransaction.flush()  // earlier tests' changes do not belong to this scene
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.position = CGPoint(x: 50, y: 50)
        box.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        box.anchorPoint = .zero
        box.position = CGPoint(x: 0, y: 30)
        box.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        root.addSublayer(box)
        configure(root, box)
        CATransaction.flush()
        // Culling off: these tests read the box's item even where an animation takes it off the target.
        producer = FrameProducer(builder: RenderGraphBuilder(targetWidth: 100, targetHeight: 100,
                                                             viewport: CGRect(x: 0, y: 0, width: 100, height: 100), scale: 1),
                                 debugOptions: .disableCulling)
        producer.reset(root: root.layerID, snapshot: receiver.show(root))
    }

    /// Commits the implicit transaction and applies every packet received since the last apply.
    func commit() {
        CATransaction.flush()
        applyPending()
    }

    /// Applies the packets received so far (an explicit `CATransaction.commit()` sends them).
    func applyPending() {
        for packet in receiver.take() { producer.apply(packet) }
    }

    /// The frame at absolute time `time`, with its animation events.
    func frame(at time: Double) -> (graph: RenderGraph, events: [AnimationEvent]) {
        producer.produceFrame(at: time)
    }

    /// Hands `events` to the main thread's callbacks and delivers them, as a host does.
    func deliver(_ events: [AnimationEvent]) {
        AnimationCallbacks.shared.post(events)
        AnimationCallbacks.shared.deliverPending()
    }

    /// The box's background item at `time` (the only item in the scene).
    func boxItem(at time: Double) -> DrawItem? {
        frame(at: time).graph.passes.last?.items.first
    }

    /// The box's layer-space origin in pixels at `time`: column 3 of localToClip is its clip position
    /// (w = 1), and pixel = (clip + 1) · 50 on a 100-pixel target.
    func boxOrigin(at time: Double) -> CGPoint? {
        guard let origin = boxItem(at: time)?.instance.localToClip.3 else { return nil }
        return CGPoint(x: CGFloat((origin.x + 1) * 50), y: CGFloat((origin.y + 1) * 50))
    }
}

/// y at `x` of the cubic Bézier (0, 0), (x1, y1), (x2, y2), (1, 1), by bisection on the curve parameter:
/// plain math, independent of `CAMediaTimingFunction`.
func renderReferenceBezierY(_ x: Double, _ c: (Double, Double, Double, Double)) -> Double {
    let (x1, y1, x2, y2) = (Double(Float(c.0)), Double(Float(c.1)), Double(Float(c.2)), Double(Float(c.3)))
    func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }
    var low = 0.0, high = 1.0
    for _ in 0..<200 {
        let mid = (low + high) / 2
        if bezier(mid, x1, x2) < x { low = mid } else { high = mid }
    }
    return bezier((low + high) / 2, y1, y2)
}
