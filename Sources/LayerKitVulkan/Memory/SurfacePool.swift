import CVulkan
import LayerKitRender

/// An offscreen color image a render graph's surface is drawn into and sampled from: `GPUImage.format`,
/// usage color attachment + sampled, a framebuffer for the surface render pass, and (through its
/// `GPUTexture`) one descriptor set per sampler it is read with, written once.
final class PooledSurface {
    let texture: GPUTexture
    let framebuffer: VkFramebuffer
    let bucket: SurfacePool.Bucket
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
            usage: VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_SAMPLED_BIT.rawValue, name: name)
        var attachment: VkImageView? = image.view
        var info = VkFramebufferCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO
        info.renderPass = renderPass
        info.attachmentCount = 1
        info.width = UInt32(bucket.width)
        info.height = UInt32(bucket.height)
        info.layers = 1
        var framebuffer: VkFramebuffer?
        try withUnsafePointer(to: &attachment) { attachmentPointer in
            info.pAttachments = attachmentPointer
            try check(vkCreateFramebuffer(device.handle, &info, nil, &framebuffer), "vkCreateFramebuffer(\(name))")
        }
        self.framebuffer = framebuffer!
        device.labels.name(framebuffer, VK_OBJECT_TYPE_FRAMEBUFFER, name)
        texture = GPUTexture(image: image, source: nil, descriptors: descriptors)
    }

    deinit {
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
/// current frame completes. Growth: a scene that needs the same surfaces every frame creates them in its
/// first frame and never again. Cost: one image, framebuffer and descriptor set per surface created; O(1)
/// per acquire and release, O(free surfaces) per frame for eviction.
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
    }

    private(set) var statistics = Statistics()
    private let device: VulkanDevice
    private let allocator: MemoryAllocator
    private let renderPass: VkRenderPass
    private let descriptors: DescriptorAllocator
    private var free: [Bucket: [PooledSurface]] = [:]
    private var frameNumber: UInt64 = 0

    init(device: VulkanDevice, allocator: MemoryAllocator, renderPass: VkRenderPass, descriptors: DescriptorAllocator) {
        self.device = device
        self.allocator = allocator
        self.renderPass = renderPass
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
