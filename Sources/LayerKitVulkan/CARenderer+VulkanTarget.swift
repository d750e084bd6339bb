import CVulkan

extension CARenderer {
    /// The app's Vulkan objects a `CARenderer` draws with, for `init(vulkanTarget:scale:)`: Core
    /// Animation's `CARenderer(mtlTexture:options:)`, for Vulkan. Handles are the app's own (as
    /// `OpaquePointer`s, whatever Vulkan binding the app uses); LayerKit never destroys them.
    ///
    /// A target is one of two kinds:
    /// - an image (`init(instance:physicalDevice:device:queueFamilyIndex:queueIndex:image:imageView:…)`):
    ///   each frame is LayerKit's own render pass over it, submitted by `render()` or recorded into the
    ///   app's command buffer by `render(recordingInto:)`;
    /// - the app's render pass (`init(instance:physicalDevice:device:queueFamilyIndex:queueIndex:renderPass:width:height:)`):
    ///   each frame is drawn inside the app's pass, with no render pass of LayerKit's for it
    ///   (`prepareRender(recordingInto:)` outside the pass, `render(inRenderPassOf:)` inside).
    public struct VulkanTarget {
        public var instance: OpaquePointer
        public var physicalDevice: OpaquePointer
        public var device: OpaquePointer
        /// The queue LayerKit submits to (family and index). Submits happen inside `render()`, on the
        /// caller's thread: the app must not use that queue at the same time.
        public var queueFamilyIndex: UInt32
        public var queueIndex: UInt32
        /// The image drawn into, with `COLOR_ATTACHMENT` and `TRANSFER_SRC` usage (LayerKit's pass leaves it
        /// in `TRANSFER_SRC_OPTIMAL`; `snapshot()` copies from it, and so do background filters over the
        /// app's kept pixels), and a view of it. Each frame clears it to `clearColor` and draws the tree,
        /// premultiplied — or, with `initialLayout`, draws the tree over what the image holds. nil for a
        /// target that is the app's render pass (`renderPass`).
        public var image: OpaquePointer?
        public var imageView: OpaquePointer?
        /// The image's `VkImageUsageFlags` as the app created it, when the app says (nil, the default: not
        /// said; Vulkan offers no way to ask). With them, a target whose image lacks `COLOR_ATTACHMENT` or
        /// `TRANSFER_SRC` usage is refused when the renderer is made, rather than failing validation (or
        /// worse, without validation) at its first frame.
        public var imageUsage: UInt32?
        /// The image's format, a `VkFormat` value: `VK_FORMAT_R8G8B8A8_UNORM` (37) or `VK_FORMAT_B8G8R8A8_UNORM` (44).
        /// For a render pass target, its `colorFormat`.
        public var format: UInt32
        /// The size drawn, in pixels: the image's, or the area of the app's framebuffer LayerKit draws
        /// in, from its top-left corner.
        public var width: Int
        public var height: Int
        /// The `VkImageLayout` each frame leaves the image in (default `SHADER_READ_ONLY_OPTIMAL`, to sample
        /// it in the app's pass: the image then needs `SAMPLED` usage). Its earlier contents are not kept.
        public var finalLayout: UInt32
        /// A semaphore the frame waits on before drawing (the app is done with the image), and one it signals
        /// when drawn (the app may use the image); either may be nil.
        public var waitSemaphore: OpaquePointer?
        public var signalSemaphore: OpaquePointer?
        /// nil (the default): each frame clears the image. A `VkImageLayout` value: each frame keeps what
        /// the image holds, which is in that layout when the frame begins, and draws the tree over it — a
        /// HUD over the game's own frame (`clearColor` is then not drawn). The app's commands that drew the
        /// image must be done first: submitted earlier on the same queue, or signalling `waitSemaphore`,
        /// and drawn by colour attachment writes or transfers. A layer's `backgroundFilters` then see the
        /// app's pixels under it, as a screen would show them: the frame copies the part of the image a
        /// backdrop needs (a blit at the transfer stage, which `waitSemaphore` then also guards) before
        /// LayerKit draws over it.
        public var initialLayout: UInt32?
        /// The app's render pass LayerKit draws inside (nil: an image target). See `VulkanRenderPass`.
        public var renderPass: VulkanRenderPass?
        /// Whether the app's device has timeline semaphores enabled (`VK_KHR_timeline_semaphore` and its
        /// `timelineSemaphore` feature, or Vulkan 1.2's). Then a frame recorded into the app's command
        /// buffer costs no queue submission of LayerKit's at all: the app's submission signals
        /// `CARenderer.frameCompletion` instead. False (the default): LayerKit signals a fence of its own
        /// with an empty submission after the app's.
        public var timelineSemaphores = false

        /// A target that is an app's image.
        public init(instance: OpaquePointer, physicalDevice: OpaquePointer, device: OpaquePointer, queueFamilyIndex: UInt32,
                    queueIndex: UInt32 = 0, image: OpaquePointer, imageView: OpaquePointer, format: UInt32, width: Int, height: Int,
                    finalLayout: UInt32 = 5 /* VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL */,
                    waitSemaphore: OpaquePointer? = nil, signalSemaphore: OpaquePointer? = nil, initialLayout: UInt32? = nil) {
            self.instance = instance
            self.physicalDevice = physicalDevice
            self.device = device
            self.queueFamilyIndex = queueFamilyIndex
            self.queueIndex = queueIndex
            self.image = image
            self.imageView = imageView
            self.format = format
            self.width = width
            self.height = height
            self.finalLayout = finalLayout
            self.waitSemaphore = waitSemaphore
            self.signalSemaphore = signalSemaphore
            self.initialLayout = initialLayout
        }

        /// A target that is the app's render pass: LayerKit draws a `width`×`height` frame (from the
        /// framebuffer's top-left corner) inside it, over whatever the app drew there before.
        public init(instance: OpaquePointer, physicalDevice: OpaquePointer, device: OpaquePointer, queueFamilyIndex: UInt32,
                    queueIndex: UInt32 = 0, renderPass: VulkanRenderPass, width: Int, height: Int) {
            self.instance = instance
            self.physicalDevice = physicalDevice
            self.device = device
            self.queueFamilyIndex = queueFamilyIndex
            self.queueIndex = queueIndex
            self.renderPass = renderPass
            format = renderPass.colorFormat
            self.width = width
            self.height = height
            finalLayout = VK_IMAGE_LAYOUT_UNDEFINED.rawValue
        }
    }

    /// An app's render pass that LayerKit draws inside (`VulkanTarget.renderPass`), described as Dear
    /// ImGui's Vulkan backend asks for it: LayerKit creates its pipelines against `renderPass` and
    /// `subpass`, so they are compatible with every framebuffer of that pass (and of passes compatible
    /// with it).
    ///
    /// What the subpass must be: one color attachment of `colorFormat` (8-bit UNORM, RGBA or BGRA:
    /// LayerKit composites gamma-encoded sRGB values, which an `_SRGB` format would encode again), at
    /// `sampleCount` samples (1, 2, 4, 8, …: LayerKit's pipelines rasterize at that count; the app resolves
    /// as it does its own draws), and at most a depth-stencil attachment of `depthStencilFormat`.
    ///
    /// Depth and stencil: with `overwritesDepthStencil` (the default) LayerKit clears the attachment's
    /// depth to 1 and stencil to 0 over its frame's area before its draws, then draws as in its own pass —
    /// opaque layers front to back with early depth testing where the format has depth, clips that
    /// analytic clipping cannot do by stencil where it has stencil; the app's depth and stencil values
    /// there are gone afterwards. Without it, or without an attachment, LayerKit neither tests nor writes
    /// them: layers are drawn in painter's order (the same pixels), and where a rotated or projected
    /// `masksToBounds` clip nests in another and neither contains the other (the outer one is drawn into
    /// the stencil in LayerKit's own pass) only the inner clip applies.
    public struct VulkanRenderPass {
        /// The app's `VkRenderPass`.
        public var renderPass: OpaquePointer
        /// The subpass LayerKit draws in.
        public var subpass: UInt32
        /// The subpass's color attachment format (`VkFormat`): R8G8B8A8_UNORM (37) or B8G8R8A8_UNORM (44).
        public var colorFormat: UInt32
        /// Samples per pixel of the subpass's attachments (`VkSampleCountFlagBits`: 1, 2, 4, …).
        public var sampleCount: UInt32
        /// The subpass's depth-stencil attachment format (`VkFormat`), nil when it has none.
        public var depthStencilFormat: UInt32?
        /// Whether LayerKit may clear and use the depth-stencil attachment in its frame's area (see the type).
        public var overwritesDepthStencil: Bool

        public init(renderPass: OpaquePointer, subpass: UInt32 = 0, colorFormat: UInt32, sampleCount: UInt32 = 1,
                    depthStencilFormat: UInt32? = nil, overwritesDepthStencil: Bool = true) {
            self.renderPass = renderPass
            self.subpass = subpass
            self.colorFormat = colorFormat
            self.sampleCount = sampleCount
            self.depthStencilFormat = depthStencilFormat
            self.overwritesDepthStencil = overwritesDepthStencil
        }

        /// What the pipelines are built for, after checking the description.
        ///
        /// - Throws: `VulkanError.unsupportedTarget` for a color format, sample count or depth-stencil
        ///   format LayerKit cannot draw with.
        func frameSubpass() throws -> FrameSubpass {
            let format = VkFormat(colorFormat)
            guard format == VK_FORMAT_R8G8B8A8_UNORM || format == VK_FORMAT_B8G8R8A8_UNORM else {
                throw VulkanError.unsupportedTarget(
                    "CARenderer draws inside render passes whose color attachment is R8G8B8A8_UNORM or B8G8R8A8_UNORM, not VkFormat \(colorFormat)")
            }
            guard sampleCount > 0, sampleCount <= 64, sampleCount & (sampleCount - 1) == 0 else {
                throw VulkanError.unsupportedTarget("a sample count is a power of two from 1 to 64, not \(sampleCount)")
            }
            var subpass = FrameSubpass(index: self.subpass, samples: sampleCount, hasDepthStencilAttachment: depthStencilFormat != nil,
                                       usesDepth: false, usesStencil: false)
            if let depthStencilFormat {
                let aspects: (depth: Bool, stencil: Bool)
                switch VkFormat(depthStencilFormat) {
                case VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT: aspects = (true, false)
                case VK_FORMAT_S8_UINT: aspects = (false, true)
                case VK_FORMAT_D16_UNORM_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT: aspects = (true, true)
                default: throw VulkanError.unsupportedTarget("VkFormat \(depthStencilFormat) is not a depth-stencil format")
                }
                subpass.usesDepth = overwritesDepthStencil && aspects.depth
                subpass.usesStencil = overwritesDepthStencil && aspects.stencil
            }
            return subpass
        }
    }
}
