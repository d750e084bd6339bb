import LayerKit
@testable import LayerKitVulkan
import XCTest

/// Clipping by stencil (`StencilClipCommand`): a rotated `masksToBounds` layer inside an axis-aligned one,
/// neither containing the other, shows its content only where both overlap. The inner (rotated) clip is
/// analytic and antialiased; the outer clip is the stencil, which takes a pixel when the outer shape
/// covers its centre — exactly the pixels inside it here, whose edges lie on pixel boundaries.
/// Expected coverage is computed from the two shapes (`PixelRegion`), never from a rendered image.
final class StencilClipRenderTests: CARendererTestCase {
    /// The outer clip: the axis-aligned square (16, 16)…(48, 48).
    let outerFrame = CGRect(x: 16, y: 16, width: 32, height: 32)

    /// The outer clip holding a 32×32 clip rotated by 45° about the same centre (32, 32) — a diamond
    /// |x − 32| + |y − 32| ≤ 16√2 ≈ 22.6, whose corners stick out of the square while the square's
    /// corners stick out of it — holding a green layer that overflows both.
    private func makeScene(outerRadius: CGFloat = 0) -> CALayer {
        let root = makeRoot()
        let outer = makeLayer(outerFrame, nil, in: root)
        outer.masksToBounds = true
        outer.cornerRadius = outerRadius
        let inner = makeLayer(CGRect(x: 0, y: 0, width: 32, height: 32), nil, in: outer)
        inner.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        inner.masksToBounds = true
        makeLayer(CGRect(x: -40, y: -40, width: 112, height: 112), .testGreen, in: inner)
        return root
    }

    private let diamond = RotatedRectShape(centerX: 32, centerY: 32, width: 32, height: 32, angle: .pi / 4)

    func testARotatedClipInsideAnAxisAlignedClipDrawsOnlyWhereBothOverlap() throws {
        let renderer = try makeRenderer()
        renderer.layer = makeScene()
        let image = try renderFrame(renderer)
        // The frame pass brackets the green layer with the outer square's push and pop.
        let commands = renderer.lastGraph?.passes.last?.items.compactMap(\.stencilCommand)
        XCTAssertEqual(commands, [.push, .pop])
        assertPixels(image, "stencil-clip-probes", probes: [
            Probe("centre, inside both", 32, 32, .green),
            // Pixel centre (46.5, 32.5): 14.5 + 0.5 from the centre, inside the diamond; inside the square.
            Probe("right, inside both", 46, 32, .green),
            Probe("left, inside both", 20, 30, .green),
            // (49.5, 32.5): inside the diamond (17.5 + 0.5 < 22.6) but right of the square.
            Probe("diamond only, right", 49, 32, .clear),
            // (32.5, 12.5): inside the diamond (0.5 + 19.5) but above the square.
            Probe("diamond only, top", 32, 12, .clear),
            Probe("diamond only, bottom", 31, 51, .clear),
            // (17.5, 17.5): inside the square, but 14.5 + 14.5 = 29 > 22.6 from the centre: outside the diamond.
            Probe("square only, top-left corner", 17, 17, .clear),
            Probe("square only, bottom-right corner", 46, 46, .clear),
        ])
        // Everywhere: the diamond's area coverage inside the square's whole pixels, 0 outside them (the
        // diamond's corners, where coverage ramps are not areas, lie outside the square).
        assertCoverage(image, "stencil-clip", color: .green, tolerance: 0.06) { x, y in
            guard self.outerFrame.contains(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)) else { return 0 }
            return self.areaCoverage(x: x, y: y, of: self.diamond)
        }
    }

    func testARoundedOuterClipInTheStencilKeepsThePixelsWhoseCentresItCovers() throws {
        // Radius 16 makes the outer clip the disc of radius 16 about (32, 32): the diamond's inscribed
        // circle, so the visible region is the disc (the diamond's corners stick out of it, and the
        // square's corners out of the diamond: a stencil case). The stencil is not antialiased: a pixel
        // is green when its centre is in the disc, clear otherwise (pixels within 1 px of the circle,
        // where the diamond's own ramp also touches it, are not checked).
        let renderer = try makeRenderer()
        renderer.layer = makeScene(outerRadius: 16)
        let image = try renderFrame(renderer)
        XCTAssertEqual(renderer.lastGraph?.passes.last?.items.compactMap(\.stencilCommand), [.push, .pop])
        assertPixels(image, "rounded-stencil-clip-probes", probes: [
            Probe("centre", 32, 32, .green),
            // (42.5, 22.5): 14.2 from the centre (inside the disc); 10.5 + 9.5 = 20 (inside the diamond).
            Probe("inside the disc, off-axis", 42, 22, .green),
            // (32.5, 17.5): 14.5 from the centre, inside the disc.
            Probe("inside the disc, top", 32, 17, .green),
            // (50.5, 32.5): inside the diamond (18.5 + 0.5), outside the disc and the square.
            Probe("diamond only", 50, 32, .clear),
        ])
        assertCoverage(image, "rounded-stencil-clip", color: .green, tolerance: 0.06) { x, y in
            let (dx, dy) = (Double(x) + 0.5 - 32, Double(y) + 0.5 - 32)
            let distance = (dx * dx + dy * dy).squareRoot()
            if abs(distance - 16) < 1 { return nil }
            return distance < 16 ? self.areaCoverage(x: x, y: y, of: self.diamond) : 0
        }
    }

    func testStencilClipsNestTwoLevelsDeep() throws {
        // The square S and the diamond D as above; inside D an axis-aligned (in the target) clip
        // R = (36, 16)…(60, 40), rotated −45° against D and overlapping it: a second stencil bracket,
        // for D, inside the first, for S. The green layer inside R shows where the stencil reaches level 2
        // (pixel centres in S and in D) and R's analytic clip covers (R's edges lie on pixel boundaries).
        let root = makeScene()
        let outer = root.sublayers![0]
        let middle = outer.sublayers![0]
        middle.sublayers!.forEach { $0.removeFromSuperlayer() }
        let inner = CALayer()
        inner.bounds = CGRect(x: 0, y: 0, width: 24, height: 24)
        middle.addSublayer(inner)
        inner.position = middle.convert(CGPoint(x: 48, y: 28), from: root)
        inner.transform = CATransform3DMakeRotation(-.pi / 4, 0, 0, 1)
        inner.masksToBounds = true
        makeLayer(CGRect(x: -40, y: -40, width: 112, height: 112), .testGreen, in: inner)
        // After both brackets, a half-transparent blue layer inside S and D (left of R): drawn at level 0
        // after the pops (translucent: not moved to the opaque phase), so it shows only if both pops
        // brought the stencil back to 0 there.
        makeLayer(CGRect(x: 26, y: 40, width: 8, height: 6), CGColor(red: 0, green: 0, blue: 1, alpha: 0.5), in: root)
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        let items = renderer.lastGraph?.passes.last?.items ?? []
        let halfBlue = PixelRGBA(0, 0, 128, 128)  // premultiplied 0.5 × 255, rounded
        XCTAssertEqual(items.compactMap(\.stencilCommand), [.push, .push, .pop, .pop])
        XCTAssertEqual(items.filter { $0.stencilCommand == nil }.map(\.stencilLevel), [2, 0])
        assertPixels(image, "two-level-probes", tolerance: 1, probes: [
            // (40.5, 30.5): in S, in D (8.5 + 1.5), in R.
            Probe("inside all three", 40, 30, .green),
            // (46.5, 18.5): in S and R, outside D (14.5 + 13.5 = 28).
            Probe("outside D only", 46, 18, .clear),
            // (50.5, 30.5): in D (18.5 + 1.5) and R, right of S.
            Probe("outside S only", 50, 30, .clear),
            // (34.5, 30.5): in S and D, left of R.
            Probe("outside R only", 34, 30, .clear),
            Probe("after the brackets", 30, 42, halfBlue),
        ])
        let halfDiagonal = 16 * 2.0.squareRoot()
        assertPixels(image, "two-level", tolerance: 1) { x, y in
            let (cx, cy) = (Double(x) + 0.5, Double(y) + 0.5)
            // Distance to D's edge (|x − 32| + |y − 32| = 16√2); near it the stencil's pixel-centre rule is
            // not checked.
            let toDiamond = (abs(cx - 32) + abs(cy - 32) - halfDiagonal) / 2.0.squareRoot()
            if (26..<34).contains(x) && (40..<46).contains(y) { return halfBlue }
            if abs(toDiamond) < 0.75 { return nil }
            let inS = (16..<48).contains(x) && (16..<48).contains(y)
            let inR = (36..<60).contains(x) && (16..<40).contains(y)
            return inS && toDiamond < 0 && inR ? .green : .clear
        }
    }

    func testNestedRoundedClipsThatMakeOneRoundedRectStayExact() throws {
        // Analytic nesting, no stencil: a radius-8 outer square and an inner rounded rect (radius 4)
        // that sticks out to the right along the outer's straight right edge. The visible region is the
        // intersection of the two rounded rects: the inner's rounded left corners, the outer's straight
        // right edge (its arcs span y 16…24 and 40…48, away from the inner's y 28…36).
        let root = makeRoot()
        let outer = makeLayer(outerFrame, nil, in: root)
        outer.masksToBounds = true
        outer.cornerRadius = 8
        let inner = makeLayer(CGRect(x: 8, y: 12, width: 36, height: 8), nil, in: outer)
        inner.masksToBounds = true
        inner.cornerRadius = 4
        makeLayer(CGRect(x: -40, y: -40, width: 112, height: 112), .testGreen, in: inner)
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        XCTAssertEqual(renderer.lastGraph?.passes.last?.items.compactMap(\.stencilCommand), [])
        struct Both: PixelRegion {
            var a: RoundedRectShape
            var b: RoundedRectShape
            func contains(_ x: Double, _ y: Double) -> Bool { a.contains(x, y) && b.contains(x, y) }
            func signedDistance(_ x: Double, _ y: Double) -> Double { max(a.signedDistance(x, y), b.signedDistance(x, y)) }
        }
        let region = Both(a: RoundedRectShape(outerFrame, radius: 8), b: RoundedRectShape(CGRect(x: 24, y: 28, width: 36, height: 8), radius: 4))
        assertCoverage(image, "nested-rounded", color: .green, tolerance: 0.06) { x, y in
            // The two sharp corners where the inner crosses the outer's right edge: (48, 28) and (48, 36).
            let (cx, cy) = (Double(x) + 0.5, Double(y) + 0.5)
            if abs(cx - 48) < 1 && (abs(cy - 28) < 1 || abs(cy - 36) < 1) { return nil }
            return self.areaCoverage(x: x, y: y, of: region)
        }
    }
}
