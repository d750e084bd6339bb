import CMalloc
import Foundation
@testable import LayerKitVulkan
import XCTest

/// The C heap's policy under a CPU device: when it applies, and that the heap then keeps what it frees.
final class CPUDeviceHeapPolicyTests: XCTestCase {
    func testAppliesOnlyToLayerKitsOwnCPUDevice() {
        XCTAssertTrue(CPUDeviceHeapPolicy.applies(to: .cpu, ownsDevice: true, environment: [:]))
        XCTAssertFalse(CPUDeviceHeapPolicy.applies(to: .cpu, ownsDevice: false, environment: [:]), "an app's device: its process is the app's")
        for kind: PhysicalDeviceCandidate.Kind in [.discrete, .integrated, .virtual, .other] {
            XCTAssertFalse(CPUDeviceHeapPolicy.applies(to: kind, ownsDevice: true, environment: [:]), "\(kind)")
        }
    }

    func testTheEnvironmentsOwnAllocatorTuningWins() {
        XCTAssertFalse(CPUDeviceHeapPolicy.applies(to: .cpu, ownsDevice: true,
                                                   environment: ["GLIBC_TUNABLES": "glibc.malloc.trim_threshold=0"]))
        XCTAssertTrue(CPUDeviceHeapPolicy.applies(to: .cpu, ownsDevice: true,
                                                  environment: ["GLIBC_TUNABLES": "glibc.cpu.hwcaps=-AVX2"]))
    }

    /// Under the policy a 1 MiB block (eight times glibc's default mapping threshold) comes from the heap, not a mapping of
    /// its own, and freeing it leaves it with the heap for the next frame instead of returning it. (Where
    /// in the heap it lies depends on what the process allocated before: counted among all free bytes.)
    func testFreedMemoryStaysWithTheHeap() throws {
        // A sanitizer's allocator (`Tools/test --asan`) serves malloc itself: glibc's policy has no say there.
        for runtime in ["__asan_init", "__tsan_init"] where dlsym(nil, runtime) != nil {
            throw XCTSkip("\(runtime): the process allocates through a sanitizer, not glibc's heap")
        }
        XCTAssertTrue(CPUDeviceHeapPolicy.apply())
        let size = 1 << 20
        let mappedBefore = mallinfo2().hblks
        let block = try XCTUnwrap(malloc(size))
        memset(block, 1, size)
        XCTAssertEqual(mallinfo2().hblks, mappedBefore, "served from the heap")
        free(block)
        XCTAssertGreaterThanOrEqual(Int(mallinfo2().fordblks), size, "kept by the heap")
    }

    /// Under the policy even a block above glibc's largest mapping threshold (32 MiB; `particles`' list of
    /// draws is 38 MB) comes from the heap and stays with it when freed, not mapped and unmapped each time.
    func testBlocksAboveTheLargestMappingThresholdComeFromTheHeap() throws {
        for runtime in ["__asan_init", "__tsan_init"] where dlsym(nil, runtime) != nil {
            throw XCTSkip("\(runtime): the process allocates through a sanitizer, not glibc's heap")
        }
        XCTAssertTrue(CPUDeviceHeapPolicy.apply())
        let size = 40 << 20
        let mappedBefore = mallinfo2().hblks
        let block = try XCTUnwrap(malloc(size))
        memset(block, 1, size)
        XCTAssertEqual(mallinfo2().hblks, mappedBefore, "served from the heap")
        free(block)
        XCTAssertGreaterThanOrEqual(Int(mallinfo2().fordblks), size, "kept by the heap")
    }
}
