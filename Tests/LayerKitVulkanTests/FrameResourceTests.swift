import LayerKit
import LayerKitRender
@testable import LayerKitVulkan
import XCTest

/// Frames in flight, residency and memory over many frames.
final class FrameResourceTests: VulkanRenderTestCase {
    let scene = PixelScene(width: 32, height: 32)

    func makeImage(_ value: UInt8) -> CGImage {
        CGImage(width: 8, height: 8, bytesPerRow: 32, premultipliedRGBA: [UInt8](repeating: value, count: 256))!
    }

    func testImageUploadedInFrameOneIsNotUploadedInFrameTwoOrLater() throws {
        let renderer = try makeRenderer()
        let image = makeImage(200)
        let textured = scene.graph([scene.item(SIMD4(0, 0, 8, 8), color: SIMD4(1, 1, 1, 1), texture: TextureBinding(image: image))])
        let untextured = scene.graph([scene.item(SIMD4(0, 0, 8, 8), color: SIMD4(1, 1, 1, 1))])
        XCTAssertEqual(try renderer.render(textured).imagesUploaded, 1)
        XCTAssertEqual(try renderer.render(textured).imagesUploaded, 0)
        XCTAssertEqual(try renderer.render(untextured).imagesUploaded, 0)
        XCTAssertEqual(try renderer.render(textured).imagesUploaded, 0, "still resident while the image lives")
        XCTAssertEqual(renderer.totalImagesUploaded, 1)
        XCTAssertEqual(try renderer.readback().rgba(2, 2), RGBA8(200, 200, 200, 200))
    }

    func testTextureIsReleasedOnceItsImageIsGone() throws {
        let renderer = try makeRenderer()
        do {
            let image = makeImage(10)
            try renderer.render(scene.graph([scene.item(SIMD4(0, 0, 8, 8), color: SIMD4(1, 1, 1, 1), texture: TextureBinding(image: image))]))
            XCTAssertEqual(renderer.residentTextureCount, 1)
        }
        try renderer.render(scene.graph([]))
        XCTAssertEqual(renderer.residentTextureCount, 0)
    }

    func testTwoHundredFramesDoNotGrowTheAllocatorsBlocks() throws {
        let renderer = try makeRenderer()
        var blocksAfterWarmUp = 0
        for frame in 0..<200 {
            // A new image every frame (uploaded, then released when the image goes), plus untextured items.
            let image = makeImage(UInt8(frame % 256))
            let binding = TextureBinding(image: image, minification: frame % 2 == 0 ? .trilinear : .linear)
            var items = (0..<100).map { index -> DrawItem in
                let x = Float(index % 16) * 2, y = Float(index / 16) * 2
                return scene.item(SIMD4(x, y, x + 2, y + 2), color: SIMD4(1, 1, 1, 1), texture: binding)
            }
            items += (0..<20).map { scene.item(SIMD4(Float($0), 20, Float($0) + 1, 21), color: SIMD4(0, 0, 1, 1)) }
            let counters = try renderer.render(scene.graph(items), readback: frame % 50 == 49)
            XCTAssertEqual(counters.drawCalls, 2)
            XCTAssertEqual(counters.imagesUploaded, 1)
            // Warmed up once every kind of memory has been used: the first readback's buffer is host
            // memory of a kind of its own on a GPU (on lavapipe all memory is one kind).
            if frame == 49 { blocksAfterWarmUp = context.memoryBlockCount }
            if frame % 50 == 49 {
                let value = UInt8(frame % 256)
                XCTAssertEqual(try renderer.readback().rgba(1, 1), RGBA8(value, value, value, value), "frame \(frame)")
            }
        }
        XCTAssertGreaterThan(blocksAfterWarmUp, 0)
        XCTAssertEqual(context.memoryBlockCount, blocksAfterWarmUp)
        XCTAssertLessThanOrEqual(renderer.residentTextureCount, 2)
        XCTAssertEqual(renderer.totalImagesUploaded, 200)
    }

    func testManyInstancesGrowTheInstanceBuffer() throws {
        let renderer = try makeRenderer()
        // 4096 one-pixel quads in a 64×64 target: more than the initial instance buffer holds.
        let big = PixelScene(width: 64, height: 64)
        let bigRenderer = try makeRenderer(width: 64, height: 64)
        let items = (0..<4096).map { index -> DrawItem in
            let x = Float(index % 64), y = Float(index / 64)
            return big.item(SIMD4(x, y, x + 1, y + 1), color: SIMD4(Float(index % 2), 0, 1, 1))
        }
        let counters = try bigRenderer.render(big.graph(items))
        XCTAssertEqual(counters.instances, 4096)
        XCTAssertEqual(counters.drawCalls, 1)
        assertPixels(try bigRenderer.readback(), "many-instances") { x, y in ((y * 64 + x) % 2 == 1) ? RGBA8(255, 0, 255, 255) : RGBA8(0, 0, 255, 255) }
        _ = renderer
    }
}
