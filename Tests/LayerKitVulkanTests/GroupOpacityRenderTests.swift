import LayerKit
@testable import LayerKitVulkan
import XCTest

/// Group opacity through offscreen surfaces: a layer with `allowsGroupOpacity` below full opacity shows
/// its subtree composited first, then faded; expectations are the premultiplied source-over arithmetic
/// worked out per region, and the offscreen passes each scene needs are counted by hand.
final class GroupOpacityRenderTests: CARendererTestCase {
    /// Groups over opaque children go through surfaces here: group-opacity surfaces are what this class tests.
    override var resolvesGroupsByDepth: Bool { false }

    func testTranslucentChildrenAreFadedAsOneGroup() throws {
        // Over opaque green, a group at 0.5 holds opaque red (16, 16)..<(40, 40) under half-transparent
        // blue (24, 24)..<(48, 48). Group: blue over red = (0.5, 0, 0.5, 1) in the overlap; faded by 0.5
        // over green: (0.25, 0.5, 0.25, 1). Red alone: (0.5, 0.5, 0, 1). Blue alone: (0, 0, 0.25, 0.25)
        // over green = (0, 0.75, 0.25, 1). (Fading each child instead would give (0.375, 0.375, 0.25, 1)
        // in the overlap.)
        let root = makeRoot()
        makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), .testGreen, in: root)
        let group = makeLayer(CGRect(x: 16, y: 16, width: 32, height: 32), nil, in: root)
        group.opacity = 0.5
        makeLayer(CGRect(x: 0, y: 0, width: 24, height: 24), .testRed, in: group)
        makeLayer(CGRect(x: 8, y: 8, width: 24, height: 24), CGColor(red: 0, green: 0, blue: 1, alpha: 0.5), in: group)
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        assertPixels(image, "translucent-group", tolerance: 1) { x, y in
            let inRed = (16..<40).contains(x) && (16..<40).contains(y), inBlue = (24..<48).contains(x) && (24..<48).contains(y)
            switch (inRed, inBlue) {
            case (true, true): return PixelRGBA(premultiplied: 0.25, 0.5, 0.25, 1)
            case (true, false): return PixelRGBA(premultiplied: 0.5, 0.5, 0, 1)
            case (false, true): return PixelRGBA(premultiplied: 0, 0.75, 0.25, 1)
            case (false, false): return .green
            }
        }
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.groupOpacity])
        XCTAssertEqual(renderer.lastFrameStatistics.passes, 2)
    }

    func testSideBySideChildrenFoldWithoutAnOffscreenPass() throws {
        // Red (16, 16)..<(32, 48) and blue (32, 16)..<(48, 48) share no pixel: each shows at 0.5.
        let root = makeRoot()
        let group = makeLayer(CGRect(x: 16, y: 16, width: 32, height: 32), nil, in: root)
        group.opacity = 0.5
        makeLayer(CGRect(x: 0, y: 0, width: 16, height: 32), .testRed, in: group)
        makeLayer(CGRect(x: 16, y: 0, width: 16, height: 32), .testBlue, in: group)
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        assertPixels(image, "side-by-side", tolerance: 1) { x, y in
            guard (16..<48).contains(y) else { return .clear }
            if (16..<32).contains(x) { return PixelRGBA(premultiplied: 0.5, 0, 0, 0.5) }
            if (32..<48).contains(x) { return PixelRGBA(premultiplied: 0, 0, 0.5, 0.5) }
            return .clear
        }
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenPasses, 0)
        XCTAssertEqual(renderer.lastFrameStatistics.passes, 1)
    }

    func testSurfaceAtAnOddOffsetLandsOnTheSamePixels() throws {
        // A group at (5, 7) — its surface starts there — holds a 12×10 image whose pixel (x, y) is
        // (20x, 20y, 255, 255) and, overlapping it from (6, 5), an opaque white layer. Faded by 0.5 every
        // image pixel must come out at (5 + x, 7 + y): a half-texel slip would mix neighbours.
        let root = makeRoot()
        let group = makeLayer(CGRect(x: 5, y: 7, width: 20, height: 20), nil, in: root)
        group.opacity = 0.5
        let pictured = makeLayer(CGRect(x: 0, y: 0, width: 12, height: 10), nil, in: group)
        pictured.contents = makeImage(width: 12, height: 10) { x, y in PixelRGBA(UInt8(20 * x), UInt8(20 * y), 255, 255) }
        makeLayer(CGRect(x: 6, y: 5, width: 12, height: 10), .testWhite, in: group)
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        assertPixels(image, "odd-offset", tolerance: 1) { x, y in
            let (gx, gy) = (x - 5, y - 7)
            if (6..<18).contains(gx) && (5..<15).contains(gy) { return PixelRGBA(premultiplied: 0.5, 0.5, 0.5, 0.5) }
            if (0..<12).contains(gx) && (0..<10).contains(gy) {
                return PixelRGBA(premultiplied: Double(20 * gx) / 255 / 2, Double(20 * gy) / 255 / 2, 0.5, 0.5)
            }
            return .clear
        }
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.groupOpacity])
    }

    /// One of two side-by-side outer groups (opacity 0.5) at (`x`, 0), 32×64: an inner group (opacity
    /// 0.5) at (4, 4) with opaque red (0, 0, 16, 16) under opaque blue (8, 8, 16, 16), and an opaque green
    /// layer at (20, 20, 12, 12) over the inner group's corner.
    private func makeNestedGroup(x: CGFloat, in root: CALayer) {
        let outer = makeLayer(CGRect(x: x, y: 0, width: 32, height: 64), nil, in: root)
        outer.opacity = 0.5
        let inner = makeLayer(CGRect(x: 4, y: 4, width: 24, height: 24), nil, in: outer)
        inner.opacity = 0.5
        makeLayer(CGRect(x: 0, y: 0, width: 16, height: 16), .testRed, in: inner)
        makeLayer(CGRect(x: 8, y: 8, width: 16, height: 16), .testBlue, in: inner)
        makeLayer(CGRect(x: 20, y: 20, width: 12, height: 12), .testGreen, in: outer)
    }

    func testNestedGroupsComposeInTwoPackedPasses() throws {
        // Per outer group: inner surface, outer surface. The two inner surfaces need nothing from each
        // other and share one packed pass; the two outer ones, which sample them, share the next: 2
        // offscreen passes, 2 images (both pages fit the 64×64 bucket).
        // Expected per outer group, relative to it: green (20..<32)² at 0.5; blue (12..<28)² at 0.25;
        // red (4..<20)² at 0.25; clear elsewhere.
        let root = makeRoot()
        makeNestedGroup(x: 0, in: root)
        makeNestedGroup(x: 32, in: root)
        let renderer = try makeRenderer()
        renderer.cachesGroups = false  // the per-frame packed passes are under test
        renderer.layer = root
        let image = try renderFrame(renderer)
        assertPixels(image, "nested-groups", tolerance: 1) { x, y in
            let lx = x % 32
            func inside(_ range: Range<Int>) -> Bool { range.contains(lx) && range.contains(y) }
            if inside(20..<32) { return PixelRGBA(premultiplied: 0, 0.5, 0, 0.5) }
            if inside(12..<28) { return PixelRGBA(premultiplied: 0, 0, 0.25, 0.25) }
            if inside(4..<20) { return PixelRGBA(premultiplied: 0.25, 0, 0, 0.25) }
            return .clear
        }
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.groupOpacity, .groupOpacity])
        XCTAssertEqual(renderer.surfacePoolStatistics.created, 2)
    }

    func testSurfacePoolDoesNotGrowOver1000Frames() throws {
        // A group-opacity surface and a mask's two surfaces every frame: the pool makes its images in the
        // first frame and reuses them in every later one; device memory stays as it was after frame 1.
        let root = makeRoot()
        let group = makeLayer(CGRect(x: 0, y: 0, width: 32, height: 32), nil, in: root)
        group.opacity = 0.5
        makeLayer(CGRect(x: 0, y: 0, width: 24, height: 24), .testRed, in: group)
        makeLayer(CGRect(x: 8, y: 8, width: 24, height: 24), .testBlue, in: group)
        let masked = makeLayer(CGRect(x: 32, y: 32, width: 32, height: 32), .testGreen, in: root)
        let mask = makeLayer(CGRect(x: 8, y: 8, width: 16, height: 16), .black)
        masked.mask = mask
        let renderer = try makeRenderer()
        renderer.layer = root
        _ = try renderFrame(renderer)
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.groupOpacity, .mask, .mask])
        let afterFirst = (renderer.surfacePoolStatistics, renderer.memoryBlockCount)
        XCTAssertEqual(afterFirst.0.created, 3)
        for frame in 1..<1000 {
            renderer.beginFrame(atTime: Double(frame) / 60)
            renderer.render()
            renderer.endFrame()
        }
        XCTAssertEqual(renderer.surfacePoolStatistics.created, afterFirst.0.created)
        XCTAssertEqual(renderer.surfacePoolStatistics.resident, afterFirst.0.resident)
        XCTAssertEqual(renderer.memoryBlockCount, afterFirst.1)
        let image = try renderer.snapshot()
        assertPixels(image, "after-1000-frames", tolerance: 1, probes: [
            Probe("overlap", 20, 20, PixelRGBA(premultiplied: 0, 0, 0.5, 0.5)),
            Probe("red", 4, 4, PixelRGBA(premultiplied: 0.5, 0, 0, 0.5)),
            Probe("masked in", 48, 48, .green),
            Probe("masked out", 36, 36, .clear),
        ])
    }

    func testSurfacesUnusedForSixtyFramesAreReleased() throws {
        // The group goes opaque after the first frame: its surface sits idle in the pool, and once it has
        // been idle for more than `SurfacePool.idleFramesBeforeRelease` frames it is destroyed.
        let root = makeRoot()
        let group = makeLayer(CGRect(x: 0, y: 0, width: 32, height: 32), nil, in: root)
        group.opacity = 0.5
        makeLayer(CGRect(x: 0, y: 0, width: 24, height: 24), .testRed, in: group)
        makeLayer(CGRect(x: 8, y: 8, width: 24, height: 24), .testBlue, in: group)
        let renderer = try makeRenderer()
        renderer.layer = root
        _ = try renderFrame(renderer)
        XCTAssertEqual(renderer.surfacePoolStatistics.resident, 1)
        withoutAnimation { group.opacity = 1 }
        let idleFrames = Int(SurfacePool.idleFramesBeforeRelease)
        for frame in 1...idleFrames {
            _ = try renderFrame(renderer, atTime: Double(frame))
        }
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenPasses, 0)
        XCTAssertEqual(renderer.surfacePoolStatistics.resident, 1, "idle for exactly \(idleFrames) frames: still pooled")
        _ = try renderFrame(renderer, atTime: Double(idleFrames + 1))
        XCTAssertEqual(renderer.surfacePoolStatistics.resident, 0)
        XCTAssertEqual(renderer.surfacePoolStatistics.created, 1)
    }
}
