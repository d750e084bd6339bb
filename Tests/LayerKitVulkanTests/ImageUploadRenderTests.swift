import LayerKit
@testable import LayerKitVulkan
import XCTest

/// The same `CGImage` is uploaded once however many layers show it, and not again on later frames;
/// identity is the image object, not its pixels.
final class ImageUploadRenderTests: CARendererTestCase {
    /// 50 layers, 6×6 points each, in a 10 × 5 grid from (2, 2), all showing `image` sampled nearest.
    func makeGrid(showing image: CGImage) -> (root: CALayer, layers: [CALayer]) {
        let root = makeRoot()
        let layers = (0..<50).map { index -> CALayer in
            let layer = makeLayer(CGRect(x: 2 + 6 * (index % 10), y: 2 + 6 * (index / 10), width: 6, height: 6), nil, in: root)
            layer.contents = image
            layer.magnificationFilter = .nearest
            return layer
        }
        return (root, layers)
    }

    func testOneImageOnFiftyLayersIsUploadedOnceOnTheFirstFrameAndNeverAgain() throws {
        let image = makeQuadrantImage(width: 2, height: 2)
        let (root, _) = makeGrid(showing: image)
        let renderer = try makeRenderer()
        renderer.layer = root

        let first = try renderFrame(renderer)
        XCTAssertEqual(renderer.lastFrameStatistics.imagesUploaded, 1)
        // 2×2 RGBA8.
        XCTAssertEqual(renderer.lastFrameStatistics.bytesUploaded, 16)
        // Every layer shows the image: each quadrant is a 3×3 block.
        for index in 0..<50 {
            let x = 2 + 6 * (index % 10), y = 2 + 6 * (index / 10)
            XCTAssertEqual(PixelRGBA(first, x, y), .red, "layer \(index) top-left")
            XCTAssertEqual(PixelRGBA(first, x + 5, y), .green, "layer \(index) top-right")
            XCTAssertEqual(PixelRGBA(first, x, y + 5), .blue, "layer \(index) bottom-left")
            XCTAssertEqual(PixelRGBA(first, x + 5, y + 5), .white, "layer \(index) bottom-right")
        }

        let second = try renderFrame(renderer, atTime: 1)
        XCTAssertEqual(renderer.lastFrameStatistics.imagesUploaded, 0)
        XCTAssertEqual(renderer.lastFrameStatistics.bytesUploaded, 0)
        XCTAssertEqual(PixelRGBA(second, 2, 2), .red)
        XCTAssertEqual(PixelRGBA(second, 61, 31), .white)
    }

    func testANewImageIsUploadedWhenALayerStartsShowingIt() throws {
        let (root, layers) = makeGrid(showing: makeQuadrantImage(width: 2, height: 2))
        let renderer = try makeRenderer()
        renderer.layer = root
        _ = try renderFrame(renderer)
        let yellow = makeImage(width: 4, height: 4) { _, _ in .yellow }
        withoutAnimation { layers[7].contents = yellow }
        let frame = try renderFrame(renderer, atTime: 1)
        XCTAssertEqual(renderer.lastFrameStatistics.imagesUploaded, 1)
        XCTAssertEqual(renderer.lastFrameStatistics.bytesUploaded, 64)
        // Layer 7 is at (44, 2).
        XCTAssertEqual(PixelRGBA(frame, 46, 4), .yellow)
        XCTAssertEqual(PixelRGBA(frame, 38, 2), .red)
    }

    func testTwoImagesWithTheSamePixelsAreTwoUploads() throws {
        let root = makeRoot()
        for index in 0..<2 {
            let layer = makeLayer(CGRect(x: 8 + 24 * index, y: 8, width: 16, height: 16), nil, in: root)
            layer.contents = makeQuadrantImage(width: 2, height: 2)
        }
        let renderer = try makeRenderer()
        renderer.layer = root
        _ = try renderFrame(renderer)
        XCTAssertEqual(renderer.lastFrameStatistics.imagesUploaded, 2)
    }

    func testReplacingAnAtlasImageEveryFrameKeepsWhatTheBackendRemembersBounded() throws {
        // A new 8×8 image each frame (the atlas takes it): a freed placement's upload is forgotten, so
        // what the atlas pages remember stays within what the atlas holds — the image shown, plus the
        // ones not yet freed (the atlas frees every 32 frames), not one per frame ever shown.
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 0, y: 0, width: 8, height: 8), nil, in: root)
        let renderer = try makeRenderer()
        renderer.layer = root
        for frame in 0..<200 {
            let shade = UInt8(frame % 256)
            let bytes = (0..<64).flatMap { _ in [shade, 0, 0, 255] as [UInt8] }
            CATransaction.setDisableActions(true)
            layer.contents = CGImage(width: 8, height: 8, bytesPerRow: 32, premultipliedRGBA: bytes, alphaInfo: .premultipliedLast)
            let image = try renderFrame(renderer, atTime: Double(frame))
            XCTAssertEqual(image.pixel(x: 4, y: 4).r, shade, "frame \(frame) shows its own image")
        }
        XCTAssertLessThanOrEqual(renderer.atlasUploadsRemembered, 64, "200 images shown, at most two eviction rounds remembered")
        XCTAssertGreaterThan(renderer.atlasUploadsRemembered, 0)
    }
}
