import CPrefetch
import CVulkan
import LayerKit
import LayerKitRender

/// Records a `RenderGraph` into a frame's command buffer. It decides nothing about what to draw: the
/// graph's passes, items, draw order and batches are executed as given.
///
/// Input: a graph whose last pass draws into the renderer's frame target and whose earlier passes draw
/// offscreen surfaces (`RenderTarget.offscreen`), a recycled `FrameContext`.
/// Output: commands — texture uploads first (whole images and image tiles through `ImageUploader`, new
/// atlas placements through `AtlasTextures`), then one render pass per `RenderPass` in graph order (each
/// cleared to its color), each item one instance of the layer-quad pipeline — and the frame's
/// `FrameCounters`. GPU queries (`GPUQueries`), recorded inside the passes, count the fragments the
/// passes shade and time them; their results are read once the frame's fence has signalled
/// (`gpuResults(of:)`). Nothing is recorded after the last pass: on lavapipe a frame's last barrier (its
/// last render pass's end) waits for the frame to be rasterized unless it closes the command buffer.
/// Surfaces: before recording, each offscreen pass gets an image from the `SurfacePool` (in pass order),
/// and each image goes back to the pool right after the last pass that samples it, so a later pass of the
/// same frame may draw into it again. Offscreen passes use the surface render pass, whose dependencies
/// order them after earlier uses of the image and make their writes visible to the fragment shaders of
/// later passes; no other barriers are needed. A surface is drawn at its pass's size from the top-left
/// corner of its (bucket-sized) image; the uv of items sampling it are scaled by logical / image size as
/// they are written, so uv 0…1 still spans exactly the pass's pixels.
/// Batching: the instance buffer holds each pass's items in its `drawOrder`, and each `DrawBatch` is one
/// `vkCmdDrawIndexed` of 6 indices per item over its 4 corners (two triangles; `layer_quad.vert` pulls
/// each item's instance by vertex index; `FrameContext.quadIndexBuffer`), `firstInstance` indexing its
/// first item in that buffer (`RenderPass.drawPlan`: a
/// pass nobody compiled batches consecutive items with equal texture bindings and blend modes). After the
/// instances come the color stops of the frame's gradient items (`GradientPaint.stopWords`), each item's
/// instance pointing at its first word (`LayerInstance.gradientStopWord`), so gradients batch with
/// untextured draws and need no binding of their own. Each frame in flight keeps its own instance buffer
/// and the `DrawListRevision` it holds: a graph that is a later revision of the same retained draw lists
/// rewrites only the draws changed since, each in its slot (its pass's place in the buffer and its place
/// in the pass's draw order, kept from the last full record: `RecordedLineage`) with its gradient's stops
/// in the words they had (a revision keeps every gradient's stop count) — provided every surface has a
/// pooled image of the size it had then (the uv of draws sampling it are scaled by it). Depth:
/// every frame target has a depth-stencil attachment (`LayerPipeline.renderPass`); the frame pass is
/// drawn with the pipeline of each batch's `DepthPhase`. A frame pass without depth order or stencil
/// clips begins `LayerPipeline.depthStencilFreeRenderPass` instead (the attachment neither cleared nor
/// tested, `FrameSubpass.withoutDepthStencil`).
/// Stencil: every frame-pass draw tests the stencil against its batch's
/// `stencilReference` (set when it changes), and a stencil clip command's batch is drawn with the
/// stencil clip pipeline of its command (`LayerPipeline.stencilClipPipeline(for:)`). An offscreen pass
/// holding stencil clip commands draws its surface through the surface stencil render pass, its surface
/// given its bucket's stencil (`SurfacePool.attachStencil(to:)`, counted once per image in the frame's
/// offscreen bytes), with the stencil-tested pipelines of `SurfacePipelines` alike; other offscreen
/// passes have no stencil and cost nothing more. An
/// empty graph still clears the target to transparent black, so a readback always has defined pixels.
/// A graph that breaks `RenderGraph.invariantViolations` is refused before anything is recorded.
/// Inside an app's render pass (an executor whose `LayerPipeline` was built against it): `prepareFrame`
/// records everything up to the frame pass (uploads, instance data, offscreen passes), outside the app's
/// pass; `recordFramePass` records the frame pass's draws inside it, with no render pass of its own — after
/// clearing the depth and stencil it uses over its area, since the app's values mean nothing to it.
/// Cost: O(items) CPU (a later revision: O(changed draws + passes + draws of passes compiled again));
/// 256 bytes of instance data per item written, plus 16 bytes per gradient stop and per four locations
/// (a later revision: of the changed items only); one draw call per batch; one render pass per
/// graph pass; surface images (and stencils) only when the pool has none of the size free.
final class GraphExecutor {
    /// Indices per draw item: its two triangles over its four corners (`FrameContext.quadCornerIndices`).
    static let indicesPerItem = FrameContext.quadCornerIndices.count
    let device: VulkanDevice
    let allocator: MemoryAllocator
    let pipeline: LayerPipeline
    let uploader: ImageUploader
    let atlasTextures: AtlasTextures
    let instanceDescriptors: DescriptorAllocator
    /// Made at the first graph with an offscreen pass.
    var surfaceResources: (pipelines: SurfacePipelines, pool: SurfacePool)?
    var frameNumber: UInt64 = 0
    /// The images of the rasterization cache's entries, kept across frames (`RenderGraph.rasterization`).
    var rasterizedImages: [RasterizationEntryID: PooledSurface] = [:]
    /// Entries whose images this executor dropped or never drew, not yet reported (`takeLostRasterizations`).
    var lostRasterizations: [RasterizationEntryID] = []

    init(device: VulkanDevice, allocator: MemoryAllocator, pipeline: LayerPipeline, uploader: ImageUploader, instanceDescriptors: DescriptorAllocator) {
        self.device = device
        self.allocator = allocator
        self.pipeline = pipeline
        self.uploader = uploader
        self.atlasTextures = AtlasTextures(uploader: uploader)
        self.instanceDescriptors = instanceDescriptors
    }

    /// Rasterization cache entries whose images are gone (trimmed under memory pressure, or never drawn
    /// because the frame was degraded) since the last call; the render server forgets them.
    func takeLostRasterizations() -> [RasterizationEntryID] {
        defer { lostRasterizations = [] }
        return lostRasterizations
    }

    /// Rasterization cache entries held (tests: bounded growth).
    var rasterizedImageCount: Int { rasterizedImages.count }
    var atlasUploadsRemembered: Int { atlasTextures.uploadsRemembered }

    /// The surface pool's counts (all zero before the first offscreen pass).
    var surfacePoolStatistics: SurfacePool.Statistics { surfaceResources?.pool.statistics ?? SurfacePool.Statistics() }

    /// Stencil images of offscreen surfaces alive now.
    var residentSurfaceStencils: Int { surfaceResources?.pool.residentStencils ?? 0 }

    /// How many changed draws ahead a patched frame fetches the draw and its instance slot it will write.
    private static let writeFetchDistance = 8

    /// Copies one instance into the mapped instance buffer at `destination`.
    private static func write(_ instance: LayerInstance, to destination: UnsafeMutableRawPointer, stride: Int) {
        withUnsafeBytes(of: instance) { bytes in
            destination.copyMemory(from: bytes.baseAddress!, byteCount: min(bytes.count, stride))
        }
    }

    /// Records `graph` into `target`, a framebuffer of this executor's frame render pass (color plus
    /// depth-stencil).
    func record(_ graph: RenderGraph, frame: FrameContext, into target: FramebufferTarget) throws -> FrameCounters {
        var recording = try prepare(graph, frame: frame, frameSize: (target.width, target.height), requiresExactSize: target.requiresExactSize,
                                    drawsEmptyFrame: true, keptPixels: target.keptPixels)
        try timed(&recording) { recording in
            while recording.nextPass < recording.passes.count { try recordPass(of: &recording, frameInto: .own(target)) }
        }
        return finish(&recording)
    }

    /// A frame recorded up to some of its passes: what the rest of its recording needs. A frame drawn
    /// inside an app's render pass is kept in one between `prepareFrame` (outside the app's pass) and
    /// `recordFramePass` (inside it).
    struct FrameRecording {
        let frame: FrameContext
        fileprivate let graph: RenderGraph
        /// The passes to record: the graph's, or (an empty graph in LayerKit's own pass) one clearing the frame.
        fileprivate let passes: [RenderPass]
        fileprivate let plans: [(order: [Int], batches: [DrawBatch])]
        fileprivate let surfaces: SurfaceAssignment
        fileprivate let instanceSet: VkDescriptorSet
        /// The frame's quad corner indices (`FrameContext.quadIndexBuffer`), bound for every pass's draws.
        fileprivate let quadIndices: VkBuffer
        fileprivate let queries: GPUQueries
        fileprivate var counters: FrameCounters
        /// The next pass to record, and its first instance in the frame's instance buffer.
        fileprivate var nextPass = 0
        fileprivate var firstInstance = 0
        /// Wall-clock and thread CPU nanoseconds spent recording so far.
        fileprivate var recordNanoseconds: UInt64 = 0
        fileprivate var recordCPUNanoseconds: UInt64 = 0
        /// Render passes LayerKit began.
        fileprivate var passesBegun = 0

        /// Whether the passes left to record are the frame's only (its offscreen passes are recorded).
        var reachedFramePass: Bool { nextPass >= passes.count || passes[nextPass].target.surface == nil }
    }

    /// Records `graph` into an app's render pass (`LayerPipeline.subpass` of this executor's pipeline):
    /// outside that pass, its uploads, instance data and offscreen passes into `frame`'s command buffer; the
    /// frame pass is left for `recordFramePass`, inside the app's pass. An empty graph draws nothing there.
    func prepareFrame(_ graph: RenderGraph, frame: FrameContext, width: Int, height: Int) throws -> FrameRecording {
        // One frame pass, the last: the only one the app's pass can hold.
        guard graph.passes.dropLast().allSatisfy({ $0.target.surface != nil }) else {
            throw VulkanError.unsupportedTarget("a graph drawn inside an app's render pass has one frame pass, its last")
        }
        var recording = try prepare(graph, frame: frame, frameSize: (width, height), requiresExactSize: true, drawsEmptyFrame: false,
                                    keptPixels: nil)
        try timed(&recording) { recording in
            while !recording.reachedFramePass { try recordPass(of: &recording, frameInto: nil) }
        }
        return recording
    }

    /// Records the frame pass of a prepared frame (`prepareFrame`) into `commandBuffer`, inside the app's
    /// render pass, in the subpass the pipeline was built for: first a clear of the depth and stencil it
    /// uses (`FrameSubpass.clearedAspects`) over the frame's area, then the draws, with LayerKit's
    /// viewport, scissor, pipelines, descriptor sets and stencil reference (left bound afterwards).
    func recordFramePass(_ recording: inout FrameRecording, inAppPassOf commandBuffer: VkCommandBuffer) throws -> FrameCounters {
        try timed(&recording) { recording in
            guard recording.nextPass < recording.passes.count else { return }
            try recordPass(of: &recording, frameInto: .app(commandBuffer))
        }
        return finish(&recording)
    }

    /// Runs `body` on `recording`, adding the wall-clock and thread CPU time it takes to the recording's.
    private func timed(_ recording: inout FrameRecording, _ body: (inout FrameRecording) throws -> Void) rethrows {
        let (started, cpuStarted) = (StageClock.now(), StageClock.threadCPUNow())
        try body(&recording)
        recording.recordNanoseconds &+= StageClock.now() &- started
        recording.recordCPUNanoseconds &+= StageClock.threadCPUNow() &- cpuStarted
    }

    /// Checks `graph`, gives its surfaces images, records its uploads, its copies of the target's kept
    /// pixels (from `keptPixels`) and writes its instance data: all that comes before its first render pass.
    private func prepare(_ graph: RenderGraph, frame: FrameContext, frameSize: (width: Int, height: Int), requiresExactSize: Bool,
                         drawsEmptyFrame: Bool, keptPixels: KeptTargetPixels?) throws -> FrameRecording {
        let recordStart = StageClock.now()
        let recordCPUStart = StageClock.threadCPUNow()
        let commandBuffer = frame.commandBuffer
        try validateTargets(graph, frameSize: frameSize, requiresExactSize: requiresExactSize)
        guard graph.targetPixelCopies.isEmpty || keptPixels != nil else {
            throw VulkanError.unsupportedTarget("the graph copies the target's kept pixels, but this frame's target keeps none it can copy")
        }
        // A later revision of the draw lists this executor last recorded in full was checked then, and its
        // textures and atlas placements made resident: patches keep order, batches, keys and stencil levels.
        var patched = patchedRevision(of: graph, frame: frame)
        if patched == nil { try validateItems(graph) }
        frameNumber += 1
        var counters = FrameCounters()
        if frame.queries == nil { frame.queries = try GPUQueries(device: device, name: "frame \(frame.index) queries") }
        let queries = frame.queries!
        // A frame with no pass draws the clear of an empty one.
        try queries.begin(commandBuffer, passes: max(graph.passes.count, 1), measuring: frame.measuresGPU)
        var prepared = false
        defer { if !prepared { queries.discard() } }
        var graph = graph
        let surfaces: SurfaceAssignment
        do {
            surfaces = try assignSurfaces(graph, frame: frame)
        } catch let error as VulkanError where error.isOutOfDeviceMemory {
            // Even after trimming there is no memory for this frame's surfaces: draw it without them.
            let degraded = graph.drawingSurfacesDirectly()
            // Entries first drawn this frame have no image yet, but the render side counts on them too.
            loseRasterizations(graph.rasterization.rendered.values.map(\.entry), evenIfNotHeld: true)
            LayerKitDiagnostics.emit(.offscreenRenderingDegraded(
                surfaces: graph.offscreenPasses.count - degraded.offscreenPasses.count, reason: "\(error)"))
            graph = degraded
            surfaces = try assignSurfaces(graph, frame: frame)
        }
        if let pool = surfaceResources?.pool { counters.surfacesCreated = pool.statistics.created - surfaces.createdBefore }
        counters.offscreenTargetBytes = surfaces.bytes
        // uv of draws sampling a surface are scaled to its pooled image: kept draws stay right only while
        // every surface has an image of the size it had when the frame's buffer was written.
        var surfaceScales: [SurfaceID: SIMD2<Float>] = [:]
        for (surface, assigned) in surfaces.bySurface {
            surfaceScales[surface] = SIMD2(Float(assigned.width) / Float(assigned.image.width), Float(assigned.height) / Float(assigned.image.height))
        }
        if patched != nil && surfaceScales != frame.instanceSurfaceScales { patched = nil }

        // Uploads, before any render pass.
        let uploadedBefore = (uploader.imagesUploaded, uploader.bytesUploaded)
        var requests: [(image: CGImage, region: PixelRect?, mipmapped: Bool)] = []
        var requestIndex: [TextureSource: Int] = [:]
        // A patched revision uploads only for the passes it compiled again (their draws may show new images).
        for (passIndex, pass) in graph.passes.enumerated() where patched.map({ $0.recompiledPasses.contains(passIndex) }) ?? true {
            for case let binding? in pass.items.lazy.map(\.texture) {
                let request: (CGImage, PixelRect?)
                switch binding.source {
                case let .image(image): request = (image, nil)
                case let .imageTile(image, region): request = (image, region)
                case .surface, .atlas: continue
                }
                let wantsMips = binding.minification == .trilinear
                if let index = requestIndex[binding.source] {
                    requests[index].mipmapped = requests[index].mipmapped || wantsMips
                } else {
                    requestIndex[binding.source] = requests.count
                    requests.append((request.0, request.1, wantsMips))
                }
            }
        }
        device.labels.begin(commandBuffer, "uploads")
        try uploader.prepare(requests, commandBuffer: commandBuffer, frame: frame)
        atlasTextures.forget(graph.freedAtlasPlacements)
        if patched == nil && !graph.atlasPlacements.isEmpty {
            try atlasTextures.prepare(graph.atlasPlacements, commandBuffer: commandBuffer, frame: frame)
        }
        device.labels.end(commandBuffer)
        if let keptPixels, !graph.targetPixelCopies.isEmpty {
            device.labels.begin(commandBuffer, "copies of the target's kept pixels")
            TargetPixelCopier.record(graph.targetPixelCopies.map { copy in
                guard let assigned = surfaces.bySurface[copy.surface] else { preconditionFailure("\(copy.surface) has no image") }
                return TargetPixelCopier.Copy(region: copy.region, destination: assigned.image.texture.image.handle)
            }, from: keptPixels, into: commandBuffer)
            device.labels.end(commandBuffer)
        }
        counters.imagesUploaded = uploader.imagesUploaded - uploadedBefore.0
        counters.bytesUploaded = uploader.bytesUploaded - uploadedBefore.1

        // Instance data for every pass, contiguous, each pass in its draw order; then the stops of the
        // frame's gradients (16-byte words the fragment shader reads through the same binding).
        let plans = graph.passes.map(\.drawPlan)
        let stride = LayerInstance.stride
        let wordStride = MemoryLayout<SIMD4<Float>>.stride
        let total = graph.passes.reduce(0) { $0 + $1.items.count }
        // A patched revision keeps every gradient's stop count (`DrawListRevision`): no walk over its draws.
        let stopWords = patched?.lineage.stopWords
            ?? graph.passes.reduce(0) { sum, pass in sum + pass.items.reduce(0) { $0 + ($1.gradient?.stopWordCount ?? 0) } }
        let stopRecords = (stopWords * wordStride + stride - 1) / stride
        try frame.ensureInstanceCapacity(total + stopRecords, stride: stride, allocator: allocator, descriptors: instanceDescriptors)
        // No batch holds more quads than the frame has instances.
        try frame.ensureQuadIndexCapacity(total, allocator: allocator)
        guard let instanceBuffer = frame.instanceBuffer, let instanceSet = frame.instanceSet, let base = instanceBuffer.mapped,
              let quadIndices = frame.quadIndexBuffer else {
            preconditionFailure("frame \(frame.index) has no mapped instance buffer")
        }
        /// Writes the draw at `item` (read where it lies: a copy of a draw retains its references) at
        /// instance `slot`, its gradient's stops (if any) at word `stopWord`.
        func writeDraw(_ item: UnsafePointer<DrawItem>, slot: Int, stopWord: Int) {
            var instance = item.pointee.instance
            if let surface = item.pointee.texture?.surface, let scale = surfaceScales[surface] {
                // uv 0…1 means the pass's pixels, the top-left part of the pooled image.
                instance.uv *= SIMD4(scale.x, scale.y, scale.x, scale.y)
            }
            if let gradient = item.pointee.gradient {
                instance.gradientStopWord = UInt32(stopWord)
                gradient.stopWords.withUnsafeBytes { words in
                    (base + stopWord * wordStride).copyMemory(from: words.baseAddress!, byteCount: words.count)
                }
            }
            Self.write(instance, to: base + slot * stride, stride: stride)
        }
        if let patched {
            // The buffer holds an earlier revision of these draw lists (same passes, same draw counts, same
            // stop counts): rewrite what changed, each draw in its slot and its stops in their words.
            // The changed draws lie scattered over long lists and their slots over a large buffer: while
            // one is written, the draw a few places ahead is fetched and its slot fetched for writing
            // (each run of changes in one pass reads that pass's draws where they lie).
            let lineage = patched.lineage, changed = patched.changed
            func slot(of draw: DrawListRevision.ChangedDraw) -> Int { lineage.passBase[draw.pass] + Int(lineage.slots[draw.pass][draw.item]) }
            var stopWordsWritten = 0
            var runStart = 0
            while runStart < changed.count {
                let pass = changed[runStart].pass
                var runEnd = runStart + 1
                while runEnd < changed.count && changed[runEnd].pass == pass { runEnd += 1 }
                graph.passes[pass].items.withUnsafeBufferPointer { items in
                    guard let draws = items.baseAddress else { return }
                    for position in runStart..<runEnd {
                        if position + Self.writeFetchDistance < runEnd {
                            let ahead = changed[position + Self.writeFetchDistance]
                            DrawItem.prefetch(items, at: ahead.item)
                            lk_prefetch_for_write(base + slot(of: ahead) * stride, stride)
                        }
                        let draw = changed[position]
                        writeDraw(draws + draw.item, slot: slot(of: draw),
                                  stopWord: lineage.stopStarts.isEmpty ? 0 : Int(lineage.stopStarts[draw.pass][draw.item]))
                        stopWordsWritten += draws[draw.item].gradient?.stopWordCount ?? 0
                    }
                }
                runStart = runEnd
            }
            counters.instanceBytesWritten = patched.changed.count * stride + stopWordsWritten * wordStride
        } else {
            var index = 0
            var nextStopWord = total * stride / wordStride
            for (pass, plan) in zip(graph.passes, plans) {
                pass.items.withUnsafeBufferPointer { items in
                    guard let draws = items.baseAddress else { return }
                    for itemIndex in plan.order {
                        writeDraw(draws + itemIndex, slot: index, stopWord: nextStopWord)
                        nextStopWord += draws[itemIndex].gradient?.stopWordCount ?? 0
                        index += 1
                    }
                }
            }
            counters.instanceBytesWritten = total * stride + stopWords * wordStride
        }
        frame.instanceRevision = graph.revision
        frame.instanceSurfaceScales = surfaceScales
        if patched == nil { rememberRecordedLineage(of: graph, stopWords: stopWords, plans: plans) }
        counters.instances = total

        let passes = graph.passes.isEmpty && drawsEmptyFrame
            ? [RenderPass(name: "empty frame", target: .frame(width: frameSize.width, height: frameSize.height), clearColor: .zero, items: [])]
            : graph.passes
        let passPlans = graph.passes.isEmpty && drawsEmptyFrame ? [(order: [Int](), batches: [DrawBatch]())] : plans
        prepared = true
        return FrameRecording(frame: frame, graph: graph, passes: passes, plans: passPlans, surfaces: surfaces, instanceSet: instanceSet.set,
                              quadIndices: quadIndices.handle,
                              queries: queries, counters: counters, recordNanoseconds: StageClock.now() &- recordStart,
                              recordCPUNanoseconds: StageClock.threadCPUNow() &- recordCPUStart)
    }

    /// Where the frame pass is drawn: in LayerKit's own render pass over a framebuffer, or inside an
    /// app's render pass being recorded into a command buffer of the app's.
    private enum FramePassDestination {
        case own(FramebufferTarget)
        case app(VkCommandBuffer)
    }

    /// Records the recording's next pass: an offscreen pass in its own render pass, or the frame pass
    /// into `destination` (nil: the frame pass is not to be recorded now).
    private func recordPass(of recording: inout FrameRecording, frameInto destination: FramePassDestination?) throws {
        let passIndex = recording.nextPass
        let pass = recording.passes[passIndex]
        let surfaces = recording.surfaces
        var commandBuffer = recording.frame.commandBuffer
        let label = pass.reason.map { "pass \(passIndex) · offscreen · \($0) · \(pass.name)" } ?? "pass \(passIndex) · \(pass.name)"
        // The pass's render pass when LayerKit begins one (nil: drawn inside the app's), and its area.
        var begun: (framebuffer: VkFramebuffer, renderPass: VkRenderPass)?
        let area: (width: Int, height: Int)
        // Whether the pass's target has a stencil tested by its draws, and whether the render pass begun
        // clears the depth-stencil attachment.
        let hasStencil: Bool
        let clearsDepthStencil: Bool
        // What of the frame's subpass the pass uses: a frame without depth order or stencil clips leaves
        // the depth-stencil attachment alone (neither cleared nor tested).
        let clipsByStencil = pass.clipsByStencil
        let usesDepthStencil = pass.depthOrdered || clipsByStencil
        let frameSubpass = usesDepthStencil ? pipeline.subpass : pipeline.subpass.withoutDepthStencil
        switch (pass.target, destination) {
        case (.frame, nil):
            preconditionFailure("the frame pass of a prepared frame is recorded inside the app's render pass")
        case let (.frame, .own(target)?):
            hasStencil = frameSubpass.usesStencil
            let clearing = target.renderPass ?? pipeline.renderPass
            let free = usesDepthStencil ? nil : target.renderPass == nil ? pipeline.depthStencilFreeRenderPass : target.depthStencilFreeRenderPass
            begun = (target.framebuffer, free ?? clearing)
            clearsDepthStencil = free == nil
            area = (target.width, target.height)
        case let (.frame(width, height), .app(appBuffer)?):
            commandBuffer = appBuffer
            hasStencil = frameSubpass.usesStencil
            clearsDepthStencil = false
            area = (width, height)
        case let (.offscreen(surface, width, height), _):
            guard let assigned = surfaces.bySurface[surface], let pipelines = surfaceResources?.pipelines else {
                preconditionFailure("\(surface) has no image")
            }
            hasStencil = clipsByStencil
            clearsDepthStencil = hasStencil
            if hasStencil {
                guard let stencil = assigned.image.stencil else { preconditionFailure("\(surface) has no stencil") }
                begun = (stencil.framebuffer, pipelines.stencilRenderPass)
            } else {
                begun = (assigned.image.framebuffer, pipelines.renderPass)
            }
            area = (width, height)
        }
        device.labels.begin(commandBuffer, label)
        if let begun {
            beginRenderPass(commandBuffer, renderPass: begun.renderPass, framebuffer: begun.framebuffer, area: area, clearColor: pass.clearColor,
                            clearsDepthStencil: clearsDepthStencil)
            // The clear of an empty graph is not one of its passes.
            if !recording.graph.passes.isEmpty { recording.passesBegun += 1 }
        } else {
            // Inside the app's pass: depth 1 and stencil 0 where LayerKit draws, as its own pass clears them.
            clearDepthStencil(commandBuffer, aspects: frameSubpass.clearedAspects, area: area)
        }
        recording.queries.passBegan(commandBuffer)
        do {
            if !pass.items.isEmpty {
                // The pass's own size: a swapchain caught mid-resize draws it from the top-left corner.
                let (passWidth, passHeight) = (pass.target.width, pass.target.height)
                var viewport = VkViewport(x: 0, y: 0, width: Float(passWidth), height: Float(passHeight), minDepth: 0, maxDepth: 1)
                vkCmdSetViewport(commandBuffer, 0, 1, &viewport)
                let scissorExtent = VkExtent2D(width: UInt32(min(passWidth, area.width)), height: UInt32(min(passHeight, area.height)))
                var scissor = VkRect2D(offset: VkOffset2D(x: 0, y: 0), extent: scissorExtent)
                vkCmdSetScissor(commandBuffer, 0, 1, &scissor)
                // Every pipeline shares the frame pipeline's layout, so set 0 stays bound across pipelines.
                var set: VkDescriptorSet? = recording.instanceSet
                vkCmdBindDescriptorSets(commandBuffer, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.layout, 0, 1, &set, 0, nil)
                vkCmdBindIndexBuffer(commandBuffer, recording.quadIndices, 0, VK_INDEX_TYPE_UINT32)
                pipeline.pushViewport(commandBuffer, width: passWidth, height: passHeight)
                var boundPipeline: VkPipeline?
                var boundTexture: VkDescriptorSet?
                // A pass with a stencil tests it in every pipeline.
                var stencilReference: UInt8? = hasStencil ? nil : 0
                for batch in recording.plans[passIndex].batches {
                    let batchPipeline = try pipelineFor(pass, batch: batch, hasStencil: hasStencil, frameSubpass: frameSubpass)
                    if batchPipeline != boundPipeline {
                        vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_GRAPHICS, batchPipeline)
                        boundPipeline = batchPipeline
                    }
                    if hasStencil && stencilReference != batch.key.stencilReference {
                        vkCmdSetStencilReference(commandBuffer, VK_STENCIL_FACE_FRONT_AND_BACK.rawValue, UInt32(batch.key.stencilReference))
                        stencilReference = batch.key.stencilReference
                    }
                    var textureSet: VkDescriptorSet? = try descriptorSet(for: batch.key.texture, surfaces: surfaces)
                    if textureSet != boundTexture {
                        vkCmdBindDescriptorSets(commandBuffer, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.layout, 1, 1, &textureSet, 0, nil)
                        boundTexture = textureSet
                    }
                    vkCmdDrawIndexed(commandBuffer, UInt32(Self.indicesPerItem * batch.count), 1, 0, 0,
                                     UInt32(recording.firstInstance + batch.range.lowerBound))
                    recording.counters.drawCalls += 1
                }
            }
        }
        recording.queries.passEnding(commandBuffer, isLast: passIndex == recording.passes.count - 1)
        if begun != nil { vkCmdEndRenderPass(commandBuffer) }
        device.labels.end(commandBuffer)
        recording.firstInstance += pass.items.count
        recording.nextPass += 1
    }

    /// Clears `aspects` of the depth-stencil attachment of the app's subpass being recorded, over `area`
    /// from the top-left, to depth 1 and stencil 0 (nothing when `aspects` is empty).
    private func clearDepthStencil(_ commandBuffer: VkCommandBuffer, aspects: VkImageAspectFlags, area: (width: Int, height: Int)) {
        guard aspects != 0 else { return }
        var attachment = VkClearAttachment()
        attachment.aspectMask = aspects
        attachment.clearValue.depthStencil = VkClearDepthStencilValue(depth: 1, stencil: 0)
        var rect = VkClearRect(rect: VkRect2D(offset: VkOffset2D(x: 0, y: 0), extent: VkExtent2D(width: UInt32(area.width), height: UInt32(area.height))),
                               baseArrayLayer: 0, layerCount: 1)
        vkCmdClearAttachments(commandBuffer, 1, &attachment, 1, &rect)
    }

    /// Ends a recording whose passes are all recorded: the frame's counters.
    private func finish(_ recording: inout FrameRecording) -> FrameCounters {
        let finishing = StageClock.now()
        var counters = recording.counters
        counters.passes = recording.passesBegun
        counters.offscreenReasons = recording.graph.passes.compactMap(\.reason)
        counters.recordTime = StageClock.seconds(recording.recordNanoseconds &+ (StageClock.now() &- finishing))
        counters.recordCPUTime = StageClock.seconds(recording.recordCPUNanoseconds)
        return counters
    }

    /// Forgets what recording `frame` uploaded, because its commands will never run.
    func abandonFrame(_ frame: FrameContext) {
        recordedLineage = nil
        uploader.abandonFrameUploads(frame: frame)
        atlasTextures.abandonFrameUploads(frame: frame)
        frame.queries?.discard()
    }

    /// What the GPU measured for the frame last recorded in `frame`: fragments shaded and seconds. Only
    /// after its fence has signalled.
    func gpuResults(of frame: FrameContext) -> (fragments: Int?, seconds: Double?) {
        frame.queries?.results() ?? (nil, nil)
    }

    // MARK: - Checks

    /// Refuses a graph whose passes this executor cannot draw into: a frame pass of the wrong size, or a
    /// surface beyond the device's limits. O(passes).
    private func validateTargets(_ graph: RenderGraph, frameSize: (width: Int, height: Int), requiresExactSize: Bool) throws {
        for pass in graph.passes {
            switch pass.target {
            case let .frame(width, height):
                guard width > 0, height > 0, !requiresExactSize || (width == frameSize.width && height == frameSize.height) else {
                    throw VulkanError.unsupportedTarget("pass \"\(pass.name)\" draws into \(pass.target); this renderer's frame is \(frameSize.width)x\(frameSize.height)")
                }
            case let .offscreen(_, width, height):
                let limit = Int(min(device.limits.maxImageDimension2D, device.limits.maxFramebufferWidth, device.limits.maxFramebufferHeight))
                guard width > 0, height > 0, width <= limit, height <= limit else {
                    throw VulkanError.unsupportedTarget("pass \"\(pass.name)\" draws into \(pass.target); surfaces are 1...\(limit) pixels a side")
                }
            }
        }
    }

    /// Refuses a graph whose draws this executor cannot draw: a mask or fragment-count blend into the
    /// frame, depth ordering in a surface, or broken graph invariants (stencil clips that do not nest
    /// among them). O(items).
    private func validateItems(_ graph: RenderGraph) throws {
        for pass in graph.passes {
            switch pass.target {
            case .frame:
                // The frame's pipelines blend source-over or by a compositing filter; destination-in and
                // additive are for surfaces (masks, fragment counts).
                if pass.items.contains(where: { $0.blend == .destinationIn || $0.blend == .additive }) {
                    throw VulkanError.unsupportedTarget("pass \"\(pass.name)\" draws a mask or a fragment count into the frame; only surfaces support that")
                }
            case .offscreen:
                if pass.depthOrdered {
                    throw VulkanError.unsupportedTarget("pass \"\(pass.name)\" is depth-ordered; surfaces have no depth attachment")
                }
            }
        }
        let violations = graph.invariantViolations
        guard violations.isEmpty else {
            throw VulkanError.unsupportedTarget("the render graph breaks its invariants: "
                + violations.map(\.description).joined(separator: "; ") + "\n\(graph)")
        }
    }

    // MARK: - Revisions

    /// The draw lists this executor last recorded in full, kept up to date by each revision recorded since:
    /// their lineage (`DrawListRevision`), and where each draw's instance and gradient stops lie in the
    /// instance buffer — its pass's first slot plus its place in the pass's draw order (the inverse of the
    /// order), and its first stop word (passes' stops follow the instances in the same order). Forgotten
    /// when a frame is abandoned (its uploads never ran).
    private struct RecordedLineage {
        var lineage: UInt64
        var itemCounts: [Int]
        var passBase: [Int]
        /// Per pass, per item: its slot within the pass.
        var slots: [[Int32]]
        /// Per pass, per item: its first stop word (items without a gradient: unused); empty without stops.
        var stopStarts: [[Int32]]
        /// Per pass: its first stop word; empty without stops.
        var passStopBase: [Int]
        var stopWords: Int
    }
    private var recordedLineage: RecordedLineage?
    /// Per draw of the recorded lineage (by pass, then item), the last `changeStamp` that listed it: the
    /// changes of several revisions usually repeat the same draws, and each is written once.
    private var changeStamps: [[UInt32]] = []
    private var changeStamp: UInt32 = 0

    /// The recorded lineage and the draws to rewrite, when `graph` is a later revision of it (the same
    /// passes with as many draws) and `frame`'s instance buffer holds a revision of it too: then the graph
    /// is recorded without walking its draws, but for the passes compiled again since (every draw of such
    /// a pass changed: their slots and stop words are worked out again from their new order, and their
    /// images uploaded). Nil otherwise.
    private func patchedRevision(of graph: RenderGraph, frame: FrameContext)
        -> (lineage: RecordedLineage, changed: [DrawListRevision.ChangedDraw], recompiledPasses: Set<Int>)? {
        guard var recorded = recordedLineage, let revision = graph.revision, revision.lineage == recorded.lineage,
              graph.passes.map(\.items.count) == recorded.itemCounts,
              let changes = revision.changes(since: frame.instanceRevision)
        else { return nil }
        // Over several revisions the same draws usually changed each time: write each once.
        changeStamp &+= 1
        if changeStamp == 0 {
            changeStamps = changeStamps.map { [UInt32](repeating: 0, count: $0.count) }
            changeStamp = 1
        }
        var changed: [DrawListRevision.ChangedDraw] = []
        changed.reserveCapacity(changes.count)
        for draw in changes where changeStamps[draw.pass][draw.item] != changeStamp {
            changeStamps[draw.pass][draw.item] = changeStamp
            changed.append(draw)
        }
        var changedPerPass = [Int](repeating: 0, count: graph.passes.count)
        for draw in changed { changedPerPass[draw.pass] += 1 }
        var recompiled = Set<Int>()
        for (pass, count) in changedPerPass.enumerated() where count == recorded.itemCounts[pass] && count > 0 && pass < graph.passes.count - 1 {
            recompiled.insert(pass)
            let order = graph.passes[pass].drawPlan.order
            var nextStop = recorded.stopStarts.isEmpty ? 0 : recorded.passStopBase[pass]
            for (slot, itemIndex) in order.enumerated() {
                recorded.slots[pass][itemIndex] = Int32(slot)
                if !recorded.stopStarts.isEmpty, let gradient = graph.passes[pass].items[itemIndex].gradient {
                    recorded.stopStarts[pass][itemIndex] = Int32(nextStop)
                    nextStop += gradient.stopWordCount
                }
            }
        }
        recordedLineage = recorded
        return (recorded, changed, recompiled)
    }

    private func rememberRecordedLineage(of graph: RenderGraph, stopWords: Int, plans: [(order: [Int], batches: [DrawBatch])]) {
        guard let revision = graph.revision else {
            recordedLineage = nil
            return
        }
        changeStamps = graph.passes.map { [UInt32](repeating: 0, count: $0.items.count) }
        changeStamp = 0
        var recorded = RecordedLineage(lineage: revision.lineage, itemCounts: graph.passes.map(\.items.count), passBase: [], slots: [],
                                       stopStarts: [], passStopBase: [], stopWords: stopWords)
        var base = 0
        var nextStop = graph.passes.reduce(0) { $0 + $1.items.count } * LayerInstance.stride / MemoryLayout<SIMD4<Float>>.stride
        for (pass, plan) in zip(graph.passes, plans) {
            recorded.passBase.append(base)
            base += pass.items.count
            var slots = [Int32](repeating: 0, count: pass.items.count)
            var stops = [Int32](repeating: 0, count: stopWords > 0 ? pass.items.count : 0)
            if stopWords > 0 { recorded.passStopBase.append(nextStop) }
            for (slot, itemIndex) in plan.order.enumerated() {
                slots[itemIndex] = Int32(slot)
                if stopWords > 0, let gradient = pass.items[itemIndex].gradient {
                    stops[itemIndex] = Int32(nextStop)
                    nextStop += gradient.stopWordCount
                }
            }
            recorded.slots.append(slots)
            if stopWords > 0 { recorded.stopStarts.append(stops) }
        }
        recordedLineage = recorded
    }

    /// The pipeline of a batch, specialized to its material: for the frame, the one for the batch's stencil
    /// clip command or else its depth phase and blend (validated: source-over or a compositing filter); for a surface, the one for its
    /// blend mode, and with `hasStencil` the stencil-tested one or the command's.
    private func pipelineFor(_ pass: RenderPass, batch: DrawBatch, hasStencil: Bool, frameSubpass: FrameSubpass) throws -> VkPipeline {
        let key = batch.key
        switch pass.target {
        case .frame:
            if let command = key.stencilCommand { return try pipeline.stencilClipPipeline(for: command) }
            return try pipeline.depthPipeline(for: key.depth, material: batch.material, blend: key.blend, in: frameSubpass)
        case .offscreen:
            let surfacePipelines = try makeSurfaceResources().0
            if hasStencil, let command = key.stencilCommand { return try surfacePipelines.stencilClipPipeline(for: command) }
            // An app's kernel, unless it failed to compile: then the pass copies its source.
            if let kernel = key.customKernel, !hasStencil, let custom = try surfacePipelines.pipeline(for: kernel, blend: key.blend) {
                return custom
            }
            return try surfacePipelines.pipeline(for: key.blend, material: batch.material, stencilTested: hasStencil)
        }
    }

    /// The set-1 descriptor for a batch: an image's or image tile's (uploaded this frame or before), an
    /// atlas page's, a surface's, or the white texture's for untextured batches.
    private func descriptorSet(for binding: TextureBinding?, surfaces: SurfaceAssignment) throws -> VkDescriptorSet {
        guard let binding else { return try uploader.descriptorSet(for: nil) }
        switch binding.source {
        case .image, .imageTile:
            return try uploader.descriptorSet(for: binding)
        case let .atlas(page):
            return try atlasTextures.descriptorSet(for: page, binding: binding)
        case let .surface(surface):
            guard let assigned = surfaces.bySurface[surface] else { preconditionFailure("\(surface) has no image") }
            let key = SamplerCache.Key(minification: binding.minification, magnification: binding.magnification)
            return try assigned.image.texture.descriptorSet(for: key, samplers: uploader.samplers, device: device)
        }
    }

    private func beginRenderPass(_ commandBuffer: VkCommandBuffer, renderPass: VkRenderPass, framebuffer: VkFramebuffer,
                                 area: (width: Int, height: Int), clearColor: SIMD4<Float>, clearsDepthStencil: Bool) {
        var clears = [VkClearValue](repeating: VkClearValue(), count: clearsDepthStencil ? 2 : 1)
        clears[0].color.float32 = (clearColor.x, clearColor.y, clearColor.z, clearColor.w)
        if clearsDepthStencil { clears[1].depthStencil = VkClearDepthStencilValue(depth: 1, stencil: 0) }
        clears.withUnsafeBufferPointer { clearPointer in
            var info = VkRenderPassBeginInfo()
            info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO
            info.renderPass = renderPass
            info.framebuffer = framebuffer
            info.renderArea = VkRect2D(offset: VkOffset2D(x: 0, y: 0), extent: VkExtent2D(width: UInt32(area.width), height: UInt32(area.height)))
            info.clearValueCount = UInt32(clearPointer.count)
            info.pClearValues = clearPointer.baseAddress
            vkCmdBeginRenderPass(commandBuffer, &info, VK_SUBPASS_CONTENTS_INLINE)
        }
    }
}

/// What a graph is recorded into: a framebuffer of the executor's render pass and its size in pixels
/// (the headless image, or a swapchain image). With `requiresExactSize` (headless) a pass of another size
/// is an error; without it (a swapchain caught between a window resize and its recreation) each pass
/// draws at its own size from the top-left corner, clipped to the framebuffer, and the rest is cleared.
struct FramebufferTarget {
    var framebuffer: VkFramebuffer
    var width: Int
    var height: Int
    var requiresExactSize = true
    /// A render pass compatible with the layer pipeline's frame pass to begin instead of it (one that
    /// keeps the target's color: an app's image drawn over; one read on the host); nil: the pipeline's,
    /// which clears.
    var renderPass: VkRenderPass? = nil
    /// With `renderPass`, its variant that leaves the depth-stencil attachment alone, for a frame that
    /// neither orders by depth nor clips by stencil (nil: `renderPass` serves those too).
    var depthStencilFreeRenderPass: VkRenderPass? = nil
    /// The app's image whose kept pixels the graph's target pixel copies read (with `renderPass`); nil
    /// for a cleared target, where a graph copies nothing.
    var keptPixels: KeptTargetPixels? = nil
}

extension RenderPass {
    /// Whether the pass holds stencil clip commands, so its target needs a stencil. Asked of its batches
    /// (a command's batch key carries it), not its draws: a frame of 100,000 draws is a handful of batches.
    var clipsByStencil: Bool { drawPlan.batches.contains { $0.key.stencilCommand != nil } }
}
