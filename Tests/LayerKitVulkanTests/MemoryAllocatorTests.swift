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
        ring.endFrame(serial: 1)
        XCTAssertEqual(ring.allocate(size: 400, alignment: 16)?.offset, 400)
        ring.endFrame(serial: 2)
        XCTAssertNil(ring.allocate(size: 400, alignment: 16), "frames 1 and 2 are in flight; 224 bytes remain at the end")
        ring.frameCompleted(serial: 1)
        XCTAssertEqual(ring.allocate(size: 400, alignment: 16)?.offset, 0, "wraps into frame 1's space")
        XCTAssertNil(ring.allocate(size: 1, alignment: 1), "head has reached frame 2, still in flight")
        ring.endFrame(serial: 3)
        ring.frameCompleted(serial: 2)
        XCTAssertEqual(ring.allocate(size: 400, alignment: 16)?.offset, 400, "frame 2's space is free again")
        ring.endFrame(serial: 4)
        ring.frameCompleted(serial: 4)
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
