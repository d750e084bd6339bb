import LayerKit
import LayerKitTestSupport
@testable import LayerKitVulkan
import XCTest

/// `shouldRasterize` on the GPU: the cached bitmap's pixels against the premultiplied source-over
/// arithmetic worked out per region, and reuse counted in passes and uploads across frames.
///
/// The scene: opaque green under a rasterized group at (10, 10), 30 × 30, opacity 0.5, holding opaque
/// red (0, 0) 20 × 20, half-transparent blue (10, 10) 20 × 20 and an 8 × 8 white image at (22, 0).
/// Group opacity applies to the flattened bitmap: overlap blue over red = (0.5, 0, 0.5, 1), faded over
/// green (0.25, 0.5, 0.25, 1); red alone (0.5, 0.5, 0, 1); blue alone (0, 0, 0.25, 0.25) over green
/// = (0, 0.75, 0.25, 1); white (0.5, 1, 0.5, 1).
final class RasterizationRenderTests: CARendererTestCase {
    /// Groups over opaque children go through surfaces here: surfaces and caches are what this class tests.
    override var resolvesGroupsByDepth: Bool { false }

    private func makeScene() -> (root: CALayer, group: CALayer, blue: CALayer) {
        let root = makeRoot()
        makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), .testGreen, in: root)
        let group = makeLayer(CGRect(x: 10, y: 10, width: 30, height: 30), nil, in: root)
        group.opacity = 0.5
        group.shouldRasterize = true
        makeLayer(CGRect(x: 0, y: 0, width: 20, height: 20), .testRed, in: group)
        let blue = makeLayer(CGRect(x: 10, y: 10, width: 20, height: 20), CGColor(red: 0, green: 0, blue: 1, alpha: 0.5), in: group)
        let white = makeLayer(CGRect(x: 22, y: 0, width: 8, height: 8), nil, in: group)
        white.contents = makeImage(width: 8, height: 8) { _, _ in .white }
        return (root, group, blue)
    }

    /// The expected frame with the group's top-left at `origin`.
    private func expected(origin: (Int, Int)) -> (Int, Int) -> PixelRGBA? {
        { x, y in
            let (gx, gy) = (x - origin.0, y - origin.1)
            let inRed = (0..<20).contains(gx) && (0..<20).contains(gy), inBlue = (10..<30).contains(gx) && (10..<30).contains(gy)
            let inWhite = (22..<30).contains(gx) && (0..<8).contains(gy)
            switch (inRed, inBlue, inWhite) {
            case (_, _, true): return PixelRGBA(premultiplied: 0.5, 1, 0.5, 1)
            case (true, true, _): return PixelRGBA(premultiplied: 0.25, 0.5, 0.25, 1)
            case (true, false, _): return PixelRGBA(premultiplied: 0.5, 0.5, 0, 1)
            case (false, true, _): return PixelRGBA(premultiplied: 0, 0.75, 0.25, 1)
            default: return .green
            }
        }
    }

    func testRasterizedGroupMatchesTheWorkedOutPixelsAndIsReused() throws {
        let (root, group, _) = makeScene()
        let renderer = try makeRenderer()
        renderer.layer = root
        let first = try renderFrame(renderer)
        assertPixels(first, "rasterized-first", tolerance: 1, expected: expected(origin: (10, 10)))
        var statistics = renderer.lastFrameStatistics
        XCTAssertEqual(statistics.offscreenReasons, [.rasterize])
        XCTAssertEqual([statistics.rasterizeHits, statistics.rasterizeMisses], [0, 1])
        XCTAssertEqual(statistics.imagesUploaded, 1, "the white image, once")

        for frame in 1...3 {
            let again = try renderFrame(renderer, atTime: Double(frame) / 60)
            assertPixels(again, "rasterized-reused-\(frame)", tolerance: 1, expected: expected(origin: (10, 10)))
            statistics = renderer.lastFrameStatistics
            XCTAssertEqual(statistics.passes, 1, "no pass but the frame's")
            XCTAssertEqual([statistics.rasterizeHits, statistics.rasterizeMisses], [1, 0])
            XCTAssertEqual(statistics.imagesUploaded, 0)
        }

        // Moved by whole pixels: the same bitmap, composited at the new place.
        withoutAnimation { group.position = CGPoint(x: group.position.x + 7, y: group.position.y + 3) }
        let moved = try renderFrame(renderer, atTime: 0.1)
        assertPixels(moved, "rasterized-moved", tolerance: 1, expected: expected(origin: (17, 13)))
        XCTAssertEqual(renderer.lastFrameStatistics.passes, 1)
        XCTAssertEqual(renderer.lastFrameStatistics.rasterizeHits, 1)
    }

    func testAChangeInsideTheSubtreeRedrawsTheBitmapOnce() throws {
        let (root, _, blue) = makeScene()
        let renderer = try makeRenderer()
        renderer.layer = root
        _ = try renderFrame(renderer)
        _ = try renderFrame(renderer, atTime: 0.02)
        // Blue becomes opaque: the overlap and blue-only regions become (0, 0.5, 0.5, 1) when faded
        // over green (blue alone at full alpha: (0, 0, 0.5, 0.5) over green).
        withoutAnimation { blue.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1) }
        let changed = try renderFrame(renderer, atTime: 0.04)
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.rasterize])
        let base = expected(origin: (10, 10))
        assertPixels(changed, "rasterized-changed", tolerance: 1) { x, y in
            let (gx, gy) = (x - 10, y - 10)
            let inBlue = (10..<30).contains(gx) && (10..<30).contains(gy)
            return inBlue ? PixelRGBA(premultiplied: 0, 0.5, 0.5, 1) : base(x, y)
        }
        _ = try renderFrame(renderer, atTime: 0.06)
        XCTAssertEqual(renderer.lastFrameStatistics.passes, 1)
    }

    func testRasterizedAtTwiceThePixelDensityStillMatches() throws {
        // At scale 2 the bitmap is 60 × 60 pixels for the 30 × 30-point group; every frame pixel p
        // shows the point p / 2.
        let (root, _, _) = makeScene()
        let renderer = try makeRenderer(width: 128, height: 128, scale: 2)
        renderer.layer = root
        let points = expected(origin: (10, 10))
        for t in [0.0, 0.02] {
            let image = try renderFrame(renderer, atTime: t)
            assertPixels(image, "rasterized-scale-2", tolerance: 1) { x, y in points(x / 2, y / 2) }
        }
        XCTAssertEqual(renderer.lastFrameStatistics.rasterizeHits, 1)
    }

    func testCachesAndPoolsDoNotGrowOverAThousandFrames() throws {
        // A rasterized group drifting by whole pixels (hits), and beside it two overlapping groups whose
        // child moves every frame (packed surfaces, drawn every frame).
        let (root, group, _) = makeScene()
        var movers: [CALayer] = []
        for y in [44, 54] {
            let live = makeLayer(CGRect(x: 0, y: y, width: 20, height: 10), nil, in: root)
            live.opacity = 0.5
            makeLayer(CGRect(x: 0, y: 0, width: 10, height: 10), .testRed, in: live)
            movers.append(makeLayer(CGRect(x: 5, y: 0, width: 10, height: 10), .testBlue, in: live))
        }
        let renderer = try makeRenderer()
        renderer.layer = root
        var warm: (pool: (created: Int, resident: Int), blocks: Int, cache: (entries: Int, bytes: Int, images: Int))?
        for frame in 0..<1_000 {
            withoutAnimation {
                group.position.x = 25 + CGFloat(frame % 5)
                for mover in movers { mover.position.x = 10 + CGFloat(frame % 3) }
            }
            renderer.beginFrame(atTime: Double(frame) / 60)
            renderer.render()
            renderer.endFrame()
            // Warm after 100 frames: the movers' groups were cached at first sight and, changing every
            // frame since, their bitmaps are released after the cache's idle frames and the pool's.
            if frame == 99 {
                warm = (renderer.surfacePoolStatistics, renderer.memoryBlockCount, renderer.rasterizationCacheStatistics)
            }
        }
        let statistics = renderer.lastFrameStatistics
        XCTAssertEqual(statistics.offscreenReasons, [.groupOpacity], "the two live groups share one pass")
        XCTAssertEqual(statistics.rasterizeHits, 1)
        let last = (renderer.surfacePoolStatistics, renderer.memoryBlockCount, renderer.rasterizationCacheStatistics)
        XCTAssertEqual(last.0.created, warm?.pool.created, "no surface created after warm-up")
        XCTAssertEqual(last.0.resident, warm?.pool.resident)
        XCTAssertEqual(last.1, warm?.blocks)
        XCTAssertEqual(last.2.entries, 1)
        XCTAssertEqual(last.2.images, 1)
        XCTAssertEqual(last.2.bytes, 30 * 30 * 4)
    }

    func testTheRasterizeCacheViewTintsTheCompositeRedThenGreen() throws {
        // A lone rasterized opaque red 16 × 16 layer over clear: a miss tints it half-way to red —
        // (0.5, 0, 0, 0.5) over red = (1, 0, 0, 1); a hit half-way to green — (0, 0.5, 0, 0.5) over red
        // = (0.5, 0.5, 0, 1).
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 8, y: 8, width: 16, height: 16), .testRed, in: root)
        layer.shouldRasterize = true
        let renderer = try makeRenderer()
        renderer.debugOptions = .rasterizeCache
        renderer.layer = root
        func inside(_ x: Int, _ y: Int) -> Bool { (8..<24).contains(x) && (8..<24).contains(y) }
        assertPixels(try renderFrame(renderer), "rasterize-view-miss", tolerance: 1) { x, y in inside(x, y) ? .red : .clear }
        assertPixels(try renderFrame(renderer, atTime: 0.02), "rasterize-view-hit", tolerance: 1) { x, y in
            inside(x, y) ? PixelRGBA(premultiplied: 0.5, 0.5, 0, 1) : .clear
        }
    }
}
