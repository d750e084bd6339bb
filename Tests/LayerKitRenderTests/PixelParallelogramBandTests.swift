import XCTest
@testable import LayerKitRender

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
}
