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
}
