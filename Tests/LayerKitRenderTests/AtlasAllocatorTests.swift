import XCTest
@testable import LayerKitRender
import LayerKitTestSupport

/// The shelf allocator behind the image atlas, and the atlas's placements and uv remapping. No GPU.
final class AtlasAllocatorTests: XCTestCase {
    func testFourQuartersFillAPageExactlyAndAFifthDoesNotFit() {
        var allocator = AtlasAllocator(width: 512, height: 512)
        let rects = (0..<4).compactMap { _ in allocator.allocate(width: 256, height: 256)?.rect }
        XCTAssertEqual(rects, [PixelRect(x: 0, y: 0, width: 256, height: 256), PixelRect(x: 256, y: 0, width: 256, height: 256),
                               PixelRect(x: 0, y: 256, width: 256, height: 256), PixelRect(x: 256, y: 256, width: 256, height: 256)])
        XCTAssertNil(allocator.allocate(width: 1, height: 1))
        XCTAssertEqual(allocator.allocatedArea, 512 * 512)
        XCTAssertTrue(allocator.placementsAreDisjoint)
    }

    func testSimilarHeightsShareAShelfAndVeryDifferentOnesDoNot() {
        // 10 and 14 both round up to the 16-pixel bucket; 40 rounds to 40 and opens a shelf below.
        var allocator = AtlasAllocator(width: 256, height: 256)
        let a = allocator.allocate(width: 10, height: 10)!.rect
        let b = allocator.allocate(width: 20, height: 14)!.rect
        let c = allocator.allocate(width: 30, height: 40)!.rect
        XCTAssertEqual(a, PixelRect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertEqual(b, PixelRect(x: 10, y: 0, width: 20, height: 14))
        XCTAssertEqual(c, PixelRect(x: 0, y: 16, width: 30, height: 40))
        XCTAssertEqual(AtlasAllocator.bucketHeight(10), 16)
        XCTAssertEqual(AtlasAllocator.bucketHeight(65), 80)
        XCTAssertEqual(AtlasAllocator.bucketHeight(257), 288)
    }

    func testAFullShelfStartsAnother() {
        var allocator = AtlasAllocator(width: 64, height: 64)
        let rects = (0..<5).compactMap { _ in allocator.allocate(width: 16, height: 16)?.rect }
        XCTAssertEqual(rects.map(\.minY), [0, 0, 0, 0, 16])
        XCTAssertEqual(rects.map(\.minX), [0, 16, 32, 48, 0])
    }

    func testFreeingEveryPlacementOfAShelfGivesItsSpaceBack() {
        var allocator = AtlasAllocator(width: 64, height: 32)
        let first = (0..<4).map { _ in allocator.allocate(width: 16, height: 16)! }
        _ = (0..<4).map { _ in allocator.allocate(width: 16, height: 16)! }
        XCTAssertNil(allocator.allocate(width: 16, height: 16), "full")
        for allocation in first.dropLast() { allocator.deallocate(allocation.id) }
        XCTAssertNil(allocator.allocate(width: 16, height: 16), "a shelf with a live placement keeps its space")
        allocator.deallocate(first[3].id)
        XCTAssertEqual(allocator.allocate(width: 16, height: 16)?.rect, PixelRect(x: 0, y: 0, width: 16, height: 16))
        XCTAssertEqual(allocator.allocationCount, 5)
    }

    func testRandomAllocationsAndFreesNeverOverlap() {
        var allocator = AtlasAllocator(width: 512, height: 512)
        var generator = SplitMix64(seed: 7)
        var live: [AtlasAllocator.Allocation] = []
        for step in 0..<2000 {
            if live.isEmpty || generator.next() % 3 != 0 {
                let w = Int(generator.next() % 90) + 1, h = Int(generator.next() % 90) + 1
                if let allocation = allocator.allocate(width: w, height: h) {
                    XCTAssertEqual([allocation.rect.width, allocation.rect.height], [w, h])
                    live.append(allocation)
                }
            } else {
                let index = Int(generator.next() % UInt64(live.count))
                allocator.deallocate(live.remove(at: index).id)
            }
            if step % 50 == 0 { XCTAssertTrue(allocator.placementsAreDisjoint, "step \(step)") }
        }
        XCTAssertTrue(allocator.placementsAreDisjoint)
        XCTAssertEqual(allocator.allocationCount, live.count)
        XCTAssertEqual(allocator.allocatedArea, live.reduce(0) { $0 + $1.rect.width * $1.rect.height })
    }

    // MARK: - ImageAtlas

    func testImagesArePlacedOnceWithAGutterAndSmallOnesOnly() {
        let atlas = ImageAtlas(pageSize: 64, maxImageSide: 32)
        let a = TinyScene.solidImage(side: 8, (255, 0, 0, 255))
        let b = TinyScene.solidImage(side: 8, (0, 255, 0, 255))
        let placementA = atlas.placement(for: a)!
        let placementB = atlas.placement(for: b)!
        XCTAssertEqual(placementA.rect, PixelRect(x: 1, y: 1, width: 8, height: 8), "inside a one-texel gutter")
        XCTAssertEqual(placementB.rect, PixelRect(x: 11, y: 1, width: 8, height: 8))
        XCTAssertEqual(atlas.placement(for: a)?.serial, placementA.serial, "found again, not placed twice")
        XCTAssertEqual(atlas.placementCount, 2)
        XCTAssertFalse(atlas.accepts(TinyScene.solidImage(side: 33, (0, 0, 0, 255)), minification: .linear, magnification: .linear))
        XCTAssertFalse(atlas.accepts(a, minification: .trilinear, magnification: .linear), "mipmapped draws keep their own texture")
    }

    func testRemapMovesUVIntoThePlacementAndClampsToItsEdgeTexelCentres() {
        let atlas = ImageAtlas(pageSize: 64)
        let image = TinyScene.solidImage(side: 8, (255, 0, 0, 255))
        _ = atlas.placement(for: TinyScene.solidImage(side: 8, (0, 0, 0, 255)))  // takes (1, 1)
        let placement = atlas.placement(for: image)!  // (11, 1) 8×8
        let scene = PixelItems()
        var item = scene.item(SIMD4(0, 0, 16, 16), texture: TextureBinding(image: image, minification: .nearest, magnification: .nearest))
        item.instance.uv = SIMD4(0, 0, 1, 0.5)
        var remapped = item
        ImageAtlas.remap(&remapped, to: placement.texels)
        XCTAssertEqual(remapped.instance.uv, SIMD4(11.0 / 64, 1.0 / 64, 19.0 / 64, 5.0 / 64))
        XCTAssertEqual(remapped.instance.uvClamp, SIMD4(11.5 / 64, 1.5 / 64, 18.5 / 64, 8.5 / 64))
        XCTAssertEqual(remapped.texture, TextureBinding(source: .atlas(AtlasPageID(0)), minification: .nearest, magnification: .nearest))
        XCTAssertTrue(remapped.instance.flags.contains(.clampUV))
    }

    func testPlacementsOfDeallocatedImagesAreFreed() {
        let atlas = ImageAtlas(pageSize: 64)
        do {
            let temporary = TinyScene.solidImage(side: 8, (1, 2, 3, 255))
            _ = atlas.placement(for: temporary)
        }
        XCTAssertEqual(atlas.placementCount, 1)
        for _ in 0..<32 { atlas.beginFrame() }
        XCTAssertEqual(atlas.placementCount, 0)
    }

    func testAPartialRedrawOfAGoneImageTakesOverItsRect() throws {
        let atlas = ImageAtlas(pageSize: 64)
        var base: CGImage? = TinyScene.solidImage(side: 8, (255, 0, 0, 255))
        let (rect, serial) = try XCTUnwrap(atlas.placement(for: base!).map { ($0.rect, $0.serial) })
        let update = PartialImageUpdate(base: base!, x: 2, y: 3, width: 4, height: 5)
        // While the old image exists it may still be drawn: a redrawn image gets a rect of its own.
        let early = CGImage(TinyScene.solidImage(side: 8, (0, 255, 0, 255)), updating: update)
        let (earlyRect, earlyUpdate) = try XCTUnwrap(atlas.placement(for: early).map { ($0.rect, $0.update) })
        XCTAssertNotEqual(earlyRect, rect)
        XCTAssertNil(earlyUpdate)

        base = nil
        let redrawn = CGImage(TinyScene.solidImage(side: 8, (0, 0, 255, 255)), updating: update)
        let takenOver = try XCTUnwrap(atlas.placement(for: redrawn))
        XCTAssertEqual(takenOver.rect, rect)
        XCTAssertNotEqual(takenOver.serial, serial, "a new serial: the backend knows the rect changed")
        XCTAssertEqual(takenOver.update, AtlasPlacement.Update(previousSerial: serial, region: PixelRect(x: 2, y: 3, width: 4, height: 5)))
        XCTAssertEqual(atlas.placementCount, 2, "the early image's and the redrawn one's")
    }

    func testFullPagesLeaveTheImageOutOfTheAtlas() {
        let atlas = ImageAtlas(pageSize: 34, maxPages: 1, maxImageSide: 32)
        let images = (0..<2).map { TinyScene.solidImage(side: 32, (UInt8($0), 0, 0, 255)) }
        XCTAssertNotNil(atlas.placement(for: images[0]))
        XCTAssertNil(atlas.placement(for: images[1]))
    }
}

/// Draw items in pixel space for a 64×64 target.
struct PixelItems {
    var width = 64
    var height = 64

    func item(_ rect: SIMD4<Float>, color: SIMD4<Float> = SIMD4(repeating: 1), texture: TextureBinding? = nil) -> DrawItem {
        let toClip = (SIMD4<Float>(2 / Float(width), 0, 0, 0), SIMD4<Float>(0, 2 / Float(height), 0, 0), SIMD4<Float>(0, 0, 1, 0),
                      SIMD4<Float>(-1, -1, 0, 1))
        let instance = LayerInstance(localToClip: toClip, quad: rect, color: color, shape: rect, flags: texture == nil ? [] : [.textured])
        return DrawItem(instance: instance, texture: texture)
    }
}
