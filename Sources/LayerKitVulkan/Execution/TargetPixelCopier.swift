import CVulkan
import LayerKitRender

/// An app's image whose pixels a frame keeps and draws over (`CARenderer.VulkanTarget.initialLayout`):
/// where a graph's target pixel copies come from.
struct KeptTargetPixels {
    /// The app's image, with `TRANSFER_SRC` usage (`CARenderer.VulkanTarget.image`).
    var image: VkImage
    /// The layout the app leaves it in before the frame, which the frame's render pass loads from.
    var layout: VkImageLayout
}

/// Fills a graph's surfaces that start from the frame target's kept pixels (`RenderGraph.targetPixelCopies`):
/// what a background filter's backdrop sees of the app's frame under LayerKit's draws.
///
/// Input: the app's image and its layout (`KeptTargetPixels`), and each copy's region with the pooled image
/// given to its surface. Output, recorded before the frame's first render pass: the app's image moved to
/// `TRANSFER_SRC_OPTIMAL` and back, each region blitted 1:1 (nearest, so exact; a blit, not a copy, so a
/// BGRA app image lands in the RGBA surface with its channels in place) to the top-left corner of its
/// surface image, left `SHADER_READ_ONLY_OPTIMAL` for the passes that sample it.
/// Synchronization: the app drew its image with colour attachment writes or transfer writes (the frame
/// render pass's own external dependency assumes the former); the first barrier waits for both and makes
/// them visible to the blit. Pooled images were last written by a render pass or a blit, or sampled: their
/// barrier waits for those. After the blits, the app's image goes back to its layout before the frame's
/// render pass reads and writes it as an attachment, and the surfaces' writes are made visible to
/// fragment shaders. A submission that waits on the app's semaphore must wait at the transfer stage too
/// (`waitStages`).
/// Cost: two barriers on the app's image, two per copy, one blit per copy (the region's pixels).
enum TargetPixelCopier {
    /// One region of the target and the image it goes to.
    struct Copy {
        var region: PixelRect
        var destination: VkImage
    }

    /// The stages a semaphore wait must block for a frame that copies the target's pixels (the copies
    /// are transfers that read what the app's semaphore guards).
    static let waitStages = VkPipelineStageFlagBits(VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT.rawValue | VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue)

    private static let colorRange = VkImageSubresourceRange(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, baseMipLevel: 0, levelCount: 1,
                                                            baseArrayLayer: 0, layerCount: 1)

    /// Records the copies (see the type) into `commandBuffer`, outside any render pass.
    static func record(_ copies: [Copy], from target: KeptTargetPixels, into commandBuffer: VkCommandBuffer) {
        guard !copies.isEmpty else { return }
        let stages = { (bits: [VkPipelineStageFlagBits]) in VkPipelineStageFlagBits(bits.reduce(0) { $0 | $1.rawValue }) }
        let transfer = VK_PIPELINE_STAGE_TRANSFER_BIT
        for copy in copies {
            // Earlier uses of a pooled image: a pass drawing it, a blit into it, a pass sampling it.
            Barriers.image(commandBuffer, copy.destination, range: colorRange, from: VK_IMAGE_LAYOUT_UNDEFINED, to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           source: (stages([VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, transfer]),
                                    Access.colorWrite | Access.transferWrite),
                           destination: (transfer, Access.transferWrite))
        }
        // The app's drawing of its image, by render pass or by transfer.
        Barriers.image(commandBuffer, target.image, range: colorRange, from: target.layout, to: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                       source: (stages([VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, transfer]), Access.colorWrite | Access.transferWrite),
                       destination: (transfer, Access.transferRead))
        let layers = VkImageSubresourceLayers(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, baseArrayLayer: 0, layerCount: 1)
        for copy in copies {
            let region = copy.region
            var blit = VkImageBlit()
            blit.srcSubresource = layers
            blit.srcOffsets = (VkOffset3D(x: Int32(region.minX), y: Int32(region.minY), z: 0),
                               VkOffset3D(x: Int32(region.maxX), y: Int32(region.maxY), z: 1))
            blit.dstSubresource = layers
            blit.dstOffsets = (VkOffset3D(x: 0, y: 0, z: 0), VkOffset3D(x: Int32(region.width), y: Int32(region.height), z: 1))
            vkCmdBlitImage(commandBuffer, target.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, copy.destination, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           1, &blit, VK_FILTER_NEAREST)
        }
        // The frame's render pass loads the image from the app's layout; its draws must not overtake the reads.
        Barriers.image(commandBuffer, target.image, range: colorRange, from: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, to: target.layout,
                       source: (transfer, Access.none),
                       destination: (VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, Access.colorRead | Access.colorWrite))
        for copy in copies {
            Barriers.image(commandBuffer, copy.destination, range: colorRange, from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           to: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, source: (transfer, Access.transferWrite),
                           destination: (VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, Access.shaderRead))
        }
    }
}
