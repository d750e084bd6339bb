import Foundation
import LayerKit
@testable import LayerKitVulkan
import XCTest

/// `CATiledLayer` through `CARenderer`: tiles land on the right pixels (unequal tile sides, a layer off
/// the origin), reduced levels of detail are drawn at their own resolution, and new tiles fade in over
/// `fadeDuration()` by the frame time. Expected pixels come from the checkerboard's formula.
final class TiledLayerRenderTests: CARendererTestCase {
    /// Fills a checkerboard of 8-point squares, red where (column + row) is even, blue elsewhere: only
    /// the squares that meet the tile's clip. Tiles appear at once.
    final class CheckerTiledLayer: CATiledLayer {
        override class func fadeDuration() -> CFTimeInterval { 0 }
        override func draw(in ctx: CGContext) {
            let clip = ctx.boundingBoxOfClipPath
            let (c0, c1) = (Int((clip.minX / 8).rounded(.down)), Int((clip.maxX / 8).rounded(.up)))
            let (r0, r1) = (Int((clip.minY / 8).rounded(.down)), Int((clip.maxY / 8).rounded(.up)))
            for row in r0..<r1 {
                for column in c0..<c1 {
                    ctx.setFillColor((column + row) % 2 == 0 ? .testRed : .testBlue)
                    ctx.fill(CGRect(x: column * 8, y: row * 8, width: 8, height: 8))
                }
            }
        }
    }

    private final class RedDelegate: CALayerDelegate, @unchecked Sendable {
        private let lock = NSLock()
        private var threads: [Bool] = []
        var drewOnMainThread: [Bool] {
            lock.lock()
            defer { lock.unlock() }
            return threads
        }
        func draw(_ layer: CALayer, in ctx: CGContext) {
            lock.lock()
            threads.append(Thread.isMainThread)
            lock.unlock()
            ctx.setFillColor(.testRed)
            ctx.fill(ctx.boundingBoxOfClipPath)
        }
    }

    /// Renders at `t`, lets the requested tiles be drawn, and renders at `t + 1` (which shows them).
    private func renderWithTiles(_ renderer: CARenderer, at t: CFTimeInterval = 0) throws -> CGImage {
        _ = try renderFrame(renderer, atTime: t)
        TiledLayerScheduler.waitForTiles()
        return try renderFrame(renderer, atTime: t + 1)
    }

    private func checker(_ x: Int, _ y: Int, square: Int) -> PixelRGBA {
        (x / square + y / square) % 2 == 0 ? .red : .blue
    }

    func testTilesLandOnTheirPixels() throws {
        // Tiles of 24 × 16 pixels over a 50 × 40 layer at (4, 6): 3 × 3 tiles, cut at the right and
        // bottom. Pixel (x, y) of the layer shows square ((x − 4) / 8, (y − 6) / 8).
        let root = makeRoot()
        let layer = CheckerTiledLayer()
        layer.tileSize = CGSize(width: 24, height: 16)
        layer.frame = CGRect(x: 4, y: 6, width: 50, height: 40)
        root.addSublayer(layer)
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderWithTiles(renderer)
        assertPixels(image, "tiles") { x, y in
            guard (4..<54).contains(x), (6..<46).contains(y) else { return .clear }
            return self.checker(x - 4, y - 6, square: 8)
        }
    }

    func testAReducedLevelIsDrawnAtItsOwnResolution() throws {
        // A 128-point layer scaled by ½ at the origin: level 1, whose 32-pixel tiles cover 64 points. Its
        // texels map one to one onto the target, so the 8-point squares are exact 4-pixel squares.
        let root = makeRoot()
        let layer = CheckerTiledLayer()
        layer.tileSize = CGSize(width: 32, height: 32)
        layer.levelsOfDetail = 2
        layer.anchorPoint = .zero
        layer.bounds = CGRect(x: 0, y: 0, width: 128, height: 128)
        layer.position = .zero
        layer.transform = CATransform3DMakeScale(0.5, 0.5, 1)
        root.addSublayer(layer)
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderWithTiles(renderer)
        XCTAssertEqual(layer.tiling.committed?.tiles.map(\.key.level), [1, 1, 1, 1])
        assertPixels(image, "level 1", tolerance: 1) { x, y in self.checker(x, y, square: 4) }
    }

    func testNewTilesFadeInOverTheFadeDuration() throws {
        // The default fade, 0.25 s, from the frame that first shows the tiles (t = 1): clear then, half
        // red (premultiplied) at t = 1.125, red at t = 1.25. Drawn by a delegate, off the main thread.
        let root = makeRoot()
        let delegate = RedDelegate()
        let layer = CATiledLayer()
        layer.delegate = delegate
        layer.tileSize = CGSize(width: 32, height: 32)
        layer.frame = CGRect(x: 16, y: 16, width: 32, height: 32)
        root.addSublayer(layer)
        let renderer = try makeRenderer()
        // Setting the layer commits, which requests the tiles; once drawn, they arrive with the next
        // commit, the frame at t = 1.
        renderer.layer = root
        TiledLayerScheduler.waitForTiles()
        let first = try renderFrame(renderer, atTime: 1)
        assertPixels(first, "arrival", probes: [Probe("inside", 30, 30, .clear)])
        let halfway = try renderFrame(renderer, atTime: 1.125)
        assertPixels(halfway, "half-way", tolerance: 1, probes: [Probe("inside", 30, 30, PixelRGBA(premultiplied: 0.5, 0, 0, 0.5)),
                                                                 Probe("outside", 8, 8, .clear)])
        let done = try renderFrame(renderer, atTime: 1.25)
        assertPixels(done, "faded in", probes: [Probe("inside", 30, 30, .red), Probe("corner", 47, 47, .red), Probe("outside", 48, 48, .clear)])
        XCTAssertEqual(delegate.drewOnMainThread, [false])
    }
}
