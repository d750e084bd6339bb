import LayerKit
import LayerKitRender
@testable import LayerKitVulkan
import XCTest

/// A projective `localToClip`: the layer-space point, the shape test and the clip must follow the
/// perspective map exactly (an affine interpolation would move the shape's edges).
///
/// The map, in pixels: X = x / w, Y = y / w with w = 1 + a·x. As a matrix (column vectors):
/// clip = (2x/W − w, 2y/H − w, 0, w), so clip / w = (2X/W − 1, 2Y/H − 1).
final class PerspectiveRenderTests: VulkanRenderTestCase {
    let size = 32
    let a: Float = 0.03

    var localToClip: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let W = Float(size), H = Float(size)
        return (SIMD4(2 / W - a, -a, 0, a), SIMD4(0, 2 / H, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(-1, -1, 0, 1))
    }

    /// The layer-space point seen at pixel centre (X, Y): x = X / (1 − aX), y = Y·(1 + a·x).
    func layerPoint(_ px: Int, _ py: Int) -> (x: Float, y: Float) {
        let X = Float(px) + 0.5, Y = Float(py) + 0.5
        let x = X / (1 - a * X)
        return (x, Y * (1 + a * x))
    }

    func testShapeEdgesFollowThePerspectiveMap() throws {
        let renderer = try makeRenderer(width: size, height: size)
        let quad = SIMD4<Float>(0, 0, 40, 40)
        let shape = SIMD4<Float>(5, 5, 35, 35)
        let instance = LayerInstance(localToClip: localToClip, quad: quad, color: SIMD4(1, 0, 0, 1), shape: shape)
        try renderer.render(RenderGraph(passes: [RenderPass(name: "perspective", target: .frame(width: size, height: size), clearColor: .zero, items: [DrawItem(instance: instance)])]))
        let image = try renderer.readback()
        var checked = 0
        for py in 0..<size {
            for px in 0..<size {
                let p = layerPoint(px, py)
                let margin = min(abs(p.x - shape.x), abs(p.x - shape.z), abs(p.y - shape.y), abs(p.y - shape.w))
                guard margin > 0.01 else { continue }  // too close to an edge to call
                let inside = p.x > shape.x && p.x < shape.z && p.y > shape.y && p.y < shape.w
                XCTAssertEqual(image.rgba(px, py), inside ? RGBA8(255, 0, 0, 255) : .clear, "pixel (\(px), \(py)) at layer (\(p.x), \(p.y))")
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, size * size - 40)
    }

    func testClipInTargetPixelsCutsAtItsColumnUnderPerspective() throws {
        // The clip's space is the target's pixel grid: H maps layer (x, y, 1) to (x, y, w).
        let renderer = try makeRenderer(width: size, height: size)
        let quad = SIMD4<Float>(0, 0, 40, 40)
        let instance = LayerInstance(
            localToClip: localToClip, quad: quad, color: SIMD4(0, 1, 0, 1), shape: quad, flags: .clip,
            clipFromLocal: (SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(a, 0, 1, 0)), clipRect: SIMD4(0, 0, 12, 100))
        try renderer.render(RenderGraph(passes: [RenderPass(name: "perspective clip", target: .frame(width: size, height: size), clearColor: .zero, items: [DrawItem(instance: instance)])]))
        let image = try renderer.readback()
        for py in 0..<size {
            // Rows whose layer y is beyond the quad are not drawn at all.
            let inQuadAtColumn11 = layerPoint(11, py).y < 40
            XCTAssertEqual(image.rgba(11, py), inQuadAtColumn11 ? RGBA8(0, 255, 0, 255) : .clear, "row \(py), column 11")
            XCTAssertEqual(image.rgba(12, py), .clear, "row \(py), column 12")
        }
    }
}
