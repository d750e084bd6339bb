import CVulkan

/// A 2D depth image (`device.depthFormat`) with one view, bound to a sub-allocation of device memory:
/// the depth attachment of depth-ordered frame passes. Never sampled or stored; cleared by each pass.
final class GPUDepthImage {
    let handle: VkImage
    let view: VkImageView
    let width: Int
    let height: Int
    private let device: VulkanDevice
    private let allocator: MemoryAllocator
    private let allocation: MemoryAllocation

    init(device: VulkanDevice, allocator: MemoryAllocator, width: Int, height: Int, name: String) throws {
        self.device = device
        self.allocator = allocator
        self.width = width
        self.height = height
        var info = VkImageCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO
        info.imageType = VK_IMAGE_TYPE_2D
        info.format = device.depthFormat
        info.extent = VkExtent3D(width: UInt32(width), height: UInt32(height), depth: 1)
        info.mipLevels = 1
        info.arrayLayers = 1
        info.samples = VK_SAMPLE_COUNT_1_BIT
        info.tiling = VK_IMAGE_TILING_OPTIMAL
        info.usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT.rawValue
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED
        var image: VkImage?
        try check(vkCreateImage(device.handle, &info, nil, &image), "vkCreateImage(\(name), \(width)x\(height))")
        guard let image else { throw VulkanError.call("vkCreateImage(\(name))", result: VK_ERROR_INITIALIZATION_FAILED.rawValue) }
        var requirements = VkMemoryRequirements()
        vkGetImageMemoryRequirements(device.handle, image, &requirements)
        do {
            allocation = try allocator.allocate(requirements, required: VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT.rawValue, kind: .optimal, name: name)
            try check(vkBindImageMemory(device.handle, image, allocation.memory, allocation.offset), "vkBindImageMemory(\(name))")
        } catch {
            vkDestroyImage(device.handle, image, nil)
            throw error
        }
        var viewInfo = VkImageViewCreateInfo()
        viewInfo.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO
        viewInfo.image = image
        viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D
        viewInfo.format = device.depthFormat
        viewInfo.subresourceRange = VkImageSubresourceRange(
            aspectMask: VK_IMAGE_ASPECT_DEPTH_BIT.rawValue, baseMipLevel: 0, levelCount: 1, baseArrayLayer: 0, layerCount: 1)
        var view: VkImageView?
        let viewResult = vkCreateImageView(device.handle, &viewInfo, nil, &view)
        if viewResult != VK_SUCCESS {
            vkDestroyImage(device.handle, image, nil)
            allocator.free(allocation)
        }
        try check(viewResult, "vkCreateImageView(\(name))")
        self.handle = image
        self.view = view!
        device.labels.name(image, VK_OBJECT_TYPE_IMAGE, name)
        device.labels.name(self.view, VK_OBJECT_TYPE_IMAGE_VIEW, name)
    }

    deinit {
        vkDestroyImageView(device.handle, view, nil)
        vkDestroyImage(device.handle, handle, nil)
        allocator.free(allocation)
    }
}
