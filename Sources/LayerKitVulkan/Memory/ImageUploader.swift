import CVulkan
import LayerKit
import LayerKitRender

/// A `CGImage` resident on the GPU, with a descriptor set per sampler it has been drawn with.
/// Released (image, memory, sets) when the last reference goes; frames keep it alive while in flight.
final class GPUTexture {
    let image: GPUImage
    /// The lifetime of the image it was uploaded from (not the image: the texture never keeps it
    /// alive); once that ends, the texture is garbage. Nil for textures of no image (surfaces, pages).
    var source: ImageLifetime?
    private var descriptorSets: [SamplerCache.Key: DescriptorAllocator.Allocation] = [:]
    private let descriptors: DescriptorAllocator

    init(image: GPUImage, source: ImageLifetime?, descriptors: DescriptorAllocator) {
        self.image = image
        self.source = source
        self.descriptors = descriptors
    }

    deinit {
        for allocation in descriptorSets.values { descriptors.free(allocation) }
    }

    /// The set-1 descriptor sampling this texture with `sampler`, written on first use.
    func descriptorSet(for key: SamplerCache.Key, samplers: SamplerCache, device: VulkanDevice) throws -> VkDescriptorSet {
        if let allocation = descriptorSets[key] { return allocation.set }
        let allocation = try descriptors.allocate(name: "texture \(image.width)x\(image.height) · \(key.minification)/\(key.magnification)")
        var imageInfo = VkDescriptorImageInfo(
            sampler: try samplers.sampler(for: key), imageView: image.view, imageLayout: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL)
        withUnsafePointer(to: &imageInfo) { imagePointer in
            var write = VkWriteDescriptorSet()
            write.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
            write.dstSet = allocation.set
            write.dstBinding = 0
            write.descriptorCount = 1
            write.descriptorType = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER
            write.pImageInfo = imagePointer
            vkUpdateDescriptorSets(device.handle, 1, &write, 0, nil)
        }
        descriptorSets[key] = allocation
        return allocation.set
    }
}

/// Uploads the images a frame draws, each `CGImage` once however many draws and frames use it.
///
/// Input: the distinct images of a frame (and whether any binding wants them trilinear), the frame's
/// command buffer. Output: resident `GPUTexture`s in SHADER_READ_ONLY_OPTIMAL; copy (and mip blit)
/// commands recorded before the frame's first pass. Identity is the `CGImage` object; an image uploaded
/// without mipmaps is uploaded again with them the first time a trilinear binding asks. A tile of an image
/// too large for one texture (`TextureSource.imageTile`) is a texture of its own, keyed by image and
/// region. A texture whose image has been deallocated is released after the frame in flight — unless a
/// new image of this frame is that image partly redrawn (`CGImage.partialUpdate`): then only the redrawn
/// region is copied into the texture (vkCmdCopyBufferToImage at the region's offset, between barriers that
/// keep its other texels), which from then on stands for the new image. Nothing else can show the old image
/// (it is gone), and commands on the queue run in order, so frames in flight still sample what they drew
/// with. Mipmapped textures and tiles are uploaded whole.
/// Cost: width × height × 4 bytes through the staging ring per upload (the region's, for a partial
/// update); nothing for an image already resident.
final class ImageUploader {
    /// Uploads since creation (the internal 1×1 white texture excluded).
    private(set) var imagesUploaded = 0
    /// Texel bytes uploaded since creation (level 0 only; mip levels are made on the GPU).
    private(set) var bytesUploaded = 0

    let device: VulkanDevice
    let allocator: MemoryAllocator
    private let staging: StagingRing
    /// Shared with the executor's `SurfacePool`, so surfaces are sampled through the same sets and samplers.
    let samplers: SamplerCache
    let descriptors: DescriptorAllocator
    private var textures: [TextureKey: GPUTexture] = [:]
    /// Images made resident by the frame being recorded (undone if that frame is abandoned).
    private var uploadedThisFrame: [TextureKey] = []

    /// A resident texture's identity: the image, and the region for a tile (nil: the whole image).
    private struct TextureKey: Hashable {
        var image: ObjectIdentifier
        var region: PixelRect?
    }
    private var whiteUploadedThisFrame = false
    /// Sampled by untextured batches, so every batch binds the same set layout.
    private var white: GPUTexture?
    static let whiteSampler = SamplerCache.Key(minification: .nearest, magnification: .nearest)

    init(device: VulkanDevice, allocator: MemoryAllocator, staging: StagingRing, samplers: SamplerCache, descriptors: DescriptorAllocator) {
        self.device = device
        self.allocator = allocator
        self.staging = staging
        self.samplers = samplers
        self.descriptors = descriptors
    }

    /// Textures currently resident (the white texture excluded).
    var residentCount: Int { textures.count }

    /// Starts recording a frame: what the previous one uploaded can no longer be abandoned.
    func beginFrame() {
        uploadedThisFrame.removeAll()
        whiteUploadedThisFrame = false
    }

    /// Releases, after `frame` completes, textures whose images no longer exist (run after the frame's
    /// uploads, which may have reused some for partial updates).
    private func collectGarbage(frame: FrameContext) {
        for (key, texture) in textures where texture.source?.isAlive != true {
            textures[key] = nil
            frame.deferRelease(texture)
        }
    }

    /// Makes every image (or image tile, with a region) in `images` resident, recording uploads into
    /// `commandBuffer`.
    func prepare(_ images: [(image: CGImage, region: PixelRect?, mipmapped: Bool)], commandBuffer: VkCommandBuffer, frame: FrameContext) throws {
        if white == nil {
            let pixel = CGImage(width: 1, height: 1, bytesPerRow: 4, premultipliedRGBA: [255, 255, 255, 255], alphaInfo: .noneSkipLast)!
            white = try upload(pixel, region: nil, mipmapped: false, commandBuffer: commandBuffer, frame: frame, name: "white 1x1")
            whiteUploadedThisFrame = true
        }
        for (image, region, mipmapped) in images {
            let key = TextureKey(image: ObjectIdentifier(image), region: region)
            if let existing = textures[key] {
                if existing.source === image.lifetime && (!mipmapped || existing.image.mipLevels > 1) { continue }
                frame.deferRelease(existing)
            }
            if region == nil, !mipmapped, let update = image.partialUpdate,
               let texture = try updateInPlace(image, update, commandBuffer: commandBuffer, frame: frame) {
                textures[key] = texture
                uploadedThisFrame.append(key)
                imagesUploaded += 1
                bytesUploaded += update.width * update.height * 4
                continue
            }
            let name = region.map { "tile \($0) of image \(image.width)x\(image.height)" } ?? "image \(image.width)x\(image.height)"
            textures[key] = try upload(image, region: region, mipmapped: mipmapped, commandBuffer: commandBuffer, frame: frame, name: name)
            uploadedThisFrame.append(key)
            imagesUploaded += 1
            bytesUploaded += (region?.width ?? image.width) * (region?.height ?? image.height) * 4
        }
        collectGarbage(frame: frame)
    }

    /// Copies `update`'s region of `image` into the texture of the image it was redrawn from, and returns
    /// that texture, now standing for `image`; nil (nothing recorded) when that texture is not resident,
    /// its image may still be shown (it still exists), or it does not match (size, mip levels).
    private func updateInPlace(_ image: CGImage, _ update: PartialImageUpdate, commandBuffer: VkCommandBuffer,
                               frame: FrameContext) throws -> GPUTexture? {
        let baseKey = TextureKey(image: update.base, region: nil)
        guard let texture = textures[baseKey], texture.source?.isAlive != true, texture.image.mipLevels == 1,
              texture.image.width == image.width, texture.image.height == image.height,
              update.x >= 0, update.y >= 0, update.width > 0, update.height > 0,
              update.x + update.width <= image.width, update.y + update.height <= image.height else { return nil }
        let name = "region \(update.width)x\(update.height)+\(update.x)+\(update.y) of image \(image.width)x\(image.height)"
        let rowBytes = update.width * 4
        let (stagingBuffer, stagingOffset) = try stage(size: rowBytes * update.height, frame: frame, name: name) { destination in
            image.pixelData.withUnsafeBytes { pixels in
                let first = pixels.baseAddress! + update.y * image.bytesPerRow + update.x * 4
                for row in 0..<update.height {
                    (destination + row * rowBytes).copyMemory(from: first + row * image.bytesPerRow, byteCount: rowBytes)
                }
            }
        }
        // Keep the texels outside the region: from SHADER_READ_ONLY (not UNDEFINED), after earlier frames'
        // sampling on this queue.
        Barriers.image(
            commandBuffer, texture.image.handle, range: texture.image.range(),
            from: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            source: (VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, Access.shaderRead),
            destination: (VK_PIPELINE_STAGE_TRANSFER_BIT, Access.transferWrite))
        var copy = VkBufferImageCopy()
        copy.bufferOffset = stagingOffset
        copy.imageSubresource = VkImageSubresourceLayers(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, baseArrayLayer: 0, layerCount: 1)
        copy.imageOffset = VkOffset3D(x: Int32(update.x), y: Int32(update.y), z: 0)
        copy.imageExtent = VkExtent3D(width: UInt32(update.width), height: UInt32(update.height), depth: 1)
        vkCmdCopyBufferToImage(commandBuffer, stagingBuffer, texture.image.handle, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy)
        Barriers.image(
            commandBuffer, texture.image.handle, range: texture.image.range(),
            from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, to: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
            source: (VK_PIPELINE_STAGE_TRANSFER_BIT, Access.transferWrite),
            destination: (VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, Access.shaderRead))
        textures[baseKey] = nil
        texture.source = image.lifetime
        return texture
    }

    /// Counts an upload made on the uploader's behalf (atlas placements).
    func countUpload(bytes: Int) {
        imagesUploaded += 1
        bytesUploaded += bytes
    }

    /// `size` bytes of staging memory for this frame's copies, filled by `fill`: a slot of the ring, or a
    /// one-off buffer released after `frame` when the ring is full.
    func stage(size: Int, frame: FrameContext, name: String, fill: (UnsafeMutableRawPointer) -> Void) throws -> (buffer: VkBuffer, offset: UInt64) {
        if let slot = staging.allocate(size: UInt64(size), alignment: 16) {
            fill(slot.pointer)
            return (staging.buffer.handle, slot.offset)
        }
        let oneOff = try GPUBuffer(
            device: device, allocator: allocator, size: UInt64(size), usage: VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue,
            location: .upload, name: "staging · \(name)")
        frame.deferRelease(oneOff)
        fill(oneOff.mapped!)
        return (oneOff.handle, 0)
    }

    /// Forgets the uploads of a frame whose commands will never run (recording failed), so a later frame
    /// uploads those images again instead of sampling undefined texels.
    func abandonFrameUploads(frame: FrameContext) {
        for key in uploadedThisFrame {
            if let texture = textures.removeValue(forKey: key) { frame.deferRelease(texture) }
        }
        if whiteUploadedThisFrame, let white {
            frame.deferRelease(white)
            self.white = nil
        }
        uploadedThisFrame.removeAll()
        whiteUploadedThisFrame = false
    }

    /// The set-1 descriptor for an image binding (nil: the white texture). The image must have been
    /// prepared; surfaces are bound by the executor.
    func descriptorSet(for binding: TextureBinding?) throws -> VkDescriptorSet {
        guard let binding else {
            return try white!.descriptorSet(for: Self.whiteSampler, samplers: samplers, device: device)
        }
        let textureKey: TextureKey
        switch binding.source {
        case let .image(image): textureKey = TextureKey(image: ObjectIdentifier(image), region: nil)
        case let .imageTile(image, region): textureKey = TextureKey(image: ObjectIdentifier(image), region: region)
        default: preconditionFailure("\(binding.source) is not an image")
        }
        guard let texture = textures[textureKey] else {
            preconditionFailure("\(binding.source) was not prepared this frame")
        }
        let key = SamplerCache.Key(minification: binding.minification, magnification: binding.magnification)
        return try texture.descriptorSet(for: key, samplers: samplers, device: device)
    }

    private func upload(_ source: CGImage, region: PixelRect?, mipmapped: Bool, commandBuffer: VkCommandBuffer, frame: FrameContext,
                        name: String) throws -> GPUTexture {
        let area = region ?? PixelRect(x: 0, y: 0, width: source.width, height: source.height)
        let width = area.width, height = area.height
        let limit = Int(device.limits.maxImageDimension2D)
        guard width <= limit, height <= limit else { throw VulkanError.imageTooLarge(width: width, height: height, limit: limit) }
        let levels = mipmapped ? GPUImage.fullMipChainLength(width: width, height: height) : 1
        var usage = VK_IMAGE_USAGE_SAMPLED_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue
        if levels > 1 { usage |= VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue }
        let image = try GPUImage(device: device, allocator: allocator, width: width, height: height, mipLevels: levels, usage: usage, name: name)

        // Stage the texels tightly packed (the image's rows may be padded; a tile is part of each row).
        let rowBytes = width * 4
        let (stagingBuffer, stagingOffset) = try stage(size: rowBytes * height, frame: frame, name: name) { destination in
            source.pixelData.withUnsafeBytes { pixels in
                let first = pixels.baseAddress! + area.minY * source.bytesPerRow + area.minX * 4
                for row in 0..<height {
                    (destination + row * rowBytes).copyMemory(from: first + row * source.bytesPerRow, byteCount: rowBytes)
                }
            }
        }

        Barriers.image(
            commandBuffer, image.handle, range: image.range(), from: VK_IMAGE_LAYOUT_UNDEFINED, to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
            source: (VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, Access.none), destination: (VK_PIPELINE_STAGE_TRANSFER_BIT, Access.transferWrite))
        var region = VkBufferImageCopy()
        region.bufferOffset = stagingOffset
        region.imageSubresource = VkImageSubresourceLayers(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, baseArrayLayer: 0, layerCount: 1)
        region.imageExtent = VkExtent3D(width: UInt32(width), height: UInt32(height), depth: 1)
        vkCmdCopyBufferToImage(commandBuffer, stagingBuffer, image.handle, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region)
        if levels > 1 {
            recordMipChain(commandBuffer, image)
        }
        // Level 0..<levels-1 are TRANSFER_SRC after the mip chain, the last level TRANSFER_DST.
        if levels > 1 {
            Barriers.image(
                commandBuffer, image.handle, range: image.range(baseMip: 0, mipCount: levels - 1),
                from: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, to: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                source: (VK_PIPELINE_STAGE_TRANSFER_BIT, Access.transferRead),
                destination: (VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, Access.shaderRead))
        }
        Barriers.image(
            commandBuffer, image.handle, range: image.range(baseMip: levels - 1, mipCount: 1),
            from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, to: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
            source: (VK_PIPELINE_STAGE_TRANSFER_BIT, Access.transferWrite),
            destination: (VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, Access.shaderRead))
        return GPUTexture(image: image, source: source.lifetime, descriptors: descriptors)
    }

    /// Fills levels 1... by successive linear blits, each from the level above.
    private func recordMipChain(_ commandBuffer: VkCommandBuffer, _ image: GPUImage) {
        var width = Int32(image.width), height = Int32(image.height)
        for level in 1..<image.mipLevels {
            Barriers.image(
                commandBuffer, image.handle, range: image.range(baseMip: level - 1, mipCount: 1),
                from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, to: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                source: (VK_PIPELINE_STAGE_TRANSFER_BIT, Access.transferWrite),
                destination: (VK_PIPELINE_STAGE_TRANSFER_BIT, Access.transferRead))
            let nextWidth = max(1, width / 2), nextHeight = max(1, height / 2)
            var blit = VkImageBlit()
            blit.srcSubresource = VkImageSubresourceLayers(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: level - 1, baseArrayLayer: 0, layerCount: 1)
            blit.srcOffsets = (VkOffset3D(x: 0, y: 0, z: 0), VkOffset3D(x: width, y: height, z: 1))
            blit.dstSubresource = VkImageSubresourceLayers(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: level, baseArrayLayer: 0, layerCount: 1)
            blit.dstOffsets = (VkOffset3D(x: 0, y: 0, z: 0), VkOffset3D(x: nextWidth, y: nextHeight, z: 1))
            vkCmdBlitImage(
                commandBuffer, image.handle, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, image.handle, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                1, &blit, VK_FILTER_LINEAR)
            width = nextWidth
            height = nextHeight
        }
    }
}
