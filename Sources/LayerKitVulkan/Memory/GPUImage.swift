import CVulkan

/// A 2D image with one view over all its mip levels, bound to a sub-allocation of device memory.
///
/// Color images are `VK_FORMAT_R8G8B8A8_UNORM` — UNORM, never sRGB: LayerKit composites gamma-encoded
/// values as Core Animation does. The same type holds the depth-stencil attachment of frame targets
/// (`GPUImage+DepthStencil.swift`).
final class GPUImage {
    /// The format of every color image and surface.
    static let format = VK_FORMAT_R8G8B8A8_UNORM

    let handle: VkImage
    let view: VkImageView
    let width: Int
    let height: Int
    let mipLevels: UInt32
    /// Color, or depth and stencil.
    let aspect: VkImageAspectFlags
    private let device: VulkanDevice
    private let allocator: MemoryAllocator
    private let allocation: MemoryAllocation

    /// Mip levels of a full chain down to 1×1.
    static func fullMipChainLength(width: Int, height: Int) -> UInt32 {
        UInt32(Int.bitWidth - max(width, height).leadingZeroBitCount)
    }

    init(device: VulkanDevice, allocator: MemoryAllocator, width: Int, height: Int, mipLevels: UInt32 = 1,
         format: VkFormat = GPUImage.format, aspect: VkImageAspectFlags = VK_IMAGE_ASPECT_COLOR_BIT.rawValue,
         usage: VkImageUsageFlags, samples: VkSampleCountFlagBits = VK_SAMPLE_COUNT_1_BIT, name: String) throws {
        self.device = device
        self.allocator = allocator
        self.width = width
        self.height = height
        self.mipLevels = mipLevels
        self.aspect = aspect
        var info = VkImageCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO
        info.imageType = VK_IMAGE_TYPE_2D
        info.format = format
        info.extent = VkExtent3D(width: UInt32(width), height: UInt32(height), depth: 1)
        info.mipLevels = mipLevels
        info.arrayLayers = 1
        info.samples = samples
        info.tiling = VK_IMAGE_TILING_OPTIMAL
        info.usage = usage
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
        viewInfo.format = format
        viewInfo.subresourceRange = VkImageSubresourceRange(
            aspectMask: aspect, baseMipLevel: 0, levelCount: mipLevels, baseArrayLayer: 0, layerCount: 1)
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

    /// The subresource range of mip levels `base..<base + count`.
    func range(baseMip: UInt32 = 0, mipCount: UInt32? = nil) -> VkImageSubresourceRange {
        VkImageSubresourceRange(
            aspectMask: aspect, baseMipLevel: baseMip, levelCount: mipCount ?? mipLevels - baseMip,
            baseArrayLayer: 0, layerCount: 1)
    }
}
