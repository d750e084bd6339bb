import CVulkan

/// A 2D image with one view over all its mip levels, bound to a sub-allocation of device memory (of host
/// memory for a host-readable image, laid out linearly).
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
    /// Where the host reads the pixels of a host-readable image (level 0), and its bytes per row; nil
    /// for an image in device memory.
    let hostPixels: (base: UnsafeRawPointer, bytesPerRow: Int)?
    private let device: VulkanDevice
    private let allocator: MemoryAllocator
    private let allocation: MemoryAllocation

    /// Mip levels of a full chain down to 1×1.
    static func fullMipChainLength(width: Int, height: Int) -> UInt32 {
        UInt32(Int.bitWidth - max(width, height).leadingZeroBitCount)
    }

    /// - Parameter hostReadable: lay the image out linearly in host-visible memory, so the host reads its
    ///   pixels where they lie (`hostPixels`, in the GENERAL layout, after the writes are done); one level,
    ///   color only, and the format must allow linear tiling for `usage` (`supportsHostReadable`).
    init(device: VulkanDevice, allocator: MemoryAllocator, width: Int, height: Int, mipLevels: UInt32 = 1,
         format: VkFormat = GPUImage.format, aspect: VkImageAspectFlags = VK_IMAGE_ASPECT_COLOR_BIT.rawValue,
         usage: VkImageUsageFlags, samples: VkSampleCountFlagBits = VK_SAMPLE_COUNT_1_BIT, hostReadable: Bool = false, name: String) throws {
        precondition(!hostReadable || (mipLevels == 1 && aspect == VK_IMAGE_ASPECT_COLOR_BIT.rawValue), "a host-readable image has one color level")
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
        info.tiling = hostReadable ? VK_IMAGE_TILING_LINEAR : VK_IMAGE_TILING_OPTIMAL
        info.usage = usage
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED
        var image: VkImage?
        try check(vkCreateImage(device.handle, &info, nil, &image), "vkCreateImage(\(name), \(width)x\(height))")
        guard let image else { throw VulkanError.call("vkCreateImage(\(name))", result: VK_ERROR_INITIALIZATION_FAILED.rawValue) }
        var requirements = VkMemoryRequirements()
        vkGetImageMemoryRequirements(device.handle, image, &requirements)
        do {
            if hostReadable {
                let hostCoherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT.rawValue
                allocation = try allocator.allocate(requirements, required: hostCoherent, preferred: VK_MEMORY_PROPERTY_HOST_CACHED_BIT.rawValue,
                                                    kind: .linear, name: name)
            } else {
                allocation = try allocator.allocate(requirements, required: VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT.rawValue, kind: .optimal, name: name)
            }
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
        if hostReadable, let mapped = allocation.mapped {
            var subresource = VkImageSubresource(aspectMask: aspect, mipLevel: 0, arrayLayer: 0)
            var layout = VkSubresourceLayout()
            vkGetImageSubresourceLayout(device.handle, image, &subresource, &layout)
            hostPixels = (UnsafeRawPointer(mapped + Int(layout.offset)), Int(layout.rowPitch))
        } else {
            hostPixels = nil
        }
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

    /// Whether `device` can make host-readable images of `format` for `usage` (linear tiling with those
    /// features).
    static func supportsHostReadable(device: VulkanDevice, format: VkFormat, usage: VkImageUsageFlags) -> Bool {
        var properties = VkFormatProperties()
        vkGetPhysicalDeviceFormatProperties(device.physicalDevice, format, &properties)
        var needed: VkFormatFeatureFlags = 0
        if usage & VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue != 0 { needed |= VK_FORMAT_FEATURE_COLOR_ATTACHMENT_BIT.rawValue }
        if usage & VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue != 0 { needed |= VK_FORMAT_FEATURE_TRANSFER_SRC_BIT.rawValue }
        return properties.linearTilingFeatures & needed == needed
    }

    /// The subresource range of mip levels `base..<base + count`.
    func range(baseMip: UInt32 = 0, mipCount: UInt32? = nil) -> VkImageSubresourceRange {
        VkImageSubresourceRange(
            aspectMask: aspect, baseMipLevel: baseMip, levelCount: mipCount ?? mipLevels - baseMip,
            baseArrayLayer: 0, layerCount: 1)
    }
}
