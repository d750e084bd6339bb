import Foundation
@testable import LayerKitSDL
@testable import LayerKitVulkan
import XCTest

/// The window draws what headless rendering draws, the same way: one frame-recording path
/// (`FrameRecorder`), so the swapchain has the depth-stencil attachment (opaque content front to back,
/// stencil clips), the atlas, batching and statistics. Counts worked out by hand; pixels from the shapes.
final class LayerWindowParityTests: LayerWindowTestCase {
    private static let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)

    /// Under an opaque white root (160×120 points):
    /// - a translucent red square T (4, 4, 80, 80) between two opaque draws: the root behind it and an
    ///   opaque blue square B (20, 20, 70, 70) over it, which hides an opaque red layer (30, 30, 20, 20)
    ///   (B is large enough to be an occluder: `OcclusionCuller.minimumOccluderArea`);
    /// - two different 8×8 translucent images side by side at y 100 (one atlas page, one batch);
    /// - an axis-aligned clip (100, 20, 32, 32) holding a 45°-rotated 32×32 clip about the same centre
    ///   (116, 36), holding a green layer that overflows both (a stencil clip).
    private func buildScene(in root: CALayer) {
        root.backgroundColor = Self.white
        _ = addLayer(CGRect(x: 4, y: 4, width: 80, height: 80), CGColor(red: 1, green: 0, blue: 0, alpha: 0.4), in: root)
        _ = addLayer(CGRect(x: 30, y: 30, width: 20, height: 20), CGColor(red: 1, green: 0, blue: 0, alpha: 1), in: root)
        _ = addLayer(CGRect(x: 20, y: 20, width: 70, height: 70), CGColor(red: 0, green: 0, blue: 1, alpha: 1), in: root)
        for (index, rgba) in [(UInt8(128), UInt8(0), UInt8(0), UInt8(128)), (0, 0, 128, 128)].enumerated() {
            let bytes = (0..<64).flatMap { _ in [rgba.0, rgba.1, rgba.2, rgba.3] }
            let image = CGImage(width: 8, height: 8, bytesPerRow: 32, premultipliedRGBA: bytes, alphaInfo: .premultipliedLast)!
            addLayer(CGRect(x: 4 + 12 * index, y: 100, width: 8, height: 8), nil, in: root).contents = image
        }
        let outer = addLayer(CGRect(x: 100, y: 20, width: 32, height: 32), nil, in: root)
        outer.masksToBounds = true
        let inner = addLayer(CGRect(x: 0, y: 0, width: 32, height: 32), nil, in: outer)
        inner.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        inner.masksToBounds = true
        _ = addLayer(CGRect(x: -40, y: -40, width: 112, height: 112), CGColor(red: 0, green: 1, blue: 0, alpha: 1), in: inner)
    }

    func testTheWindowDrawsDepthOrderedAtlasBatchedAndStencilClippedFramesAsHeadlessDoes() throws {
        let window = try makeWindow(width: 160, height: 120)
        buildScene(in: window.rootLayer)
        let image = try window.snapshot()
        let statistics = window.lastFrameStatistics

        // The root's opaque white covers the window: it is the clear. Batches: B (opaque, front to back);
        // then T; the two images (one atlas page); the stencil push, the green layer inside it, the pop.
        // The hidden red layer is culled.
        XCTAssertEqual(statistics.quadsDrawnAsClear, 1)
        XCTAssertEqual(statistics.batches, 6)
        XCTAssertEqual(statistics.drawCalls, 6)
        XCTAssertEqual(statistics.instances, 7, "T, B, two images, push, green, pop")
        XCTAssertEqual(statistics.quadsCulledOccluded, 1)
        XCTAssertEqual(statistics.passes, 1)

        // The same tree headless gives the same counts.
        let headless = try renderHeadless(buildScene).0.lastFrameStatistics
        for (name, path) in [("batches", \FrameStatistics.batches), ("draw calls", \.drawCalls), ("instances", \.instances),
                             ("layers visible", \.layersVisible), ("layers culled", \.layersCulled), ("quads culled", \.quadsCulled),
                             ("quads drawn as clear", \.quadsDrawnAsClear)] {
            XCTAssertEqual(statistics[keyPath: path], headless[keyPath: path], name)
        }

        // Pixels (opaque, as the window shows them). The stencil clip: green only inside both the
        // square (100…132 × 20…52) and the diamond |x − 116| + |y − 36| ≤ 22.6.
        XCTAssertEqual(image.rgb(116, 36), RGB(0, 1, 0), "inside both clips")
        XCTAssertEqual(image.rgb(130, 36), RGB(0, 1, 0), "(130.5, 36.5): inside both, by the square's right edge")
        XCTAssertEqual(image.rgb(133, 36), RGB(1, 1, 1), "(133.5, 36.5): inside the diamond, right of the square")
        XCTAssertEqual(image.rgb(116, 16), RGB(1, 1, 1), "(116.5, 16.5): inside the diamond, above the square")
        XCTAssertEqual(image.rgb(101, 21), RGB(1, 1, 1), "(101.5, 21.5): the square's corner, outside the diamond")
        XCTAssertEqual(image.rgb(40, 40), RGB(0, 0, 1), "B over T and the hidden red layer")
        XCTAssertEqual(image.rgb(0, 0), RGB(1, 1, 1))

        // The GPU's measurements reach the window's statistics once a frame has finished.
        if window.context.device.supportsPipelineStatistics {
            try runUntilPresented(window, frames: 2)
            XCTAssertNotNil(window.lastCompletedFrameStatistics?.fragmentsShaded)
        }
    }
}
