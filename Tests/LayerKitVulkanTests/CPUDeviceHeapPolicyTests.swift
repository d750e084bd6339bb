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
    /// its own, and freeing it leaves it with the heap for the next frame instead of returning it.
    func testFreedMemoryStaysWithTheHeap() throws {
        try assertServedFromTheHeapAndKept(bytes: 1 << 20)
    }

    /// So does a block above glibc's largest mapping threshold (32 MiB; `particles`' list of draws is
    /// 38 MB), which would otherwise be mapped and unmapped each time.
    func testBlocksAboveTheLargestMappingThresholdComeFromTheHeap() throws {
        try assertServedFromTheHeapAndKept(bytes: 40 << 20)
    }

    /// Applies the policy, then allocates, fills and frees `bytes`: no new mapping, and the freed bytes
    /// stay with the heap. (Where in the heap they lie depends on what the process allocated before:
    /// counted among all free bytes.)
    private func assertServedFromTheHeapAndKept(bytes size: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        // A sanitizer's allocator (`Tools/test --asan`) serves malloc itself: glibc's policy has no say there.
        for runtime in ["__asan_init", "__tsan_init"] where dlsym(nil, runtime) != nil {
            throw XCTSkip("\(runtime): the process allocates through a sanitizer, not glibc's heap")
        }
        XCTAssertTrue(CPUDeviceHeapPolicy.apply(), file: file, line: line)
        let mappedBefore = mallinfo2().hblks
        let block = try XCTUnwrap(malloc(size), file: file, line: line)
        memset(block, 1, size)
        XCTAssertEqual(mallinfo2().hblks, mappedBefore, "served from the heap", file: file, line: line)
        free(block)
        XCTAssertGreaterThanOrEqual(Int(mallinfo2().fordblks), size, "kept by the heap", file: file, line: line)
    }
}
