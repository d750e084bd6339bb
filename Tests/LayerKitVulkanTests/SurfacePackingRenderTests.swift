import LayerKit
import LayerKitTestSupport
@testable import LayerKitVulkan
import XCTest

/// Packed offscreen surfaces on the GPU: sibling groups drawn in one shared pass, nested groups in
/// dependency order, each composite showing exactly its own sub-rectangle.
final class SurfacePackingRenderTests: CARendererTestCase {
    /// Groups over opaque children go through surfaces here: packed group surfaces are what this class tests.
    override var resolvesGroupsByDepth: Bool { false }

    /// A group at `origin` (opacity 0.5) with opaque `bottom` at (0, 0) and opaque `top` at (d, d), both
    /// `side` × `side`.
    @discardableResult
    private func group(at origin: CGPoint, side: CGFloat, d: CGFloat, _ bottom: CGColor, _ top: CGColor, in parent: CALayer) -> CALayer {
        let group = makeLayer(CGRect(x: origin.x, y: origin.y, width: side + d, height: side + d), nil, in: parent)
        group.opacity = 0.5
        makeLayer(CGRect(x: 0, y: 0, width: side, height: side), bottom, in: group)
        makeLayer(CGRect(x: d, y: d, width: side, height: side), top, in: group)
        return group
    }

    func testSiblingGroupsShareOnePassAndKeepTheirOwnPixels() throws {
        // Four groups in the quadrants, red under green, then blue under yellow, alternating. Each group
        // composited at 0.5 over clear: top child (c · 0.5, 0.5) where it is, bottom child elsewhere.
        let root = makeRoot()
        let colors: [(CGColor, CGColor, PixelRGBA, PixelRGBA)] = [
            (.testRed, .testGreen, PixelRGBA(premultiplied: 0.5, 0, 0, 0.5), PixelRGBA(premultiplied: 0, 0.5, 0, 0.5)),
            (.testBlue, .testYellow, PixelRGBA(premultiplied: 0, 0, 0.5, 0.5), PixelRGBA(premultiplied: 0.5, 0.5, 0, 0.5)),
        ]
        let origins = [(2, 2), (34, 2), (2, 34), (34, 34)]
        for (index, (x, y)) in origins.enumerated() {
            let (bottom, top, _, _) = colors[index % 2]
            group(at: CGPoint(x: x, y: y), side: 20, d: 8, bottom, top, in: root)
        }
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        assertPixels(image, "packed-siblings", tolerance: 1) { x, y in
            for (index, (ox, oy)) in origins.enumerated() {
                let (gx, gy) = (x - ox, y - oy)
                let (_, _, bottom, top) = colors[index % 2]
                if (8..<28).contains(gx) && (8..<28).contains(gy) { return top }
                if (0..<20).contains(gx) && (0..<20).contains(gy) { return bottom }
            }
            return .clear
        }
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.groupOpacity])
        XCTAssertEqual(renderer.lastFrameStatistics.passes, 2)
    }

    func testNestedGroupsAreDrawnInDependencyOrder() throws {
        // Outer group (0.5) at (0, 0): an inner group (0.5) of red [0, 16)² under green [8, 24)², then
        // opaque blue [16, 40)² over it. A sibling group (0.5) at (44, 44): red [0, 12)² under green
        // [6, 18)². Outer surface: blue where blue, else the inner composite (c · 0.5, 0.5); the frame
        // fades it by 0.5 again. Level 0 (inner, sibling) shares one pass; the outer group runs after.
        let root = makeRoot()
        let outer = makeLayer(CGRect(x: 0, y: 0, width: 48, height: 48), nil, in: root)
        outer.opacity = 0.5
        group(at: .zero, side: 16, d: 8, .testRed, .testGreen, in: outer)
        makeLayer(CGRect(x: 16, y: 16, width: 24, height: 24), .testBlue, in: outer)
        group(at: CGPoint(x: 44, y: 44), side: 12, d: 6, .testRed, .testGreen, in: root)
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        assertPixels(image, "packed-nested", tolerance: 1) { x, y in
            func inside(_ lo: Int, _ hi: Int) -> Bool { (lo..<hi).contains(x) && (lo..<hi).contains(y) }
            if inside(16, 40) { return PixelRGBA(premultiplied: 0, 0, 0.5, 0.5) }
            if inside(8, 24) { return PixelRGBA(premultiplied: 0, 0.25, 0, 0.25) }
            if inside(0, 16) { return PixelRGBA(premultiplied: 0.25, 0, 0, 0.25) }
            if inside(50, 62) { return PixelRGBA(premultiplied: 0, 0.5, 0, 0.5) }
            if inside(44, 56) { return PixelRGBA(premultiplied: 0.5, 0, 0, 0.5) }
            return .clear
        }
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.groupOpacity, .groupOpacity])
        XCTAssertEqual(renderer.lastFrameStatistics.passes, 3)
    }

    func testAGroupPartlyOffTheTargetIsDrawnWholeAndClippedByTheFrame() throws {
        // Groups overhanging the right and bottom edges: drawn whole into the shared surface, so each
        // composite shows exactly the part inside the frame.
        let root = makeRoot()
        for (x, y) in [(50, 4), (4, 50)] { group(at: CGPoint(x: x, y: y), side: 20, d: 8, .testRed, .testGreen, in: root) }
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        assertPixels(image, "packed-overhanging", tolerance: 1) { x, y in
            for (ox, oy) in [(50, 4), (4, 50)] {
                let (gx, gy) = (x - ox, y - oy)
                if (8..<28).contains(gx) && (8..<28).contains(gy) { return PixelRGBA(premultiplied: 0, 0.5, 0, 0.5) }
                if (0..<20).contains(gx) && (0..<20).contains(gy) { return PixelRGBA(premultiplied: 0.5, 0, 0, 0.5) }
            }
            return .clear
        }
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.groupOpacity])
    }
}
