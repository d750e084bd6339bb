import XCTest
@testable import LayerKitRender
import LayerKitTestSupport

/// `PixelParallelogram.BandExtents`: the x-extent of a parallelogram's part between two heights, checked
/// against outlines worked out by hand.
final class PixelParallelogramBandTests: XCTestCase {
    // Corners (20, 0), (36, 16), (20, 32), (4, 16): at height y ≤ 16 it spans 20 − y … 20 + y.
    let diamond = PixelParallelogram(corner: SIMD2(20, 0), edgeX: SIMD2(16, 16), edgeY: SIMD2(-16, 16))

    func testABandAboveTheWidestRowsSpansWhatItsLowerSideCrosses() throws {
        let range = try XCTUnwrap(PixelParallelogram.BandExtents(diamond).xRange(fromY: 2, toY: 6))
        XCTAssertEqual(range.0, 14)
        XCTAssertEqual(range.1, 26)
    }

    func testABandHoldingTheSideCornersSpansThem() throws {
        let range = try XCTUnwrap(PixelParallelogram.BandExtents(diamond).xRange(fromY: 12, toY: 18))
        XCTAssertEqual(range.0, 4)
        XCTAssertEqual(range.1, 36)
    }

    func testABandHoldingTheTopCornerOnlyStartsThere() throws {
        let range = try XCTUnwrap(PixelParallelogram.BandExtents(diamond).xRange(fromY: -3, toY: 0))
        XCTAssertEqual(range.0, 20)
        XCTAssertEqual(range.1, 20)
    }

    func testABandOutsideTheOutlineHasNoExtent() {
        XCTAssertNil(PixelParallelogram.BandExtents(diamond).xRange(fromY: 33, toY: 40))
        XCTAssertNil(PixelParallelogram.BandExtents(diamond).xRange(fromY: -5, toY: -0.5))
    }

    func testAnAxisAlignedRectSpansItsWidthAtEveryHeightWithin() throws {
        // Level edges cross no height; their corners bound the band that holds them.
        let rect = PixelParallelogram(corner: SIMD2(3.5, 2), edgeX: SIMD2(10, 0), edgeY: SIMD2(0, 5))
        let inside = try XCTUnwrap(PixelParallelogram.BandExtents(rect).xRange(fromY: 3, toY: 4))
        XCTAssertEqual(inside.0, 3.5)
        XCTAssertEqual(inside.1, 13.5)
        let atTop = try XCTUnwrap(PixelParallelogram.BandExtents(rect).xRange(fromY: 0, toY: 2))
        XCTAssertEqual(atTop.0, 3.5)
        XCTAssertEqual(atTop.1, 13.5)
        XCTAssertNil(PixelParallelogram.BandExtents(rect).xRange(fromY: 7.5, toY: 9))
    }

    func testAShearedRectWithLevelSidesSpansItsSlantedSidesAtTheBandsEnds() throws {
        // Corners (0, 0), (10, 0), (14, 6), (4, 6): at height y its row spans 2y/3 … 10 + 2y/3.
        let sheared = PixelParallelogram(corner: SIMD2(0, 0), edgeX: SIMD2(10, 0), edgeY: SIMD2(4, 6))
        let upper = try XCTUnwrap(PixelParallelogram.BandExtents(sheared).xRange(fromY: -1, toY: 3))
        XCTAssertEqual(upper.0, 0)
        XCTAssertEqual(upper.1, 12)
        let middle = try XCTUnwrap(PixelParallelogram.BandExtents(sheared).xRange(fromY: 1.5, toY: 4.5))
        XCTAssertEqual(middle.0, 1)
        XCTAssertEqual(middle.1, 13)
        let lower = try XCTUnwrap(PixelParallelogram.BandExtents(sheared).xRange(fromY: 6, toY: 9))
        XCTAssertEqual(lower.0, 4)
        XCTAssertEqual(lower.1, 14)
    }

    func testRandomOutlinesSpanWhatTheirClippedPolygonSpans() {
        // Reference: the outline clipped to the band (each edge cut where it crosses a side), its least and
        // greatest vertex x. Outlines of every orientation, mirrored ones included, and bands above, across
        // and below them.
        var random = SplitMix64(seed: 23)
        func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &random) }
        for _ in 0..<5_000 {
            let shape = PixelParallelogram(corner: SIMD2(uniform(-50...50), uniform(-50...50)),
                                           edgeX: SIMD2(uniform(-40...40), uniform(-40...40)),
                                           edgeY: SIMD2(uniform(-40...40), uniform(-40...40)))
            let top = uniform(-100...100), bottom = top + uniform(0...30)
            let expected = Self.clippedExtent(of: shape, fromY: top, toY: bottom)
            let range = PixelParallelogram.BandExtents(shape).xRange(fromY: top, toY: bottom)
            guard let expected, let range else {
                XCTAssertEqual(range == nil, expected == nil, "\(shape) between \(top) and \(bottom)")
                continue
            }
            XCTAssertEqual(range.0, expected.0, accuracy: 1e-9, "\(shape) between \(top) and \(bottom)")
            XCTAssertEqual(range.1, expected.1, accuracy: 1e-9, "\(shape) between \(top) and \(bottom)")
        }
    }

    /// The least and greatest x of `shape`'s outline clipped to `top...bottom` (Sutherland-Hodgman).
    private static func clippedExtent(of shape: PixelParallelogram, fromY top: Double, toY bottom: Double) -> (Double, Double)? {
        let (p0, p1, p2, p3) = shape.corners
        var polygon = [p0, p1, p2, p3]
        for (limit, keepsBelow) in [(top, true), (bottom, false)] {
            func inside(_ p: SIMD2<Double>) -> Bool { keepsBelow ? p.y >= limit : p.y <= limit }
            var clipped: [SIMD2<Double>] = []
            for (index, current) in polygon.enumerated() {
                let next = polygon[(index + 1) % polygon.count]
                if inside(current) { clipped.append(current) }
                if inside(current) != inside(next) {
                    let fraction = (limit - current.y) / (next.y - current.y)
                    clipped.append(SIMD2(current.x + fraction * (next.x - current.x), limit))
                }
            }
            polygon = clipped
        }
        guard let least = polygon.map(\.x).min(), let greatest = polygon.map(\.x).max() else { return nil }
        return (least, greatest)
    }
}
