import Foundation
import LayerKit
@testable import LayerKitVulkan
import XCTest

/// `CATransformLayer` and 3D rendering contexts, rendered headless and checked at pixels worked out by
/// hand: 3D passes through a transform layer (and is flattened by any other layer), planes draw
/// nearer over farther whatever their sublayer order, crossing planes show each colour on its nearer
/// side of the intersection line, coplanar planes keep sublayer order.
///
/// The scenes: a 128×128 root whose `stage` fills it with perspective `m34 = −1/200` about its centre
/// (64, 64), so a stage-space point (x, y, z) is seen at `64 + (x − 64)·200/(200 − z)` (likewise y).
/// The context is a transform layer of zero size at (64, 64), so its sublayer space has its origin
/// there. Row-vector rotations: `Ry(a)` takes (x, y, z) to (x cos a + z sin a, y, −x sin a + z cos a).
final class TransformLayerRenderTests: CARendererTestCase {
    let side = 128
    let eye = 200.0

    func makeStage(flattening: Bool = false) -> (root: CALayer, container: CALayer) {
        let root = makeRoot(width: CGFloat(side), height: CGFloat(side))
        let stage = makeLayer(CGRect(x: 0, y: 0, width: side, height: side), nil, in: root)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / CGFloat(eye)
        stage.sublayerTransform = perspective
        let container = flattening ? CALayer() : CATransformLayer()
        container.position = CGPoint(x: 64, y: 64)
        stage.addSublayer(container)
        return (root, container)
    }

    /// A `width`×`height` plane centred at `center` of its superlayer's sublayer space, with `transform`.
    @discardableResult
    func plane(_ width: CGFloat, _ height: CGFloat, center: CGPoint = .zero, transform: CATransform3D = CATransform3DIdentity,
               _ color: CGColor, in parent: CALayer) -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        layer.position = center
        layer.transform = transform
        layer.backgroundColor = color
        parent.addSublayer(layer)
        return layer
    }

    func ry(_ p: SIMD3<Double>, _ a: Double) -> SIMD3<Double> {
        SIMD3(p.x * cos(a) + p.z * sin(a), p.y, -p.x * sin(a) + p.z * cos(a))
    }

    /// The pixel where the container's sublayer-space point `p` is seen.
    func project(_ p: SIMD3<Double>) -> SIMD2<Double> {
        let s = eye / (eye - p.z)
        return SIMD2(64 + p.x * s, 64 + p.y * s)
    }

    /// Every pixel whose centre lies more than a pixel inside the convex quad `corners` is `color`; every
    /// one more than a pixel outside it is clear (the ±1 px band along the edges is not checked).
    func assertQuad(_ image: CGImage, _ name: String, corners: [SIMD2<Double>], color: PixelRGBA,
                    file: StaticString = #filePath, line: UInt = #line) {
        var orientation = 0.0
        for k in 0..<4 { orientation += corners[k].x * corners[(k + 1) % 4].y - corners[(k + 1) % 4].x * corners[k].y }
        var inside = 0
        assertPixels(image, name, tolerance: 1, file: file, line: line) { x, y in
            let p = SIMD2(Double(x) + 0.5, Double(y) + 0.5)
            var nearest = Double.infinity
            for k in 0..<4 {
                let a = corners[k], b = corners[(k + 1) % 4]
                let edge = b - a
                let distance = (edge.x * (p.y - a.y) - edge.y * (p.x - a.x)) / (edge * edge).sum().squareRoot()
                nearest = min(nearest, orientation > 0 ? distance : -distance)
            }
            if nearest > 1 { inside += 1; return color }
            return nearest < -1 ? .clear : nil
        }
        XCTAssertGreaterThan(inside, 100, "\(name): the quad covers pixels", file: file, line: line)
    }

    // MARK: - 3D passes through

    func testAChildRotatedUnderATransformLayerKeepsItsDepth() throws {
        // Container Ry(π/6), child (60×40) Ry(π/6): composed in 3D, the child turns by π/3 in all.
        let (root, container) = makeStage()
        container.transform = CATransform3DMakeRotation(.pi / 6, 0, 1, 0)
        plane(60, 40, transform: CATransform3DMakeRotation(.pi / 6, 0, 1, 0), .testRed, in: container)
        let image = try render(root, width: side, height: side)
        let corners = [(-30.0, -20.0), (30, -20), (30, 20), (-30, 20)].map { project(ry(SIMD3($0.0, $0.1, 0), .pi / 3)) }
        // By hand: the right edge (z = −25.98) is seen at x = 64 + 15·200/225.98 = 77.3, the left at 46.8.
        XCTAssertEqual(corners[1].x, 77.27, accuracy: 0.01)
        XCTAssertEqual(corners[0].x, 46.76, accuracy: 0.01)
        assertQuad(image, "rotated by π/3", corners: corners, color: .red)
    }

    func testAnOrdinaryLayerStillFlattensItsSublayers() throws {
        // The same tree with a plain CALayer as container: the child's Ry(π/6) is flattened (z dropped)
        // into the container's plane before the container turns: x ↦ x·cos²(π/6), z = −x·cos(π/6)·sin(π/6).
        let (root, container) = makeStage(flattening: true)
        container.transform = CATransform3DMakeRotation(.pi / 6, 0, 1, 0)
        plane(60, 40, transform: CATransform3DMakeRotation(.pi / 6, 0, 1, 0), .testRed, in: container)
        let image = try render(root, width: side, height: side)
        let corners = [(-30.0, -20.0), (30, -20), (30, 20), (-30, 20)].map { corner -> SIMD2<Double> in
            let flattened = ry(SIMD3(corner.0, corner.1, 0), .pi / 6) * SIMD3(1, 1, 0)
            return project(ry(flattened, .pi / 6))
        }
        XCTAssertEqual(corners[1].x, 64 + 22.5 * 200 / 212.99, accuracy: 0.01)
        assertQuad(image, "flattened", corners: corners, color: .red)
    }

    // MARK: - Depth sort

    func testTheNearerOfTwoParallelPlanesCoversTheFartherWhateverTheirOrder() throws {
        // Red at z = +20 spans x −30…10, seen at 30.7…75.1; blue at z = −20 spans −10…30, seen at 54.9…91.3.
        for redFirst in [true, false] {
            let (root, container) = makeStage()
            let red = { self.plane(40, 40, center: CGPoint(x: -10, y: 0), transform: CATransform3DMakeTranslation(0, 0, 20), .testRed, in: container) }
            let blue = { self.plane(40, 40, center: CGPoint(x: 10, y: 0), transform: CATransform3DMakeTranslation(0, 0, -20), .testBlue, in: container) }
            if redFirst { red(); blue() } else { blue(); red() }
            let image = try render(root, width: side, height: side)
            assertPixels(image, "parallel planes, red added \(redFirst ? "first" : "last")", probes: [
                Probe("red alone", 40, 64, .red), Probe("overlap: red is nearer", 65, 64, .red),
                Probe("overlap, upper", 70, 50, .red), Probe("blue alone", 85, 64, .blue), Probe("outside", 100, 64, .clear),
            ])
        }
    }

    // MARK: - Intersecting planes

    func testCrossingPlanesShowEachColourOnItsNearerSideOfTheIntersection() throws {
        // Red turned Ry(π/4), blue Ry(−π/4), both 60×40 at the centre: they cross along x = 0. Right of
        // it blue is nearer (z = +x), left of it red. Half-transparent, so each side shows near over far:
        // premultiplied near + far·(1 − 0.5): (0.25, 0, 0.5, 0.75) right, (0.5, 0, 0.25, 0.75) left.
        // Alone: red left of 44.8 (x ≥ 40.3), blue right of 83.2 (x ≤ 87.7).
        let halfRed = CGColor(red: 1, green: 0, blue: 0, alpha: 0.5), halfBlue = CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)
        let blueOverRed = PixelRGBA(premultiplied: 0.25, 0, 0.5, 0.75), redOverBlue = PixelRGBA(premultiplied: 0.5, 0, 0.25, 0.75)
        for redFirst in [true, false] {
            let (root, container) = makeStage()
            let red = { self.plane(60, 40, transform: CATransform3DMakeRotation(.pi / 4, 0, 1, 0), halfRed, in: container) }
            let blue = { self.plane(60, 40, transform: CATransform3DMakeRotation(-.pi / 4, 0, 1, 0), halfBlue, in: container) }
            if redFirst { red(); blue() } else { blue(); red() }
            let image = try render(root, width: side, height: side)
            assertPixels(image, "crossing planes, red added \(redFirst ? "first" : "last")", tolerance: 2, probes: [
                Probe("left, far from the line", 50, 64, redOverBlue), Probe("left, near the line", 60, 64, redOverBlue),
                Probe("left, upper", 58, 54, redOverBlue), Probe("right, near the line", 67, 64, blueOverRed),
                Probe("right, far from the line", 78, 64, blueOverRed), Probe("right, lower", 70, 74, blueOverRed),
                Probe("red alone", 42, 64, PixelRGBA(premultiplied: 0.5, 0, 0, 0.5)),
                Probe("blue alone", 86, 64, PixelRGBA(premultiplied: 0, 0, 0.5, 0.5)),
            ])
        }
    }

    func testOpaqueCrossingPlanesMeetAtTheIntersectionLine() throws {
        // As above, opaque: the whole plane is drawn in the depth-tested opaque phase, the other's pieces
        // after it, tested against its depth. Left of the line red, right of it blue.
        for redFirst in [true, false] {
            let (root, container) = makeStage()
            let red = { self.plane(60, 40, transform: CATransform3DMakeRotation(.pi / 4, 0, 1, 0), .testRed, in: container) }
            let blue = { self.plane(60, 40, transform: CATransform3DMakeRotation(-.pi / 4, 0, 1, 0), .testBlue, in: container) }
            if redFirst { red(); blue() } else { blue(); red() }
            let image = try render(root, width: side, height: side)
            assertPixels(image, "opaque crossing planes, red added \(redFirst ? "first" : "last")", probes: [
                Probe("left", 50, 64, .red), Probe("left, near the line", 62, 64, .red), Probe("left, upper", 58, 50, .red),
                Probe("right, near the line", 66, 64, .blue), Probe("right", 78, 64, .blue), Probe("right, lower", 70, 78, .blue),
                Probe("red alone", 42, 64, .red), Probe("blue alone", 86, 64, .blue),
            ])
        }
    }

    func testAGradientPlaneCrossingAnotherShowsOnItsNearerSideWithTheWholeLayersGradient() throws {
        // Opaque red turned Ry(π/4) and a 60×40 gradient plane turned Ry(−π/4), green at its left edge to
        // blue at its right (start (0, ½), end (1, ½)): they cross along x = 0; left of it red is nearer,
        // right of it the gradient. Whichever plane the tree cuts, the gradient's colour at a pixel is
        // that of the whole layer at the layer point seen there.
        // The gradient plane's point u = lx/√2 (lx from its centre) sits at (u, ly, u): seen at
        // X − 64 = 200u / (200 − u), so u = 200(X − 64) / (200 + X − 64) and ly = (Y − 64)(200 − u) / 200.
        // Red's sits at (v, ly, −v): v = 200(X − 64) / (200 − (X − 64)), ly = (Y − 64)(200 + v) / 200.
        let root2 = 2.0.squareRoot()
        for redFirst in [true, false] {
            let (root, container) = makeStage()
            let gradient = CAGradientLayer()
            gradient.bounds = CGRect(x: 0, y: 0, width: 60, height: 40)
            gradient.transform = CATransform3DMakeRotation(-.pi / 4, 0, 1, 0)
            gradient.colors = [CGColor(red: 0, green: 1, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
            gradient.startPoint = CGPoint(x: 0, y: 0.5)
            gradient.endPoint = CGPoint(x: 1, y: 0.5)
            if redFirst {
                plane(60, 40, transform: CATransform3DMakeRotation(.pi / 4, 0, 1, 0), .testRed, in: container)
                container.addSublayer(gradient)
            } else {
                container.addSublayer(gradient)
                plane(60, 40, transform: CATransform3DMakeRotation(.pi / 4, 0, 1, 0), .testRed, in: container)
            }
            let renderer = try makeRenderer(width: side, height: side)
            renderer.layer = root
            let image = try renderFrame(renderer)
            XCTAssertEqual(renderer.lastFrameStatistics.planesSorted, 2)
            XCTAssertEqual(renderer.lastFrameStatistics.planesSplit, 1)
            var gradientPixels = 0, redPixels = 0
            assertPixels(image, "gradient plane, red added \(redFirst ? "first" : "last")", tolerance: 3) { x, y in
                let (dx, dy) = (Double(x) + 0.5 - 64, Double(y) + 0.5 - 64)
                guard abs(dx) > 2 else { return nil }  // too close to the intersection line to call
                let u = 200 * dx / (200 + dx), gradientY = dy * (200 - u) / 200
                let v = 200 * dx / (200 - dx), redY = dy * (200 + v) / 200
                // Distance inside each plane's rectangle, in layer units (about a pixel each here).
                let inGradient = min(30 - abs(u * root2), 20 - abs(gradientY))
                let inRed = min(30 - abs(v * root2), 20 - abs(redY))
                guard abs(inGradient) > 1.5, abs(inRed) > 1.5 else { return nil }
                // Nearer is larger z: the gradient's z is u, red's −v.
                if inGradient > 0 && (inRed < 0 || u > -v) {
                    gradientPixels += 1
                    let t = (u * root2 + 30) / 60
                    return PixelRGBA(premultiplied: 0, 1 - t, t, 1)
                }
                if inRed > 0 { redPixels += 1; return .red }
                return .clear
            }
            XCTAssertGreaterThan(gradientPixels, 300)
            XCTAssertGreaterThan(redPixels, 300)
        }
    }

    func testCoplanarPlanesKeepSublayerOrder() throws {
        // Two 40×40 planes in the container's plane, turned Ry(π/6) together, overlapping around x = 0
        // (seen at pixel 64): the later sublayer shows there.
        for redLast in [true, false] {
            let (root, container) = makeStage()
            container.transform = CATransform3DMakeRotation(.pi / 6, 0, 1, 0)
            let red = { self.plane(40, 40, center: CGPoint(x: -8, y: 0), .testRed, in: container) }
            let blue = { self.plane(40, 40, center: CGPoint(x: 8, y: 0), .testBlue, in: container) }
            if redLast { blue(); red() } else { red(); blue() }
            let image = try render(root, width: side, height: side)
            // x = −20 is seen at 64 − 17.32·200/190 = 45.8; x = 20 at 64 + 17.32·200/210 = 80.5.
            assertPixels(image, "coplanar, red \(redLast ? "last" : "first")", probes: [
                Probe("overlap", 64, 64, redLast ? .red : .blue), Probe("red alone", 46, 64, .red), Probe("blue alone", 80, 64, .blue),
            ])
        }
    }

    // MARK: - What a transform layer does not draw

    func testATransformLayerDrawsNothingOfItsOwnAndPassesItsOpacityDown() throws {
        // Background, border and masksToBounds ignored; opacity 0.5 multiplies into each sublayer with no
        // group: where blue (later, coplanar) overlaps red, blue·0.5 over red·0.5 = (0.25, 0, 0.5, 0.75).
        let root = makeRoot()
        let container = CATransformLayer()
        container.frame = CGRect(x: 0, y: 0, width: 32, height: 32)
        container.backgroundColor = .testGreen
        container.borderColor = .testGreen
        container.borderWidth = 3
        container.masksToBounds = true
        container.opacity = 0.5
        root.addSublayer(container)
        makeLayer(CGRect(x: 16, y: 16, width: 24, height: 24), .testRed, in: container)
        makeLayer(CGRect(x: 28, y: 28, width: 24, height: 24), .testBlue, in: container)
        let image = try render(root)
        assertPixels(image, "transform layer", tolerance: 1, probes: [
            Probe("own background and border", 1, 1, .clear), Probe("own background", 8, 8, .clear),
            Probe("red at half", 20, 20, PixelRGBA(premultiplied: 0.5, 0, 0, 0.5)),
            Probe("blue over red, each at half", 34, 34, PixelRGBA(premultiplied: 0.25, 0, 0.5, 0.75)),
            Probe("blue beyond the bounds, unclipped", 48, 48, PixelRGBA(premultiplied: 0, 0, 0.5, 0.5)),
        ])
    }
}
