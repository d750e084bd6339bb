import LayerKit
import LayerKitRender
@testable import LayerKitVulkan
import XCTest

/// Rounded corners, borders, antialiased edges and analytic clips, against coverage worked out here.
///
/// Layer space is the pixel grid, so one layer unit is one pixel and the shader's one-pixel ramp is
/// `coverage = clamp(0.5 − d, 0, 1)` for a signed distance `d` (pixels, negative inside) at the pixel centre.
final class CoverageRenderTests: VulkanRenderTestCase {
    let scene = PixelScene(width: 32, height: 32)

    /// Coverage of a rounded rect at a pixel centre: exact circle distance in the corner regions, a hard
    /// step on straight edges (no `antialiasEdges`).
    func expectedCoverage(_ x: Int, _ y: Int, rect: SIMD4<Float>, radii: SIMD4<Float>) -> Float {
        let px = Float(x) + 0.5, py = Float(y) + 0.5
        guard px >= rect.x, px <= rect.z, py >= rect.y, py <= rect.w else { return 0 }
        // (corner centre, radius) for tl, tr, br, bl.
        let corners: [(Float, Float, Float)] = [
            (rect.x + radii.x, rect.y + radii.x, radii.x), (rect.z - radii.y, rect.y + radii.y, radii.y),
            (rect.z - radii.z, rect.w - radii.z, radii.z), (rect.x + radii.w, rect.w - radii.w, radii.w),
        ]
        let signs: [(Float, Float)] = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
        for (corner, sign) in zip(corners, signs) where corner.2 > 0 {
            let dx = (px - corner.0) * sign.0, dy = (py - corner.1) * sign.1
            if dx > 0 && dy > 0 {
                let distance = (dx * dx + dy * dy).squareRoot() - corner.2
                return min(max(0.5 - distance, 0), 1)
            }
        }
        return 1
    }

    func testRoundedCornersFollowTheCircleWithPerCornerRadii() throws {
        let renderer = try makeRenderer()
        let rect = SIMD4<Float>(6, 6, 26, 26)
        let radii = SIMD4<Float>(8, 0, 4, 2)  // top-left, top-right, bottom-right, bottom-left
        try renderer.render(scene.graph([scene.item(rect, color: SIMD4(1, 1, 1, 1), radii: radii)]))
        let image = try renderer.readback()

        // Far outside the top-left arc (distance 10.6 − 8 = 2.6 px) and well inside it.
        XCTAssertEqual(image.rgba(6, 6), .clear)
        XCTAssertEqual(image.rgba(9, 9), RGBA8(255, 255, 255, 255))
        // The square top-right corner is fully covered; the top-left one is not.
        XCTAssertEqual(image.rgba(25, 6), RGBA8(255, 255, 255, 255))
        // Bottom-right (radius 4) and bottom-left (radius 2) corner pixels are outside their arcs.
        XCTAssertEqual(image.rgba(25, 25), .clear)
        XCTAssertLessThan(image.rgba(6, 25).a, 255)

        assertPixels(image, tolerance: 2, "rounded-corners") { x, y in
            RGBA8(SIMD4(repeating: self.expectedCoverage(x, y, rect: rect, radii: radii)))
        }
    }

    func testBorderRingHasBorderColorAndInsideHasFill() throws {
        let renderer = try makeRenderer()
        let rect = SIMD4<Float>(6, 6, 26, 26)
        let fill = scene.item(rect, color: SIMD4(0, 0, 1, 1))
        let border = scene.item(rect, color: SIMD4(0, 1, 0, 1), borderWidth: 3, flags: .border)
        try renderer.render(scene.graph([fill, border]))
        assertPixels(try renderer.readback(), "border-ring") { x, y in
            guard (6..<26).contains(x), (6..<26).contains(y) else { return .clear }
            let inRing = x < 9 || x >= 23 || y < 9 || y >= 23
            return inRing ? RGBA8(0, 255, 0, 255) : RGBA8(0, 0, 255, 255)
        }
    }

    func testRoundedBorderInnerRadiiShrinkByTheWidth() throws {
        let renderer = try makeRenderer()
        let rect = SIMD4<Float>(4, 4, 28, 28)
        let border = scene.item(rect, color: SIMD4(1, 1, 1, 1), radii: SIMD4(repeating: 10), borderWidth: 4, flags: .border)
        try renderer.render(scene.graph([border]))
        let inner = SIMD4<Float>(8, 8, 24, 24)
        let innerRadii = SIMD4<Float>(repeating: 6)
        assertPixels(try renderer.readback(), tolerance: 2, "rounded-border") { x, y in
            let outer = self.expectedCoverage(x, y, rect: rect, radii: SIMD4(repeating: 10))
            let hole = self.expectedCoverage(x, y, rect: inner, radii: innerRadii)
            return RGBA8(SIMD4(repeating: outer * (1 - hole)))
        }
    }

    func testClipRectCutsTheQuadAtItsColumn() throws {
        let renderer = try makeRenderer()
        let item = scene.item(SIMD4(0, 0, 32, 32), color: SIMD4(1, 0, 0, 1), flags: .clip, clipRect: SIMD4(0, 0, 12, 32))
        try renderer.render(scene.graph([item]))
        assertPixels(try renderer.readback(), "clip-column") { x, _ in x < 12 ? RGBA8(255, 0, 0, 255) : .clear }
    }

    func testClipIsEvaluatedInTheClipsOwnSpace() throws {
        // The clip's space is layer space scaled by 2 in x: the clip edge at 24 is layer x = 12.
        let renderer = try makeRenderer()
        var item = scene.item(SIMD4(0, 0, 32, 32), color: SIMD4(0, 1, 0, 1), flags: .clip, clipRect: SIMD4(0, 0, 24, 32))
        item.instance.clipFromLocal = (SIMD4(2, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0))
        try renderer.render(scene.graph([item]))
        assertPixels(try renderer.readback(), "clip-scaled") { x, _ in x < 12 ? RGBA8(0, 255, 0, 255) : .clear }
    }

    func testClipEdgeBetweenPixelCentresIsAntialiased() throws {
        // Clip edge at x = 12.5 passes through the centre of column 12: half covered.
        let renderer = try makeRenderer()
        let item = scene.item(SIMD4(0, 0, 32, 32), color: SIMD4(1, 1, 1, 1), flags: .clip, clipRect: SIMD4(0, 0, 12.5, 32))
        try renderer.render(scene.graph([item]))
        assertPixels(try renderer.readback(), tolerance: 1, "clip-antialiased") { x, _ in
            x < 12 ? RGBA8(255, 255, 255, 255) : x == 12 ? RGBA8(SIMD4(repeating: 0.5)) : .clear
        }
    }

    func testStraightEdgesAreHardUnlessAntialiasEdgesIsSet() throws {
        // The left edge at x = 5.5 passes through the centres of column 5.
        let rect = SIMD4<Float>(5.5, 4, 20, 20)
        let renderer = try makeRenderer()
        try renderer.render(scene.graph([scene.item(rect, color: SIMD4(1, 1, 1, 1))]))
        XCTAssertEqual(try renderer.readback().rgba(5, 10), RGBA8(255, 255, 255, 255))
        try renderer.render(scene.graph([scene.item(rect, color: SIMD4(1, 1, 1, 1), flags: .antialiasEdges)]))
        let soft = try renderer.readback().rgba(5, 10)
        XCTAssertTrue(soft.isClose(to: RGBA8(SIMD4(repeating: 0.5)), tolerance: 1), "\(soft)")
    }
}
