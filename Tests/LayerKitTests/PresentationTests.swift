import Foundation
import XCTest
@testable import LayerKit

/// `presentation()` and the layer timing hierarchy seen from the model thread.
///
/// Deterministic time without a clock: a root with `speed` 0 and `timeOffset` T has local time T at every
/// absolute time, and (speed 1 below it) so do its sublayers. Animations with absolute begin times are then
/// evaluated at exactly T.
final class PresentationTests: XCTestCase {
    /// Roots of the trees a test built: a sublayer does not keep its superlayer alive (nor does Core
    /// Animation's), so the test does.
    private var roots: [CALayer] = []

    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    override func tearDown() {
        roots = []
        super.tearDown()
    }

    /// root (paused at `time`) → child → grandchild, committed once.
    private func pausedTree(at time: Double) -> (root: CALayer, child: CALayer, grandchild: CALayer) {
        let root = CALayer()
        root.speed = 0
        root.timeOffset = time
        let child = CALayer()
        child.position = CGPoint(x: 5, y: 6)
        let grandchild = CALayer()
        grandchild.position = CGPoint(x: 1, y: 2)
        root.addSublayer(child)
        child.addSublayer(grandchild)
        CATransaction.flush()
        roots.append(root)
        return (root, child, grandchild)
    }

    private func slide(from: CGFloat? = 0, to: CGFloat, begin: Double = 1000, duration: Double = 1) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: "position.x")
        animation.fromValue = from
        animation.toValue = to
        animation.beginTime = begin
        animation.duration = duration
        return animation
    }

    // MARK: - Existence and identity

    func testPresentationIsNilBeforeTheFirstCommit() {
        let layer = CALayer()
        layer.position = CGPoint(x: 1, y: 1)
        XCTAssertNil(layer.presentation())
        CATransaction.flush()
        XCTAssertNotNil(layer.presentation())
    }

    func testPresentationOfAnUnanimatedLayerHasTheModelValues() {
        let layer = CALayer()
        layer.position = CGPoint(x: 3, y: 4)
        layer.opacity = 0.25
        layer.bounds = CGRect(x: 0, y: 0, width: 9, height: 8)
        CATransaction.flush()
        let presentation = layer.presentation()
        XCTAssertEqual(presentation?.position, CGPoint(x: 3, y: 4))
        XCTAssertEqual(presentation?.opacity, 0.25)
        XCTAssertEqual(presentation?.bounds, CGRect(x: 0, y: 0, width: 9, height: 8))
        XCTAssertFalse(presentation === layer)
    }

    func testModelGoesBackAndPresentationOfAPresentationIsItself() {
        let (_, child, _) = pausedTree(at: 0)
        let presentation = child.presentation()
        XCTAssertTrue(presentation?.model() === child)
        XCTAssertTrue(child.model() === child, "a model layer is its own model")
        XCTAssertTrue(presentation?.presentation() === presentation)
    }

    func testPresentationKeepsTheSubclass() {
        final class Special: CALayer {}
        let layer = Special()
        layer.opacity = 0.5
        CATransaction.flush()
        XCTAssertNotNil(layer.presentation() as Special?)
    }

    // MARK: - Animated values

    func testMidAnimationValuesAreTheAnimatedOnes() {
        let (_, child, _) = pausedTree(at: 1000.5)
        child.add(slide(to: 100), forKey: "slide")
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1
        fade.toValue = 0
        fade.beginTime = 1000
        fade.duration = 2
        child.add(fade, forKey: "fade")
        CATransaction.flush()
        let presentation = child.presentation()
        XCTAssertEqual(presentation?.position, CGPoint(x: 50, y: 6), "0 → 100 half way; y untouched")
        XCTAssertEqual(presentation?.opacity, 0.75, "1 → 0 a quarter of the way")
        XCTAssertEqual(child.position, CGPoint(x: 5, y: 6), "the model keeps its values")
        XCTAssertEqual(child.opacity, 1)
    }

    func testPresentationOnTheRealClockIsMidAnimation() {
        let layer = CALayer()
        CATransaction.flush()
        // 0 → 1000 over 1000 s, begun 500 s ago: 500 give or take the test's own run time.
        layer.add(slide(to: 1000, begin: CACurrentMediaTime() - 500, duration: 1000), forKey: "slide")
        CATransaction.flush()
        XCTAssertEqual(Double(layer.presentation()?.position.x ?? .nan), 500, accuracy: 1)
    }

    func testUncommittedAnimationsAreNotPresented() {
        let (_, child, _) = pausedTree(at: 1000.5)
        child.add(slide(to: 100), forKey: "slide")
        XCTAssertEqual(child.presentation()?.position.x, 5, "added but not yet committed")
        CATransaction.flush()
        XCTAssertEqual(child.presentation()?.position.x, 50)
    }

    func testSublayersAndSuperlayerOfThePresentationArePresentationLayers() {
        let (root, child, grandchild) = pausedTree(at: 1000.25)
        grandchild.add(slide(to: 100), forKey: "slide")
        CATransaction.flush()
        let presentation = child.presentation()
        let sub = presentation?.sublayers?.first
        XCTAssertNotNil(sub)
        XCTAssertTrue(sub?.model() === grandchild)
        XCTAssertFalse(sub === grandchild)
        XCTAssertEqual(sub?.position.x, 25, "the sublayer is presented too")
        XCTAssertTrue(sub?.superlayer === presentation)
        let parent = presentation?.superlayer
        XCTAssertNotNil(parent, "the presentation's superlayer is the superlayer's presentation")
        XCTAssertTrue(parent?.model() === root)
        XCTAssertFalse(parent === root)
        XCTAssertTrue(parent?.presentation() === parent, "a presentation copy")
    }

    func testPresentationCopiesRecordNothingAndRunNoActions() {
        let (_, child, _) = pausedTree(at: 0)
        let presentation = child.presentation()
        let pending = LayerChangeLog.current.pendingLayerCount
        presentation?.position = CGPoint(x: 99, y: 99)
        presentation?.opacity = 0.1
        XCTAssertEqual(LayerChangeLog.current.pendingLayerCount, pending)
        XCTAssertNil(presentation?.animationKeys())
        XCTAssertEqual(child.position, CGPoint(x: 5, y: 6))
    }

    // MARK: - Fill and removal

    func testFillForwardsKeepsTheFinalValueWhileTheModelKeepsItsOwn() {
        let (_, child, _) = pausedTree(at: 1005)
        let hold = slide(from: nil, to: 40)
        hold.fillMode = .forwards
        hold.isRemovedOnCompletion = false
        child.add(hold, forKey: "hold")
        CATransaction.flush()
        XCTAssertEqual(child.presentation()?.position.x, 40, "held after the end")
        XCTAssertEqual(child.position.x, 5, "the model keeps its own")
        XCTAssertEqual(child.animationKeys(), ["hold"])
        child.removeAnimation(forKey: "hold")
        XCTAssertEqual(child.presentation()?.position.x, 5, "removing it jumps back to the model")
    }

    func testFillBackwardsShowsTheStartValueBeforeTheBegin() {
        let (_, child, _) = pausedTree(at: 999)
        let early = slide(from: 20, to: 40)
        early.fillMode = .backwards
        child.add(early, forKey: "early")
        CATransaction.flush()
        XCTAssertEqual(child.presentation()?.position.x, 20)
    }

    func testWithoutFillTheModelShowsBeforeAndAfter() {
        for time in [999.0, 1001.0, 1100.0] {
            let (_, child, _) = pausedTree(at: time)
            child.add(slide(from: 20, to: 40), forKey: "s")
            CATransaction.flush()
            XCTAssertEqual(child.presentation()?.position.x, 5, "at \(time)")
        }
    }

    // MARK: - The timing hierarchy

    func testSpeedZeroAndTimeOffsetScrub() {
        let (root, child, _) = pausedTree(at: 1000.25)
        child.add(slide(to: 100), forKey: "slide")
        CATransaction.flush()
        XCTAssertEqual(child.presentation()?.position.x, 25)
        root.timeOffset = 1000.75
        XCTAssertEqual(child.presentation()?.position.x, 75)
        root.timeOffset = 1000.5
        XCTAssertEqual(child.presentation()?.position.x, 50)
    }

    func testLayerSpeedTwoRunsItsAnimationsTwiceAsFast() {
        // root paused at T; child speed 2 → child time = 2T. The animation (0 → 100 over 1000…1002 of
        // child time) advances by 2 child seconds per root second.
        let (root, child, _) = pausedTree(at: 500)
        child.speed = 2
        child.add(slide(to: 100, duration: 2), forKey: "slide")
        CATransaction.flush()
        XCTAssertEqual(Double(child.presentation()?.position.x ?? .nan), 0, accuracy: 1e-9, "child time 1000")
        root.timeOffset = 500.25
        XCTAssertEqual(Double(child.presentation()?.position.x ?? .nan), 25, accuracy: 1e-9, "child time 1000.5")
        root.timeOffset = 500.5
        XCTAssertEqual(Double(child.presentation()?.position.x ?? .nan), 50, accuracy: 1e-9, "child time 1001")
    }

    func testSublayersInheritTheirAncestorsTime() {
        // root paused at 500; child speed 2 (1000); grandchild timeOffset 0.5 (1000.5).
        let (_, child, grandchild) = pausedTree(at: 500)
        child.speed = 2
        grandchild.timeOffset = 0.5
        grandchild.add(slide(to: 100), forKey: "slide")
        CATransaction.flush()
        XCTAssertEqual(Double(child.presentation()?.sublayers?.first?.position.x ?? .nan), 50, accuracy: 1e-9)
        XCTAssertEqual(Double(grandchild.presentation()?.position.x ?? .nan), 50, accuracy: 1e-9)
    }

    func testBeginTimeZeroMeansTheLayersCurrentTime() {
        // Paused at 42: an animation without beginTime begins at layer time 42, so it shows its start.
        let (_, child, _) = pausedTree(at: 42)
        child.add(slide(from: 10, to: 20, begin: 0), forKey: "now")
        CATransaction.flush()
        XCTAssertEqual(child.animationList.entries.first?.record?.timing.beginTime, 42)
        XCTAssertEqual(child.presentation()?.position.x, 10)
    }

    func testConvertTimeBetweenLayersWithDifferentSpeeds() {
        // root (identity timing) → a (speed 2, timeOffset 3) → b (speed 0.5, beginTime 10); root → c (speed 4).
        // Absolute 100: a = 100·2 + 3 = 203; b = (203 − 10)·0.5 = 96.5; c = 400.
        let root = CALayer()
        let a = CALayer(), b = CALayer(), c = CALayer()
        a.speed = 2
        a.timeOffset = 3
        b.speed = 0.5
        b.beginTime = 10
        c.speed = 4
        root.addSublayer(a)
        a.addSublayer(b)
        root.addSublayer(c)
        XCTAssertEqual(a.convertTime(100, from: nil), 203, accuracy: 1e-9)
        XCTAssertEqual(b.convertTime(100, from: nil), 96.5, accuracy: 1e-9)
        XCTAssertEqual(b.convertTime(203, from: a), 96.5, accuracy: 1e-9)
        XCTAssertEqual(a.convertTime(96.5, from: b), 203, accuracy: 1e-9)
        XCTAssertEqual(b.convertTime(96.5, to: a), 203, accuracy: 1e-9)
        XCTAssertEqual(b.convertTime(96.5, to: nil), 100, accuracy: 1e-9)
        XCTAssertEqual(c.convertTime(96.5, from: b), 400, accuracy: 1e-9)
        XCTAssertEqual(b.convertTime(400, from: c), 96.5, accuracy: 1e-9)
        XCTAssertEqual(root.convertTime(7, from: nil), 7, accuracy: 1e-9)
        // Round trip at another time: b → c → b.
        XCTAssertEqual(b.convertTime(c.convertTime(12.25, from: b), from: c), 12.25, accuracy: 1e-9)
    }
}
