import CVulkan

/// A host-visible ring buffer for uploads: each frame writes texels into the space the GPU has finished
/// with, and copies them from there.
///
/// Input: sizes and alignments during a frame, then `endFrame(serial:)` when it is submitted and
/// `frameCompleted(serial:)` once its fence has signalled (frames complete in submission order).
/// Output: an offset in `buffer` and a pointer to write to, or nil when the ring is full — the caller then
/// uses a one-off staging buffer. Cost: O(1) per allocation; memory is reused, never reallocated.
final class StagingRing {
    let buffer: GPUBuffer
    let capacity: UInt64
    /// Next byte to allocate.
    private var head: UInt64 = 0
    /// First byte still in use by the GPU (or the frame being recorded).
    private var tail: UInt64 = 0
    /// Whether `head` has wrapped around to before `tail`.
    private var wrapped = false
    /// Submitted frames not yet completed, oldest first, with the head position when each ended.
    private var pending: [(serial: UInt64, end: UInt64)] = []
    /// Whether the frame being recorded has allocated anything.
    private var currentFrameUsed = false

    init(device: VulkanDevice, allocator: MemoryAllocator, capacity: UInt64) throws {
        self.capacity = capacity
        self.buffer = try GPUBuffer(
            device: device, allocator: allocator, size: capacity, usage: VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue,
            location: .upload, name: "staging ring")
    }

    private var isEmpty: Bool { pending.isEmpty && !currentFrameUsed }

    /// Reserves `size` bytes at a multiple of `alignment`.
    func allocate(size: UInt64, alignment: UInt64) -> (offset: UInt64, pointer: UnsafeMutableRawPointer)? {
        guard size > 0, size <= capacity, let base = buffer.mapped else { return nil }
        if isEmpty {
            head = 0
            tail = 0
            wrapped = false
        }
        let aligned = (head + alignment - 1) / alignment * alignment
        let offset: UInt64
        if !wrapped {
            if aligned + size <= capacity {
                offset = aligned
            } else if size <= tail {
                offset = 0
                wrapped = true
            } else {
                return nil
            }
        } else {
            guard aligned + size <= tail else { return nil }
            offset = aligned
        }
        head = offset + size
        currentFrameUsed = true
        return (offset, base + Int(offset))
    }

    /// Marks everything allocated since the last call as belonging to frame `serial`.
    func endFrame(serial: UInt64) {
        guard currentFrameUsed else { return }
        pending.append((serial, head))
        currentFrameUsed = false
    }

    /// Frees the space of every frame up to and including `serial`.
    func frameCompleted(serial: UInt64) {
        while let first = pending.first, first.serial <= serial {
            pending.removeFirst()
            // An end at or before the old tail lies in the wrapped-around part, where head is.
            if wrapped && first.end <= tail { wrapped = false }
            tail = first.end
        }
    }
}
