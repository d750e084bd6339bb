import CVulkan
@testable import LayerKitVulkan
import XCTest

/// The block free list (no GPU) and the staging ring (host-visible memory on the test device).
final class MemoryAllocatorTests: XCTestCase {
    func testFreeListAlignsAndCoalesces() {
        var list = FreeList(capacity: 1024)
        XCTAssertEqual(list.allocate(size: 100, alignment: 1), 0)
        XCTAssertEqual(list.allocate(size: 100, alignment: 256), 256)
        XCTAssertEqual(list.allocate(size: 50, alignment: 1), 100, "first fit uses the alignment gap")
        XCTAssertEqual(list.freeBytes, 1024 - 250)
        list.free(offset: 256, size: 100)
        list.free(offset: 0, size: 100)
        list.free(offset: 100, size: 50)
        XCTAssertTrue(list.isEmpty)
        XCTAssertEqual(list.ranges, [0..<1024])
        XCTAssertEqual(list.allocate(size: 1024, alignment: 64), 0)
        XCTAssertNil(list.allocate(size: 1, alignment: 1))
    }

    func testStagingRingWrapsOnlyIntoCompletedSpace() throws {
        let context = try VulkanContext(applicationName: "MemoryAllocatorTests", validation: true, pipelineCache: .none)
        let ring = try StagingRing(device: context.device, allocator: context.allocator, capacity: 1024)
        XCTAssertEqual(ring.allocate(size: 400, alignment: 16)?.offset, 0)
        XCTAssertEqual(ring.allocate(size: 400, alignment: 16)?.offset, 400)
        ring.endFrame(serial: 1)
        XCTAssertNil(ring.allocate(size: 400, alignment: 16), "frame 1 still owns the start of the ring")
        ring.frameCompleted(serial: 1)
        XCTAssertEqual(ring.allocate(size: 400, alignment: 16)?.offset, 0, "wraps into frame 1's space")
        XCTAssertEqual(ring.allocate(size: 400, alignment: 16)?.offset, 400)
        XCTAssertNil(ring.allocate(size: 1, alignment: 1), "would overrun the gap left before the tail")
        ring.endFrame(serial: 2)
        ring.frameCompleted(serial: 2)
        XCTAssertEqual(ring.allocate(size: 1024, alignment: 16)?.offset, 0, "an idle ring starts over")
        XCTAssertEqual(context.validationMessages, [])
    }

    func testBlocksAreSharedAndReturned() throws {
        let context = try VulkanContext(applicationName: "MemoryAllocatorTests", validation: true, pipelineCache: .none)
        let before = context.memoryBlockCount
        var images: [GPUImage] = []
        for index in 0..<20 {
            images.append(try GPUImage(
                device: context.device, allocator: context.allocator, width: 64, height: 64,
                usage: VK_IMAGE_USAGE_SAMPLED_BIT.rawValue, name: "test image \(index)"))
        }
        XCTAssertEqual(context.memoryBlockCount, before + 1, "twenty small images share one block")
        images.removeAll()
        XCTAssertEqual(context.memoryBlockCount, before + 1, "the last block of a pool is kept for reuse")
        XCTAssertEqual(context.validationMessages, [])
    }
}
