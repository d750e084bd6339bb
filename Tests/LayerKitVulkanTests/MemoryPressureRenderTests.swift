import LayerKit
import LayerKitTestSupport
@testable import LayerKitVulkan
import XCTest

/// Device memory running short, through the allocator's injected limit: pools and caches are trimmed
/// and the allocation retried; when that is not enough the frame still renders, degraded, with a
/// diagnostic.
final class MemoryPressureRenderTests: CARendererTestCase {
    /// Groups over opaque children go through surfaces here: surfaces under memory pressure are what this class tests.
    override var resolvesGroupsByDepth: Bool { false }

    /// A group (0.5) at (16, 16) of opaque red [0, 24)² under opaque blue [8, 32)².
    @discardableResult
    private func overlappingGroup(in root: CALayer, side: CGFloat = 24) -> CALayer {
        let group = makeLayer(CGRect(x: 16, y: 16, width: side + 8, height: side + 8), nil, in: root)
        group.opacity = 0.5
        makeLayer(CGRect(x: 0, y: 0, width: side, height: side), .testRed, in: group)
        makeLayer(CGRect(x: 8, y: 8, width: side, height: side), .testBlue, in: group)
        return group
    }

    /// Renders frames until every frame context has its resources (instance buffers), so that later
    /// frames allocate nothing but surfaces.
    private func warmUp(_ renderer: CARenderer) throws {
        for frame in 0..<4 { _ = try renderFrame(renderer, atTime: Double(frame) / 60) }
    }

    func testWithNoMemoryForASurfaceTheFrameRendersDegradedAndSaysSo() throws {
        let root = makeRoot()
        makeLayer(CGRect(x: 0, y: 0, width: 4, height: 4), .testWhite, in: root)
        let renderer = try makeRenderer()
        renderer.layer = root
        try warmUp(renderer)
        renderer.limitDeviceMemory(toExtraBytes: 0)
        defer { renderer.limitDeviceMemory(toExtraBytes: nil) }
        withoutAnimation { overlappingGroup(in: root) }
        let capture = DiagnosticCapture()
        let image = try renderFrame(renderer, atTime: 1)
        XCTAssertEqual(capture.names, ["offscreenRenderingDegraded"])
        // Without isolation each child is faded on its own: red (0.5, 0, 0, 0.5); blue (0, 0, 0.5, 0.5);
        // where they overlap blue over red = (0.25, 0, 0.5, 0.75) (isolated it would be (0, 0, 0.5, 0.5)).
        assertPixels(image, "degraded-group", tolerance: 1) { x, y in
            if (0..<4).contains(x) && (0..<4).contains(y) { return .white }
            let inRed = (16..<40).contains(x) && (16..<40).contains(y), inBlue = (24..<48).contains(x) && (24..<48).contains(y)
            switch (inRed, inBlue) {
            case (true, true): return PixelRGBA(premultiplied: 0.25, 0, 0.5, 0.75)
            case (true, false): return PixelRGBA(premultiplied: 0.5, 0, 0, 0.5)
            case (false, true): return PixelRGBA(premultiplied: 0, 0, 0.5, 0.5)
            case (false, false): return .clear
            }
        }
        XCTAssertEqual(renderer.lastFrameStatistics.passes, 1, "drawn without the offscreen pass")

        // With the limit lifted the group is isolated again.
        renderer.limitDeviceMemory(toExtraBytes: nil)
        let recovered = try renderFrame(renderer, atTime: 2)
        // Vulkan converts a float to either of the two nearest 8-bit levels: 0.5 (127.5) may be 127 or 128.
        assertPixels(recovered, "recovered", tolerance: 1, probes: [Probe("isolated", 30, 30, PixelRGBA(premultiplied: 0, 0, 0.5, 0.5))])
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.groupOpacity])
    }

    func testTrimmingFreeSurfacesMakesRoomWithoutDegrading() throws {
        // A big group leaves a 128 × 128 surface in the pool when it goes; under a limit that allows
        // nothing new, a small group's 64 × 64 surface fits only once the free one is destroyed.
        let root = makeRoot(width: 128, height: 128)
        let big = overlappingGroup(in: root, side: 90)
        let renderer = try makeRenderer(width: 128, height: 128)
        renderer.cachesGroups = false  // the per-frame group surface is what needs room
        renderer.layer = root
        try warmUp(renderer)
        XCTAssertEqual(renderer.surfacePoolStatistics.resident, 1)
        withoutAnimation { big.removeFromSuperlayer() }
        _ = try renderFrame(renderer, atTime: 1)
        renderer.limitDeviceMemory(toExtraBytes: 0)
        defer { renderer.limitDeviceMemory(toExtraBytes: nil) }
        withoutAnimation { overlappingGroup(in: root) }
        let capture = DiagnosticCapture()
        let image = try renderFrame(renderer, atTime: 2)
        XCTAssertEqual(capture.names, [], "trimming was enough")
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.groupOpacity])
        // Isolated: blue over red inside the group, faded once.
        // Vulkan converts a float to either of the two nearest 8-bit levels: 0.5 (127.5) may be 127 or 128.
        assertPixels(image, "isolated", tolerance: 1, probes: [
            Probe("blue over red", 30, 30, PixelRGBA(premultiplied: 0, 0, 0.5, 0.5)),
            Probe("red", 20, 20, PixelRGBA(premultiplied: 0.5, 0, 0, 0.5)),
        ])
        XCTAssertEqual(renderer.surfacePoolStatistics.resident, 1, "the big surface went, the small one came")
    }

    func testTrimmedRasterizationEntriesAreDrawnAgainLater() throws {
        // A rasterized layer's bitmap is held across frames; when memory runs short for another
        // surface and the layer is not drawn that frame, its bitmap is trimmed, and the render side,
        // told so, draws it again when the layer returns.
        let root = makeRoot(width: 128, height: 128)
        let rasterized = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 100), .testRed, in: root)
        rasterized.shouldRasterize = true
        let renderer = try makeRenderer(width: 128, height: 128)
        renderer.cachesGroups = false  // the per-frame group surface is what needs room
        renderer.layer = root
        try warmUp(renderer)
        XCTAssertEqual(renderer.rasterizationCacheStatistics.images, 1)
        withoutAnimation { rasterized.isHidden = true }
        _ = try renderFrame(renderer, atTime: 1)
        renderer.limitDeviceMemory(toExtraBytes: 0)
        withoutAnimation { overlappingGroup(in: root) }
        _ = try renderFrame(renderer, atTime: 2)
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.groupOpacity], "room made by trimming the bitmap")
        XCTAssertEqual(renderer.rasterizationCacheStatistics.images, 0)
        XCTAssertEqual(renderer.rasterizationCacheStatistics.entries, 0, "the render side forgot the entry")
        renderer.limitDeviceMemory(toExtraBytes: nil)
        withoutAnimation { rasterized.isHidden = false }
        let image = try renderFrame(renderer, atTime: 3)
        XCTAssertEqual(renderer.lastFrameStatistics.rasterizeMisses, 1)
        XCTAssertEqual(PixelRGBA(image, 4, 4), .red)
    }

    func testADegradedCachePageDrawsEachGroupsOwnContentOnly() throws {
        // Two still groups, cached at first sight onto one page, when no memory is left for the page:
        // each composite is replaced by its own bitmap's draws only (the page holds the other's beside
        // it), faded one by one as degraded group opacity is. Groups at (8, 8) and (64, 64) of red
        // [0, 24)² under blue [8, 32)²: red alone (0.5, 0, 0, 0.5), blue alone (0, 0, 0.5, 0.5), blue
        // over red (0.25, 0, 0.5, 0.75); clear elsewhere.
        let root = makeRoot(width: 128, height: 128)
        makeLayer(CGRect(x: 124, y: 124, width: 4, height: 4), .testWhite, in: root)
        let renderer = try makeRenderer(width: 128, height: 128)
        renderer.layer = root
        try warmUp(renderer)
        renderer.limitDeviceMemory(toExtraBytes: 0)
        defer { renderer.limitDeviceMemory(toExtraBytes: nil) }
        let origins = [(8, 8), (64, 64)]
        withoutAnimation {
            for (x, y) in origins {
                let group = makeLayer(CGRect(x: x, y: y, width: 32, height: 32), nil, in: root)
                group.opacity = 0.5
                makeLayer(CGRect(x: 0, y: 0, width: 24, height: 24), .testRed, in: group)
                makeLayer(CGRect(x: 8, y: 8, width: 24, height: 24), .testBlue, in: group)
            }
        }
        let capture = DiagnosticCapture()
        let image = try renderFrame(renderer, atTime: 1)
        XCTAssertEqual(capture.names, ["offscreenRenderingDegraded"])
        assertPixels(image, "degraded-page", tolerance: 1) { x, y in
            if x >= 124 && y >= 124 { return .white }
            for (ox, oy) in origins {
                let (lx, ly) = (x - ox, y - oy)
                let inRed = (0..<24).contains(lx) && (0..<24).contains(ly), inBlue = (8..<32).contains(lx) && (8..<32).contains(ly)
                switch (inRed, inBlue) {
                case (true, true): return PixelRGBA(premultiplied: 0.25, 0, 0.5, 0.75)
                case (true, false): return PixelRGBA(premultiplied: 0.5, 0, 0, 0.5)
                case (false, true): return PixelRGBA(premultiplied: 0, 0, 0.5, 0.5)
                case (false, false): continue
                }
            }
            return .clear
        }
    }
}
