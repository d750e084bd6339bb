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
    func testAGradientOnASplitPlaneIsCutLikeItsBackground() {
        // The gradient plane straddles the red one (the tree's root): its background and its gradient are
        // each cut into a far and a near piece. Every gradient piece keeps the whole layer's gradient
        // geometry in layer space (start (0, 20), end (60, 20) for points (0, ½) → (1, ½) of 60 × 40) and
        // its header (axial, two stops), moved out of the corners' slot.
        let (scene, container) = makeScene()
        let red = plane(TinyScene.red, transform: CATransform3DMakeRotation(.pi / 4, 0, 1, 0), in: container)
        let gradient = CAGradientLayer()
        gradient.bounds = CGRect(x: 0, y: 0, width: 60, height: 40)
        gradient.transform = CATransform3DMakeRotation(-.pi / 4, 0, 1, 0)
        gradient.backgroundColor = TinyScene.blue
        gradient.colors = [TinyScene.green, TinyScene.blue]
        gradient.startPoint = CGPoint(x: 0, y: 0.5)
        gradient.endPoint = CGPoint(x: 1, y: 0.5)
        container.addSublayer(gradient)
        let graph = scene.built()
        let items = graph.framePass.items
        XCTAssertEqual(items.map(\.layer), [gradient.layerID, gradient.layerID, red.layerID, gradient.layerID, gradient.layerID])
        let gradients = items.filter { $0.instance.flags.contains(.gradient) }
        XCTAssertEqual(gradients.count, 2)
        for piece in gradients {
            XCTAssertTrue(piece.instance.flags.contains(.pieceCorners))
            XCTAssertEqual(piece.instance.gradientGeometry, SIMD4(0, 20, 60, 20))
            XCTAssertEqual(piece.instance.gradientKind, GradientPaint.Kind.axial.rawValue)
            XCTAssertEqual(piece.instance.gradientStopCount, 2)
        }
        // The two pieces meet on the line where the planes cross: layer x = 30, the plane's centre line.
        let xs = gradients.map { piece -> [Float] in
            let (a, b, c, d) = piece.instance.pieceCorners
            return [a.x, b.x, c.x, d.x]
        }
        XCTAssertEqual(xs.map { $0.contains { abs($0 - 30) < 1e-3 } }, [true, true])
        XCTAssertEqual(graph.statistics.planesSorted, 2)
        XCTAssertEqual(graph.statistics.planesSplit, 1)
    }

    func testStatisticsCountPlanesSortedAndSplit() {
        // Two crossing planes: two sorted, one cut (the second plane straddles the first).
        let (crossing, container) = makeScene()
        plane(TinyScene.red, transform: CATransform3DMakeRotation(.pi / 4, 0, 1, 0), in: container)
        plane(TinyScene.blue, transform: CATransform3DMakeRotation(-.pi / 4, 0, 1, 0), in: container)
        let crossed = crossing.compiled().statistics
        XCTAssertEqual(crossed.planesSorted, 2)
        XCTAssertEqual(crossed.planesSplit, 1)

        // The six faces of a 40-point cube, turned so that every face is seen at an angle: faces meet
        // only along edges, so the tree orders them without a cut.
        let (cube, cubeContainer) = makeScene()
        cubeContainer.transform = CATransform3DConcat(CATransform3DMakeRotation(0.5, 0, 1, 0), CATransform3DMakeRotation(0.4, 1, 0, 0))
        let turns: [(CGFloat, CGFloat, CGFloat)] = [(0, 0, 1), (.pi / 2, 0, 1), (.pi, 0, 1), (-.pi / 2, 0, 1), (.pi / 2, 1, 0), (-.pi / 2, 1, 0)]
        for (angle, x, y) in turns {
            let face = CALayer()
            face.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
            face.backgroundColor = TinyScene.green
            // Row vectors: pushed out to z = 20 first, then turned about the cube's centre.
            face.transform = CATransform3DConcat(CATransform3DMakeTranslation(0, 0, 20), CATransform3DMakeRotation(angle, x, y, 0))
            cubeContainer.addSublayer(face)
        }
        let statistics = cube.compiled().statistics
        XCTAssertEqual(statistics.planesSorted, 6)
        XCTAssertEqual(statistics.planesSplit, 0)
        XCTAssertTrue(statistics.description.contains("planes 6 sorted, 0 split"), statistics.description)

        // A frame without a 3D rendering context sorts nothing.
        let flat = TinyScene()
        flat.layer(CGRect(x: 0, y: 0, width: 10, height: 10), TinyScene.red)
        XCTAssertEqual(flat.compiled().statistics.planesSorted, 0)
    }
}
