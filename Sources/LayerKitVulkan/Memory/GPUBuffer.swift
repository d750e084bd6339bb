import CVulkan

/// A `VkBuffer` bound to a sub-allocation of a `MemoryBlock`. Destroyed (and its memory returned) when the
/// last reference goes; a frame that may still read it keeps a reference in its deferred releases.
final class GPUBuffer {
    /// Where the bytes live.
    enum Location {
        /// Device memory, written by transfers.
        case deviceLocal
        /// Host-visible, coherent memory the CPU writes and transfers read (staging).
        case upload
        /// Host-visible, coherent memory the CPU writes and shaders read every frame (instance data);
        /// device-local when the device offers such memory (integrated GPUs, resizable BAR).
        case streaming
        /// Host-visible, coherent, preferably cached memory the CPU reads (readback).
        case readback
    }

    let handle: VkBuffer
    let size: UInt64
    private let device: VulkanDevice
    private let allocator: MemoryAllocator
    private let allocation: MemoryAllocation

    /// The buffer's bytes, for every location but `.deviceLocal`.
    var mapped: UnsafeMutableRawPointer? { allocation.mapped }

    init(device: VulkanDevice, allocator: MemoryAllocator, size: UInt64, usage: VkBufferUsageFlags, location: Location, name: String) throws {
        self.device = device
        self.allocator = allocator
        self.size = size
        var info = VkBufferCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO
        info.size = size
        info.usage = usage
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        var buffer: VkBuffer?
        try check(vkCreateBuffer(device.handle, &info, nil, &buffer), "vkCreateBuffer(\(name))")
        guard let buffer else { throw VulkanError.call("vkCreateBuffer(\(name))", result: VK_ERROR_INITIALIZATION_FAILED.rawValue) }
        var requirements = VkMemoryRequirements()
        vkGetBufferMemoryRequirements(device.handle, buffer, &requirements)
        let hostCoherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT.rawValue
        let required: VkMemoryPropertyFlags
        let preferred: VkMemoryPropertyFlags
        switch location {
        case .deviceLocal: (required, preferred) = (VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT.rawValue, 0)
        case .upload: (required, preferred) = (hostCoherent, 0)
        case .streaming: (required, preferred) = (hostCoherent, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT.rawValue)
        case .readback: (required, preferred) = (hostCoherent, VK_MEMORY_PROPERTY_HOST_CACHED_BIT.rawValue)
        }
        do {
            allocation = try allocator.allocate(requirements, required: required, preferred: preferred, kind: .linear, name: name)
            try check(vkBindBufferMemory(device.handle, buffer, allocation.memory, allocation.offset), "vkBindBufferMemory(\(name))")
        } catch {
            vkDestroyBuffer(device.handle, buffer, nil)
            throw error
        }
        self.handle = buffer
        device.labels.name(buffer, VK_OBJECT_TYPE_BUFFER, name)
    }

    deinit {
        vkDestroyBuffer(device.handle, handle, nil)
        allocator.free(allocation)
    }
}
