import Foundation
import LayerKit
@testable import LayerKitVulkan
import XCTest

/// `setNeedsDisplay(_:)` redraws a region of the backing store, and the renderer re-uploads only that
/// region into the texture the layer already had: bytes uploaded = the region's pixels × 4, worked out
/// here from the rectangle rounded out to whole backing pixels. Most layers here are wider than the
/// atlas's largest image (256), so their backing stores are textures of their own; one small layer's
/// store lives in an atlas page and is updated there.
final class PartialUploadRenderTests: CARendererTestCase {
    /// Fills its whole bounds with `color` in `draw(in:)` (clipped to the redrawn region).
    final class FillLayer: CALayer {
        var color: CGColor = .testRed
        override init() { super.init() }
        required init(layer: Any) {
            super.init(layer: layer)
            color = (layer as? FillLayer)?.color ?? .testRed
        }
        override func draw(in ctx: CGContext) {
            ctx.setFillColor(color)
            ctx.fill(bounds)
        }
    }

    func makeScene(scale: CGFloat = 1) throws -> (CARenderer, FillLayer) {
        let root = makeRoot(width: 320, height: 48)
        let layer = FillLayer()
        layer.frame = CGRect(x: 10, y: 4, width: 300, height: 40)
        layer.contentsScale = scale
        layer.setNeedsDisplay()
        root.addSublayer(layer)
        let renderer = try makeRenderer(width: Int(320 * scale), height: Int(48 * scale), scale: scale)
        renderer.layer = root
        return (renderer, layer)
    }

    func testARedrawnRegionIsTheOnlyPartUploaded() throws {
        let (renderer, layer) = try makeScene()
        _ = try renderFrame(renderer)
        XCTAssertEqual(renderer.lastFrameStatistics.imagesUploaded, 1)
        XCTAssertEqual(renderer.lastFrameStatistics.bytesUploaded, 300 * 40 * 4)

        layer.color = .testGreen
        layer.setNeedsDisplay(CGRect(x: 10.5, y: 4.25, width: 30, height: 10))
        let image = try renderFrame(renderer, atTime: 1)
        // Rounded out to whole pixels: x 10..<41 (31 columns), y 4..<15 (11 rows).
        XCTAssertEqual(renderer.lastFrameStatistics.imagesUploaded, 1)
        XCTAssertEqual(renderer.lastFrameStatistics.bytesUploaded, 31 * 11 * 4)
        // The layer is at (10, 4): the region is on screen at x 20..<51, y 8..<19; the rest kept red.
        assertPixels(image, "partial upload") { x, y in
            guard x >= 10, x < 310, y >= 4, y < 44 else { return .clear }
            return (x >= 20 && x < 51 && y >= 8 && y < 19) ? .green : .red
        }

        // Nothing redrawn: nothing uploaded.
        _ = try renderFrame(renderer, atTime: 2)
        XCTAssertEqual(renderer.lastFrameStatistics.bytesUploaded, 0)
    }

    func testRegionsAreInBackingPixelsAtTheContentsScale() throws {
        let (renderer, layer) = try makeScene(scale: 2)
        _ = try renderFrame(renderer)
        XCTAssertEqual(renderer.lastFrameStatistics.bytesUploaded, 600 * 80 * 4)
        layer.color = .testBlue
        layer.setNeedsDisplay(CGRect(x: 100, y: 0.25, width: 50.25, height: 20))
        let image = try renderFrame(renderer, atTime: 1)
        // At scale 2: columns 200..<301 (100.5 points), rows 0..<41 (20.5 points).
        XCTAssertEqual(renderer.lastFrameStatistics.bytesUploaded, 101 * 41 * 4)
        // On screen the layer starts at pixel (20, 8).
        assertPixels(image, "partial upload at 2x") { x, y in
            guard x >= 20, x < 620, y >= 8, y < 88 else { return .clear }
            return (x >= 220 && x < 321 && y >= 8 && y < 49) ? .blue : .red
        }
    }

    /// A small backing store lives in the atlas: the redrawn region, cut to the bounds, is copied into its
    /// placement (the statistics count the region's texels, as they count a placement's).
    func testAnAtlasedBackingStoreUpdatesOnlyItsRegion() throws {
        let root = makeRoot()
        let layer = FillLayer()
        layer.frame = CGRect(x: 8, y: 8, width: 40, height: 30)
        layer.setNeedsDisplay()
        root.addSublayer(layer)
        let renderer = try makeRenderer()
        renderer.layer = root
        _ = try renderFrame(renderer)
        XCTAssertEqual(renderer.lastFrameStatistics.bytesUploaded, 40 * 30 * 4)
        layer.color = .testBlue
        // Cut to the bounds: x 30..<40, y 20..<30.
        layer.setNeedsDisplay(CGRect(x: 30, y: 20, width: 20, height: 20))
        let image = try renderFrame(renderer, atTime: 1)
        XCTAssertEqual(renderer.lastFrameStatistics.bytesUploaded, 10 * 10 * 4)
        assertPixels(image, "atlased partial upload") { x, y in
            guard x >= 8, x < 48, y >= 8, y < 38 else { return .clear }
            return (x >= 38 && y >= 28) ? .blue : .red
        }
    }

    /// Another layer still shows the old backing store: its texture must keep the old pixels, so the new
    /// image is uploaded whole.
    func testAnImageStillShownElsewhereIsNotOverwritten() throws {
        let (renderer, layer) = try makeScene()
        _ = try renderFrame(renderer)
        let old = try XCTUnwrap(layer.contents as? CGImage)
        let twin = CALayer()
        twin.frame = CGRect(x: 10, y: 44, width: 300, height: 4)
        twin.contents = old
        twin.contentsRect = CGRect(x: 0, y: 0, width: 1, height: 0.1)
        withoutAnimation { renderer.layer?.addSublayer(twin) }
        _ = try renderFrame(renderer, atTime: 1)

        layer.color = .testGreen
        layer.setNeedsDisplay(CGRect(x: 0, y: 0, width: 20, height: 20))
        let image = try renderFrame(renderer, atTime: 2)
        XCTAssertEqual(renderer.lastFrameStatistics.bytesUploaded, 300 * 40 * 4)
        // The twin shows the old image's top rows (red), including where the layer is now green.
        XCTAssertEqual(PixelRGBA(image, 12, 45), .red)
        XCTAssertEqual(PixelRGBA(image, 12, 6), .green)
        XCTAssertEqual(PixelRGBA(image, 40, 6), .red)
    }
}
