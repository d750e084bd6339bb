import CVulkan
import LayerKit
import LayerKitRender

/// The GPU side of the image atlas (`ImageAtlas`): one texture per atlas page, each placement uploaded
/// once, when a graph first lists it.
///
/// Input: a graph's `atlasPlacements` (`prepare`), recorded before the frame's first pass. Output: page
/// textures in SHADER_READ_ONLY_OPTIMAL and their descriptor sets per sampler.
/// Uploads: a page image is made on its first placement. Each new placement is staged with a one-texel
/// gutter repeating its edge texels ((w + 2) × (h + 2) texels, written at the placement's rect grown by
/// one) and copied in; the page goes to TRANSFER_DST for the copies and back to SHADER_READ_ONLY after,
/// the barrier ordering the copies after earlier frames' sampling (queue order does the rest). Placements
/// are known by serial, so a rect the atlas hands to another image is uploaded again — except a partial
/// redraw of the image the rect held (`AtlasPlacement.update`), whose region (grown by the gutter texel it
/// may change) is all that is copied, when that image's texels are resident. A frame that is
/// abandoned forgets its uploads. Cost: (w + 2)(h + 2) × 4 bytes through the staging ring per new
/// placement (about the region's, for a partial redraw); nothing for resident ones; two barriers per page
/// with new placements.
final class AtlasTextures {
    private struct Page {
        var texture: GPUTexture
        var uploaded: Set<Int> = []
    }

    private let uploader: ImageUploader
    private var pages: [AtlasPageID: Page] = [:]
    /// (page, serial) uploaded, and pages made, by the frame being recorded.
    private var uploadedThisFrame: [(AtlasPageID, Int)] = []
    private var pagesMadeThisFrame: [AtlasPageID] = []

    init(uploader: ImageUploader) {
        self.uploader = uploader
    }

    /// Page textures alive.
    var pageCount: Int { pages.count }

    /// Placements the pages remember uploading.
    var uploadsRemembered: Int { pages.values.reduce(0) { $0 + $1.uploaded.count } }

    /// Forgets the uploads of placements the atlas freed (their serials never come back), so what a
    /// page remembers stays bounded by what it holds.
    func forget(_ freed: [FreedAtlasPlacement]) {
        for placement in freed { pages[placement.page]?.uploaded.remove(placement.serial) }
    }

    /// Uploads the placements of `placements` not yet resident.
    func prepare(_ placements: [AtlasPlacement], commandBuffer: VkCommandBuffer, frame: FrameContext) throws {
        uploadedThisFrame.removeAll()
        pagesMadeThisFrame.removeAll()
        var newByPage: [AtlasPageID: [AtlasPlacement]] = [:]
        for placement in placements where !(pages[placement.page]?.uploaded.contains(placement.serial) ?? false) {
            newByPage[placement.page, default: []].append(placement)
        }
        let device = uploader.device
        for (pageID, placements) in newByPage.sorted(by: { $0.key < $1.key }) {
            let side = placements[0].pageSize
            let isNew = pages[pageID] == nil
            if isNew {
                let image = try GPUImage(
                    device: device, allocator: uploader.allocator, width: side, height: side,
                    usage: VK_IMAGE_USAGE_SAMPLED_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue, name: "\(pageID) \(side)x\(side)")
                pages[pageID] = Page(texture: GPUTexture(image: image, source: nil, descriptors: uploader.descriptors))
                pagesMadeThisFrame.append(pageID)
            }
            let image = pages[pageID]!.texture.image
            Barriers.image(
                commandBuffer, image.handle, range: image.range(),
                from: isNew ? VK_IMAGE_LAYOUT_UNDEFINED : VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                source: (isNew ? VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT : VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, Access.none),
                destination: (VK_PIPELINE_STAGE_TRANSFER_BIT, Access.transferWrite))
            for placement in placements {
                let extended = PixelRect(x: 0, y: 0, width: placement.rect.width + 2, height: placement.rect.height + 2)
                // The rect holding the previous image: the region, grown by a texel for the gutter it may touch.
                if let update = placement.update, pages[pageID]!.uploaded.contains(update.previousSerial),
                   let grown = PixelRect(x: update.region.minX, y: update.region.minY, width: update.region.width + 2,
                                         height: update.region.height + 2).intersection(extended) {
                    try copy(placement, texels: grown, into: image, commandBuffer: commandBuffer, frame: frame)
                    pages[pageID]!.uploaded.remove(update.previousSerial)
                    uploader.countUpload(bytes: update.region.width * update.region.height * 4)
                } else {
                    try copy(placement, texels: extended, into: image, commandBuffer: commandBuffer, frame: frame)
                    uploader.countUpload(bytes: placement.rect.width * placement.rect.height * 4)
                }
                pages[pageID]!.uploaded.insert(placement.serial)
                uploadedThisFrame.append((pageID, placement.serial))
            }
            Barriers.image(
                commandBuffer, image.handle, range: image.range(),
                from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, to: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                source: (VK_PIPELINE_STAGE_TRANSFER_BIT, Access.transferWrite),
                destination: (VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, Access.shaderRead))
        }
    }

    /// Forgets what the frame being recorded uploaded (its commands will never run).
    func abandonFrameUploads(frame: FrameContext) {
        for (page, serial) in uploadedThisFrame { pages[page]?.uploaded.remove(serial) }
        for page in pagesMadeThisFrame {
            if let made = pages.removeValue(forKey: page) { frame.deferRelease(made.texture) }
        }
        uploadedThisFrame.removeAll()
        pagesMadeThisFrame.removeAll()
    }

    /// The set-1 descriptor sampling `page` with the binding's filters.
    func descriptorSet(for page: AtlasPageID, binding: TextureBinding) throws -> VkDescriptorSet {
        guard let texture = pages[page]?.texture else { preconditionFailure("\(page) was not prepared") }
        let key = SamplerCache.Key(minification: binding.minification, magnification: binding.magnification)
        return try texture.descriptorSet(for: key, samplers: uploader.samplers, device: uploader.device)
    }

    /// Stages `texels` of `placement`'s image with its gutter — in gutter-extended coordinates, (0, 0) the
    /// gutter's corner, (w + 2) × (h + 2) in all — and records the copy into the page.
    private func copy(_ placement: AtlasPlacement, texels: PixelRect, into page: GPUImage, commandBuffer: VkCommandBuffer,
                      frame: FrameContext) throws {
        let source = placement.image
        let (width, height) = (texels.width, texels.height)
        let rowBytes = width * 4
        let (buffer, offset) = try uploader.stage(size: rowBytes * height, frame: frame, name: "atlas placement \(placement.serial)") { destination in
            source.pixelData.withUnsafeBytes { pixels in
                let base = pixels.baseAddress!
                for row in 0..<height {
                    // Gutter rows repeat the first and last image rows; gutter columns the first and last texel.
                    let sourceRow = min(max(texels.minY + row - 1, 0), source.height - 1)
                    let from = base + sourceRow * source.bytesPerRow
                    let to = destination + row * rowBytes
                    // Image columns 0..<w sit at extended columns 1...w.
                    let first = max(texels.minX, 1), end = min(texels.maxX, source.width + 1)
                    if end > first {
                        (to + (first - texels.minX) * 4).copyMemory(from: from + (first - 1) * 4, byteCount: (end - first) * 4)
                    }
                    if texels.minX == 0 { to.copyMemory(from: from, byteCount: 4) }
                    if texels.maxX == source.width + 2 { (to + (width - 1) * 4).copyMemory(from: from + (source.width - 1) * 4, byteCount: 4) }
                }
            }
        }
        var region = VkBufferImageCopy()
        region.bufferOffset = offset
        region.imageSubresource = VkImageSubresourceLayers(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, baseArrayLayer: 0, layerCount: 1)
        region.imageOffset = VkOffset3D(x: Int32(placement.rect.minX - 1 + texels.minX), y: Int32(placement.rect.minY - 1 + texels.minY), z: 0)
        region.imageExtent = VkExtent3D(width: UInt32(width), height: UInt32(height), depth: 1)
        vkCmdCopyBufferToImage(commandBuffer, buffer, page.handle, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region)
    }
}
