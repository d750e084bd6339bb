import CVulkan

/// A swapchain on a window's surface: its images, one view and framebuffer per image for the layer render
/// pass with a depth-stencil attachment, the depth-stencil image they share, and one "rendering
/// finished" semaphore per image (waited on by that image's present).
///
/// Input: the surface, a surface format, the frame render pass built for that format (color plus
/// depth-stencil, `FrameRecorder.renderPass(format:)`), an extent, a present mode, and optionally the
/// swapchain it replaces (which is retired by the call, even when it fails).
/// Output: handles. One depth-stencil image serves every swapchain image, as the headless target's serves
/// its frames in flight: each frame's render pass clears it, after the previous frame's tests (the
/// render pass's dependency). Format: 8-bit UNORM (`B8G8R8A8` or `R8G8B8A8`) in the sRGB-nonlinear color space,
/// never an `_SRGB` format: LayerKit composites gamma-encoded values as Core Animation does, and the
/// values it writes are the values the display shows. Images are color attachments and transfer sources
/// (for `snapshot()`); composite alpha is opaque where supported. A swapchain is never resized: the
/// executor builds a new one (`oldSwapchain` = this one) when presentation reports it out of date or
/// suboptimal or the window size changes, once the queue is idle. Cost: a window-system round trip and
/// the images' memory (the driver's), per creation.
final class Swapchain {
    /// Formats LayerKit renders into, in order of preference.
    static let acceptedFormats = [VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM]

    let handle: VkSwapchainKHR
    let format: VkFormat
    let width: Int
    let height: Int
    let presentMode: PresentMode
    let images: [VkImage]
    /// Whether images can be copied out (`VK_IMAGE_USAGE_TRANSFER_SRC_BIT`), for snapshots.
    let supportsReadback: Bool
    private(set) var views: [VkImageView] = []
    private(set) var framebuffers: [VkFramebuffer] = []
    private(set) var renderFinished: [VkSemaphore] = []
    /// Depth and stencil of every frame drawn into this swapchain.
    private(set) var depthStencil: GPUImage?
    private let device: VulkanDevice

    /// The accepted format the surface offers first in `acceptedFormats` order, in sRGB-nonlinear color
    /// space; nil when it offers none (a surface offering only `VK_FORMAT_UNDEFINED` accepts any).
    static func chooseFormat(_ formats: [VkSurfaceFormatKHR]) -> VkSurfaceFormatKHR? {
        if formats.count == 1, formats[0].format == VK_FORMAT_UNDEFINED {
            return VkSurfaceFormatKHR(format: acceptedFormats[0], colorSpace: VK_COLOR_SPACE_SRGB_NONLINEAR_KHR)
        }
        for accepted in acceptedFormats {
            if let match = formats.first(where: { $0.format == accepted && $0.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR }) {
                return match
            }
        }
        return nil
    }

    /// The extent to create: the surface's current extent when it has one (X11, Win32), else the
    /// requested size clamped to the surface's limits (Wayland). Zero in either dimension means the
    /// window cannot be presented to now (minimized).
    static func chooseExtent(_ capabilities: VkSurfaceCapabilitiesKHR, requestedWidth: Int, requestedHeight: Int) -> (width: Int, height: Int) {
        let current = capabilities.currentExtent
        if current.width != UInt32.max {
            return (Int(current.width), Int(current.height))
        }
        func clamp(_ value: Int, _ lower: UInt32, _ upper: UInt32) -> Int {
            min(max(value, Int(lower)), Int(upper))
        }
        return (
            clamp(requestedWidth, capabilities.minImageExtent.width, capabilities.maxImageExtent.width),
            clamp(requestedHeight, capabilities.minImageExtent.height, capabilities.maxImageExtent.height)
        )
    }

    /// One image more than the minimum, so the CPU can record while the display holds one and another
    /// waits; within the surface's maximum (0: none).
    static func chooseImageCount(_ capabilities: VkSurfaceCapabilitiesKHR) -> UInt32 {
        let wanted = max(capabilities.minImageCount + 1, 2)
        return capabilities.maxImageCount == 0 ? wanted : min(wanted, capabilities.maxImageCount)
    }

    init(
        surface: PresentationSurface, capabilities: VkSurfaceCapabilitiesKHR, format: VkSurfaceFormatKHR,
        renderPass: VkRenderPass, width: Int, height: Int, presentMode: PresentMode, replacing old: Swapchain?, generation: Int
    ) throws {
        let device = surface.context.device
        self.device = device
        self.format = format.format
        self.width = width
        self.height = height
        self.presentMode = presentMode
        let readback = capabilities.supportedUsageFlags & VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue != 0
        supportsReadback = readback

        var info = VkSwapchainCreateInfoKHR()
        info.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR
        info.surface = surface.handle
        info.minImageCount = Self.chooseImageCount(capabilities)
        info.imageFormat = format.format
        info.imageColorSpace = format.colorSpace
        info.imageExtent = VkExtent2D(width: UInt32(width), height: UInt32(height))
        info.imageArrayLayers = 1
        info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | (readback ? VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue : 0)
        info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE
        info.preTransform = capabilities.currentTransform
        let opaque = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR.rawValue
        if capabilities.supportedCompositeAlpha & opaque != 0 {
            info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
        } else {
            // Some surface supports at least one mode; take the lowest bit it offers.
            let supported = capabilities.supportedCompositeAlpha
            info.compositeAlpha = VkCompositeAlphaFlagBitsKHR(rawValue: supported & (~supported &+ 1))
        }
        info.presentMode = presentMode.vulkanValue
        info.clipped = VkBool32(VK_TRUE)
        info.oldSwapchain = old?.handle
        var swapchain: VkSwapchainKHR?
        try check(vkCreateSwapchainKHR(device.handle, &info, nil, &swapchain), "vkCreateSwapchainKHR(\(width)x\(height), \(presentMode.rawValue))")
        guard let swapchain else { throw VulkanError.call("vkCreateSwapchainKHR", result: VK_ERROR_INITIALIZATION_FAILED.rawValue) }
        handle = swapchain
        device.labels.name(swapchain, VK_OBJECT_TYPE_SWAPCHAIN_KHR, "swapchain \(generation) · \(width)x\(height)")

        var count: UInt32 = 0
        var images: [VkImage?] = []
        do {
            try check(vkGetSwapchainImagesKHR(device.handle, swapchain, &count, nil), "vkGetSwapchainImagesKHR")
            images = [VkImage?](repeating: nil, count: Int(count))
            try check(vkGetSwapchainImagesKHR(device.handle, swapchain, &count, &images), "vkGetSwapchainImagesKHR")
        } catch {
            vkDestroySwapchainKHR(device.handle, swapchain, nil)
            throw error
        }
        self.images = images.prefix(Int(count)).map { $0! }
        // From here on, `deinit` releases whatever was made.
        let depthStencil = try GPUImage.depthStencilAttachment(
            device: device, allocator: surface.context.allocator, width: width, height: height,
            name: "swapchain \(generation) depth-stencil \(width)x\(height)")
        self.depthStencil = depthStencil
        for (index, image) in self.images.enumerated() {
            device.labels.name(image, VK_OBJECT_TYPE_IMAGE, "swapchain \(generation) image \(index)")
            let view = try makeView(image, index: index, generation: generation)
            views.append(view)
            framebuffers.append(try makeFramebuffer(view, depthStencil: depthStencil.view, renderPass: renderPass, index: index,
                                                    generation: generation))
            renderFinished.append(try makeSemaphore(name: "swapchain \(generation) image \(index) rendered"))
        }
    }

    deinit {
        for semaphore in renderFinished { vkDestroySemaphore(device.handle, semaphore, nil) }
        for framebuffer in framebuffers { vkDestroyFramebuffer(device.handle, framebuffer, nil) }
        for view in views { vkDestroyImageView(device.handle, view, nil) }
        depthStencil = nil
        vkDestroySwapchainKHR(device.handle, handle, nil)
    }

    private func makeView(_ image: VkImage, index: Int, generation: Int) throws -> VkImageView {
        var info = VkImageViewCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO
        info.image = image
        info.viewType = VK_IMAGE_VIEW_TYPE_2D
        info.format = format
        info.subresourceRange = Self.colorRange
        var view: VkImageView?
        try check(vkCreateImageView(device.handle, &info, nil, &view), "vkCreateImageView(swapchain image \(index))")
        device.labels.name(view, VK_OBJECT_TYPE_IMAGE_VIEW, "swapchain \(generation) image \(index) view")
        return view!
    }

    private func makeFramebuffer(_ view: VkImageView, depthStencil: VkImageView, renderPass: VkRenderPass, index: Int,
                                 generation: Int) throws -> VkFramebuffer {
        var attachments: [VkImageView?] = [view, depthStencil]
        var framebuffer: VkFramebuffer?
        try attachments.withUnsafeMutableBufferPointer { attachmentPointer in
            var info = VkFramebufferCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO
            info.renderPass = renderPass
            info.attachmentCount = UInt32(attachmentPointer.count)
            info.pAttachments = UnsafePointer(attachmentPointer.baseAddress)
            info.width = UInt32(width)
            info.height = UInt32(height)
            info.layers = 1
            try check(vkCreateFramebuffer(device.handle, &info, nil, &framebuffer), "vkCreateFramebuffer(swapchain image \(index))")
        }
        device.labels.name(framebuffer, VK_OBJECT_TYPE_FRAMEBUFFER, "swapchain \(generation) image \(index) framebuffer")
        return framebuffer!
    }

    private func makeSemaphore(name: String) throws -> VkSemaphore {
        var info = VkSemaphoreCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO
        var semaphore: VkSemaphore?
        try check(vkCreateSemaphore(device.handle, &info, nil, &semaphore), "vkCreateSemaphore(\(name))")
        device.labels.name(semaphore, VK_OBJECT_TYPE_SEMAPHORE, name)
        return semaphore!
    }

    static let colorRange = VkImageSubresourceRange(
        aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, baseMipLevel: 0, levelCount: 1, baseArrayLayer: 0, layerCount: 1)
}
