import Foundation
import LayerKitRender
import Logging

/// Renders a layer tree offscreen, at times the caller chooses: Core Animation's `CARenderer`, headless.
///
///     let renderer = try CARenderer(width: 640, height: 480)
///     renderer.layer = root
///     renderer.beginFrame(atTime: CACurrentMediaTime())
///     renderer.render()
///     renderer.endFrame()
///     let image = try renderer.snapshot()
///
/// It is a host: `beginFrame(atTime:)` publishes what it shows (`HostViewports`: `bounds` at `scale`, for
/// tiled layers), commits the implicit transaction, then applies every commit
/// received since the last frame to its render tree. The target is 8-bit RGBA, premultiplied alpha,
/// composited in gamma-encoded sRGB as Core Animation composites. `bounds` (in points) is the region of
/// the root layer's superlayer space rendered; `scale` pixels per point. With `LK_TRACE=path.json` its
/// commits and frames are traced (`TraceRecorder`; a frame is recorded at the next `render()`, when the
/// GPU's results are in, and the file written when the renderer goes away and at exit).
///
/// Threads: a renderer is used from one thread at a time (the one that calls `beginFrame`, `render`,
/// `endFrame`), as Core Animation's is; its Vulkan work is further serialized by its context's
/// `ExclusiveAccess`. It is Sendable so that it may be handed to the thread that will drive it.
public final class CARenderer: @unchecked Sendable {
    /// The root of the layer tree to render.
    public var layer: CALayer? {
        didSet {
            guard layer !== oldValue else { return }
            oldValue?.isShownRoot = false
            publishViewport()
            CATransaction.flush()
            producer.reset(root: layer?.layerID, snapshot: inbox.show(layer))
        }
    }

    /// The region of the root's superlayer space that is rendered, in points. Default: the target's size
    /// divided by `scale`, at the origin.
    public var bounds: CGRect

    /// Pixels per point.
    public let scale: CGFloat

    /// The target's size in pixels.
    public private(set) var pixelWidth: Int
    public private(set) var pixelHeight: Int

    /// The color the target is cleared to before each frame (straight RGBA). Default transparent.
    public var clearColor: CGColor = .clear

    /// What the last `render()` did (`FrameStatistics`). Reading it after a render waits for the GPU to
    /// finish that frame (as `snapshot()` does) to add what the GPU measured: fragments shaded, overdraw
    /// and GPU time ("n/a" where the device cannot measure them).
    public var lastFrameStatistics: FrameStatistics {
        if awaitingGPUResults, let results = try? renderer.lastFrameGPUResults() {
            statistics.fragmentsShaded = results.fragments
            statistics.gpuTime = results.seconds
        }
        awaitingGPUResults = false
        return statistics
    }

    /// What the last `render()` recorded (`FrameStatistics`) without the GPU's results, so reading it does
    /// not wait for the GPU (a host that keeps the GPU busy reads this; `lastFrameStatistics` completes it).
    public var lastRecordedFrameStatistics: FrameStatistics { statistics }

    /// Whether `render()` copies each frame for `snapshot()` (on by default). A host that never reads frames
    /// back turns it off and saves a copy of the target per frame; `snapshot()` then throws until a frame
    /// is rendered with it on again.
    public var readsBack = true

    /// What the app's submission of the frame just recorded into its command buffer must signal, on a
    /// target with `VulkanTarget.timelineSemaphores`: this timeline semaphore, to this value (a
    /// `VkTimelineSemaphoreSubmitInfo` in the `VkSubmitInfo` that submits the buffer). LayerKit waits for
    /// the value before it reuses the frame's resources, two frames later or when asked for statistics, a
    /// snapshot or to go away: every recorded frame must be submitted. Nil for other targets, and before
    /// the first recorded frame.
    public var frameCompletion: (semaphore: OpaquePointer, value: UInt64)? { renderer.completionSignal }

    /// What the renderer's device and target offer (`BackendCapabilities`): what a render server built
    /// for it uses (benchmarks build frames apart from the renderer with these).
    package var capabilities: BackendCapabilities { renderer.capabilities }

    /// Debug views and switches (`DebugOptions`), from the next `render()` on. Starts from `LK_DEBUG`.
    public var debugOptions: DebugOptions {
        get { producer.debugOptions }
        set { producer.debugOptions = newValue }
    }

    private var statistics = FrameStatistics()
    /// Whether `statistics` still lacks the GPU's results for the last frame.
    private var awaitingGPUResults = false
    /// Prints statistics each second when `LK_STATS` asks.
    private let statisticsReporter = StatisticsReporter.fromEnvironment()

    /// Records commits and frames (`LK_TRACE`, or the recorder a tool passes); nil stops tracing, after
    /// recording the last frame into the recorder it had and writing that.
    package var trace: TraceRecorder? {
        didSet {
            guard trace !== oldValue else { return }
            recordUntracedFrame(into: oldValue)
            oldValue?.write()
        }
    }
    /// When the frame being begun started (`beginFrame`), for the trace.
    private var frameBegan: UInt64?
    /// The last rendered frame's timeline while its statistics wait for the GPU (recorded at the next
    /// `render()`, as `LK_STATS` reports).
    private var untracedFrame: FrameTimeline?

    private var context: VulkanContext
    private var renderer: HeadlessRenderer
    private var producer: FrameProducer
    private var frameTime: CFTimeInterval?
    /// Commits to this renderer's tree (it shows `layer`).
    private let inbox: CommitInbox

    /// Creates a renderer for a `width`×`height`-pixel target at `scale` pixels per point.
    ///
    /// - Throws: `VulkanError` when there is no Vulkan driver or usable device (the message names the
    ///   Debian package to install), or the device cannot create the target.
    public convenience init(width: Int, height: Int, scale: CGFloat = 1) throws {
        try self.init(width: width, height: height, scale: scale, trace: TraceRecorder.fromEnvironment())
    }

    /// A renderer tracing into `trace` (nil: none), whatever `LK_TRACE` says.
    package convenience init(width: Int, height: Int, scale: CGFloat = 1, trace: TraceRecorder?) throws {
        guard width > 0, height > 0, scale > 0, scale.isFinite else {
            throw VulkanError.unsupportedTarget("CARenderer needs a positive pixel size and scale, got \(width)x\(height) at scale \(scale)")
        }
        let context = try VulkanContext(applicationName: "LayerKit CARenderer")
        try self.init(context: context, renderer: try HeadlessRenderer(context: context, width: width, height: height),
                      width: width, height: height, scale: scale, trace: trace)
    }

    /// Creates a renderer drawing into the app's Vulkan image on the app's device (`VulkanTarget`), at
    /// `scale` pixels per point. Nothing is read back unless `snapshot()` is asked for (`readsBack` starts
    /// false). Everything LayerKit makes on the app's device is released with the renderer.
    ///
    /// - Throws: `VulkanError` when the target's size or format cannot be drawn.
    public convenience init(vulkanTarget target: VulkanTarget, scale: CGFloat = 1) throws {
        guard scale > 0, scale.isFinite else { throw VulkanError.unsupportedTarget("CARenderer needs a positive scale, got \(scale)") }
        let context = VulkanContext(borrowing: target)
        try self.init(context: context, renderer: try HeadlessRenderer(context: context, appTarget: target), width: target.width,
                      height: target.height, scale: scale, trace: TraceRecorder.fromEnvironment())
        readsBack = false
        vulkanTarget = target
    }

    /// The app's target (nil: LayerKit's own image).
    public private(set) var vulkanTarget: VulkanTarget?

    /// Draws into another target of the app's from the next frame on: a resized or recreated swapchain's
    /// image, another render pass, or one on a new device after the app's was lost. The bounds follow the
    /// new size at the same scale.
    ///
    /// After a device loss (which LayerKit reports as `VK_ERROR_DEVICE_LOST` from the call that met it):
    /// make the new device, hand LayerKit a target on it here, then destroy the old device. Here LayerKit
    /// releases everything it made on the old device (its frames waited for, as far as a lost device
    /// lets them be) and makes it again on the new one from the committed layer tree, images uploaded
    /// again; nothing of the model is lost.
    ///
    /// - Throws: `VulkanError` when the target's size or format cannot be drawn; the old target stays.
    public func setVulkanTarget(_ target: VulkanTarget) throws {
        let newContext = vulkanTarget.map { $0.device == target.device && $0.instance == target.instance } == true
            ? context : VulkanContext(borrowing: target)
        let newRenderer = try HeadlessRenderer(context: newContext, appTarget: target)
        vulkanTarget = target
        pixelWidth = target.width
        pixelHeight = target.height
        bounds = CGRect(x: 0, y: 0, width: CGFloat(target.width) / scale, height: CGFloat(target.height) / scale)
        producer.builder.targetWidth = target.width
        producer.builder.targetHeight = target.height
        adopt(newRenderer, on: newContext)
    }

    /// Draws with `newRenderer` on `newContext` from the next frame on: the last frame's graph and GPU
    /// results belong to the old backend, and the producer forgets what the old device held.
    private func adopt(_ newRenderer: HeadlessRenderer, on newContext: VulkanContext) {
        lastGraph = nil
        preparedFrame = nil
        renderer = newRenderer
        context = newContext
        producer.deviceReplaced(capabilities: renderer.capabilities)
        awaitingGPUResults = false
    }

    private init(context: VulkanContext, renderer: HeadlessRenderer, width: Int, height: Int, scale: CGFloat, trace: TraceRecorder?) throws {
        self.trace = trace
        inbox = CommitInbox(trace: trace)
        guard width > 0, height > 0 else {
            throw VulkanError.unsupportedTarget("CARenderer needs a positive pixel size, got \(width)x\(height)")
        }
        self.context = context
        self.renderer = renderer
        pixelWidth = width
        pixelHeight = height
        self.scale = scale
        bounds = CGRect(x: 0, y: 0, width: CGFloat(width) / scale, height: CGFloat(height) / scale)
        producer = FrameProducer(builder: RenderGraphBuilder(targetWidth: width, targetHeight: height, viewport: bounds, scale: scale),
                                 capabilities: renderer.capabilities)
        _ = inbox.show(nil)  // no tree yet: no commit concerns it
    }

    /// Begins a frame at `t` (seconds, `CACurrentMediaTime()`'s clock): commits the implicit transaction
    /// and applies what was committed since the last frame. Animations are evaluated at `t`.
    public func beginFrame(atTime t: CFTimeInterval) {
        if trace != nil { frameBegan = StageClock.now() }
        publishViewport()
        LayerDisplay.redrawAnimatingLayers(at: t)
        CATransaction.flush()
        layer?.isShownRoot = true
        for packet in inbox.take() { producer.apply(packet) }
        frameTime = t
    }

    deinit {
        publishedViewports?.remove(self)
        recordUntracedFrame(into: trace)
        trace?.write()
    }

    /// Records the last rendered frame into `recorder`, waiting for the GPU's results.
    private func recordUntracedFrame(into recorder: TraceRecorder?) {
        guard let recorder, let timeline = untracedFrame else { return }
        untracedFrame = nil
        recorder.recordFrame(lastFrameStatistics, timeline: timeline)
    }

    /// Tells the model what this renderer shows (tiled layers draw only the tiles inside it).
    private func publishViewport() {
        publishedViewports = HostViewports.publish(HostViewports.Viewport(rect: bounds, scale: scale), root: layer, for: self,
                                                   leaving: publishedViewports)
    }

    /// The viewport table of the root this renderer last published to (left when it goes away).
    private var publishedViewports: HostViewports?

    /// Renders the frame begun by `beginFrame(atTime:)`.
    ///
    /// A frame that fails leaves the previous frame's image in place, is logged, and reaches `onError`.
    /// When the device is lost, the renderer makes a new one — pipelines, textures and caches made again,
    /// every layer's content uploaded again from the committed tree, so nothing of the model is lost — and
    /// renders the frame again on it (`CARenderer.Failure.deviceLost`).
    public func render() {
        do {
            try renderFrame()
        } catch let error as VulkanError where error.isDeviceLost {
            context.logger.error("CARenderer.render: \(error); making a new device")
            let recovered = recoverFromDeviceLoss()
            onError?(Failure.deviceLost(recovered: recovered, detail: error.description))
            guard recovered else { return }
            do {
                try renderFrame()
            } catch {
                context.logger.error("CARenderer.render failed after recovering from a device loss: \(error)")
                onError?(Failure.frameFailed(detail: "\(error)"))
            }
        } catch {
            context.logger.error("CARenderer.render failed: \(error)")
            onError?(Failure.frameFailed(detail: "\(error)"))
        }
    }

    /// Records the frame begun by `beginFrame(atTime:)` into the app's command buffer instead of submitting
    /// one of LayerKit's: its uploads, offscreen passes, its render pass over the target image, the move
    /// to the target's `finalLayout` and, with `readsBack`, the copy for `snapshot()` — all after the app's
    /// own commands in that buffer, which order them (the target's semaphores are not used). The HUD then
    /// costs the game no submission and no command buffer of LayerKit's.
    ///
    /// `commandBuffer` is the app's `VkCommandBuffer`, begun, outside a render pass, for the target's queue
    /// family. The app submits it to the target's queue before the next frame (or `snapshot()`); LayerKit
    /// keeps each frame's resources until the GPU has finished it, which it learns from a fence it signals
    /// after the app's submission.
    ///
    /// - Throws: `VulkanError.unsupportedTarget` for a renderer on LayerKit's own device; any failure to
    ///   record (the buffer must then not be submitted). A lost device shows in the app's submit.
    public func render(recordingInto commandBuffer: OpaquePointer) throws {
        guard let vulkanTarget else {
            throw VulkanError.unsupportedTarget("render(recordingInto:) records into an app's command buffer: create the renderer with init(vulkanTarget:)")
        }
        guard vulkanTarget.renderPass == nil else {
            throw VulkanError.unsupportedTarget("a renderer drawing inside the app's render pass records with prepareRender(recordingInto:) and render(inRenderPassOf:)")
        }
        try renderFrame(recordingInto: commandBuffer)
    }

    /// Why a frame was not rendered as asked (`onError`).
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// The device was lost. With `recovered`, the renderer runs on a new device and rendered the frame
        /// there; without, no device could be made and frames stay as they were.
        case deviceLost(recovered: Bool, detail: String)
        /// The frame failed otherwise (out of device memory beyond what degrading could absorb, …); the
        /// previous frame's image stays.
        case frameFailed(detail: String)

        public var description: String {
            switch self {
            case let .deviceLost(recovered, detail): "device lost (\(detail)); \(recovered ? "recovered on a new device" : "no new device could be made")"
            case let .frameFailed(detail): "frame failed: \(detail)"
            }
        }
    }

    /// Called on the thread that called `render()` with each frame that failed (`Failure`).
    public var onError: ((Failure) -> Void)?

    /// Device losses this renderer recovered from.
    public private(set) var deviceLossesRecovered = 0

    /// Makes a new device and backend after a device loss; the frame producer forgets what the old
    /// device held and draws everything again from its render tree. False when no device could be made.
    private func recoverFromDeviceLoss() -> Bool {
        // The app's device is the app's to make again (`setVulkanTarget`).
        guard vulkanTarget == nil else { return false }
        do {
            let newContext = try VulkanContext(applicationName: "LayerKit CARenderer")
            adopt(try HeadlessRenderer(context: newContext, width: pixelWidth, height: pixelHeight), on: newContext)
        } catch {
            context.logger.error("CARenderer: no new device after a device loss: \(error)")
            return false
        }
        deviceLossesRecovered += 1
        return true
    }

    /// Test hook: the next frame's submit reports `VK_ERROR_DEVICE_LOST`, as a lost device would.
    package func loseDeviceAtNextSubmit() {
        renderer.loseDeviceAtNextSubmit()
    }

    /// Ends the frame and delivers animation callbacks (delegates, completion blocks) on this thread.
    public func endFrame() {
        frameTime = nil
        AnimationCallbacks.shared.deliverPending()
    }

    /// When the next frame needs rendering: now while something animates or changes are waiting,
    /// `.infinity` when nothing would change. Only this renderer's tree counts: other hosts' commits,
    /// changes and drawings do not.
    public func nextFrameTime() -> CFTimeInterval {
        for packet in inbox.take() { producer.apply(packet) }
        let waiting = producer.needsFrame || inbox.concerns(anyOf: LayerChangeLog.current.pendingLayers)
            || inbox.concerns(anyOf: LayerDisplay.layersWithPendingWork)
        return waiting ? CACurrentMediaTime() : .infinity
    }

    /// The last rendered frame, read back: premultiplied RGBA8, `pixelWidth`×`pixelHeight`.
    public func snapshot() throws -> CGImage {
        try renderer.readback()
    }

    /// Validation-layer messages seen so far (with `LK_VALIDATION=1`).
    package var validationMessages: [String] { context.validationMessages }

    /// Whether the device is a CPU implementation (lavapipe), whose fragment counter counts before the
    /// depth test (`FrameStatistics.fragmentsShaded`).
    package var rendersOnCPU: Bool { context.rendersOnCPU }

    /// Whether the shaders read the instance buffer through its texel view (`VulkanDevice.readsInstancesAsTexels`);
    /// tests turn it off before the first frame to draw through the storage buffer.
    var readsInstancesAsTexels: Bool {
        get { context.device.readsInstancesAsTexels }
        set { context.device.readsInstancesAsTexels = newValue }
    }

    /// Offscreen surfaces the renderer's pool has created, and how many it holds now.
    package var surfacePoolStatistics: (created: Int, resident: Int) { renderer.surfacePoolStatistics }

    /// Stencil images of offscreen surfaces the renderer has created, and how many it holds now.
    package var surfaceStencilStatistics: (created: Int, resident: Int) { renderer.surfaceStencilStatistics }

    /// Bytes per pixel of offscreen surfaces' stencil images, as offscreen memory counts them.
    package var surfaceStencilBytesPerPixel: Int { renderer.surfaceStencilBytesPerPixel }

    /// Rasterization cache entries: the render side's count and bytes, and the images the GPU side holds.
    package var rasterizationCacheStatistics: (entries: Int, bytes: Int, images: Int) {
        let cache = producer.builder.rasterizationCache
        return (cache.entries.count, cache.bytes, renderer.rasterizedImageCount)
    }

    /// Whether group-opacity surfaces whose subtree stays the same are cached across frames (on by
    /// default; tests of the per-frame surface path turn it off).
    package var cachesGroups: Bool {
        get { producer.builder.cachesGroups }
        set { producer.builder.cachesGroups = newValue }
    }

    /// Test hook: from now on, device memory allocations beyond `extraBytes` more than are in use now
    /// fail as `VK_ERROR_OUT_OF_DEVICE_MEMORY` would; nil lifts the limit.
    package func limitDeviceMemory(toExtraBytes extraBytes: UInt64?) {
        renderer.injectDeviceMemoryLimit(extraBytes)
    }

    /// Atlas placements the backend remembers uploading (growth checks: bounded by what the atlas holds).
    package var atlasUploadsRemembered: Int { renderer.atlasUploadsRemembered }

    /// Queue submissions the current renderer has made (none for frames recorded into an app's buffers
    /// on a target with `timelineSemaphores`).
    package var queueSubmissions: Int { renderer.queueSubmissions }

    /// Device memory blocks the renderer's context holds (growth checks).
    package var memoryBlockCount: Int { renderer.memoryBlockCount }

    /// The largest image side drawn as one texture; larger images are drawn in tiles (`ImageTiling`).
    /// The device's `maxImageDimension2D` unless a test lowers it.
    package var maxTextureSize: Int {
        get { producer.compiler.maxTextureSize }
        set { producer.compiler.maxTextureSize = newValue }
    }

    /// Whether groups over opaque, hard-edged children are drawn straight into the frame and resolved by
    /// the depth test instead of through a surface (on by default; tests of the surface path turn it off).
    package var resolvesGroupsByDepth: Bool {
        get { producer.resolvesGroupsByDepth }
        set { producer.resolvesGroupsByDepth = newValue }
    }

    /// Whether opaque draws of a depth-ordered frame are shrunk to the part nearer opaque draws leave in
    /// view (`OcclusionTrimmer`; on by default on a CPU device, off on a GPU, whose early depth test rejects
    /// hidden fragments in hardware). Tests compare frames drawn with and without it.
    package var trimsOccludedParts: Bool {
        get { producer.compiler.trimmer != nil }
        set { producer.compiler.trimmer = newValue ? OcclusionTrimmer() : nil }
    }

    /// Whether frames patch the last one where they can (on by default; `FrameProducer.retainsFrames`).
    /// Tests compare patched frames with a renderer that builds every frame in full.
    package var retainsFrames: Bool {
        get { producer.retainsFrames }
        set { producer.retainsFrames = newValue }
    }

    /// The render graph of the last `render()`, printable (`description`).
    package private(set) var lastGraph: RenderGraph?

    private func renderFrame(recordingInto appBuffer: OpaquePointer? = nil) throws {
        let (graph, produceStarted) = produceGraph()
        let executeStarted = StageClock.now()
        let counters: FrameCounters
        do {
            counters = try renderer.render(graph, readback: readsBack, recordingInto: appBuffer)
        } catch {
            producer.forgetBitmaps(drawnBy: graph)
            throw error
        }
        finishFrame(graph, counters: counters, produceStarted: produceStarted, executeStarted: executeStarted)
    }

    /// The graph of the frame begun by `beginFrame(atTime:)`, and when producing it started. Reports the
    /// previous frame to `LK_STATS` first.
    private func produceGraph() -> (RenderGraph, UInt64) {
        producer.builder.viewport = bounds
        producer.clearColor = clearColor.premultipliedRGBA
        // A frame drawn over the app's kept pixels (its image, or inside its render pass) never turns its
        // first draw into the clear it skips.
        producer.compiler.promotesClears = vulkanTarget.map { $0.initialLayout == nil && $0.renderPass == nil } ?? true
        // What background filters see under LayerKit's draws: the app's kept image is copied; inside the
        // app's render pass its pixels of that pass are not drawn yet when the offscreen passes run.
        producer.builder.targetContents = switch (vulkanTarget?.renderPass, vulkanTarget?.initialLayout) {
        case (.some, _): .appPixels(copyable: false)
        case (nil, .some): .appPixels(copyable: true)
        case (nil, nil): .cleared
        }
        // Let go of the last frame's graph first: an image only it still holds (a backing store just
        // partly redrawn) is then gone, so the new image may take over its atlas rect (`ImageAtlas`); and
        // the producer patches its last graph in place only when nothing else holds it (`RetainedFrame`).
        lastGraph = nil
        recordUntracedFrame(into: trace)
        let produceStarted = StageClock.now()
        let (graph, events) = producer.produceFrame(at: frameTime ?? CACurrentMediaTime())
        AnimationCallbacks.shared.post(events)
        lastGraph = graph
        if let layer = graph.backdropsWithoutTargetPixels.first, !saidBackdropsMissAppPixels {
            saidBackdropsMissAppPixels = true
            LayerKitDiagnostics.emit(.backdropWithoutAppPixels(layer: "layer \(layer.rawValue)"))
        }
        // The previous frame is complete by now or soon: report it, GPU results included.
        if let statisticsReporter, hasUnreportedFrame {
            statisticsReporter.record(lastFrameStatistics, graph: unreportedGraph)
            unreportedGraph = nil
            hasUnreportedFrame = false
        }
        return (graph, produceStarted)
    }

    /// Books a recorded frame: its statistics, the rasterizations the backend lost, its trace timeline.
    private func finishFrame(_ graph: RenderGraph, counters: FrameCounters, produceStarted: UInt64, executeStarted: UInt64) {
        producer.builder.rasterizationCache.forget(renderer.takeLostRasterizations())
        statistics = graph.statistics.adding(counters)
        awaitingGPUResults = true
        if trace != nil {
            untracedFrame = FrameTimeline(began: frameBegan ?? produceStarted, produceStarted: produceStarted,
                                          executeStarted: executeStarted, executeEnded: StageClock.now())
            frameBegan = nil
        }
        if statisticsReporter != nil { unreportedGraph = statisticsReporter?.includesGraph == true ? graph : nil }
        hasUnreportedFrame = statisticsReporter != nil
    }

    /// Whether `LayerKitDiagnostic.backdropWithoutAppPixels` was emitted (once per renderer: every frame
    /// drawn inside the app's pass would repeat it).
    private var saidBackdropsMissAppPixels = false

    /// The frame `prepareRender(recordingInto:)` recorded up to the app's render pass: its graph and when
    /// producing and recording it started.
    private var preparedFrame: (graph: RenderGraph, produceStarted: UInt64, executeStarted: UInt64)?

    /// For a target that is the app's render pass (`VulkanTarget.renderPass`): records what the frame begun
    /// by `beginFrame(atTime:)` needs before the app's render pass into the app's `commandBuffer` (begun,
    /// outside any render pass, for the target's queue family) — its uploads and its offscreen passes
    /// (filters, masks, group opacity over overlapping layers, shadows, rasterized layers). The app then
    /// begins its render pass and calls `render(inRenderPassOf:)` there.
    ///
    ///     renderer.beginFrame(atTime: t)
    ///     try renderer.prepareRender(recordingInto: commandBuffer)   // outside the app's pass
    ///     vkCmdBeginRenderPass(commandBuffer, &gamePass, VK_SUBPASS_CONTENTS_INLINE)
    ///     drawTheGame(commandBuffer)
    ///     try renderer.render(inRenderPassOf: commandBuffer)          // inside it: the HUD's draws
    ///     vkCmdEndRenderPass(commandBuffer)
    ///     renderer.endFrame()
    ///
    /// A frame prepared and never drawn is ended at the next `prepareRender` (its uploads and offscreen
    /// passes run; nothing shows).
    ///
    /// - Throws: `VulkanError.unsupportedTarget` for a renderer whose target is not a render pass; any
    ///   failure to record (the buffer must then not be submitted).
    public func prepareRender(recordingInto commandBuffer: OpaquePointer) throws {
        guard vulkanTarget?.renderPass != nil else {
            throw VulkanError.unsupportedTarget("prepareRender(recordingInto:) is for a renderer drawing inside an app's render pass: create it with a VulkanTarget naming one")
        }
        preparedFrame = nil
        let (graph, produceStarted) = produceGraph()
        let executeStarted = StageClock.now()
        do {
            try renderer.prepare(graph, recordingInto: commandBuffer)
        } catch {
            producer.forgetBitmaps(drawnBy: graph)
            throw error
        }
        preparedFrame = (graph, produceStarted, executeStarted)
    }

    /// Records the draws of the frame `prepareRender(recordingInto:)` prepared into the app's
    /// `commandBuffer`, inside the app's render pass, in the subpass the target names: LayerKit begins no
    /// render pass of its own for it. `commandBuffer` may be the primary buffer in which the app began
    /// the pass (`VK_SUBPASS_CONTENTS_INLINE`), or a secondary buffer the pass executes, begun with
    /// `VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT` and inheriting that pass and subpass (LayerKit sets
    /// every dynamic state it draws with; none is inherited). The frame is drawn over what the app drew before in a
    /// `width`×`height` area from the framebuffer's top-left corner, premultiplied source-over
    /// (`clearColor` is not drawn).
    ///
    /// What it leaves behind in the app's pass: its own viewport and scissor (the frame's area), its
    /// pipeline, its descriptor sets (sets 0 and 1 of its pipeline layout), its index buffer (the quads'
    /// corner indices, 32-bit; no vertex buffers), its vertex-stage push constants (8 bytes at offset 0:
    /// the area's pixels per clip-space unit) and, where it uses the stencil, its stencil reference; the app
    /// sets its own again before drawing more in the pass. Where LayerKit uses the depth-stencil attachment
    /// (`VulkanRenderPass.overwritesDepthStencil`) it first clears it over the frame's area.
    ///
    /// The app submits the buffer(s) to the target's queue before the next frame (or `lastFrameStatistics`);
    /// LayerKit keeps the frame's resources until the GPU has finished it, which it learns from a fence it
    /// signals after the app's submission. `lastFrameStatistics.passes` counts the render passes LayerKit
    /// began: its offscreen passes only.
    ///
    /// - Throws: `VulkanError.nothingRendered` when no frame was prepared since the last one drawn; any
    ///   failure to record (the buffer must then not be submitted).
    public func render(inRenderPassOf commandBuffer: OpaquePointer) throws {
        guard let prepared = preparedFrame else {
            throw VulkanError.nothingRendered
        }
        preparedFrame = nil
        let counters: FrameCounters
        do {
            counters = try renderer.drawPreparedFrame(inAppPassOf: commandBuffer)
        } catch {
            producer.forgetBitmaps(drawnBy: prepared.graph)
            throw error
        }
        finishFrame(prepared.graph, counters: counters, produceStarted: prepared.produceStarted, executeStarted: prepared.executeStarted)
    }

    /// The last frame's graph while `LK_STATS=graph` has not printed the frame yet (a plain `LK_STATS`
    /// prints counters only, so it holds no graph: a graph held here is shared with the producer's
    /// retained frame, whose next patch then copies its draw lists instead of editing them in place).
    private var unreportedGraph: RenderGraph?
    /// Whether `LK_STATS` has not reported the last frame yet.
    private var hasUnreportedFrame = false
}
