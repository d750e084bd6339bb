import XCTest
@testable import LayerKitRender
import LayerKitTestSupport

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

    func testExposureKeepsToThePixelsEachRowOfTheShapeSpans() {
        var mask = OpaqueBlockMask(width: 64, height: 64)
        // Marks block rows 2…15 (pixels 8…63) whole: only the diamond's tip above y = 8 shows.
        mask.fill(PixelParallelogram(corner: SIMD2(0, 8), edgeX: SIMD2(64, 0), edgeY: SIMD2(0, 56)))
        // Corners (22, 4), (38, 20), (22, 36), (6, 20): s = (dx + dy) / 32, t = (dy − dx) / 32 from the top.
        let diamond = PixelParallelogram(corner: SIMD2(22, 4), edgeX: SIMD2(16, 16), edgeY: SIMD2(-16, 16))
        let m = mask.margin
        // Block row 1 (pixels 4…7): over heights 4.5 − m … 7.5 + m the diamond spans x 18.5 − m … 25.5 + m,
        // so pixels 18…25 of the row's unmarked blocks 4…6, dx −3.5 − m … 3.5 + m, dy 0.5 − m … 3.5 + m.
        // Each of the row's whole blocks met by the shape (pixels 16…27) would give 9 + 2m instead of 7 + 2m.
        let exposure = mask.exposure(of: diamond)
        XCTAssertEqual(exposure?.low, SIMD2(0, 0))
        XCTAssertEqual(exposure?.high.x ?? .nan, (7 + 2 * m) / 32, accuracy: 1e-12)
        XCTAssertEqual(exposure?.high.y ?? .nan, (7 + 2 * m) / 32, accuracy: 1e-12)
    }

    /// The exposure holds every pixel centre of the shape in an unmarked block, and is no wider than the
    /// range every unmarked block the shape meets gives (each row's pixels within the shape's extent
    /// over the row, not its whole blocks, make it narrower): random rotated tiles filled into a mask,
    /// then random shapes asked, against every unmarked block's centres worked out on their own (its
    /// rect's four corners in the shape's parameters) and every pixel centre of the shape.
    func testExposureHoldsEveryUnmarkedCentreAndNoMoreThanTheUnmarkedBlocksTheShapeMeets() {
        var random = SplitMix64(seed: 11)
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) }
        func tile(size: Double) -> PixelParallelogram {
            let angle = unit() * 2 * .pi, scale = size * (0.5 + unit())
            let edgeX = SIMD2(cos(angle), sin(angle)) * scale, edgeY = SIMD2(-sin(angle), cos(angle)) * scale * (0.6 + 0.8 * unit())
            return PixelParallelogram(corner: SIMD2(unit() * 200 - 20, unit() * 140 - 20), edgeX: edgeX, edgeY: edgeY)
        }
        var mask = OpaqueBlockMask(width: 160, height: 100)
        var checked = 0, partlyExposed = 0, narrower = 0
        for _ in 0..<300 {
            let shape = tile(size: 30)
            let exposure = mask.exposure(of: shape)
            let (a, b) = shape.inverseRows
            func parameters(_ p: SIMD2<Double>) -> SIMD2<Double> {
                let offset = p - shape.corner
                return SIMD2((a * offset).sum(), (b * offset).sum())
            }
            var low = SIMD2<Double>(repeating: .infinity), high = SIMD2<Double>(repeating: -.infinity)
            var centresShown = 0
            var inReach = false, markedInReach = false
            for row in 0..<mask.rows {
                for column in 0..<mask.columns {
                    // The block's pixel centres within the target that may lie in the shape's bounds.
                    let bounds = shape.bounds
                    let xs = (4 * column..<min(4 * column + 4, mask.width)).filter {
                        Double($0) + 0.5 >= bounds.minX - mask.margin && Double($0) + 0.5 <= bounds.maxX + mask.margin }
                    let ys = (4 * row..<min(4 * row + 4, mask.height)).filter {
                        Double($0) + 0.5 >= bounds.minY - mask.margin && Double($0) + 0.5 <= bounds.maxY + mask.margin }
                    guard let x0 = xs.first, let x1 = xs.last, let y0 = ys.first, let y1 = ys.last else { continue }
                    inReach = true
                    if mask.isMarked(column: column, row: row) {
                        markedInReach = true
                        continue
                    }
                    let m = mask.margin
                    let corners = [SIMD2(Double(x0) + 0.5 - m, Double(y0) + 0.5 - m), SIMD2(Double(x1) + 0.5 + m, Double(y0) + 0.5 - m),
                                   SIMD2(Double(x0) + 0.5 - m, Double(y1) + 0.5 + m), SIMD2(Double(x1) + 0.5 + m, Double(y1) + 0.5 + m)].map(parameters)
                    let blockLow = corners.dropFirst().reduce(corners[0], pointwiseMin)
                    let blockHigh = corners.dropFirst().reduce(corners[0], pointwiseMax)
                    guard blockHigh.x >= 0, blockLow.x <= 1, blockHigh.y >= 0, blockLow.y <= 1 else { continue }
                    low = pointwiseMin(low, pointwiseMax(blockLow, .zero))
                    high = pointwiseMax(high, pointwiseMin(blockHigh, SIMD2(repeating: 1)))
                    for x in xs {
                        for y in ys {
                            let p = parameters(SIMD2(Double(x) + 0.5, Double(y) + 0.5))
                            guard p.x >= 0, p.x <= 1, p.y >= 0, p.y <= 1 else { continue }
                            centresShown += 1
                            XCTAssert(exposure.map { p.x >= $0.low.x && p.x <= $0.high.x && p.y >= $0.low.y && p.y <= $0.high.y } ?? false,
                                      "a centre in an unmarked block lies outside the exposure")
                        }
                    }
                }
            }
            if !inReach {
                // No pixel centre of the target near it.
                XCTAssertNil(exposure)
            } else if !markedInReach {
                // Nothing near hides any of it: exposed whole, without looking at blocks.
                XCTAssertEqual(exposure?.low, .zero)
                XCTAssertEqual(exposure?.high, SIMD2(repeating: 1))
            } else if low.x > high.x || low.y > high.y {
                XCTAssertNil(exposure)
                XCTAssertEqual(centresShown, 0)
            } else if let exposure {
                XCTAssert(exposure.low.x >= low.x - 1e-12 && exposure.low.y >= low.y - 1e-12
                          && exposure.high.x <= high.x + 1e-12 && exposure.high.y <= high.y + 1e-12,
                          "\(exposure) is wider than the unmarked blocks' \((low, high))")
                if (exposure.high - exposure.low).sum() < (high - low).sum() - 1e-9 { narrower += 1 }
                if exposure.low != .zero || exposure.high != SIMD2(repeating: 1) { partlyExposed += 1 }
                checked += 1
            } else {
                // Unmarked blocks meet the shape's rect of parameters, but none of its pixel centres.
                XCTAssertEqual(centresShown, 0, "no exposure where centres of the shape lie in unmarked blocks")
            }
            mask.fill(shape)
        }
        // The draws pile up: many shapes are asked about a mask with marked blocks in reach.
        XCTAssertGreaterThan(checked, 80)
        XCTAssertGreaterThan(partlyExposed, 60)
        XCTAssertGreaterThan(narrower, 20)
    }
}
