import Foundation
import XCTest
@testable import LayerKit

/// `CATransformLayer` on the model side: hit testing through it in 3D (nearest plane wins, the transform
/// layer itself never), and the commit telling the render tree what the layer is.
///
/// The scene: a 200 × 200 root whose `stage` fills it with perspective `m34 = −1/200` about (100, 100),
/// and a transform layer of zero size at (100, 100); a stage point (x, y, z) is seen at
/// `100 + (x − 100)·200/(200 − z)`.
final class CATransformLayerTests: XCTestCase {
    private func makeScene() -> (root: CALayer, container: CATransformLayer) {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        root.position = CGPoint(x: 100, y: 100)
        let stage = CALayer()
        stage.name = "stage"
        stage.frame = root.bounds
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 200
        stage.sublayerTransform = perspective
        root.addSublayer(stage)
        let container = CATransformLayer()
        container.name = "container"
        container.position = CGPoint(x: 100, y: 100)
        stage.addSublayer(container)
        return (root, container)
    }

    @discardableResult
    private func plane(_ name: String, centerX: CGFloat, z: CGFloat, in parent: CALayer) -> CALayer {
        let layer = CALayer()
        layer.name = name
        layer.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        layer.position = CGPoint(x: centerX, y: 0)
        layer.transform = CATransform3DMakeTranslation(0, 0, z)
        parent.addSublayer(layer)
        return layer
    }

    func testTheNearerPlaneIsHitWhereTwoOverlapWhateverTheirOrder() {
        // Near: x −30…10 at z = 20, seen at 66.7…111.1; far: x −10…30 at z = −20, seen at 90.9…127.3.
        for nearFirst in [true, false] {
            let (root, container) = makeScene()
            if nearFirst {
                plane("near", centerX: -10, z: 20, in: container)
                plane("far", centerX: 10, z: -20, in: container)
            } else {
                plane("far", centerX: 10, z: -20, in: container)
                plane("near", centerX: -10, z: 20, in: container)
            }
            XCTAssertEqual(root.hitTest(CGPoint(x: 100, y: 100))?.name, "near", "overlap")
            XCTAssertEqual(root.hitTest(CGPoint(x: 75, y: 100))?.name, "near")
            XCTAssertEqual(root.hitTest(CGPoint(x: 120, y: 100))?.name, "far", "only the far plane is there")
            // x = 125 is inside the far plane (≤ 127.3) but y = 125 is beyond its 20·0.909 = 18.2 half height.
            XCTAssertEqual(root.hitTest(CGPoint(x: 120, y: 125))?.name, "stage", "past the planes: the stage behind them")
        }
    }

    func testTheTransformLayerItselfIsNeverHit() {
        let (_, container) = makeScene()
        container.bounds = CGRect(x: -50, y: -50, width: 100, height: 100)
        XCTAssertNil(container.hitTest(CGPoint(x: 100, y: 100)))
        XCTAssertFalse(container.contains(.zero))
    }

    func testHitTestingComposesNestedTransformLayersIn3D() {
        // Outer Ry(π/6), inner Ry(π/6), plane 60 × 40: a plane turned π/3 whose right edge (x = 15,
        // z = −25.98) is seen at 100 + 15·200/225.98 = 113.3. Flattened at the inner layer it would reach
        // 100 + 22.5·200/212.99 = 121.1.
        let (root, container) = makeScene()
        container.transform = CATransform3DMakeRotation(.pi / 6, 0, 1, 0)
        let inner = CATransformLayer()
        inner.transform = CATransform3DMakeRotation(.pi / 6, 0, 1, 0)
        container.addSublayer(inner)
        let layer = CALayer()
        layer.name = "plane"
        layer.bounds = CGRect(x: 0, y: 0, width: 60, height: 40)
        inner.addSublayer(layer)
        XCTAssertEqual(root.hitTest(CGPoint(x: 112, y: 100))?.name, "plane")
        XCTAssertNotEqual(root.hitTest(CGPoint(x: 115, y: 100))?.name, "plane")
    }

    // Conversion keeps the plane's depth through the transform layer: the plane's corner (0, 0) is the
    // stage point (80, 80, 100), seen at 100 + (80 − 100)·200/(200 − 100) = 60 (flattening at the
    // transform layer would drop the z and give 80).
    func testConversionKeepsDepthThroughTheTransformLayer() {
        let (root, container) = makeScene()
        let near = plane("near", centerX: 0, z: 100, in: container)
        let corner = root.convert(CGPoint(x: 0, y: 0), from: near)
        XCTAssertEqual(corner.x, 60, accuracy: 1e-9)
        XCTAssertEqual(corner.y, 60, accuracy: 1e-9)
        XCTAssertEqual(near.convert(CGPoint(x: 0, y: 0), to: root).y, 60, accuracy: 1e-9)
        // A plane's own sublayer is flattened into the plane: its (0, 0) at plane (5, 5), stage (85, 85, 100),
        // seen at 100 − 15·2 = 70.
        let badge = CALayer()
        badge.frame = CGRect(x: 5, y: 5, width: 10, height: 10)
        near.addSublayer(badge)
        XCTAssertEqual(root.convert(CGPoint(x: 0, y: 0), from: badge).x, 70, accuracy: 1e-9)
        // And back: the root point lands on the same plane point.
        let back = near.convert(CGPoint(x: 60, y: 60), from: root)
        XCTAssertEqual(back.x, 0, accuracy: 1e-9)
        XCTAssertEqual(back.y, 0, accuracy: 1e-9)
        let mid = near.convert(CGPoint(x: 10, y: 30), to: root)
        let roundTrip = near.convert(mid, from: root)
        XCTAssertEqual(roundTrip.x, 10, accuracy: 1e-9)
        XCTAssertEqual(roundTrip.y, 30, accuracy: 1e-9)
    }

    func testTheFirstCommitOfATransformLayerSaysWhatItIs() {
        CATransaction.flush()
        let layer = CATransformLayer()
        let packet = CommitPacket.collect()
        let change = packet.changes.first { $0.layer == layer.layerID }
        XCTAssertNotNil(change)
        XCTAssertEqual(change?.customValues.map(\.key), [LayerRenderKind.propertyKey])
        XCTAssertEqual(change?.customValues.first?.value, .discrete(DiscreteValue("transform")))
        XCTAssertEqual(CommitPacket.snapshot(of: layer).changes.first?.customValues.map(\.key), [LayerRenderKind.propertyKey])
        // A plain layer declares nothing.
        XCTAssertEqual(CommitPacket.snapshot(of: CALayer()).changes.first?.customValues.count, 0)
    }
}
