import CMalloc
import Foundation

/// How the C heap is set up while LayerKit drives a CPU Vulkan device (lavapipe).
///
/// Why: lavapipe bins each frame's triangles into memory it takes from the C heap and frees once the
/// frame is rasterized — megabytes a frame for thousands of layers. glibc hands a freed top of heap larger
/// than its trim threshold (128 KiB until it adapts) back to the kernel at once, so every frame faulted
/// all of its bins' pages in again, zero-filled: in the `city` window about 570 page faults and 2.7 ms of
/// the driver's CPU a frame, on its queue thread, which rasterization waits for. Keeping the freed memory
/// made the window 8–10 % faster (fps 40.2 / 39.2 → 43.6 / 45.0, alternating runs).
/// The same holds for the render thread's own lists once they pass glibc's largest mapping threshold
/// (32 MiB): a request that large got a mapping of its own, unmapped when freed, so the `particles`
/// scene's list of 100,000 draws (38 MB) was mapped and faulted in afresh every frame — its graph build
/// took 82–90 ms a frame instead of 31–32.
/// What: freed memory up to `trimThreshold` stays with the process, and every request comes from the
/// heap: none gets a mapping of its own (`M_MMAP_MAX` 0; glibc still maps one where a heap cannot grow).
/// Setting the trim threshold stops glibc adapting it; with no mappings there is no mapping threshold to set.
/// When: LayerKit's own device is a CPU (`VulkanContext`); never on an app's device (`CARenderer.VulkanTarget`),
/// whose process is the app's to tune, nor when the environment already tunes glibc's allocator
/// (`GLIBC_TUNABLES` naming `glibc.malloc.`), which then wins.
/// Scope: the setting is the process's, as an allocator's policy is; it only keeps memory the process
/// already used (up to 64 MiB free at the heap's top) and changes no allocation's contents or lifetime.
/// Cost: two `mallopt` calls per context creation (setting the same values again changes nothing).
enum CPUDeviceHeapPolicy {
    /// Freed memory at the top of the heap (per arena) that is kept rather than returned to the kernel.
    static let trimThreshold = 64 << 20

    /// Whether the policy applies to a device of `kind` that LayerKit created (`ownsDevice`) under
    /// `environment`.
    static func applies(to kind: PhysicalDeviceCandidate.Kind, ownsDevice: Bool, environment: [String: String]) -> Bool {
        guard kind == .cpu, ownsDevice else { return false }
        return !(environment["GLIBC_TUNABLES"] ?? "").contains("glibc.malloc.")
    }

    /// Sets the heap's trim threshold and turns its own mappings off; returns whether glibc accepted both.
    @discardableResult
    static func apply() -> Bool {
        // mallopt returns 1 on success.
        let trim = mallopt(M_TRIM_THRESHOLD, Int32(trimThreshold))
        let mappings = mallopt(M_MMAP_MAX, 0)
        return trim == 1 && mappings == 1
    }
}
