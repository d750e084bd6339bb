import CVulkan
import LayerKitRender

/// An offscreen color image a render graph's surface is drawn into and sampled from: `GPUImage.format`,
/// usage color attachment + sampled + transfer destination (a surface may be filled by a blit of the
/// frame target's kept pixels instead: `TargetPixelCopier`), a framebuffer for the surface render pass, and (through its
/// `GPUTexture`) one descriptor set per sampler it is read with, written once. Once a pass that clips by
/// stencil draws into it, also its bucket's stencil and a framebuffer of the stencil render pass
/// (`SurfacePool.attachStencil(to:)`).
final class PooledSurface {
    let texture: GPUTexture
    let framebuffer: VkFramebuffer
    let bucket: SurfacePool.Bucket
    /// The bucket's shared stencil image and a framebuffer of the surface stencil render pass over the
    /// color image and it; nil until a pass that clips by stencil draws here.
    fileprivate(set) var stencil: (image: GPUImage, framebuffer: VkFramebuffer)?
    /// The executor's frame number when it was last handed out.
    fileprivate(set) var lastUsedFrame: UInt64 = 0
    private let device: VulkanDevice

    var width: Int { texture.image.width }
    var height: Int { texture.image.height }

    fileprivate init(device: VulkanDevice, allocator: MemoryAllocator, renderPass: VkRenderPass, bucket: SurfacePool.Bucket,
                     descriptors: DescriptorAllocator, name: String) throws {
        self.device = device
        self.bucket = bucket
        let image = try GPUImage(
            device: device, allocator: allocator, width: bucket.width, height: bucket.height,
            usage: VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_SAMPLED_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue,
            name: name)
        framebuffer = try Self.makeFramebuffer(device: device, renderPass: renderPass, views: [image.view], bucket: bucket, name: name)
        texture = GPUTexture(image: image, source: nil, descriptors: descriptors)
    }

    fileprivate static func makeFramebuffer(device: VulkanDevice, renderPass: VkRenderPass, views: [VkImageView?],
                                            bucket: SurfacePool.Bucket, name: String) throws -> VkFramebuffer {
        var info = VkFramebufferCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO
        info.renderPass = renderPass
        info.attachmentCount = UInt32(views.count)
        info.width = UInt32(bucket.width)
        info.height = UInt32(bucket.height)
        info.layers = 1
        var framebuffer: VkFramebuffer?
        try views.withUnsafeBufferPointer { attachments in
            info.pAttachments = attachments.baseAddress
            try check(vkCreateFramebuffer(device.handle, &info, nil, &framebuffer), "vkCreateFramebuffer(\(name))")
        }
        device.labels.name(framebuffer, VK_OBJECT_TYPE_FRAMEBUFFER, name)
        return framebuffer!
    }

    deinit {
        if let stencil { vkDestroyFramebuffer(device.handle, stencil.framebuffer, nil) }
        vkDestroyFramebuffer(device.handle, framebuffer, nil)
    }
}

/// Offscreen surfaces, reused across passes and frames.
///
/// Input: requests for a `width`×`height` surface in pass order (`acquire`), and the point after which a
/// surface's last reader is recorded (`release`). Output: `PooledSurface`s whose size is the request
/// rounded up to its bucket (each side to a multiple of `granularity`, within the device's limits); a
/// surface is drawn at its request's size from the top-left corner and sampled over that part only.
/// Reuse: a released surface goes back to its bucket's free list at once — later in the same frame or in a
/// later frame, even one recorded while the earlier is still on the GPU. That is safe without waiting
/// because the surface render pass orders its clear after every earlier color write and fragment-shader
/// read of the image (`LayerPipeline.makeRenderPass(destination: .surface)`), and submissions run in
/// queue order. A surface left unused for `idleFramesBeforeRelease` frames is destroyed after the
/// current frame completes.
/// Stencil: a surface drawn by a pass that clips by stencil gets one (`attachStencil(to:)`). Surfaces of
/// a bucket share one stencil image — it is cleared at the start of every such pass and never stored,
/// and the stencil render pass orders that clear after earlier passes' stencil tests — which lives as
/// long as a surface holding it does, so stencils are bounded by buckets in use and go with their
/// surfaces. Growth: a scene that needs the same surfaces every frame creates them in its
/// first frame and never again. Cost: one image, framebuffer and descriptor set per surface created, one
/// stencil image per bucket in use and one more framebuffer per surface with a stencil; O(1) per acquire
/// and release, O(free surfaces) per frame for eviction.
final class SurfacePool {
    /// Sides are rounded up to a multiple of this many pixels, so a surface whose size wobbles from frame
    /// to frame (an animation) keeps its image. At most `granularity - 1` pixels per side are unused.
    static let granularity = 64
    /// Frames a free surface may sit unused before it is destroyed.
    static let idleFramesBeforeRelease: UInt64 = 60

    struct Bucket: Hashable, CustomStringConvertible {
        var width: Int
        var height: Int
        var description: String { "\(width)x\(height)" }
    }

    /// Counts since the pool was made, for leak and growth checks.
    struct Statistics: Equatable, Sendable {
        /// Surfaces (images) created.
        var created = 0
        /// Surfaces destroyed after sitting idle.
        var destroyed = 0
        /// Surfaces alive now: in use or free.
        var resident: Int { created - destroyed }
        /// Stencil images created (at most one per bucket alive at a time).
        var stencilsCreated = 0
    }

    /// A bucket's stencil, held only by the surfaces it is attached to.
    private struct SharedStencil {
        weak var image: GPUImage?
    }

    private(set) var statistics = Statistics()
    private let device: VulkanDevice
    private let allocator: MemoryAllocator
    private let renderPass: VkRenderPass
    private let stencilRenderPass: VkRenderPass
    private let descriptors: DescriptorAllocator
    private var free: [Bucket: [PooledSurface]] = [:]
    private var stencils: [Bucket: SharedStencil] = [:]
    private var frameNumber: UInt64 = 0

    /// - Parameters:
    ///   - renderPass: the surface render pass (color only).
    ///   - stencilRenderPass: the surface render pass with a `device.surfaceStencilFormat` attachment.
    init(device: VulkanDevice, allocator: MemoryAllocator, renderPass: VkRenderPass, stencilRenderPass: VkRenderPass,
         descriptors: DescriptorAllocator) {
        self.device = device
        self.allocator = allocator
        self.renderPass = renderPass
        self.stencilRenderPass = stencilRenderPass
        self.descriptors = descriptors
    }

    /// The largest surface side the device can draw into and sample.
    var maxSide: Int {
        let limits = device.limits
        return Int(min(limits.maxImageDimension2D, limits.maxFramebufferWidth, limits.maxFramebufferHeight))
    }

    /// The bucket a `width`×`height` request is served from.
    func bucket(width: Int, height: Int) -> Bucket {
        func roundUp(_ side: Int) -> Int { min(maxSide, (side + Self.granularity - 1) / Self.granularity * Self.granularity) }
        return Bucket(width: roundUp(width), height: roundUp(height))
    }

    /// Starts frame `frameNumber` of the executor: surfaces idle too long are handed to `frame` to be
    /// destroyed once it completes.
    func beginFrame(_ frameNumber: UInt64, frame: FrameContext) {
        self.frameNumber = frameNumber
        for (bucket, surfaces) in free {
            let (idle, kept) = surfaces.reduce(into: ([PooledSurface](), [PooledSurface]())) { result, surface in
                if surface.lastUsedFrame + Self.idleFramesBeforeRelease < frameNumber { result.0.append(surface) } else { result.1.append(surface) }
            }
            guard !idle.isEmpty else { continue }
            for surface in idle { frame.deferRelease(surface) }
            statistics.destroyed += idle.count
            free[bucket] = kept.isEmpty ? nil : kept
        }
        stencils = stencils.filter { $0.value.image != nil }
    }

    /// Stencil images alive now (held by a surface, in use, free or waiting for its frame to complete).
    var residentStencils: Int { stencils.values.reduce(0) { $0 + ($1.image == nil ? 0 : 1) } }

    /// Gives `surface` its bucket's stencil (made when no surface of the bucket holds one) and a
    /// framebuffer of the stencil render pass, if it has none yet. Returns the stencil image.
    ///
    /// - Throws: a failed allocation; the surface is then left without a stencil.
    @discardableResult
    func attachStencil(to surface: PooledSurface) throws -> GPUImage {
        if let stencil = surface.stencil { return stencil.image }
        let bucket = surface.bucket
        let image: GPUImage
        if let shared = stencils[bucket]?.image {
            image = shared
        } else {
            image = try GPUImage.surfaceStencilAttachment(device: device, allocator: allocator, width: bucket.width,
                                                          height: bucket.height, name: "surface stencil \(statistics.stencilsCreated) · \(bucket)")
            stencils[bucket] = SharedStencil(image: image)
            statistics.stencilsCreated += 1
        }
        let framebuffer = try PooledSurface.makeFramebuffer(device: device, renderPass: stencilRenderPass,
                                                            views: [surface.texture.image.view, image.view], bucket: bucket,
                                                            name: "surface · \(bucket) · with stencil")
        surface.stencil = (image, framebuffer)
        return image
    }

    /// A surface at least `width`×`height`, not in use by any pass recorded after this call until it is
    /// released.
    ///
    /// - Throws: `VulkanError.imageTooLarge` beyond the device's limits, or a failed allocation.
    func acquire(width: Int, height: Int) throws -> PooledSurface {
        guard width > 0, height > 0, width <= maxSide, height <= maxSide else {
            throw VulkanError.imageTooLarge(width: width, height: height, limit: maxSide)
        }
        let bucket = bucket(width: width, height: height)
        let surface: PooledSurface
        if let reused = free[bucket]?.popLast() {
            surface = reused
        } else {
            surface = try PooledSurface(
                device: device, allocator: allocator, renderPass: renderPass, bucket: bucket, descriptors: descriptors,
                name: "surface \(statistics.created) · \(bucket)")
            statistics.created += 1
        }
        surface.lastUsedFrame = frameNumber
        return surface
    }

    /// Destroys every free surface, for memory pressure. The caller has waited for the device to go
    /// idle, so no submitted work uses them: those this frame has not handed out go at once; those it
    /// has (released after their last reader, to be recorded into `frame`) go once `frame` completes.
    func trimFreeSurfaces(frame: FrameContext) {
        for surface in free.values.joined() where surface.lastUsedFrame == frameNumber {
            frame.deferRelease(surface)
        }
        statistics.destroyed += free.values.reduce(0) { $0 + $1.count }
        free = [:]
    }

    /// Returns `surface` to the pool once every pass that samples it has been recorded.
    func release(_ surface: PooledSurface) {
        free[surface.bucket, default: []].append(surface)
    }
}
