import CVulkan

/// The subpass the frame's pipelines draw in, and what of it LayerKit may use: LayerKit's own frame pass
/// (subpass 0, one sample, a depth-stencil attachment whose depth and stencil it clears and uses), or an
/// app's (`CARenderer.VulkanRenderPass`).
///
/// `hasDepthStencilAttachment` says whether pipelines must describe depth-stencil state at all (Vulkan
/// asks for it exactly when the subpass has the attachment); `usesDepth` and `usesStencil` whether they
/// test it — only where the attachment has that aspect and the app lets LayerKit overwrite it.
struct FrameSubpass: Hashable {
    /// The subpass index within its render pass.
    var index: UInt32 = 0
    /// Samples per pixel of the subpass's attachments (a `VkSampleCountFlagBits` value).
    var samples: UInt32 = VK_SAMPLE_COUNT_1_BIT.rawValue
    var hasDepthStencilAttachment = true
    var usesDepth = true
    var usesStencil = true

    /// LayerKit's own frame pass (`LayerPipeline.makeRenderPass` with a depth-stencil format).
    static let own = FrameSubpass()

    /// The same subpass for a frame that needs neither depth order nor stencil clips: its pipelines
    /// test neither, and the attachment need not be cleared (`LayerPipeline.depthStencilFreeRenderPass`).
    var withoutDepthStencil: FrameSubpass {
        var subpass = self
        subpass.usesDepth = false
        subpass.usesStencil = false
        return subpass
    }

    /// The image aspects LayerKit clears at the start of its draws in the subpass (those it uses), so
    /// that its depth order and stencil clips start from depth 1 and stencil 0 as in its own pass.
    var clearedAspects: VkImageAspectFlags {
        (usesDepth ? VK_IMAGE_ASPECT_DEPTH_BIT.rawValue : 0) | (usesStencil ? VK_IMAGE_ASPECT_STENCIL_BIT.rawValue : 0)
    }
}
