import Foundation
import XCTest
@testable import LayerKitRender

/// `PixelRect(covering:)` (whole pixels a real-valued region touches) and the footprints built on it
/// (`OffscreenDecision.footprint`), against values worked out by hand and against libm's floor and ceil.
final class PixelRectCoveringTests: XCTestCase {
    func testBoundsRoundOutwardToWholePixels() {
        XCTAssertEqual(PixelRect(covering: 0.5, -0.5, 2.0, 3.0), PixelRect(minX: 0, minY: -1, maxX: 2, maxY: 3))
        XCTAssertEqual(PixelRect(covering: 1, 2, 3, 4), PixelRect(minX: 1, minY: 2, maxX: 3, maxY: 4))
        XCTAssertEqual(PixelRect(covering: -1.25, -3, -0.75, -2.5), PixelRect(minX: -2, minY: -3, maxX: 0, maxY: -2))
        XCTAssertEqual(PixelRect(covering: 0.1, 0.1, 0.2, 0.2), PixelRect(minX: 0, minY: 0, maxX: 1, maxY: 1))
        // Just past a whole number, either side.
        XCTAssertEqual(PixelRect(covering: 3.0.nextUp, 3.0.nextDown, 7.0.nextUp, 7.0.nextDown),
                       PixelRect(minX: 3, minY: 2, maxX: 8, maxY: 7))
        XCTAssertEqual(PixelRect(covering: (-3.0).nextDown, (-3.0).nextUp, (-1.0).nextDown, (-1.0).nextUp),
                       PixelRect(minX: -4, minY: -3, maxX: -1, maxY: 0))
    }

    func testFarGeometryIsClampedAndBadRegionsCoverNothing() {
        let limit = 1 << 40
        XCTAssertEqual(PixelRect(covering: -1e300, 0, 1e300, 1), PixelRect(minX: -limit, minY: 0, maxX: limit, maxY: 1))
        XCTAssertNil(PixelRect(covering: .nan, 0, 1, 1))
        XCTAssertNil(PixelRect(covering: 0, 0, .infinity, 1))
        XCTAssertNil(PixelRect(covering: 2, 0, 1, 1), "empty: max below min")
        XCTAssertNil(PixelRect(covering: 0, 5, 1, 5), "empty: no height")
    }

    func testBoundsAgreeWithLibmFloorAndCeil() {
        // Values spread over both signs, whole numbers, halves and ones a unit in the last place off them.
        var values: [Double] = []
        for step in -4_000...4_000 {
            let value = Double(step) * 0.37
            values += [value, value.rounded(), value.rounded().nextUp, value.rounded().nextDown, value.rounded() + 0.5]
        }
        for (low, high) in zip(values, values.dropFirst()) where high > low {
            XCTAssertEqual(PixelRect(covering: low, low, high, high),
                           PixelRect(minX: Int(floor(low)), minY: Int(floor(low)), maxX: Int(ceil(high)), maxY: Int(ceil(high))),
                           "\(low) … \(high)")
        }
    }

    /// A 10×10 quad moved to pixel (5.5, 4.25) of a 40×30 target: affine, so its footprint is its moved
    /// bounds rounded out. The same quad under a perspective map that halves it towards the origin
    /// (w = 2 everywhere) lands at (2.75, 2.125)…(7.75, 7.125).
    func testFootprintsOfAffineAndPerspectiveDraws() throws {
        let quad = SIMD4<Float>(0, 0, 10, 10)
        let (width, height): (Float, Float) = (40, 30)
        // clip = column0·x + column1·y + column3 (w in the last lane), clip = 2·pixel / size − 1 after division.
        let column0 = SIMD4<Float>(2 / width, 0, 0, 0), column1 = SIMD4<Float>(0, 2 / height, 0, 0)
        let moved = SIMD4<Float>(2 * 5.5 / width - 1, 2 * 4.25 / height - 1, 0, 1)
        let affine = LayerInstance(localToClip: (column0, column1, SIMD4(0, 0, 1, 0), moved), quad: quad, uv: SIMD4(0, 0, 1, 1),
                                   color: SIMD4(repeating: 1), shape: quad, flags: [])
        XCTAssertEqual(OffscreenDecision.footprint(of: affine, targetWidth: 40, targetHeight: 30),
                       PixelRect(minX: 5, minY: 4, maxX: 16, maxY: 15))
        // Halved about the origin: pixel = (x, y) / 2 + (5.5, 4.25) / 2 with clip (x, y) scaled by w = 2.
        let halvedOffset = SIMD4<Float>(2 * (2 * 2.75 / width - 1), 2 * (2 * 2.125 / height - 1), 0, 2)
        let perspective = LayerInstance(localToClip: (column0, column1, SIMD4(0, 0, 1, 0), halvedOffset), quad: quad,
                                        uv: SIMD4(0, 0, 1, 1), color: SIMD4(repeating: 1), shape: quad, flags: [])
        XCTAssertEqual(OffscreenDecision.footprint(of: perspective, targetWidth: 40, targetHeight: 30),
                       PixelRect(minX: 2, minY: 2, maxX: 8, maxY: 8))
        // Behind the eye (w below zero): unbounded, so the whole target.
        let behind = LayerInstance(localToClip: (column0, column1, SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, -1)), quad: quad,
                                   uv: SIMD4(0, 0, 1, 1), color: SIMD4(repeating: 1), shape: quad, flags: [])
        XCTAssertEqual(OffscreenDecision.footprint(of: behind, targetWidth: 40, targetHeight: 30),
                       PixelRect(minX: 0, minY: 0, maxX: 40, maxY: 30))
    }
}
