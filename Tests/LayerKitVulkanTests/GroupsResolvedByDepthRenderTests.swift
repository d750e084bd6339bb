import LayerKit
@testable import LayerKitVulkan
import XCTest

/// Group opacity over opaque, hard-edged children drawn straight into the frame and resolved by the depth
/// test (`DepthPhase.resolvedGroup`): each pixel shows the front-most child of the group at the group's
/// opacity — the group's composite, without a surface. Expectations are worked out per pixel from the
/// layers' rectangles (a pixel belongs to a rectangle when its centre lies inside, the rasterizer's rule)
/// and premultiplied source-over; the surface path (`resolvesGroupsByDepth` off) must agree.
final class GroupsResolvedByDepthRenderTests: CARendererTestCase {
    /// The topmost of `rects` (painter's order) containing pixel (x, y)'s centre, by index.
    private func topmost(_ rects: [CGRect], _ x: Int, _ y: Int) -> Int? {
        let centre = CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)
        return rects.lastIndex { $0.contains(centre) }
    }

    func testOverlappingOpaqueChildrenShowTheFrontMostAtTheGroupsOpacityWithoutASurface() throws {
        // Over opaque green, a group at 0.5 (at a fractional position) holds red, then blue over it, then
        // yellow over both: each pixel is 0.5 · front-most child + 0.5 · green.
        let root = makeRoot()
        makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), .testGreen, in: root)
        let group = makeLayer(CGRect(x: 8.25, y: 6.5, width: 48, height: 48), nil, in: root)
        group.opacity = 0.5
        let children = [CGRect(x: 0, y: 0, width: 24, height: 24), CGRect(x: 8, y: 8, width: 24, height: 24),
                        CGRect(x: 16.5, y: 2, width: 20, height: 30)]
        let colors: [SIMD3<Double>] = [SIMD3(1, 0, 0), SIMD3(0, 0, 1), SIMD3(1, 1, 0)]
        for (rect, rgb) in zip(children, colors) {
            makeLayer(rect, CGColor(red: rgb.x, green: rgb.y, blue: rgb.z, alpha: 1), in: group)
        }
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        let statistics = renderer.lastFrameStatistics
        XCTAssertEqual(statistics.passes, 1, "no surface")
        XCTAssertEqual(statistics.offscreenPasses, 0)
        XCTAssertEqual(renderer.lastGraph?.passes.last?.batches.map(\.key.depth), [.resolvedGroup], "the green backdrop is the clear")
        let inFrame = children.map { $0.offsetBy(dx: 8.25, dy: 6.5) }
        assertPixels(image, "resolved by depth", tolerance: 1) { x, y in
            guard let front = self.topmost(inFrame, x, y) else { return .green }
            let c = 0.5 * colors[front] + 0.5 * SIMD3(0, 1, 0)
            return PixelRGBA(premultiplied: c.x, c.y, c.z, 1)
        }
        // The group's surface, composited: the same pixels where the surface is placed on whole pixels.
        let throughSurface = try makeRenderer()
        throughSurface.resolvesGroupsByDepth = false
        group.frame.origin = CGPoint(x: 8, y: 6)
        CATransaction.flush()
        renderer.layer = nil
        renderer.layer = root
        throughSurface.layer = root
        let resolved = try renderFrame(renderer, atTime: 1)
        let composited = try renderFrame(throughSurface, atTime: 1)
        XCTAssertEqual(throughSurface.lastFrameStatistics.offscreenPasses + throughSurface.lastFrameStatistics.rasterizeHits, 1)
        assertPixels(resolved, "depth vs surface") { x, y in PixelRGBA(composited, x, y) }
    }

    func testGroupsOverEachOtherAndLayersAboveThemBlendInPaintersOrder() throws {
        // Group A (0.5) of red under blue; group B (0.5) over it, of white under black; a half-transparent
        // magenta layer over both; an opaque cyan square on top. Over transparent black.
        let root = makeRoot()
        func group(_ frame: CGRect, _ children: [(CGRect, CGColor)]) {
            let layer = makeLayer(frame, nil, in: root)
            layer.opacity = 0.5
            for (rect, color) in children { makeLayer(rect, color, in: layer) }
        }
        group(CGRect(x: 4, y: 4, width: 32, height: 32), [(CGRect(x: 0, y: 0, width: 20, height: 20), .testRed),
                                                          (CGRect(x: 10, y: 10, width: 20, height: 20), .testBlue)])
        group(CGRect(x: 20, y: 20, width: 40, height: 40), [(CGRect(x: 0, y: 0, width: 20, height: 20), .testWhite),
                                                            (CGRect(x: 8, y: 8, width: 24, height: 24), CGColor(red: 0, green: 0, blue: 0, alpha: 1))])
        makeLayer(CGRect(x: 0, y: 28, width: 64, height: 8), CGColor(red: 1, green: 0, blue: 1, alpha: 0.5), in: root)
        makeLayer(CGRect(x: 44, y: 0, width: 12, height: 12), CGColor(red: 0, green: 1, blue: 1, alpha: 1), in: root)
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenPasses, 0)
        let a = [CGRect(x: 4, y: 4, width: 20, height: 20), CGRect(x: 14, y: 14, width: 20, height: 20)]
        let b = [CGRect(x: 20, y: 20, width: 20, height: 20), CGRect(x: 28, y: 28, width: 24, height: 24)]
        let aColors: [SIMD4<Double>] = [SIMD4(1, 0, 0, 1), SIMD4(0, 0, 1, 1)]
        let bColors: [SIMD4<Double>] = [SIMD4(1, 1, 1, 1), SIMD4(0, 0, 0, 1)]
        assertPixels(image, "stacked groups", tolerance: 1) { x, y in
            func over(_ top: SIMD4<Double>, _ under: SIMD4<Double>) -> SIMD4<Double> { top + under * (1 - top.w) }
            var c = SIMD4<Double>.zero
            if let front = self.topmost(a, x, y) { c = over(0.5 * aColors[front], c) }
            if let front = self.topmost(b, x, y) { c = over(0.5 * bColors[front], c) }
            if (28..<36).contains(y) { c = over(SIMD4(0.5, 0, 0.5, 0.5), c) }
            if (44..<56).contains(x) && (0..<12).contains(y) { c = SIMD4(0, 1, 1, 1) }
            return PixelRGBA(premultiplied: c.x, c.y, c.z, c.w)
        }
    }
}
