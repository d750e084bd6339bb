import XCTest
@testable import LayerKitRender

/// Which tiles of a tiled layer a frame draws and how opaque (`TiledContentsPlan`), and that a fading
/// tile keeps the render server producing frames (`FrameProducer.isAnimating`). Contents are built by
/// hand: a grid of 64-point tiles (64 pixels at level 0, 128 points at level 1).
final class TiledContentsPlanTests: XCTestCase {
    private let grid = TileGrid(tileSize: CGSize(width: 64, height: 64), contentsScale: 1,
                                bounds: CGRect(x: 0, y: 0, width: 1000, height: 1000), levelsOfDetail: 2, levelsOfDetailBias: 0)

    private func image(_ width: Int, _ height: Int) -> CGImage {
        let ctx = CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: width, height: height))
        return ctx.makeImage()!
    }

    private func tile(_ level: Int, _ column: Int, _ row: Int, serial: UInt64) -> TiledContents.Tile {
        let key = TileKey(level: level, column: column, row: row)
        let (w, h) = grid.pixelSize(of: key)
        return TiledContents.Tile(key: key, rect: grid.rect(of: key), image: image(w, h), serial: serial)
    }

    /// The level-1 tile (0, 0) covering x, y 0…128, over a visible region x, y 0…128 that needs the
    /// four level-0 tiles (0…1, 0…1), of which `present` are drawn.
    private func contents(present: [(Int, Int)], fadeDuration: Double = 0.25) -> TiledContents {
        var tiles = [tile(1, 0, 0, serial: 1)]
        for (index, (column, row)) in present.enumerated() { tiles.append(tile(0, column, row, serial: UInt64(10 + index))) }
        return TiledContents(grid: grid, targetLevel: 0, fadeDuration: fadeDuration,
                             visibleRect: CGRect(x: 0, y: 0, width: 128, height: 128), tiles: tiles)
    }

    func testACoarseTileStandsInUntilEveryFinerTileHasFadedIn() {
        let fades = TileFades()
        // The coarse tile was on screen since t = 0 (fully in by t = 0.25).
        _ = TiledContentsPlan.draws(of: contents(present: []), at: 0, fades: fades)
        let alone = TiledContentsPlan.draws(of: contents(present: []), at: 1, fades: fades)
        XCTAssertEqual(alone.draws.map(\.rect), [CGRect(x: 0, y: 0, width: 128, height: 128)])
        XCTAssertEqual(alone.draws.map(\.opacity), [1])
        XCTAssertFalse(alone.isFading)

        // All four fine tiles arrive at t = 2: first shown at opacity 0 (not drawn), the coarse one stays.
        let all = [(0, 0), (1, 0), (0, 1), (1, 1)]
        let arriving = TiledContentsPlan.draws(of: contents(present: all), at: 2, fades: fades)
        XCTAssertEqual(arriving.draws.map(\.rect), [CGRect(x: 0, y: 0, width: 128, height: 128)])
        XCTAssertTrue(arriving.isFading)

        // Half-way (0.125 s of 0.25): coarse under, fine at 0.5 on top.
        let halfway = TiledContentsPlan.draws(of: contents(present: all), at: 2.125, fades: fades)
        XCTAssertEqual(halfway.draws.count, 5)
        XCTAssertEqual(halfway.draws.first?.rect, CGRect(x: 0, y: 0, width: 128, height: 128))
        XCTAssertEqual(halfway.draws.dropFirst().map(\.opacity), [0.5, 0.5, 0.5, 0.5])
        XCTAssertTrue(halfway.isFading)

        // Done: only the fine tiles.
        let done = TiledContentsPlan.draws(of: contents(present: all), at: 2.25, fades: fades)
        XCTAssertEqual(done.draws.map(\.rect), [CGRect(x: 0, y: 0, width: 64, height: 64), CGRect(x: 64, y: 0, width: 64, height: 64),
                                                CGRect(x: 0, y: 64, width: 64, height: 64), CGRect(x: 64, y: 64, width: 64, height: 64)])
        XCTAssertEqual(done.draws.map(\.opacity), [1, 1, 1, 1])
        XCTAssertFalse(done.isFading)
    }

    func testAMissingFineTileKeepsTheCoarseTileUnderTheOthers() {
        let fades = TileFades()
        let three = contents(present: [(0, 0), (1, 0), (0, 1)], fadeDuration: 0)
        let plan = TiledContentsPlan.draws(of: three, at: 5, fades: fades)
        XCTAssertEqual(plan.draws.count, 4, "the coarse tile and three fine ones")
        XCTAssertEqual(plan.draws.first?.rect, CGRect(x: 0, y: 0, width: 128, height: 128))
    }

    func testTextureCoordinatesCoverTheTilesPixels() {
        // An edge tile cut to the bounds: a 1000-point-wide layer's column 15 covers x 960…1000, 40
        // points = 40 pixels at level 0; at level 1 (½ resolution) column 7 covers x 896…1000, 104 points
        // → 52 pixels, uv 1 on both.
        let edge = tile(0, 15, 0, serial: 1)
        XCTAssertEqual(edge.rect, CGRect(x: 960, y: 0, width: 40, height: 64))
        XCTAssertEqual(edge.image?.width, 40)
        let coarse = tile(1, 7, 0, serial: 2)
        XCTAssertEqual(coarse.rect, CGRect(x: 896, y: 0, width: 104, height: 128))
        XCTAssertEqual(coarse.image?.width, 52)
        let contents = TiledContents(grid: grid, targetLevel: 0, fadeDuration: 0, visibleRect: grid.bounds, tiles: [edge])
        let plan = TiledContentsPlan.draws(of: contents, at: 0, fades: TileFades())
        XCTAssertEqual(plan.draws.map(\.uv), [CGRect(x: 0, y: 0, width: 1, height: 1)])
    }

    func testAFadingTileKeepsTheRenderServerProducingFrames() {
        let scene = TinyScene()
        let layer = CALayer()
        layer.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        scene.root.addSublayer(layer)
        let fine = TiledContents(grid: grid, targetLevel: 0, fadeDuration: 0.25, visibleRect: CGRect(x: 0, y: 0, width: 64, height: 64),
                                 tiles: [tile(0, 0, 0, serial: 1)])
        layer.setValue(fine, forKey: TiledContents.propertyKey)
        var producer = FrameProducer(builder: RenderGraphBuilder(targetWidth: 64, targetHeight: 64,
                                                                 viewport: CGRect(x: 0, y: 0, width: 64, height: 64), scale: 1))
        producer.reset(root: scene.root.layerID, snapshot: .snapshot(of: scene.root))
        _ = producer.produceFrame(at: 10)
        XCTAssertTrue(producer.needsFrame, "the tile is fading in")
        let (halfway, _) = producer.produceFrame(at: 10.125)
        let textured = halfway.passes.last!.items.filter { $0.texture != nil }
        XCTAssertEqual(textured.count, 1)
        XCTAssertEqual(textured.first?.instance.color, SIMD4(repeating: 0.5))
        XCTAssertTrue(producer.needsFrame)
        _ = producer.produceFrame(at: 10.25)
        XCTAssertFalse(producer.needsFrame, "faded in: nothing left to animate")
    }
}
