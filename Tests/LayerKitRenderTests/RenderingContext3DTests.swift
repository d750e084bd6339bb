import XCTest
@testable import LayerKitRender

/// 3D rendering contexts at the graph level: which draws the builder emits for a transform layer's
/// planes, in which order, and that compiling (culling, depth phases, batching) keeps that order wherever
/// draws overlap. Scenes: a 128 × 128 target, a stage with perspective `m34 = −1/200`, a transform layer
/// of zero size at its centre.
final class RenderingContext3DTests: XCTestCase {
    func makeScene() -> (scene: TinyScene, container: CATransformLayer) {
        let scene = TinyScene(width: 128, height: 128)
        let stage = scene.layer(CGRect(x: 0, y: 0, width: 128, height: 128))
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 200
        stage.sublayerTransform = perspective
        let container = CATransformLayer()
        container.position = CGPoint(x: 64, y: 64)
        stage.addSublayer(container)
        return (scene, container)
    }

    @discardableResult
    func plane(_ color: CGColor, width: CGFloat = 60, transform: CATransform3D, in parent: CALayer) -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: width, height: 40)
        layer.transform = transform
        layer.backgroundColor = color
        parent.addSublayer(layer)
        return layer
    }

    func testCrossingPlanesSplitOneIntoTwoPiecesAroundTheOther() {
        let (scene, container) = makeScene()
        let red = plane(TinyScene.red, transform: CATransform3DMakeRotation(.pi / 4, 0, 1, 0), in: container)
        let blue = plane(TinyScene.blue, transform: CATransform3DMakeRotation(-.pi / 4, 0, 1, 0), in: container)
        let items = scene.built().framePass.items
        // The first plane (red) is the tree's root; blue straddles it and is cut in two: blue's far piece,
        // red, blue's near piece.
        XCTAssertEqual(items.map(\.layer), [blue.layerID, red.layerID, blue.layerID])
        XCTAssertEqual(items.map { $0.instance.flags.contains(.pieceCorners) }, [true, false, true])
    }

    func testPlanesApartInDepthDrawFarToNearWithoutPieces() {
        let (scene, container) = makeScene()
        let near = plane(TinyScene.red, transform: CATransform3DMakeTranslation(0, 0, 20), in: container)
        let far = plane(TinyScene.blue, transform: CATransform3DMakeTranslation(10, 0, -20), in: container)
        let items = scene.built().framePass.items
        XCTAssertEqual(items.map(\.layer), [far.layerID, near.layerID])
        XCTAssertFalse(items.contains { $0.instance.flags.contains(.pieceCorners) })
    }

    func testAFlatteningParentDrawsInSublayerOrderWithoutPieces() {
        // The same crossing planes under a plain layer: flattened, drawn in sublayer order, nothing split.
        let scene = TinyScene(width: 128, height: 128)
        let parent = scene.layer(CGRect(x: 64, y: 64, width: 0, height: 0))
        let red = plane(TinyScene.red, transform: CATransform3DMakeRotation(.pi / 4, 0, 1, 0), in: parent)
        let blue = plane(TinyScene.blue, transform: CATransform3DMakeRotation(-.pi / 4, 0, 1, 0), in: parent)
        let items = scene.built().framePass.items
        XCTAssertEqual(items.map(\.layer), [red.layerID, blue.layerID])
        XCTAssertFalse(items.contains { $0.instance.flags.contains(.pieceCorners) })
    }

    func testCompilingKeepsTheSortedOrderOfOverlappingDraws() {
        // Opaque crossing planes with a depth-tested frame: whatever phase and batch each piece lands in,
        // two draws that share pixels end up as the builder ordered them — recorded in that order, or,
        // for a later opaque draw recorded first, kept in front by the depth it writes (its position).
        let (scene, container) = makeScene()
        plane(TinyScene.red, transform: CATransform3DMakeRotation(.pi / 4, 0, 1, 0), in: container)
        plane(TinyScene.blue, transform: CATransform3DMakeRotation(-.pi / 4, 0, 1, 0), in: container)
        plane(TinyScene.green, width: 100, transform: CATransform3DMakeRotation(.pi / 2.5, 1, 0, 0), in: container)
        var compiler = DrawListCompiler()
        compiler.depthTesting = true
        let built = scene.built().framePass.items
        let pass = scene.compiled(compiler).framePass
        XCTAssertEqual(pass.items.count, built.count, "nothing culled")
        XCTAssertGreaterThan(built.filter { $0.instance.flags.contains(.pieceCorners) }.count, 2)
        let footprints = pass.items.map { OffscreenDecision.footprint(of: $0, targetWidth: 128, targetHeight: 128) }
        var position = [Int](repeating: 0, count: pass.items.count)
        for (recorded, index) in pass.drawOrder.enumerated() { position[index] = recorded }
        for i in pass.items.indices {
            for j in pass.items.indices where i < j {
                guard let a = footprints[i], let b = footprints[j], a.intersects(b) else { continue }
                // A later opaque draw may be recorded first: it writes its nearer depth, and the depth test
                // then keeps the earlier draw from painting over it. Any other later draw goes later.
                if !DrawListCompiler.isDepthOpaque(pass.items[j]) {
                    XCTAssertLessThan(position[i], position[j], "draws \(i) and \(j) overlap")
                }
                XCTAssertGreaterThan(pass.items[i].instance.depth, pass.items[j].instance.depth, "later draws are nearer")
            }
        }
    }
}

extension RenderingContext3DTests {
    func testAGradientOnASplitPlaneIsDrawnOnceWhole() {
        // The gradient's stops take the instance's corner slot, so its draw is never cut: where its plane
        // is split it is drawn whole, once, with the plane's farthest piece; the plane's background is cut.
        let (scene, container) = makeScene()
        plane(TinyScene.red, transform: CATransform3DMakeRotation(.pi / 4, 0, 1, 0), in: container)
        let gradient = CAGradientLayer()
        gradient.bounds = CGRect(x: 0, y: 0, width: 60, height: 40)
        gradient.transform = CATransform3DMakeRotation(-.pi / 4, 0, 1, 0)
        gradient.backgroundColor = TinyScene.blue
        gradient.colors = [TinyScene.green, TinyScene.blue]
        container.addSublayer(gradient)
        let items = scene.built().framePass.items.filter { $0.layer == gradient.layerID }
        let gradients = items.filter { $0.instance.flags.contains(.gradient) }
        XCTAssertEqual(gradients.count, 1)
        XCTAssertFalse(gradients[0].instance.flags.contains(.pieceCorners))
        XCTAssertEqual(items.filter { $0.instance.flags.contains(.pieceCorners) }.count, 2, "the background's two pieces")
    }
}
