import CVulkan
import LayerKit

/// The offscreen image a headless renderer draws into, and its readback.
///
/// Input: a size and the layer render pass with a depth-stencil attachment (`LayerPipeline.renderPass`).
/// Output: a `VK_FORMAT_R8G8B8A8_UNORM` color image and a depth-stencil image with a framebuffer for that pass
/// (so frame passes may be depth-ordered); `recordReadback` copies the color image into a host-visible
/// buffer, `image(from:)` turns that buffer into a `CGImage` (premultiplied RGBA8, top row first).
/// Cost: width × height × 4 bytes, twice, plus the depth image.
final class HeadlessTarget {
    let width: Int
    let height: Int
    /// The colour image drawn into: LayerKit's own (`color`), or an app's.
    let colorImage: VkImage
    /// The colour image when LayerKit made it (nil: the app's, which LayerKit never destroys).
    let color: GPUImage?
    /// The colour format; readbacks come out as RGBA either way.
    let format: VkFormat
    let depth: GPUImage
    let framebuffer: VkFramebuffer
    private let device: VulkanDevice

    var byteCount: Int { width * height * 4 }
    /// Where the host reads a host-readable target's pixels, and its bytes per row (see `init`).
    var hostPixels: (base: UnsafeRawPointer, bytesPerRow: Int)? { color?.hostPixels }

    /// The usage of the color image LayerKit makes: drawn into, and copied from (readbacks).
    static let colorUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue

    /// - Parameter hostReadable: the color image lies in host memory, laid out linearly, so the host reads
    ///   the frame where it was drawn (`hostPixels`) instead of through a readback copy; its passes must
    ///   then end in the GENERAL layout (`LayerPipeline.Destination.hostReadFrame`).
    convenience init(device: VulkanDevice, allocator: MemoryAllocator, renderPass: VkRenderPass, width: Int, height: Int,
                     format: VkFormat = GPUImage.format, hostReadable: Bool = false) throws {
        guard width > 0, height > 0 else { throw VulkanError.unsupportedTarget("\(width)x\(height) is not a size") }
        let color = try GPUImage(
            device: device, allocator: allocator, width: width, height: height, format: format, usage: Self.colorUsage,
            hostReadable: hostReadable, name: "headless target \(width)x\(height)\(hostReadable ? " read on the host" : "")")
        try self.init(device: device, allocator: allocator, renderPass: renderPass, color: (color.handle, color.view, color),
                      format: format, width: width, height: height)
    }

    /// A target drawing into an app's image through its `view` (`CARenderer.VulkanTarget`).
    convenience init(device: VulkanDevice, allocator: MemoryAllocator, renderPass: VkRenderPass, appImage: VkImage, view: VkImageView,
                     format: VkFormat, width: Int, height: Int) throws {
        try self.init(device: device, allocator: allocator, renderPass: renderPass, color: (appImage, view, nil), format: format,
                      width: width, height: height)
    }

    private init(device: VulkanDevice, allocator: MemoryAllocator, renderPass: VkRenderPass,
                 color: (image: VkImage, view: VkImageView, owned: GPUImage?), format: VkFormat, width: Int, height: Int) throws {
        let maximum = Int(device.limits.maxFramebufferWidth)
        guard width > 0, height > 0, width <= maximum, height <= Int(device.limits.maxFramebufferHeight) else {
            throw VulkanError.unsupportedTarget("\(width)x\(height) is outside 1...\(maximum) pixels")
        }
        self.device = device
        self.width = width
        self.height = height
        colorImage = color.image
        self.color = color.owned
        self.format = format
        depth = try GPUImage.depthStencilAttachment(device: device, allocator: allocator, width: width, height: height,
                                                    name: "headless target depth-stencil \(width)x\(height)")
        var attachments: [VkImageView?] = [color.view, depth.view]
        var info = VkFramebufferCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO
        info.renderPass = renderPass
        info.attachmentCount = UInt32(attachments.count)
        info.width = UInt32(width)
        info.height = UInt32(height)
        info.layers = 1
        var framebuffer: VkFramebuffer?
        try attachments.withUnsafeMutableBufferPointer { attachmentPointer in
            info.pAttachments = UnsafePointer(attachmentPointer.baseAddress)
            try check(vkCreateFramebuffer(device.handle, &info, nil, &framebuffer), "vkCreateFramebuffer(headless target)")
        }
        self.framebuffer = framebuffer!
        device.labels.name(framebuffer, VK_OBJECT_TYPE_FRAMEBUFFER, "headless target framebuffer")
    }

    deinit {
        vkDestroyFramebuffer(device.handle, framebuffer, nil)
    }

    /// Copies the image (in TRANSFER_SRC_OPTIMAL after the last pass) into `buffer` and makes the bytes
    /// visible to the host once the frame's fence signals.
    func recordReadback(_ commandBuffer: VkCommandBuffer, into buffer: GPUBuffer) {
        var region = VkBufferImageCopy()
        region.bufferOffset = 0
        region.bufferRowLength = 0
        region.bufferImageHeight = 0
        region.imageSubresource = VkImageSubresourceLayers(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, baseArrayLayer: 0, layerCount: 1)
        region.imageExtent = VkExtent3D(width: UInt32(width), height: UInt32(height), depth: 1)
        vkCmdCopyImageToBuffer(commandBuffer, colorImage, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffer.handle, 1, &region)
        Barriers.buffer(
            commandBuffer, buffer.handle,
            source: (VK_PIPELINE_STAGE_TRANSFER_BIT, Access.transferWrite),
            destination: (VK_PIPELINE_STAGE_HOST_BIT, Access.hostRead))
    }

    /// The pixels of a completed readback.
    func image(from buffer: GPUBuffer) -> CGImage {
        guard let mapped = buffer.mapped else { preconditionFailure("readback buffer is not host-visible") }
        var bytes = [UInt8](UnsafeRawBufferPointer(start: mapped, count: byteCount))
        if format == VK_FORMAT_B8G8R8A8_UNORM {
            for pixel in stride(from: 0, to: bytes.count, by: 4) { bytes.swapAt(pixel, pixel + 2) }
        }
        guard let image = CGImage(width: width, height: height, bytesPerRow: width * 4, premultipliedRGBA: bytes) else {
            preconditionFailure("a \(width)x\(height) readback does not make an image")
        }
        return image
    }
}
