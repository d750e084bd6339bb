import XCTest
@testable import LayerKitRender

/// Images larger than the largest texture become one draw per tile (`ImageTiling`). No GPU.
final class ImageTilingTests: XCTestCase {
    private let big = TinyScene.solidImage(side: 100, (10, 20, 30, 255))

    func testImageThatFitsIsOneItem() {
        var out: [DrawItem] = []
        ImageTiling.split(PixelItems().item(SIMD4(0, 0, 64, 64), texture: TextureBinding(image: big)), maxTextureSize: 100, into: &out)
        XCTAssertEqual(out.count, 1)
        XCTAssertTrue(out.first?.texture?.image === big)
    }

    func testHundredTexelImageWithSixtyFourTexelTexturesMakesFourTiles() {
        // Cores of 62 texels: 0..<62 and 62..<100; textures 0..<63 and 61..<100 (one neighbour texel each).
        var out: [DrawItem] = []
        let item = PixelItems().item(SIMD4(0, 0, 50, 50), texture: TextureBinding(image: big))
        ImageTiling.split(item, maxTextureSize: 64, into: &out)
        XCTAssertEqual(out.count, 4)
        let regions = out.compactMap { $0.texture?.imageTile?.region }
        XCTAssertEqual(regions, [PixelRect(minX: 0, minY: 0, maxX: 63, maxY: 63), PixelRect(minX: 61, minY: 0, maxX: 100, maxY: 63),
                                 PixelRect(minX: 0, minY: 61, maxX: 63, maxY: 100), PixelRect(minX: 61, minY: 61, maxX: 100, maxY: 100)])
        // The quad is cut at texel 62 of 100 over 50 points: x = 31.
        XCTAssertEqual(out.map(\.instance.quad), [SIMD4(0, 0, 31, 31), SIMD4(31, 0, 50, 31), SIMD4(0, 31, 31, 50), SIMD4(31, 31, 50, 50)])
        // Each piece samples its texture where the whole image would: texel 62 is 1 texel into the second
        // texture (of 39), texel 0 is texel 0 of the first (of 63).
        XCTAssertEqual(out[0].instance.uv, SIMD4(0, 0, 62.0 / 63, 62.0 / 63))
        XCTAssertEqual(out[1].instance.uv.x, 1.0 / 39, accuracy: 1e-6)
        XCTAssertEqual(out[1].instance.uv.z, 1, accuracy: 1e-6)
        // Shape and everything else stay the item's, so coverage is the whole item's.
        XCTAssertTrue(out.allSatisfy { $0.instance.shape == item.instance.shape && $0.instance.color == item.instance.color })
    }

    func testMirroredTextureCoordinatesCutTheRightPlaces() {
        var out: [DrawItem] = []
        var item = PixelItems().item(SIMD4(0, 0, 50, 10), texture: TextureBinding(image: big))
        item.instance.uv = SIMD4(1, 0, 0, 0.1)  // mirrored in x; rows 0..<10 only
        ImageTiling.split(item, maxTextureSize: 64, into: &out)
        XCTAssertEqual(out.count, 2)
        // Texel 62 counted from the right edge (u = 1 at x = 0): x = 50 · (100 − 62) / 100 = 19.
        XCTAssertEqual(out.map(\.instance.quad), [SIMD4(19, 0, 50, 10), SIMD4(0, 0, 19, 10)], "in texel order")
        XCTAssertEqual(out[1].texture?.imageTile?.region.minX, 61, "the left piece shows the right of the image")
        XCTAssertEqual(out[1].instance.uv.x, 1, accuracy: 1e-6, "u runs right to left within the piece too")
    }

    func testCompilerTilesOversizedImages() {
        let scene = TinyScene()
        scene.imageLayer(CGRect(x: 0, y: 0, width: 64, height: 64), big)
        var compiler = DrawListCompiler()
        compiler.maxTextureSize = 64
        let pass = scene.compiled(compiler).framePass
        XCTAssertEqual(pass.items.count, 4)
        XCTAssertEqual(pass.batches.count, 4, "every tile is its own texture")
    }
}

extension ImageTilingTests {
    func testAPieceOfASplitPlaneIsTiledThenCutToThePiece() {
        // The 50 × 50 quad's lower-left triangle (x ≤ y), tiled at x = y = 31: the top-right tile lies
        // wholly above the diagonal and draws nothing; the other three draw their parts of the triangle,
        // 31²/2 + 19·31 + 19²/2 = 480.5 + 589 + 180.5 = 1250 in all (half of 2500).
        let item = PixelItems().item(SIMD4(0, 0, 50, 50), texture: TextureBinding(image: big))
        let piece = item.restricted(to: [SIMD2(0, 0), SIMD2(50, 50), SIMD2(0, 50)])
        XCTAssertEqual(piece.count, 1)
        var out: [DrawItem] = []
        ImageTiling.split(piece[0], maxTextureSize: 64, into: &out)
        XCTAssertTrue(out.allSatisfy { $0.instance.flags.contains(.pieceCorners) && $0.texture?.imageTile != nil })
        XCTAssertEqual(Set(out.compactMap { $0.texture?.imageTile?.region.minX }), [0, 61])
        var area = 0.0
        for tile in out {
            let (a, b, c, d) = tile.instance.pieceCorners
            func twice(_ p: SIMD2<Float>, _ q: SIMD2<Float>, _ r: SIMD2<Float>) -> Double {
                abs(Double((q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x)))
            }
            area += (twice(a, b, c) + twice(c, b, d)) / 2
        }
        XCTAssertEqual(area, 1250, accuracy: 1e-3)
        XCTAssertFalse(out.contains { $0.texture?.imageTile?.region == PixelRect(minX: 61, minY: 0, maxX: 100, maxY: 63) },
                       "the tile above the diagonal is not drawn")
    }
}
