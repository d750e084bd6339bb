import Foundation
import LayerKit
@testable import LayerKitVulkan
import XCTest

/// Images larger than the largest texture are drawn in tiles (`ImageTiling`) and look as if drawn whole.
/// The device allows 16384-texel images, so the tests lower the limit to 64. Validation on.
final class ImageTilingRenderTests: CARendererTestCase {
    /// 100×100, every texel distinct from its neighbours.
    private func makePattern() -> CGImage {
        makeImage(width: 100, height: 100) { x, y in
            PixelRGBA(premultiplied: Double(x) / 99, Double(y) / 99, Double((x * 7 + y * 3) % 11) / 10, 1)
        }
    }

    private func render(_ root: CALayer, maxTextureSize: Int?) throws -> (CGImage, FrameStatistics) {
        let renderer = try makeRenderer(width: 128, height: 128)
        if let maxTextureSize { renderer.maxTextureSize = maxTextureSize }
        renderer.layer = root
        let image = try renderFrame(renderer)
        return (image, renderer.lastFrameStatistics)
    }

    func testTiledImageLooksLikeTheWholeImage() throws {
        let pattern = makePattern()
        let root = makeRoot(width: 128, height: 128)
        // 1:1, nearest: each pixel shows one texel.
        let exact = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 100), nil, in: root)
        exact.contents = pattern
        exact.magnificationFilter = .nearest
        exact.minificationFilter = .nearest
        // Magnified twice, linear, across the tile seam at texel 62, rotated a little.
        let scaled = makeLayer(CGRect(x: 40, y: 40, width: 80, height: 80), nil, in: root)
        scaled.contents = pattern
        scaled.contentsRect = CGRect(x: 0.4, y: 0.4, width: 0.4, height: 0.4)
        scaled.transform = CATransform3DMakeRotation(0.1, 0, 0, 1)
        let (tiled, tiledStatistics) = try render(root, maxTextureSize: 64)
        let (whole, wholeStatistics) = try render(root, maxTextureSize: nil)
        // Cores of 62 texels: the 1:1 layer shows 2×2 tiles; the scaled one (texels 40…80) 2×2 too.
        XCTAssertEqual(tiledStatistics.layerQuads, 8)
        XCTAssertEqual(wholeStatistics.layerQuads, 2)
        XCTAssertEqual(tiledStatistics.imagesUploaded, 4, "four tile textures, shared by both layers")
        XCTAssertEqual(tiledStatistics.bytesUploaded, (63 * 63 + 39 * 63 + 63 * 39 + 39 * 39) * 4)
        // Linear filtering reads the same texels at other texture coordinates (a tile's, the whole
        // image's). A GPU's filter weights are fixed-point (NVIDIA reports 8 bits of subtexel precision): one
        // step of a weight on a step of up to 255 between neighbours is one level, rounding another.
        assertPixels(tiled, "tiled vs whole", tolerance: 2) { x, y in PixelRGBA(whole, x, y) }
        assertPixels(tiled, "tiled vs whole, 1:1 part", probes: (0..<40).map { k in
            Probe("texel (\(2 * k + 1), \(k))", 2 * k + 1, k, PixelRGBA(whole, 2 * k + 1, k))
        })
    }
}
