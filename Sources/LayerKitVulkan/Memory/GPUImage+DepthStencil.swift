import CVulkan

extension GPUImage {
    /// The depth-stencil attachment of a `width`×`height` frame target (the headless image, a swapchain):
    /// `device.depthStencilFormat`, a view over both aspects, cleared by each frame's render pass and never
    /// stored. Depth orders opaque draws; stencil holds the clips that are not analytic.
    static func depthStencilAttachment(device: VulkanDevice, allocator: MemoryAllocator, width: Int, height: Int,
                                       name: String) throws -> GPUImage {
        try GPUImage(device: device, allocator: allocator, width: width, height: height, format: device.depthStencilFormat,
                     aspect: VK_IMAGE_ASPECT_DEPTH_BIT.rawValue | VK_IMAGE_ASPECT_STENCIL_BIT.rawValue,
                     usage: VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT.rawValue, name: name)
    }

    /// The stencil of offscreen surfaces of one pool bucket (`SurfacePool`), `width`×`height`:
    /// `device.surfaceStencilFormat`, a view over its stencil (and depth, if the format has one), cleared
    /// by each surface pass that clips by stencil and never stored, so surfaces of a bucket share it.
    static func surfaceStencilAttachment(device: VulkanDevice, allocator: MemoryAllocator, width: Int, height: Int,
                                         name: String) throws -> GPUImage {
        let format = device.surfaceStencilFormat
        let aspect = format == VK_FORMAT_S8_UINT ? VK_IMAGE_ASPECT_STENCIL_BIT.rawValue
            : VK_IMAGE_ASPECT_DEPTH_BIT.rawValue | VK_IMAGE_ASPECT_STENCIL_BIT.rawValue
        return try GPUImage(device: device, allocator: allocator, width: width, height: height, format: format, aspect: aspect,
                            usage: VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT.rawValue, name: name)
    }
}
