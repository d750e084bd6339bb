import LayerKit
import LayerKitRender
@testable import LayerKitVulkan
import XCTest

/// Textured quads: sampling, the one-upload-per-image rule, batching and mipmaps.
final class TextureRenderTests: VulkanRenderTestCase {
    let scene = PixelScene(width: 32, height: 32)

    /// Top-left red, top-right green, bottom-left blue, bottom-right white.
    func makeQuadrantImage() -> CGImage {
        CGImage(width: 2, height: 2, bytesPerRow: 8, premultipliedRGBA: [
            255, 0, 0, 255, 0, 255, 0, 255,
            0, 0, 255, 255, 255, 255, 255, 255,
        ])!
    }

    func testNearestFilteringPutsEachTexelInItsQuadrant() throws {
        let renderer = try makeRenderer()
        let binding = TextureBinding(image: makeQuadrantImage(), minification: .nearest, magnification: .nearest)
        let counters = try renderer.render(scene.graph([scene.item(SIMD4(8, 8, 24, 24), color: SIMD4(1, 1, 1, 1), texture: binding)]))
        XCTAssertEqual(counters.imagesUploaded, 1)
        XCTAssertEqual(counters.bytesUploaded, 16)
        assertPixels(try renderer.readback(), "texel-quadrants") { x, y in
            guard (8..<24).contains(x), (8..<24).contains(y) else { return .clear }
            switch (x < 16, y < 16) {
            case (true, true): return RGBA8(255, 0, 0, 255)
            case (false, true): return RGBA8(0, 255, 0, 255)
            case (true, false): return RGBA8(0, 0, 255, 255)
            case (false, false): return RGBA8(255, 255, 255, 255)
            }
        }
    }

    func testTextureIsMultipliedByInstanceColor() throws {
        let renderer = try makeRenderer()
        let binding = TextureBinding(image: makeQuadrantImage(), minification: .nearest, magnification: .nearest)
        try renderer.render(scene.graph([scene.item(SIMD4(0, 0, 32, 32), color: SIMD4(repeating: 0.5), texture: binding)]))
        let image = try renderer.readback()
        XCTAssertTrue(image.rgba(4, 4).isClose(to: RGBA8(128, 0, 0, 128), tolerance: 1), "\(image.rgba(4, 4))")
    }

    func testFiftyItemsSharingAnImageUploadOnceAndDrawOnce() throws {
        let renderer = try makeRenderer()
        let image = makeQuadrantImage()
        let binding = TextureBinding(image: image, minification: .nearest, magnification: .nearest)
        let items = (0..<50).map { index -> DrawItem in
            let x = Float(index % 8) * 4, y = Float(index / 8) * 4
            return scene.item(SIMD4(x, y, x + 2, y + 2), color: SIMD4(1, 1, 1, 1), texture: binding)
        }
        let first = try renderer.render(scene.graph(items))
        XCTAssertEqual(first, FrameCounters(drawCalls: 1, instances: 50, bytesUploaded: 16, imagesUploaded: 1, passes: 1))
        // Every quad shows the image: its top-left pixel red, bottom-right white.
        let pixels = try renderer.readback()
        for index in 0..<50 {
            let x = (index % 8) * 4, y = (index / 8) * 4
            XCTAssertEqual(pixels.rgba(x, y), RGBA8(255, 0, 0, 255), "item \(index)")
            XCTAssertEqual(pixels.rgba(x + 1, y + 1), RGBA8(255, 255, 255, 255), "item \(index)")
        }

        // The next frame finds it resident.
        let second = try renderer.render(scene.graph(items))
        XCTAssertEqual(second.imagesUploaded, 0)
        XCTAssertEqual(second.bytesUploaded, 0)
        XCTAssertEqual(renderer.totalImagesUploaded, 1)
    }

    func testBatchesBreakWhereTheBindingChanges() throws {
        let renderer = try makeRenderer()
        let a = TextureBinding(image: makeQuadrantImage(), minification: .nearest, magnification: .nearest)
        let b = TextureBinding(image: makeQuadrantImage(), minification: .nearest, magnification: .nearest)
        let linearA = TextureBinding(image: a.image!, minification: .linear, magnification: .linear)
        let white = SIMD4<Float>(1, 1, 1, 1)
        let r = SIMD4<Float>(0, 0, 2, 2)
        // a a | b | (none) (none) | a | linear a  → 5 draw calls, 2 images.
        let items = [
            scene.item(r, color: white, texture: a), scene.item(r, color: white, texture: a),
            scene.item(r, color: white, texture: b),
            scene.item(r, color: white), scene.item(r, color: white),
            scene.item(r, color: white, texture: a),
            scene.item(r, color: white, texture: linearA),
        ]
        let counters = try renderer.render(scene.graph(items))
        XCTAssertEqual(counters.drawCalls, 5)
        XCTAssertEqual(counters.instances, 7)
        XCTAssertEqual(counters.imagesUploaded, 2)
    }

    func testTrilinearMinificationAveragesThroughTheMipChain() throws {
        // A one-pixel checkerboard drawn at 1/8 scale: level 3 of its mip chain is uniform mid grey, while
        // nearest sampling of level 0 picks pure black or white.
        var bytes: [UInt8] = []
        for y in 0..<64 { for x in 0..<64 { let v: UInt8 = (x + y) % 2 == 0 ? 255 : 0; bytes += [v, v, v, 255] } }
        let checker = CGImage(width: 64, height: 64, bytesPerRow: 256, premultipliedRGBA: bytes)!
        let small = PixelScene(width: 8, height: 8)
        let renderer = try makeRenderer(width: 8, height: 8)

        try renderer.render(small.graph([small.item(SIMD4(0, 0, 8, 8), color: SIMD4(1, 1, 1, 1),
            texture: TextureBinding(image: checker, minification: .nearest, magnification: .nearest))]))
        let nearest = try renderer.readback()
        for y in 0..<8 { for x in 0..<8 { XCTAssertTrue([0, 255].contains(nearest.rgba(x, y).r), "nearest (\(x), \(y)): \(nearest.rgba(x, y))") } }

        let counters = try renderer.render(small.graph([small.item(SIMD4(0, 0, 8, 8), color: SIMD4(1, 1, 1, 1),
            texture: TextureBinding(image: checker, minification: .trilinear, magnification: .linear))]))
        XCTAssertEqual(counters.imagesUploaded, 1, "a resident image without mipmaps is uploaded again with them")
        assertPixels(try renderer.readback(), tolerance: 2, "trilinear-checker") { _, _ in RGBA8(128, 128, 128, 255) }
    }

    func testImageLargerThanTheStagingRingStillUploads() throws {
        // 2100 × 2100 × 4 bytes is more than the 16 MiB ring: a one-off staging buffer carries it.
        let side = 2100
        let pixels = [UInt8](unsafeUninitializedCapacity: side * side * 4) { buffer, count in
            for index in stride(from: 0, to: side * side * 4, by: 4) {
                buffer[index] = 0; buffer[index + 1] = 128; buffer[index + 2] = 255; buffer[index + 3] = 255
            }
            count = side * side * 4
        }
        let image = CGImage(width: side, height: side, bytesPerRow: side * 4, premultipliedRGBA: pixels)!
        let renderer = try makeRenderer()
        let counters = try renderer.render(scene.graph([scene.item(SIMD4(0, 0, 32, 32), color: SIMD4(1, 1, 1, 1),
            texture: TextureBinding(image: image, minification: .linear, magnification: .linear))]))
        XCTAssertEqual(counters.bytesUploaded, side * side * 4)
        assertPixels(try renderer.readback(), "large-image") { _, _ in RGBA8(0, 128, 255, 255) }
    }

    func testRowPaddingIsRemovedOnUpload() throws {
        // 2 × 2 pixels in rows of 12 bytes: the padding must not shift the second row.
        let padded = CGImage(width: 2, height: 2, bytesPerRow: 12, premultipliedRGBA: [
            255, 0, 0, 255, 0, 255, 0, 255, 9, 9, 9, 9,
            0, 0, 255, 255, 255, 255, 255, 255, 9, 9, 9, 9,
        ])!
        let renderer = try makeRenderer()
        try renderer.render(scene.graph([scene.item(SIMD4(0, 0, 32, 32), color: SIMD4(1, 1, 1, 1),
            texture: TextureBinding(image: padded, minification: .nearest, magnification: .nearest))]))
        let image = try renderer.readback()
        XCTAssertEqual(image.rgba(4, 20), RGBA8(0, 0, 255, 255))
        XCTAssertEqual(image.rgba(20, 20), RGBA8(255, 255, 255, 255))
    }

    func testFailedFrameIsUndoneAndItsImagesUploadAgain() throws {
        let renderer = try makeRenderer()
        let good = TextureBinding(image: makeQuadrantImage(), minification: .nearest, magnification: .nearest)
        let limit = Int(context.device.limits.maxImageDimension2D)
        let tooTall = CGImage(width: 1, height: limit + 1, bytesPerRow: 4, premultipliedRGBA: [UInt8](repeating: 255, count: 4 * (limit + 1)))!
        let white = SIMD4<Float>(1, 1, 1, 1)
        XCTAssertThrowsError(try renderer.render(scene.graph([
            scene.item(SIMD4(0, 0, 32, 32), color: white, texture: good),
            scene.item(SIMD4(0, 0, 1, 1), color: white, texture: TextureBinding(image: tooTall)),
        ]))) { error in
            guard case VulkanError.imageTooLarge = error else { return XCTFail("unexpected \(error)") }
        }
        // The good image's upload never ran: the next frame uploads it again and samples real texels.
        let counters = try renderer.render(scene.graph([scene.item(SIMD4(0, 0, 32, 32), color: white, texture: good)]))
        XCTAssertEqual(counters.imagesUploaded, 1)
        let image = try renderer.readback()
        XCTAssertEqual(image.rgba(4, 4), RGBA8(255, 0, 0, 255))
        XCTAssertEqual(image.rgba(20, 20), RGBA8(255, 255, 255, 255))
    }
}
