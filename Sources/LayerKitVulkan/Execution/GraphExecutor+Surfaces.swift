import CVulkan
import LayerKit
import LayerKitRender

// Surfaces: which pooled image each offscreen pass of a graph draws into, kept across frames for the
// rasterization cache's entries, and what memory pressure gives up (`GraphExecutor`).
extension GraphExecutor {
    /// The image behind one surface of the graph, and the surface's own (logical) size.
    struct AssignedSurface {
        let image: PooledSurface
        let width: Int
        let height: Int
    }

    struct SurfaceAssignment {
        var bySurface: [SurfaceID: AssignedSurface] = [:]
        var createdBefore = 0
        /// Bytes of the distinct images handed out (RGBA8, as allocated) and of the distinct stencils
        /// their passes use.
        var bytes = 0
    }

    /// Gives every offscreen pass an image from the pool, in pass order, returning each to the pool after
    /// the last pass that samples it (so later passes may reuse it within the frame). Rasterization cache
    /// entries are the exception: an entry drawn this frame keeps its image (or gets a new one when its
    /// size needs another bucket) after the frame, an entry reused takes the image kept for it, and
    /// released entries return theirs to the pool first.
    /// Memory pressure: when an image cannot be allocated, the pool's free surfaces and the cache images
    /// this frame does not use are destroyed (after the device goes idle) and the allocation retried
    /// once; a second failure is thrown for the caller to degrade the frame. A pass that clips by stencil
    /// also gets its surface's stencil (`SurfacePool.attachStencil(to:)`), under the same rule.
    func assignSurfaces(_ graph: RenderGraph, frame: FrameContext) throws -> SurfaceAssignment {
        var assignment = SurfaceAssignment()
        let rasterization = graph.rasterization
        let usesSurfaces = graph.passes.contains { $0.reason != nil } || !rasterization.isEmpty || !graph.targetPixelCopies.isEmpty
        if usesSurfaces { _ = try makeSurfaceResources() }
        // Every frame ages the pool, so surfaces a scene stopped using go even when it uses none now.
        surfaceResources?.pool.beginFrame(frameNumber, frame: frame)
        guard usesSurfaces, let pool = surfaceResources?.pool else { return assignment }
        for entry in rasterization.released {
            if let image = rasterizedImages.removeValue(forKey: entry) { pool.release(image) }
        }
        for (surface, reused) in rasterization.reused {
            guard let image = rasterizedImages[reused.entry] else {
                // Drawn by another executor (another color format): this frame cannot show it; the
                // render side, told it is lost, draws it again for the next.
                lostRasterizations.append(reused.entry)
                throw VulkanError.unsupportedTarget("\(surface) reuses \(reused.entry), which this renderer does not hold")
            }
            assignment.bySurface[surface] = AssignedSurface(image: image, width: reused.width, height: reused.height)
        }
        assignment.createdBefore = pool.statistics.created
        var lastReader: [SurfaceID: Int] = [:]
        for (index, pass) in graph.passes.enumerated() {
            for case let surface? in pass.items.lazy.map({ $0.texture?.surface }) { lastReader[surface] = index }
        }
        let inUse = Set(rasterization.rendered.values.map(\.entry)).union(rasterization.reused.values.map(\.entry))
        var releasedAfter = [[PooledSurface]](repeating: [], count: graph.passes.count)
        var held: [PooledSurface] = []
        var countedStencils: [ObjectIdentifier] = []
        do {
            // Copies of the target's pixels are made before any pass: their images are taken first.
            for copy in graph.targetPixelCopies {
                let image = try acquire(width: copy.region.width, height: copy.region.height, keeping: inUse, frame: frame)
                held.append(image)
                releasedAfter[lastReader[copy.surface] ?? 0].append(image)
                assignment.bytes += image.width * image.height * 4
                assignment.bySurface[copy.surface] = AssignedSurface(image: image, width: copy.region.width, height: copy.region.height)
            }
            for (index, pass) in graph.passes.enumerated() {
                if case let .offscreen(surface, width, height) = pass.target {
                    let image: PooledSurface
                    if let entry = rasterization.rendered[surface]?.entry {
                        if let kept = rasterizedImages[entry], kept.bucket == pool.bucket(width: width, height: height) {
                            image = kept
                        } else {
                            image = try acquire(width: width, height: height, keeping: inUse, frame: frame)
                            if let old = rasterizedImages.updateValue(image, forKey: entry) { pool.release(old) }
                        }
                    } else {
                        image = try acquire(width: width, height: height, keeping: inUse, frame: frame)
                        held.append(image)
                        releasedAfter[lastReader[surface] ?? index].append(image)
                    }
                    if !assignment.bySurface.values.contains(where: { $0.image === image }) {
                        assignment.bytes += image.width * image.height * 4
                    }
                    if pass.clipsByStencil {
                        let stencil = try attachStencil(to: image, keeping: inUse, frame: frame)
                        if !countedStencils.contains(ObjectIdentifier(stencil)) {
                            countedStencils.append(ObjectIdentifier(stencil))
                            assignment.bytes += stencil.width * stencil.height * device.surfaceStencilBytesPerPixel
                        }
                    }
                    assignment.bySurface[surface] = AssignedSurface(image: image, width: width, height: height)
                }
                for image in releasedAfter[index] {
                    pool.release(image)
                    held.removeAll { $0 === image }
                }
            }
        } catch {
            for image in held { pool.release(image) }
            throw error
        }
        return assignment
    }

    /// A pool surface, trimming pools and caches once when the device is out of memory.
    func acquire(width: Int, height: Int, keeping inUse: Set<RasterizationEntryID>, frame: FrameContext) throws -> PooledSurface {
        guard let pool = surfaceResources?.pool else { preconditionFailure("surfaces are acquired after the pool exists") }
        do {
            return try pool.acquire(width: width, height: height)
        } catch let error as VulkanError where error.isOutOfDeviceMemory {
            try device.waitIdle()
            pool.trimFreeSurfaces(frame: frame)
            loseRasterizations(rasterizedImages.keys.filter { !inUse.contains($0) })
            return try pool.acquire(width: width, height: height)
        }
    }

    /// `surface`'s stencil, trimming pools and caches once when the device is out of memory.
    func attachStencil(to surface: PooledSurface, keeping inUse: Set<RasterizationEntryID>, frame: FrameContext) throws -> GPUImage {
        guard let pool = surfaceResources?.pool else { preconditionFailure("stencils are attached after the pool exists") }
        do {
            return try pool.attachStencil(to: surface)
        } catch let error as VulkanError where error.isOutOfDeviceMemory {
            try device.waitIdle()
            pool.trimFreeSurfaces(frame: frame)
            loseRasterizations(rasterizedImages.keys.filter { !inUse.contains($0) })
            return try pool.attachStencil(to: surface)
        }
    }

    /// Drops the images of `entries` (destroyed once nothing references them) and reports them lost
    /// (with `evenIfNotHeld`, also those this executor holds no image for).
    func loseRasterizations(_ entries: [RasterizationEntryID], evenIfNotHeld: Bool = false) {
        for entry in entries where rasterizedImages.removeValue(forKey: entry) != nil || evenIfNotHeld {
            lostRasterizations.append(entry)
        }
    }

    func makeSurfaceResources() throws -> (SurfacePipelines, SurfacePool) {
        if let surfaceResources { return surfaceResources }
        let pipelines = try SurfacePipelines(device: device, sharing: pipeline)
        let pool = SurfacePool(device: device, allocator: allocator, renderPass: pipelines.renderPass,
                               stencilRenderPass: pipelines.stencilRenderPass, descriptors: uploader.descriptors)
        surfaceResources = (pipelines, pool)
        return (pipelines, pool)
    }
}
