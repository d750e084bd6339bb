import CVulkan

/// A sorted, coalesced list of the free byte ranges of one memory block; first-fit allocation.
///
/// Input: sizes and alignments. Output: offsets. Cost: O(free ranges) per call; a block holds few.
struct FreeList: Equatable {
    private(set) var ranges: [Range<UInt64>]
    let capacity: UInt64

    init(capacity: UInt64) {
        self.capacity = capacity
        self.ranges = capacity > 0 ? [0..<capacity] : []
    }

    /// Bytes not allocated.
    var freeBytes: UInt64 { ranges.reduce(0) { $0 + UInt64($1.count) } }
    var isEmpty: Bool { ranges == [0..<capacity] }

    /// Reserves `size` bytes at an offset that is a multiple of `alignment`; nil when nothing fits.
    mutating func allocate(size: UInt64, alignment: UInt64) -> UInt64? {
        precondition(size > 0 && alignment > 0)
        for (index, range) in ranges.enumerated() {
            let offset = (range.lowerBound + alignment - 1) / alignment * alignment
            guard offset + size <= range.upperBound else { continue }
            var replacement: [Range<UInt64>] = []
            if offset > range.lowerBound { replacement.append(range.lowerBound..<offset) }
            if offset + size < range.upperBound { replacement.append((offset + size)..<range.upperBound) }
            ranges.replaceSubrange(index...index, with: replacement)
            return offset
        }
        return nil
    }

    /// Returns `offset..<offset + size` to the list, merging it with free neighbours.
    mutating func free(offset: UInt64, size: UInt64) {
        var freed = offset..<(offset + size)
        let index = ranges.firstIndex { $0.lowerBound >= freed.upperBound } ?? ranges.endIndex
        precondition(index == 0 || ranges[index - 1].upperBound <= freed.lowerBound, "double free at \(offset)")
        var insertAt = index
        if index < ranges.endIndex, ranges[index].lowerBound == freed.upperBound {
            freed = freed.lowerBound..<ranges[index].upperBound
            ranges.remove(at: index)
        }
        if insertAt > 0, ranges[insertAt - 1].upperBound == freed.lowerBound {
            freed = ranges[insertAt - 1].lowerBound..<freed.upperBound
            ranges.remove(at: insertAt - 1)
            insertAt -= 1
        }
        ranges.insert(freed, at: insertAt)
    }
}

/// One `VkDeviceMemory` allocation that many buffers or images share, persistently mapped when the memory
/// type is host-visible.
final class MemoryBlock {
    /// Held strongly so the device outlives every block.
    let device: VulkanDevice
    let memory: VkDeviceMemory
    let size: UInt64
    let memoryTypeIndex: UInt32
    /// The whole block mapped, or nil for device-only memory.
    let mapped: UnsafeMutableRawPointer?
    /// A block made for one oversized resource; freed as soon as that resource is.
    let isDedicated: Bool
    private(set) var freeList: FreeList

    init(device: VulkanDevice, size: UInt64, memoryTypeIndex: UInt32, dedicated: Bool, name: String) throws {
        self.device = device
        self.size = size
        self.memoryTypeIndex = memoryTypeIndex
        self.isDedicated = dedicated
        self.freeList = FreeList(capacity: size)
        var info = VkMemoryAllocateInfo()
        info.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO
        info.allocationSize = size
        info.memoryTypeIndex = memoryTypeIndex
        var memory: VkDeviceMemory?
        try check(vkAllocateMemory(device.handle, &info, nil, &memory), "vkAllocateMemory(\(name), \(size) bytes)")
        self.memory = memory!
        let flags = withUnsafeBytes(of: device.memoryProperties.memoryTypes) {
            $0.bindMemory(to: VkMemoryType.self)[Int(memoryTypeIndex)].propertyFlags
        }
        if flags & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue != 0 {
            var pointer: UnsafeMutableRawPointer?
            let result = vkMapMemory(device.handle, self.memory, 0, VkDeviceSize(VK_WHOLE_SIZE), 0, &pointer)
            if result != VK_SUCCESS { vkFreeMemory(device.handle, self.memory, nil) }
            try check(result, "vkMapMemory(\(name))")
            self.mapped = pointer
        } else {
            self.mapped = nil
        }
        device.labels.name(self.memory, VK_OBJECT_TYPE_DEVICE_MEMORY, name)
    }

    deinit {
        if mapped != nil { vkUnmapMemory(device.handle, memory) }
        vkFreeMemory(device.handle, memory, nil)
    }

    func allocate(size: UInt64, alignment: UInt64) -> UInt64? {
        freeList.allocate(size: size, alignment: alignment)
    }

    func free(offset: UInt64, size: UInt64) {
        freeList.free(offset: offset, size: size)
    }

    var isEmpty: Bool { freeList.isEmpty }
}
