import XCTest
@testable import LayerKitRender

/// The render node's reused presentation copy (`RenderNode.presentationCopy()`): between commits only
/// the properties compiled animations write are reset, so frames must show exactly what a fresh copy
/// would — no value carried over from the last frame, every commit seen at once. Scene: `AnimationHarness`
/// (a box anchored at its top-left corner, model position (0, 30)); its origin in pixels is its position.
final class PresentationCopyTests: XCTestCase {
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

    private func nudge(_ keyPath: String, by amount: Any, additive: Bool = true) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: keyPath)
        animation.fromValue = 0
        animation.toValue = amount
        animation.isAdditive = additive
        animation.beginTime = 1000
        animation.duration = 1
        return animation
    }

    func testAdditiveAnimationsDoNotAccumulateOverFrames() throws {
        harness.box.add(nudge("position.x", by: 10), forKey: "a")
        harness.box.add(nudge("position.y", by: 20), forKey: "b")
        harness.commit()
        // p = 0.5 in every frame: x = 0 + 5, y = 30 + 10, however often the frame is drawn.
        for _ in 0..<4 {
            let origin = try XCTUnwrap(harness.boxOrigin(at: 1000.5))
            XCTAssertEqual(Double(origin.x), 5, accuracy: 1e-4)
            XCTAssertEqual(Double(origin.y), 40, accuracy: 1e-4)
        }
        // Back in time: p = 0.25.
        let earlier = try XCTUnwrap(harness.boxOrigin(at: 1000.25))
        XCTAssertEqual(Double(earlier.x), 2.5, accuracy: 1e-4)
        XCTAssertEqual(Double(earlier.y), 35, accuracy: 1e-4)
    }

    func testACommitBetweenFramesIsSeenUnderTheAnimation() throws {
        harness.box.add(nudge("position.x", by: 10), forKey: "a")
        harness.commit()
        XCTAssertEqual(Double(try XCTUnwrap(harness.boxOrigin(at: 1000.5)).x), 5, accuracy: 1e-4)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        harness.box.position = CGPoint(x: 20, y: 50)
        CATransaction.commit()
        harness.applyPending()
        // The new model position (20, 50) plus the additive 5 in x.
        let origin = try XCTUnwrap(harness.boxOrigin(at: 1000.5))
        XCTAssertEqual(Double(origin.x), 25, accuracy: 1e-4)
        XCTAssertEqual(Double(origin.y), 50, accuracy: 1e-4)
    }

    func testAPropertyNoLongerAnimatedShowsItsModelValue() throws {
        harness.box.add(nudge("position.x", by: 10, additive: false), forKey: "a")
        harness.commit()
        XCTAssertEqual(Double(try XCTUnwrap(harness.boxOrigin(at: 1000.5)).x), 5, accuracy: 1e-4)
        harness.box.removeAnimation(forKey: "a")
        harness.commit()
        XCTAssertEqual(Double(try XCTUnwrap(harness.boxOrigin(at: 1000.6)).x), 0, accuracy: 1e-4)
    }

    /// Parts of transforms and points are written in the node's own field (`setAnimatedTransformPart`,
    /// `setAnimatedPointPart`): the rest of the committed value stays as it was.
    func testAPartAnimationKeepsTheRestOfTheCommittedValue() throws {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        harness.box.transform = CATransform3DMakeScale(2, 3, 1)
        CATransaction.commit()
        harness.box.add(nudge("transform.rotation.z", by: Double.pi, additive: false), forKey: "spin")
        harness.box.add(nudge("anchorPoint.y", by: 0.5, additive: false), forKey: "anchor")
        harness.commit()
        for _ in 0..<2 {
            // At p = 0.5: a quarter turn of the committed scale. The box's x axis (2 points per unit) points
            // down and its y axis (3 points per unit) points left: columns 0 and 1 of localToClip, at 0.02
            // clip units per point. The anchor is half-way to y = 0.25 of the bounds: 2.5 points up the
            // box's y axis from its top-left corner, which lands at position − (−3 · 2.5, 0) = (7.5, 30).
            let item = try XCTUnwrap(harness.boxItem(at: 1000.5))
            let (xAxis, yAxis, _, origin) = item.instance.localToClip
            XCTAssertEqual(Double(xAxis.x), 0, accuracy: 1e-6)
            XCTAssertEqual(Double(xAxis.y), 0.04, accuracy: 1e-6)
            XCTAssertEqual(Double(yAxis.x), -0.06, accuracy: 1e-6)
            XCTAssertEqual(Double(yAxis.y), 0, accuracy: 1e-6)
            XCTAssertEqual((Double(origin.x) + 1) * 50, 7.5, accuracy: 1e-4)
            XCTAssertEqual((Double(origin.y) + 1) * 50, 30, accuracy: 1e-4)
        }
        let node = try XCTUnwrap(harness.producer.tree[harness.box.layerID])
        XCTAssertEqual(node.transform, CATransform3DMakeScale(2, 3, 1), "the committed node is never written")
        XCTAssertEqual(node.anchorPoint, .zero)
    }

    func testTheCopyDiffersFromTheNodeOnlyWhileEvaluated() throws {
        harness.box.add(nudge("transform.rotation.z", by: Double.pi, additive: false), forKey: "spin")
        harness.commit()
        // The frame draws a quarter turn (π/2 at p = 0.5): the box's x axis, column 0 of localToClip
        // (0.02 clip units per point), points down.
        let axis = try XCTUnwrap(harness.boxItem(at: 1000.5)).instance.localToClip.0
        XCTAssertEqual(Double(axis.x), 0, accuracy: 1e-6)
        XCTAssertEqual(Double(axis.y), 0.02, accuracy: 1e-6)
        let node = try XCTUnwrap(harness.producer.tree[harness.box.layerID])
        let copy = node.presentationCopy()
        XCTAssertTrue(copy === node.presentationCopy(), "one copy, reused")
        // Taken again, the copy is reset to the committed identity before the next evaluation.
        XCTAssertTrue(CATransform3DIsIdentity(copy.transform))
        XCTAssertEqual(copy.position, node.position)
    }
}
