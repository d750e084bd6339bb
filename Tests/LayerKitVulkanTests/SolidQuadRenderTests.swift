import LayerKit
import LayerKitRender
@testable import LayerKitVulkan
import XCTest

/// Solid quads through the whole backend: upload of instances, one render pass, readback.
final class SolidQuadRenderTests: VulkanRenderTestCase {
    let scene = PixelScene(width: 32, height: 32)

    func testOpaqueSquareCoversExactlyItsHundredPixels() throws {
        let renderer = try makeRenderer()
        let clear = SIMD4<Float>(0, 0, 0, 1)
        let counters = try renderer.render(scene.graph(clear: clear, [scene.item(SIMD4(5, 5, 15, 15), color: SIMD4(1, 0, 0, 1))]))
        let image = try renderer.readback()
        XCTAssertEqual(counters, FrameCounters(drawCalls: 1, instances: 1, passes: 1))

        var red = 0
        for y in 0..<32 { for x in 0..<32 where image.rgba(x, y) == RGBA8(255, 0, 0, 255) { red += 1 } }
        XCTAssertEqual(red, 100)
        assertPixels(image, "opaque-square") { x, y in
            (5..<15).contains(x) && (5..<15).contains(y) ? RGBA8(255, 0, 0, 255) : RGBA8(0, 0, 0, 255)
        }
    }

    func testUnequalScalesKeepAxesApart() throws {
        // A 24×8 target and a 6-wide, 2-tall rect: swapped axes or a wrong aspect would move pixels.
        let wide = PixelScene(width: 24, height: 8)
        let renderer = try makeRenderer(width: 24, height: 8)
        try renderer.render(wide.graph([wide.item(SIMD4(3, 1, 9, 3), color: SIMD4(0, 1, 0, 1))]))
        assertPixels(try renderer.readback(), "unequal-scales") { x, y in
            (3..<9).contains(x) && (1..<3).contains(y) ? RGBA8(0, 255, 0, 255) : .clear
        }
    }

    func testHalfBlueOverRedBlendsPremultipliedSourceOver() throws {
        let renderer = try makeRenderer()
        let red = SIMD4<Float>(1, 0, 0, 1)
        let halfBlue = SIMD4<Float>(0, 0, 0.5, 0.5)  // premultiplied 50% blue
        try renderer.render(scene.graph([
            scene.item(SIMD4(0, 0, 32, 32), color: red),
            scene.item(SIMD4(8, 8, 24, 24), color: halfBlue),
        ]))
        // src + dst·(1 − src.a) = (0 + 1·0.5, 0, 0.5 + 0, 0.5 + 1·0.5)
        let blended = RGBA8(SIMD4(0.5, 0, 0.5, 1))
        assertPixels(try renderer.readback(), tolerance: 1, "half-blue-over-red") { x, y in
            (8..<24).contains(x) && (8..<24).contains(y) ? blended : RGBA8(255, 0, 0, 255)
        }
    }

    func testTranslucentOverClearKeepsPremultipliedAlpha() throws {
        let renderer = try makeRenderer()
        try renderer.render(scene.graph([scene.item(SIMD4(0, 0, 32, 32), color: SIMD4(0.25, 0, 0, 0.25))]))
        let image = try renderer.readback()
        XCTAssertTrue(image.rgba(3, 3).isClose(to: RGBA8(64, 0, 0, 64), tolerance: 1), "\(image.rgba(3, 3))")
    }

    func testEmptyGraphClearsToTransparent() throws {
        let renderer = try makeRenderer()
        try renderer.render(scene.graph([scene.item(SIMD4(0, 0, 32, 32), color: SIMD4(1, 1, 1, 1))]))
        let counters = try renderer.render(RenderGraph(passes: []))
        XCTAssertEqual(counters, FrameCounters())
        assertPixels(try renderer.readback(), "empty-graph") { _, _ in .clear }
    }

    func testEachPassClearsAndDrawsInOrder() throws {
        let renderer = try makeRenderer()
        let target = RenderTarget.frame(width: 32, height: 32)
        let graph = RenderGraph(passes: [
            RenderPass(name: "first", target: target, clearColor: SIMD4(0, 1, 0, 1), items: [scene.item(SIMD4(0, 0, 4, 4), color: SIMD4(1, 1, 1, 1))]),
            RenderPass(name: "second", target: target, clearColor: SIMD4(0, 0, 1, 1), items: [scene.item(SIMD4(4, 4, 8, 8), color: SIMD4(1, 0, 0, 1))]),
        ])
        let counters = try renderer.render(graph)
        XCTAssertEqual(counters.passes, 2)
        XCTAssertEqual(counters.drawCalls, 2)
        assertPixels(try renderer.readback(), "two-passes") { x, y in
            (4..<8).contains(x) && (4..<8).contains(y) ? RGBA8(255, 0, 0, 255) : RGBA8(0, 0, 255, 255)
        }
    }

    func testWrongTargetSizeThrowsAndTheRendererRecovers() throws {
        let renderer = try makeRenderer()
        let other = PixelScene(width: 16, height: 16)
        XCTAssertThrowsError(try renderer.render(other.graph([other.item(SIMD4(0, 0, 4, 4), color: SIMD4(1, 0, 0, 1))]))) { error in
            guard case VulkanError.unsupportedTarget = error else { return XCTFail("unexpected \(error)") }
        }
        try renderer.render(scene.graph([scene.item(SIMD4(0, 0, 32, 32), color: SIMD4(0, 0, 1, 1))]))
        assertPixels(try renderer.readback(), "after-error") { _, _ in RGBA8(0, 0, 255, 255) }
    }

    func testReadbackBeforeRenderThrows() throws {
        let renderer = try makeRenderer()
        XCTAssertThrowsError(try renderer.readback()) { XCTAssertEqual($0 as? VulkanError, .nothingRendered) }
    }
}
