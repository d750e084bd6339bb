import LayerKit
@testable import LayerKitVulkan
import XCTest

/// Cached group-opacity surfaces and shared cache pages: a group whose subtree stays the same is drawn
/// once and composited from a page in later frames, nearest-sampled, so it comes out where the group is
/// rounded to whole pixels; groups whose content changes keep their per-frame surface.
///
/// Expected pixels follow SCENES.md's `groups` rule, worked out here: opaque red [0, 40)², green
/// [12, 52)², blue [24, 64)² in group space, the top child wins; the group fades that by 0.5, so a pixel
/// is (top child's colour × 0.5, alpha 0.5), clear outside the children.
final class GroupCacheRenderTests: CARendererTestCase {
    /// Groups over opaque children go through surfaces here: cached group surfaces are what this class tests.
    override var resolvesGroupsByDepth: Bool { false }

    /// A 64 × 64 group at opacity 0.5 with SCENES.md's three children, its top-left at `origin`.
    @discardableResult
    private func scenesGroup(at origin: CGPoint, in root: CALayer) -> (group: CALayer, children: [CALayer]) {
        let group = makeLayer(CGRect(origin: origin, size: CGSize(width: 64, height: 64)), nil, in: root)
        group.opacity = 0.5
        let children = [(CGFloat(0), CGColor.testRed), (12, .testGreen), (24, .testBlue)].map { offset, color in
            makeLayer(CGRect(x: offset, y: offset, width: 40, height: 40), color, in: group)
        }
        return (group, children)
    }

    /// The expected colour at group-space pixel (x, y); clear outside the group's children.
    private static func groupPixel(_ x: Int, _ y: Int, blueX: Int = 24) -> PixelRGBA {
        func inside(_ minX: Int, _ minY: Int) -> Bool { (minX..<minX + 40).contains(x) && (minY..<minY + 40).contains(y) }
        if inside(blueX, 24) { return PixelRGBA(premultiplied: 0, 0, 0.5, 0.5) }
        if inside(12, 12) { return PixelRGBA(premultiplied: 0, 0.5, 0, 0.5) }
        if inside(0, 0) { return PixelRGBA(premultiplied: 0.5, 0, 0, 0.5) }
        return .clear
    }

    func testAStillGroupRendersOnceThenComesFromTheCache() throws {
        let root = makeRoot(width: 96, height: 96)
        scenesGroup(at: CGPoint(x: 10, y: 20), in: root)
        let renderer = try makeRenderer(width: 96, height: 96)
        renderer.layer = root
        var image = try renderFrame(renderer, atTime: 0)
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.groupOpacity], "drawn once, for group opacity")
        XCTAssertEqual(renderer.lastFrameStatistics.rasterizeMisses, 1)
        for frame in 1...10 {
            image = try renderFrame(renderer, atTime: Double(frame) / 60)
            XCTAssertEqual(renderer.lastFrameStatistics.offscreenPasses, 0, "frame \(frame)")
            XCTAssertEqual(renderer.lastFrameStatistics.rasterizeHits, 1, "frame \(frame)")
            XCTAssertEqual(renderer.lastFrameStatistics.rasterizeMisses, 0, "frame \(frame)")
        }
        assertPixels(image, "cached-group", tolerance: 1) { x, y in Self.groupPixel(x - 10, y - 20) }
    }

    func testACachedGroupAtFractionalPositionsIsSampledNearest() throws {
        // The bitmap's texels are whole group-space pixels. A target pixel centre (px + 0.5) lies at
        // group x = px + 0.5 − ox, in texel floor(px + 0.5 − ox), and the composite covers the centres
        // inside [ox, ox + 64): both amount to the group at ox rounded to the nearest whole pixel
        // (10.3 → 10, 10.7 → 11; 20.4 → 20, 20.6 → 21).
        let root = makeRoot(width: 96, height: 96)
        let (group, _) = scenesGroup(at: CGPoint(x: 10, y: 20), in: root)
        let renderer = try makeRenderer(width: 96, height: 96)
        renderer.layer = root
        _ = try renderFrame(renderer, atTime: 0)
        for (frame, (x, y, roundedX, roundedY)) in [(10.3, 20.4, 10, 20), (10.7, 20.6, 11, 21)].enumerated() {
            withoutAnimation { group.position = CGPoint(x: x + 32, y: y + 32) }
            let image = try renderFrame(renderer, atTime: Double(frame + 1) / 60)
            XCTAssertEqual(renderer.lastFrameStatistics.offscreenPasses, 0, "moving the group reuses its bitmap")
            XCTAssertEqual(renderer.lastFrameStatistics.rasterizeHits, 1)
            assertPixels(image, "cached-group-at-\(x)-\(y)", tolerance: 1) { px, py in Self.groupPixel(px - roundedX, py - roundedY) }
        }
    }

    func testAGroupWhoseContentChangesEveryFrameIsNotCached() throws {
        // The blue child moves every frame: after the first frame (cached at first sight) the group is
        // drawn through its per-frame surface and never enters the cache; once it stays still for
        // `settleFrames` frames it is cached again.
        let root = makeRoot(width: 96, height: 96)
        let (_, children) = scenesGroup(at: CGPoint(x: 8, y: 8), in: root)
        let renderer = try makeRenderer(width: 96, height: 96)
        renderer.layer = root
        _ = try renderFrame(renderer, atTime: 0)
        var image: CGImage?
        var blueX = 24
        for frame in 1...8 {
            blueX = 16 + frame
            withoutAnimation { children[2].frame.origin.x = CGFloat(blueX) }
            image = try renderFrame(renderer, atTime: Double(frame) / 60)
            XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.groupOpacity], "frame \(frame)")
            XCTAssertEqual(renderer.lastFrameStatistics.rasterizeHits, 0, "frame \(frame)")
            XCTAssertEqual(renderer.lastFrameStatistics.rasterizeMisses, 0, "frame \(frame): not drawn into the cache")
        }
        let moved = blueX
        assertPixels(try XCTUnwrap(image), "live-group", tolerance: 1) { x, y in Self.groupPixel(x - 8, y - 8, blueX: moved) }

        // Still from frame 9: per-frame surface in frame 9 (one still frame), bitmap drawn in frame 10,
        // reused from frame 11.
        var counts: [(hits: Int, misses: Int, passes: Int)] = []
        for frame in 9...12 {
            image = try renderFrame(renderer, atTime: Double(frame) / 60)
            let statistics = renderer.lastFrameStatistics
            counts.append((statistics.rasterizeHits, statistics.rasterizeMisses, statistics.offscreenPasses))
        }
        XCTAssertEqual(counts.map(\.hits), [0, 0, 1, 1])
        XCTAssertEqual(counts.map(\.misses), [0, 1, 0, 0])
        XCTAssertEqual(counts.map(\.passes), [1, 1, 0, 0])
        assertPixels(try XCTUnwrap(image), "settled-group", tolerance: 1) { x, y in Self.groupPixel(x - 8, y - 8, blueX: moved) }
    }

    func testManyCachedGroupsBatchIntoOneDrawCall() throws {
        // 24 groups in rows that overlap (48-point pitch for 64-point groups), each its own bitmap on
        // one shared page: every composite samples the page, so the frame is one instanced draw.
        let root = makeRoot(width: 256, height: 256)
        var origins: [CGPoint] = []
        for g in 0..<24 { origins.append(CGPoint(x: 64 * (g % 4), y: 48 * (g / 4))) }
        for origin in origins { scenesGroup(at: origin, in: root) }
        let renderer = try makeRenderer(width: 256, height: 256)
        renderer.layer = root
        _ = try renderFrame(renderer, atTime: 0)
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.groupOpacity], "one page pass draws all 24 bitmaps")
        let image = try renderFrame(renderer, atTime: 1.0 / 60)
        let statistics = renderer.lastFrameStatistics
        XCTAssertEqual(statistics.offscreenPasses, 0)
        XCTAssertEqual(statistics.rasterizeHits, 24)
        XCTAssertLessThanOrEqual(statistics.drawCalls, 2)
        XCTAssertEqual(statistics.drawCalls, 1)
        // Checked where exactly one group covers the pixel (rows overlap by 16 points; there a later
        // group's composite lies over an earlier one's).
        assertPixels(image, "many-groups", tolerance: 1) { x, y in
            let covering = origins.filter { (Int($0.x)..<Int($0.x) + 64).contains(x) && (Int($0.y)..<Int($0.y) + 64).contains(y) }
            guard covering.count <= 1 else { return nil }
            guard let origin = covering.first else { return .clear }
            return Self.groupPixel(x - Int(origin.x), y - Int(origin.y))
        }
    }

    func testRasterizedLayersShareAPageAndBatch() throws {
        // Six `shouldRasterize` layers, 20 × 20 at x = 10 + 24 i, each an opaque red square [0, 10)² under
        // an opaque blue one [5, 20)²: their bitmaps share one page, so from the second frame the six
        // composites (linearly sampled at texel centres, so exact) are one draw.
        let root = makeRoot(width: 160, height: 40)
        for i in 0..<6 {
            let layer = makeLayer(CGRect(x: 10 + 24 * i, y: 10, width: 20, height: 20), nil, in: root)
            layer.shouldRasterize = true
            makeLayer(CGRect(x: 0, y: 0, width: 10, height: 10), .testRed, in: layer)
            makeLayer(CGRect(x: 5, y: 5, width: 15, height: 15), .testBlue, in: layer)
        }
        let renderer = try makeRenderer(width: 160, height: 40)
        renderer.layer = root
        _ = try renderFrame(renderer, atTime: 0)
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.rasterize], "one page pass for six bitmaps")
        XCTAssertEqual(renderer.lastFrameStatistics.rasterizeMisses, 6)
        let image = try renderFrame(renderer, atTime: 1.0 / 60)
        let statistics = renderer.lastFrameStatistics
        XCTAssertEqual(statistics.offscreenPasses, 0)
        XCTAssertEqual(statistics.rasterizeHits, 6)
        XCTAssertEqual(statistics.drawCalls, 1)
        XCTAssertEqual(renderer.rasterizationCacheStatistics.images, 1)
        assertPixels(image, "rasterized-page", tolerance: 1) { x, y in
            let ly = y - 10, lx = (x - 10) % 24
            guard x >= 10, (0..<6).contains((x - 10) / 24), (0..<20).contains(lx), (0..<20).contains(ly) else { return .clear }
            if (5..<20).contains(lx) && (5..<20).contains(ly) { return .blue }
            if (0..<10).contains(lx) && (0..<10).contains(ly) { return .red }
            return .clear
        }
    }

    func testCachePagesDoNotGrowOverAThousandFrames() throws {
        // Four still groups moving by fractions of a pixel, and a fifth whose content changes every 50
        // frames (cached again after settling each time): pages, cache entries and pool surfaces stay
        // as they were after warm-up.
        let root = makeRoot(width: 160, height: 96)
        var groups: [CALayer] = []
        for g in 0..<4 { groups.append(scenesGroup(at: CGPoint(x: 24 * g, y: 0), in: root).group) }
        let changing = scenesGroup(at: CGPoint(x: 80, y: 32), in: root)
        let renderer = try makeRenderer(width: 160, height: 96)
        renderer.layer = root
        var warm: (pool: (created: Int, resident: Int), blocks: Int, cache: (entries: Int, bytes: Int, images: Int))?
        for frame in 0..<1_000 {
            withoutAnimation {
                for (g, group) in groups.enumerated() { group.position.x = CGFloat(32 + 24 * g) + CGFloat(frame % 7) / 7 }
                // The green child moves inside the group's extent, so the bitmap's size stays the same.
                if frame % 50 == 0 { changing.children[1].position.x = CGFloat(32 + (frame / 50) % 5) }
            }
            renderer.beginFrame(atTime: Double(frame) / 60)
            renderer.render()
            renderer.endFrame()
            if frame == 199 { warm = (renderer.surfacePoolStatistics, renderer.memoryBlockCount, renderer.rasterizationCacheStatistics) }
        }
        let last = (renderer.surfacePoolStatistics, renderer.memoryBlockCount, renderer.rasterizationCacheStatistics)
        XCTAssertEqual(last.0.created, warm?.pool.created, "no surface created after warm-up")
        XCTAssertEqual(last.0.resident, warm?.pool.resident)
        XCTAssertEqual(last.1, warm?.blocks)
        XCTAssertEqual(last.2.entries, 5, "one bitmap per group")
        XCTAssertEqual(last.2.images, 1, "on one shared page")
        XCTAssertEqual(last.2.bytes, warm?.cache.bytes)
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenPasses, 0)
        XCTAssertEqual(renderer.lastFrameStatistics.drawCalls, 1)
        XCTAssertEqual(renderer.validationMessages, [])
    }
}
