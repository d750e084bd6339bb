import XCTest
@testable import LayerKitRender

/// `DrawItem.restricted(to:)`: a draw cut to a convex piece of its plane keeps its instance and draws
/// the piece ∩ its quad as strips of four corners.
final class PlanePieceTests: XCTestCase {
    let identity = (SIMD4<Float>(1, 0, 0, 0), SIMD4<Float>(0, 1, 0, 0), SIMD4<Float>(0, 0, 1, 0), SIMD4<Float>(0, 0, 0, 1))

    func item(quad: SIMD4<Float>, uv: SIMD4<Float> = SIMD4(0, 0, 1, 1), shape: SIMD4<Float>? = nil) -> DrawItem {
        DrawItem(instance: LayerInstance(localToClip: identity, quad: quad, uv: uv, color: SIMD4(1, 0, 0, 1), shape: shape ?? quad))
    }

    /// Twice the area of the strip (c0, c1, c2) + (c2, c1, c3), from its two triangles.
    func stripArea(_ instance: LayerInstance) -> Double {
        let (a, b, c, d) = instance.pieceCorners
        func twice(_ p: SIMD2<Float>, _ q: SIMD2<Float>, _ r: SIMD2<Float>) -> Double {
            abs(Double((q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x)))
        }
        return (twice(a, b, c) + twice(c, b, d)) / 2
    }

    func testAHalfPlanePieceOfASquareIsOneStripOfHalfItsArea() {
        // The square 0…100 cut by the diagonal x = y: the triangle below it, area 5000.
        let pieces = item(quad: SIMD4(0, 0, 100, 100)).restricted(to: [SIMD2(-10, -10), SIMD2(200, 200), SIMD2(200, -10)])
        XCTAssertEqual(pieces.count, 1)
        XCTAssertTrue(pieces[0].instance.flags.contains(.pieceCorners))
        XCTAssertEqual(stripArea(pieces[0].instance), 5000, accuracy: 1e-6)
        XCTAssertEqual(pieces[0].instance.shape, SIMD4(0, 0, 100, 100), "coverage stays the layer's")
        XCTAssertEqual(pieces[0].instance.drawnBounds, SIMD4(0, 0, 100, 100))
    }

    func testAPentagonPieceIsTwoStripsCoveringItsArea() {
        // The square 0…100 minus the corner triangle x + y > 150 (area 50·50/2 = 1250): five corners.
        let pieces = item(quad: SIMD4(0, 0, 100, 100)).restricted(to: [SIMD2(-50, -50), SIMD2(200, -50), SIMD2(-50, 200)])
        XCTAssertEqual(pieces.count, 2)
        XCTAssertEqual(pieces.map { stripArea($0.instance) }.reduce(0, +), 10_000 - 1250, accuracy: 1e-6)
    }

    func testAPieceOutsideTheQuadDrawsNothing() {
        XCTAssertTrue(item(quad: SIMD4(0, 0, 10, 10)).restricted(to: [SIMD2(20, 20), SIMD2(30, 20), SIMD2(30, 30)]).isEmpty)
    }

    func testTextureCoordinatesAreReExpressedAtTheShapeCorners() {
        // Quad padded one unit around the shape 1…9, uv −1/8…9/8 over the quad: 0…1 over the shape.
        let padded = item(quad: SIMD4(0, 0, 10, 10), uv: SIMD4(-0.125, -0.125, 1.125, 1.125), shape: SIMD4(1, 1, 9, 9))
        let pieces = padded.restricted(to: [SIMD2(0, 0), SIMD2(10, 0), SIMD2(0, 10)])
        XCTAssertEqual(pieces.count, 1)
        let uv = pieces[0].instance.uv
        for (got, want) in zip([uv.x, uv.y, uv.z, uv.w], [Float(0), 0, 1, 1]) { XCTAssertEqual(got, want, accuracy: 1e-6) }
    }

    func testPiecesAreNeitherOccludersNorDepthOpaque() {
        let piece = item(quad: SIMD4(0, 0, 64, 64)).restricted(to: [SIMD2(0, 0), SIMD2(64, 0), SIMD2(64, 64), SIMD2(0, 64)])[0]
        XCTAssertNil(OcclusionCuller.occluderRect(of: piece, targetWidth: 64, targetHeight: 64))
        XCTAssertFalse(DrawListCompiler.isDepthOpaque(piece))
    }
}

extension PlanePieceTests {
    func testAPieceGrowsPastThePlanesSidesButNotPastItsCut() {
        // The plane 0…100 × 0…50 cut at x = 40: the left piece grows by the margin 2 on its three outer
        // sides, not at the cut: −2…40 × −2…52.
        let rect = SIMD4<Double>(0, 0, 100, 50)
        for piece in [[SIMD2<Double>(0, 0), SIMD2(40, 0), SIMD2(40, 50), SIMD2(0, 50)], [SIMD2(0, 50), SIMD2(40, 50), SIMD2(40, 0), SIMD2(0, 0)]] {
            let region = PlanePieceRegion.region(of: piece, planeRect: rect, margin: 2)
            let xs = region.map(\.x), ys = region.map(\.y)
            XCTAssertEqual(xs.min(), -2)
            XCTAssertEqual(xs.max(), 40)
            XCTAssertEqual(ys.min(), -2)
            XCTAssertEqual(ys.max(), 52)
        }
        // The right piece, on the other side of the same cut, starts where the left one ends.
        let right = PlanePieceRegion.region(of: [SIMD2(40, 0), SIMD2(100, 0), SIMD2(100, 50), SIMD2(40, 50)], planeRect: rect, margin: 2)
        XCTAssertEqual(right.map(\.x).min(), 40)
        XCTAssertEqual(right.map(\.x).max(), 102)
    }
}
