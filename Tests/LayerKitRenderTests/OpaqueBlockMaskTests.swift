import XCTest
@testable import LayerKitRender

/// `OpaqueBlockMask`: which 4×4 blocks a filled parallelogram marks, and the exposure of a shape, checked
/// against blocks and parameters worked out by hand or by testing every pixel centre on its own. No GPU.
final class OpaqueBlockMaskTests: XCTestCase {
    private func marked(_ mask: OpaqueBlockMask) -> Set<[Int]> {
        var blocks = Set<[Int]>()
        for row in 0..<mask.rows {
            for column in 0..<mask.columns where mask.isMarked(column: column, row: row) { blocks.insert([column, row]) }
        }
        return blocks
    }

    func testAnAxisAlignedRectMarksTheBlocksAllOfWhosePixelCentresItCovers() {
        var mask = OpaqueBlockMask(width: 64, height: 32)
        // Pixels 6…29 by 4…12 have their centres inside; blocks are 4 pixels square.
        mask.fill(PixelParallelogram(corner: SIMD2(6, 4), edgeX: SIMD2(24, 0), edgeY: SIMD2(0, 9)))
        let expected = Set((2...6).flatMap { column in (1...2).map { row in [column, row] } })
        XCTAssertEqual(marked(mask), expected)
    }

    func testARotatedSquareMarksTheBlocksWhosePixelCentresAllLieInsideByTheMargin() {
        var mask = OpaqueBlockMask(width: 64, height: 64)
        let angle = 0.4
        let edgeX = SIMD2(cos(angle), sin(angle)) * 30, edgeY = SIMD2(-sin(angle), cos(angle)) * 30
        let corner = SIMD2(32.0, 32.0) - (edgeX + edgeY) / 2
        mask.fill(PixelParallelogram(corner: corner, edgeX: edgeX, edgeY: edgeY))
        // Each pixel centre on its own: at least the margin inside all four edges (signed distances by
        // cross products, the outline counter-clockwise in y-down pixels).
        let outline = [corner, corner + edgeX, corner + edgeX + edgeY, corner + edgeY]
        func inside(_ p: SIMD2<Double>) -> Bool {
            (0..<4).allSatisfy { k in
                let (a, b) = (outline[k], outline[(k + 1) % 4])
                let edge = b - a, offset = p - a
                let distance = (edge.x * offset.y - edge.y * offset.x) / (edge * edge).sum().squareRoot()
                return distance >= mask.margin
            }
        }
        var expected = Set<[Int]>()
        for row in 0..<16 {
            for column in 0..<16 {
                let centres = (0..<4).flatMap { dy in (0..<4).map { dx in SIMD2(Double(4 * column + dx) + 0.5, Double(4 * row + dy) + 0.5) } }
                if centres.allSatisfy(inside) { expected.insert([column, row]) }
            }
        }
        XCTAssertGreaterThan(expected.count, 20)
        XCTAssertEqual(marked(mask), expected)
    }

    func testExposureOfAHalfCoveredShapeIsItsUncoveredHalf() {
        var mask = OpaqueBlockMask(width: 64, height: 64)
        mask.fill(PixelParallelogram(corner: SIMD2(32, 0), edgeX: SIMD2(32, 0), edgeY: SIMD2(0, 64)))
        // The shape spans pixels 8…55 by 8…39; blocks of columns 0…7 (pixels 0…31) are unmarked, so its
        // pixel centres from 8.5 to 31.5 by 8.5 to 39.5 (each widened by the 1/32 margin) may show.
        let shape = PixelParallelogram(corner: SIMD2(8, 8), edgeX: SIMD2(48, 0), edgeY: SIMD2(0, 32))
        let exposure = mask.exposure(of: shape)
        let margin = 1.0 / 32
        XCTAssertEqual(exposure?.low, SIMD2((8.5 - margin - 8) / 48, (8.5 - margin - 8) / 32))
        XCTAssertEqual(exposure?.high, SIMD2((31.5 + margin - 8) / 48, (39.5 + margin - 8) / 32))
    }

    func testExposureIsNilWhenEveryPixelCentreLiesInAMarkedBlock() {
        var mask = OpaqueBlockMask(width: 64, height: 64)
        mask.fill(PixelParallelogram(corner: SIMD2(0, 0), edgeX: SIMD2(40, 0), edgeY: SIMD2(0, 64)))
        mask.fill(PixelParallelogram(corner: SIMD2(40, 0), edgeX: SIMD2(24, 0), edgeY: SIMD2(0, 64)))
        // Neither fill covers the blocks across x = 40 (pixels 40…43 lie in the second, 36…39 in the
        // first: the block 40…43 is whole in the second). Every block is marked.
        XCTAssertEqual(marked(mask).count, 16 * 16)
        XCTAssertNil(mask.exposure(of: PixelParallelogram(corner: SIMD2(10, 10), edgeX: SIMD2(35, 5), edgeY: SIMD2(-5, 35))))
    }

    func testAShapeWithNoMarkedBlockNearItIsExposedWhole() {
        var mask = OpaqueBlockMask(width: 64, height: 64)
        mask.fill(PixelParallelogram(corner: SIMD2(40, 40), edgeX: SIMD2(24, 0), edgeY: SIMD2(0, 24)))
        let exposure = mask.exposure(of: PixelParallelogram(corner: SIMD2(2, 2), edgeX: SIMD2(20, 0), edgeY: SIMD2(0, 20)))
        XCTAssertEqual(exposure?.low, SIMD2(0, 0))
        XCTAssertEqual(exposure?.high, SIMD2(1, 1))
    }
}
