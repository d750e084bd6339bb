import XCTest
import LayerKit
@testable import LayerKitRender

/// `DisjointOpaquePieces`: overlapping plain opaque quads cut into disjoint pieces of the front-most,
/// checked against the areas and rects worked out by hand, and per pixel centre against painter's order.
final class DisjointOpaquePiecesTests: XCTestCase {
    private let pixels = PixelItems()

    func testThreeOverlappingSquaresLeaveFivePiecesWhoseAreasAreTheVisibleParts() throws {
        // The groups scene's children: 40×40 at (0,0), (12,12), (24,24). Visible: red 1600 − 784 = 816
        // (green covers (12…40)², blue adds nothing red shows), green 1600 − 784 = 816, blue 1600.
        let colors: [SIMD4<Float>] = [SIMD4(1, 0, 0, 1), SIMD4(0, 1, 0, 1), SIMD4(0, 0, 1, 1)]
        let draws: [DrawItem] = [0, 12, 24].enumerated().map { index, offset in
            let o = Float(offset)
            return pixels.item(SIMD4<Float>(o, o, o + 40, o + 40), color: colors[index])
        }
        let pieces = try XCTUnwrap(DisjointOpaquePieces.pieces(of: draws, targetWidth: 64, targetHeight: 64))
        XCTAssertEqual(pieces.count, 5)
        func area(_ color: SIMD4<Float>) -> Float {
            var sum: Float = 0
            for piece in pieces where piece.instance.color == color {
                let quad = piece.instance.quad
                sum += (quad.z - quad.x) * (quad.w - quad.y)
            }
            return sum
        }
        XCTAssertEqual(colors.map(area), [816, 816, 1600])
        let quads: [SIMD4<Float>] = pieces.map { $0.instance.quad }
        let atOrigin: [SIMD4<Float>] = quads.filter { $0.x == 0 && $0.y == 0 }
        XCTAssertEqual(atOrigin, [SIMD4<Float>(0, 0, 40, 12)], "red's band above green")
        // Every pixel centre: in at most one piece, of the colour painter's order shows there.
        for y in 0..<64 {
            for x in 0..<64 {
                let (px, py) = (Float(x) + 0.5, Float(y) + 0.5)
                func contains(_ item: DrawItem) -> Bool {
                    let quad = item.instance.quad
                    return quad.x < px && px < quad.z && quad.y < py && py < quad.w
                }
                let covering = pieces.filter(contains)
                let painted = draws.last(where: contains)
                XCTAssertLessThanOrEqual(covering.count, 1, "(\(x), \(y))")
                XCTAssertEqual(covering.first?.instance.color, painted?.instance.color, "(\(x), \(y))")
            }
        }
    }

    func testPiecesAreInPixelsAndKeepTheirDrawsOtherFields() throws {
        let under = pixels.item(SIMD4(0, 0, 10, 10), color: SIMD4(1, 0, 0, 1))
        var over = pixels.item(SIMD4(5, 0, 10, 10), color: SIMD4(0, 1, 0, 1))
        let layer = LayerID.next()
        over.layer = layer
        let pieces = try XCTUnwrap(DisjointOpaquePieces.pieces(of: [under, over], targetWidth: 64, targetHeight: 64))
        XCTAssertEqual(pieces.map { $0.instance.quad }, [SIMD4(0, 0, 5, 10), SIMD4(5, 0, 10, 10)])
        XCTAssertEqual(pieces.map(\.layer), [nil, layer])
        XCTAssertEqual(pieces[0].instance.localToClip.0, SIMD4(2 / 64, 0, 0, 0), "pixels → clip")
        XCTAssertEqual(pieces[0].instance.localToClip.3, SIMD4(-1, -1, 0, 1))
    }

    func testAnythingButPlainOpaqueAxisAlignedQuadsIsLeftAlone() {
        let plain = pixels.item(SIMD4(0, 0, 10, 10), color: SIMD4(1, 0, 0, 1))
        var translucent = plain
        translucent.instance.color = SIMD4(0.5, 0, 0, 0.5)
        var antialiased = plain
        antialiased.instance.flags = [.antialiasEdges]
        var rounded = plain
        rounded.instance.shapeRadii = SIMD4(repeating: 2)
        var turned = plain
        turned.instance.localToClip.0 = SIMD4(0, 2 / 64, 0, 0)
        turned.instance.localToClip.1 = SIMD4(-2 / 64, 0, 0, 0)
        for other in [translucent, antialiased, rounded, turned] {
            XCTAssertNil(DisjointOpaquePieces.pieces(of: [plain, other], targetWidth: 64, targetHeight: 64))
        }
        XCTAssertNil(DisjointOpaquePieces.pieces(of: Array(repeating: plain, count: DisjointOpaquePieces.maxDraws + 1),
                                                 targetWidth: 64, targetHeight: 64))
    }
}
