import LayerKit
@testable import LayerKitVulkan
import XCTest

/// `transform`, `anchorPoint`, `sublayerTransform` (perspective), `isDoubleSided`, `zPosition`,
/// `isGeometryFlipped` and `allowsEdgeAntialiasing`, with expected positions worked out by hand.
///
/// Core Animation's rotation about z by a positive angle takes +x toward +y: (x, y) → (x cos θ − y sin θ,
/// x sin θ + y cos θ), clockwise on LayerKit's y-down screen.
final class TransformRenderTests: CARendererTestCase {
    /// A 30×10 blue layer with a red 10×10 marker at its left end (local x 0 ..< 10), so that both a
    /// swapped width and height and a wrong rotation direction show.
    func makeMarkedLayer(in root: CALayer) -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 30, height: 10)
        layer.backgroundColor = .testBlue
        makeLayer(CGRect(x: 0, y: 0, width: 10, height: 10), .testRed, in: layer)
        root.addSublayer(layer)
        return layer
    }

    func testRotationBy90DegreesTurnsANonSquareLayerAboutItsCentre() throws {
        // Centre (32, 32): local offsets x ∈ [−15, 15], y ∈ [−5, 5] go to (32 − y, 32 + x), a 10×30
        // rectangle (27, 17) ..< (37, 47); the marker (x ∈ [−15, −5]) lands at its top, y 17 ..< 27.
        let root = makeRoot()
        let layer = makeMarkedLayer(in: root)
        layer.position = CGPoint(x: 32, y: 32)
        layer.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let image = try render(root)
        assertPixels(image, "rotate-90") { x, y in
            guard (27..<37).contains(x), (17..<47).contains(y) else { return .clear }
            return y < 27 ? .red : .blue
        }
    }

    func testRotationAboutAnAnchorPointAtTheTopLeftCorner() throws {
        // anchorPoint (0, 0) at position (40, 10): local (x, y) → (40 − y, 10 + x), so the layer covers
        // (30, 10) ..< (40, 40) and the marker y 10 ..< 20.
        let root = makeRoot()
        let layer = makeMarkedLayer(in: root)
        layer.anchorPoint = .zero
        layer.position = CGPoint(x: 40, y: 10)
        layer.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let image = try render(root)
        assertPixels(image, "rotate-anchor-00") { x, y in
            guard (30..<40).contains(x), (10..<40).contains(y) else { return .clear }
            return y < 20 ? .red : .blue
        }
    }

    func testUnequalScaleScalesEachAxisByItsOwnFactor() throws {
        // 30×10 scaled (0.6, 2) about its centre (32, 32): 18×20, (23, 22) ..< (41, 42); the marker
        // (x ∈ [−15, −5] → [−9, −3]) covers x 23 ..< 29.
        let root = makeRoot()
        let layer = makeMarkedLayer(in: root)
        layer.position = CGPoint(x: 32, y: 32)
        layer.transform = CATransform3DMakeScale(0.6, 2, 1)
        let image = try render(root)
        assertPixels(image, "scale-0.6x2") { x, y in
            guard (23..<41).contains(x), (22..<42).contains(y) else { return .clear }
            return x < 29 ? .red : .blue
        }
    }

    // MARK: - Perspective

    func testPerspectiveProjectsTheCornersOfALayerRotatedAboutY() throws {
        // A 128×128 container with sublayerTransform.m34 = −1/500 about its centre (64, 64); a 120×40
        // child centred there, rotated by 60° about y. Core Animation's rotation about y maps local
        // (x, y, 0) to (x cos θ, y, −x sin θ); with row vectors, w = 1 + z · m34 = 1 + x sin θ / 500, and
        // the screen point is (64, 64) + (x cos θ, y) / w.
        let root = makeRoot(width: 128, height: 128)
        let container = makeLayer(CGRect(x: 0, y: 0, width: 128, height: 128), nil, in: root)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        container.sublayerTransform = perspective
        let child = CALayer()
        child.bounds = CGRect(x: 0, y: 0, width: 120, height: 40)
        child.position = CGPoint(x: 64, y: 64)
        child.backgroundColor = .testWhite
        child.transform = CATransform3DMakeRotation(.pi / 3, 0, 1, 0)
        container.addSublayer(child)
        let image = try render(root, width: 128, height: 128)

        let angle = Double.pi / 3
        func project(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
            let w = 1 + x * sin(angle) / 500
            return (64 + x * cos(angle) / w, 64 + y / w)
        }
        let topLeft = project(-60, -20), topRight = project(60, -20)
        // Left edge at x ≈ 30.52 (the near side, taller), right edge at x ≈ 91.18 (the far side).
        XCTAssertEqual(topLeft.x, 30.52, accuracy: 0.01)
        XCTAssertEqual(topRight.x, 91.18, accuracy: 0.01)

        // Middle row: covered columns are those whose centre lies between the two edges.
        let row = (0..<128).filter { image.pixel(x: $0, y: 64).a > 127 }
        let first = try XCTUnwrap(row.first), last = try XCTUnwrap(row.last)
        XCTAssertEqual(Double(first), topLeft.x, accuracy: 1, "left edge")
        XCTAssertEqual(Double(last + 1), topRight.x, accuracy: 1, "right edge")
        XCTAssertEqual(row.count, last - first + 1, "the middle row is one run")

        // The top edge is the straight line between the projected top corners: check its height near
        // both ends (the near end is taller).
        for column in [Int(topLeft.x) + 3, Int(topRight.x) - 3] {
            let t = (Double(column) + 0.5 - topLeft.x) / (topRight.x - topLeft.x)
            let top = topLeft.y + t * (topRight.y - topLeft.y)
            let rows = (0..<128).filter { image.pixel(x: column, y: $0).a > 127 }
            let firstRow = try XCTUnwrap(rows.first, "column \(column)")
            XCTAssertEqual(Double(firstRow), top, accuracy: 1, "top edge at column \(column)")
            XCTAssertEqual(Double(rows.last! + 1), 128 - top, accuracy: 1, "bottom edge at column \(column)")
        }
    }

    // MARK: - Facing

    func makeFlippedAboutY(doubleSided: Bool) -> CALayer {
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 16, y: 16, width: 32, height: 24), .testBlue, in: root)
        layer.isDoubleSided = doubleSided
        layer.transform = CATransform3DMakeRotation(.pi, 0, 1, 0)
        return root
    }

    func testSingleSidedLayerFacingAwayDrawsNothing() throws {
        let image = try render(makeFlippedAboutY(doubleSided: false))
        assertPixels(image, "single-sided-back") { _, _ in .clear }
    }

    func testDoubleSidedLayerFacingAwayDrawsMirrored() throws {
        // Rotated by π about y the layer shows its back, mirrored left to right: a marker sublayer at its
        // left 8 points appears at the right, x 40 ..< 48.
        let root = makeFlippedAboutY(doubleSided: true)
        makeLayer(CGRect(x: 0, y: 0, width: 8, height: 24), .testRed, in: root.sublayers![0])
        let image = try render(root)
        assertPixels(image, "double-sided-back") { x, y in
            guard (16..<48).contains(x), (16..<40).contains(y) else { return .clear }
            return x >= 40 ? .red : .blue
        }
    }

    func testSingleSidedLayerFacingTheViewerDraws() throws {
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 16, y: 16, width: 32, height: 24), .testBlue, in: root)
        layer.isDoubleSided = false
        layer.transform = CATransform3DMakeRotation(.pi / 4, 0, 1, 0)
        let image = try render(root)
        XCTAssertEqual(PixelRGBA(image, 32, 28), .blue)
    }

    // MARK: - Ordering

    func testZPositionOrdersSiblingsOverTheirSublayerOrder() throws {
        // Added red, green, blue; zPosition red 1, green −1, blue 0: drawn green, blue, red.
        let root = makeRoot()
        let red = makeLayer(CGRect(x: 8, y: 8, width: 24, height: 24), .testRed, in: root)
        let green = makeLayer(CGRect(x: 16, y: 16, width: 24, height: 24), .testGreen, in: root)
        makeLayer(CGRect(x: 24, y: 24, width: 24, height: 24), .testBlue, in: root)
        red.zPosition = 1
        green.zPosition = -1
        let image = try render(root)
        assertPixels(image, "z-order") { x, y in
            if (8..<32).contains(x) && (8..<32).contains(y) { return .red }
            if (24..<48).contains(x) && (24..<48).contains(y) { return .blue }
            if (16..<40).contains(x) && (16..<40).contains(y) { return .green }
            return .clear
        }
    }

    func testZPositionOrdersOnlyAmongSiblings() throws {
        // A sublayer with a huge zPosition stays under its parent's later sibling, and a negative one
        // stays above its own parent's background.
        let root = makeRoot()
        let first = makeLayer(CGRect(x: 0, y: 0, width: 40, height: 40), .testBlue, in: root)
        let high = makeLayer(CGRect(x: 8, y: 8, width: 24, height: 24), .testRed, in: first)
        high.zPosition = 100
        let low = makeLayer(CGRect(x: 0, y: 0, width: 8, height: 8), .testYellow, in: first)
        low.zPosition = -100
        makeLayer(CGRect(x: 24, y: 24, width: 40, height: 40), .testGreen, in: root)
        let image = try render(root)
        assertPixels(image, "z-siblings-only") { x, y in
            if x >= 24 && y >= 24 { return .green }
            if x < 8 && y < 8 { return .yellow }
            if (8..<32).contains(x) && (8..<32).contains(y) { return .red }
            if x < 40 && y < 40 { return .blue }
            return .clear
        }
    }

    // MARK: - Flipped geometry

    func testGeometryFlippedPlacesSublayersFromTheBottom() throws {
        // A flipped 48×40 parent at (8, 8): a child at (10, 4), 20×8, sits 4 points above the parent's
        // bottom edge: y = 8 + 40 − 4 − 8 = 36.
        let root = makeRoot()
        let parent = makeLayer(CGRect(x: 8, y: 8, width: 48, height: 40), nil, in: root)
        parent.isGeometryFlipped = true
        makeLayer(CGRect(x: 10, y: 4, width: 20, height: 8), .testRed, in: parent)
        let image = try render(root)
        assertPixels(image, "flipped") { x, y in
            (18..<38).contains(x) && (36..<44).contains(y) ? .red : .clear
        }
    }

    func testGeometryFlippedDoesNotMoveTheLayerItself() throws {
        let root = makeRoot()
        let parent = makeLayer(CGRect(x: 8, y: 8, width: 48, height: 12), .testBlue, in: root)
        parent.isGeometryFlipped = true
        let image = try render(root)
        assertPixels(image, "flipped-self") { x, y in
            (8..<56).contains(x) && (8..<20).contains(y) ? .blue : .clear
        }
    }

    // MARK: - Edge antialiasing

    /// A 32×16 white layer centred at (32, 32), rotated by 30°.
    func makeRotatedLayer(antialiased: Bool) -> CALayer {
        let root = makeRoot()
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 32, height: 16)
        layer.position = CGPoint(x: 32, y: 32)
        layer.backgroundColor = .testWhite
        layer.transform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        layer.allowsEdgeAntialiasing = antialiased
        root.addSublayer(layer)
        return root
    }

    let rotatedShape = RotatedRectShape(centerX: 32, centerY: 32, width: 32, height: 16, angle: .pi / 6)

    func testWithoutEdgeAntialiasingRotatedEdgesAreHard() throws {
        // Every pixel fully in or out; in exactly when its centre is inside the rotated rectangle
        // (pixels whose centre is within 0.01 of an edge may go either way).
        let image = try render(makeRotatedLayer(antialiased: false))
        assertPixels(image, "hard-edges") { x, y in
            let distance = self.rotatedShape.signedDistance(Double(x) + 0.5, Double(y) + 0.5)
            if abs(distance) < 0.01 { return nil }
            return distance < 0 ? .white : .clear
        }
    }

    func testEdgeAntialiasingGivesPartialCoverageOnRotatedEdges() throws {
        let image = try render(makeRotatedLayer(antialiased: true))
        let partial = (0..<64).flatMap { y in (0..<64).map { (x: $0, y: y) } }
            .filter { (1...254).contains(image.pixel(x: $0.x, y: $0.y).a) }
        // The perimeter is 96 points long; most pixels along it are partly covered.
        XCTAssertGreaterThan(partial.count, 60)
        assertCoverage(image, "antialiased-edges", of: rotatedShape, edgeTolerance: 0.06)
    }
    func testEdgeAntialiasingUnderANonUniformScaleCoversEveryFringePixel() throws {
        // The same 32×16 rectangle on screen, made of an 8×16 layer stretched 4× along its x before the
        // turn: its quad grows half a pixel across each edge (0.125 units along x, 0.5 along y), and every
        // pixel the ramp reaches still has its analytic coverage.
        let root = makeRoot()
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 8, height: 16)
        layer.position = CGPoint(x: 32, y: 32)
        layer.backgroundColor = .testWhite
        layer.transform = CATransform3DConcat(CATransform3DMakeScale(4, 1, 1), CATransform3DMakeRotation(.pi / 6, 0, 0, 1))
        layer.allowsEdgeAntialiasing = true
        root.addSublayer(layer)
        let image = try render(root)
        // Along the edges only: within a pixel of a corner the shader picks the edge nearer in layer units,
        // which a non-uniform scale can make the farther one on screen (two corner pixels show 1 for 0.7).
        let shape = rotatedShape
        assertCoverage(image, "antialiased-edges, stretched", tolerance: 0.06) { x, y in
            shape.distanceToCorner(Double(x) + 0.5, Double(y) + 0.5) < 1 ? nil : self.areaCoverage(x: x, y: y, of: shape)
        }
    }
}
