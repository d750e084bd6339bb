import CVulkan
import LayerKitRender

/// The frame loop every frame target shares — the headless image (`HeadlessRenderer`) and a window's
/// swapchain (`WindowExecutor`): frames in flight, uploads, and recording a graph through one
/// `GraphExecutor`, so both draw with the same depth-stencil attachment, atlas, batching, offscreen
/// passes and statistics.
///
/// Input: a graph per frame and a target (`FramebufferTarget`, a framebuffer of the depth render pass of
/// `LayerPipeline` for the target's color format). Output: submitted command buffers and each frame's
/// `FrameStatistics` (the graph's, plus recording's counters, plus — once the GPU has finished it —
/// fragments shaded and GPU time: `lastCompletedStatistics`).
/// Life cycle of a frame: `beginFrame()` waits for the slot's previous submission (two frames in
/// flight), recycles its resources, completes that submission's statistics with what the GPU measured,
/// and begins the command buffer; the host then records (`record`) and adds its own commands (readback,
/// present transition); `submit` ends and submits it with the host's semaphores, or `abandon` — when
/// anything failed — submits nothing of it (an empty submission still consumes a wait semaphore and
/// signals the fence, so the slot can be reused) and undoes its uploads.
/// A frame drawn inside an app's render pass (`init(context:appPass:)`) is recorded in two calls into the
/// app's command buffers: `prepare` outside the app's pass (uploads, instance data, offscreen passes),
/// `recordFramePass` inside it (the draws), then `finishRecordedFrame`.
/// Cost per frame: one fence wait (none while the GPU keeps up) plus `GraphExecutor`'s.
/// Threading: the owner's thread, under its context's `access`.
final class FrameRecorder {
    static let framesInFlight = 2
    /// Bytes of the upload ring; a larger image goes through a one-off staging buffer.
    static let stagingCapacity: UInt64 = 16 << 20

    let context: VulkanContext
    private let frames: [FrameContext]
    private let staging: StagingRing
    private let samplers: SamplerCache
    private let instanceDescriptors: DescriptorAllocator
    private let textureDescriptors: DescriptorAllocator
    let uploader: ImageUploader
    /// One executor per color format (a swapchain's format differs from offscreen images').
    private var executors: [VkFormat.RawValue: GraphExecutor] = [:]
    /// The executor whose frame pass is drawn inside an app's render pass (its pipelines built against
    /// that pass); nil unless the recorder was made for one.
    private let appPassExecutor: GraphExecutor?
    /// The subpass frames are drawn in: LayerKit's own frame pass, or the app's (`init(context:appPass:)`).
    private let frameSubpass: FrameSubpass
    /// Every executor, for what concerns them all (abandoned frames, lost rasterizations, statistics).
    private var allExecutors: [GraphExecutor] { Array(executors.values) + (appPassExecutor.map { [$0] } ?? []) }
    private var serial: UInt64 = 0
    /// Statistics of each slot's last submission, until the GPU's results are added.
    private var pendingStatistics: [FrameStatistics?]
    /// The most recent measured frame whose GPU results are in (`gpuMeasurementInterval`).
    private(set) var lastCompletedStatistics: FrameStatistics?
    /// The GPU measures one frame in this many (fragments shaded, GPU time), the first included; the
    /// others record no query and their results are never read. 1 (every frame) unless the owner sets
    /// more: a window on a CPU device does (`WindowExecutor`), where reading a frame's results waits
    /// for every frame in flight.
    var gpuMeasurementInterval = 1
    /// Test hook: the next `submit` reports `VK_ERROR_DEVICE_LOST` instead of submitting (the frame is
    /// abandoned as a failed submit's is), as a lost device would; for frames recorded into an app's
    /// buffer, the next submission signalling a frame's fence (`signalRecordedFrame`) reports it.
    var losesDeviceAtNextSubmit = false
    /// The timeline an app's submission of a frame recorded here signals (`useCompletionTimeline()`): such
    /// a frame costs no submission of LayerKit's. Nil: LayerKit signals the frame's fence with an empty
    /// submission after the app's.
    private var completionTimeline: CompletionTimeline?
    /// What the app's submission of the frame recorded last into its buffer signals, with a timeline.
    private(set) var lastCompletionSignal: (semaphore: VkSemaphore, value: UInt64)?
    /// Queue submissions made here (each `vkQueueSubmit`), for tests and the embedding figures.
    private(set) var submissions = 0

    /// - Parameter appPass: the layer pipelines built against an app's render pass (`LayerPipeline`'s
    ///   `init(device:cache:appRenderPass:subpass:)`), for frames drawn inside it; nil: none.
    init(context: VulkanContext, appPass: LayerPipeline? = nil) throws {
        self.context = context
        let device = context.device
        let pipeline = try context.layerPipeline()
        frames = try (0..<Self.framesInFlight).map { try FrameContext(device: device, index: $0) }
        staging = try StagingRing(device: device, allocator: context.allocator, capacity: Self.stagingCapacity)
        samplers = SamplerCache(device: device)
        instanceDescriptors = DescriptorAllocator(
            device: device, layout: pipeline.instanceSetLayout, types: LayerPipeline.instanceSetTypes, name: "instance sets")
        textureDescriptors = DescriptorAllocator(
            device: device, layout: pipeline.textureSetLayout, types: [VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER], name: "texture sets")
        uploader = ImageUploader(device: device, allocator: context.allocator, staging: staging, samplers: samplers, descriptors: textureDescriptors)
        pendingStatistics = Array(repeating: nil, count: Self.framesInFlight)
        frameSubpass = appPass?.subpass ?? .own
        let (uploader, instanceDescriptors) = (self.uploader, self.instanceDescriptors)
        appPassExecutor = appPass.map {
            GraphExecutor(device: device, allocator: context.allocator, pipeline: $0, uploader: uploader, instanceDescriptors: instanceDescriptors)
        }
    }

    /// What frames recorded here offer the graphs built for them: a depth-stencil frame target, surfaces
    /// with a stencil where a pass needs one, the atlas, the device's texture and surface limits, and
    /// whether it rasterizes on the CPU.
    /// Inside an app's render pass, depth and stencil only where its subpass has them and LayerKit may use them.
    var capabilities: BackendCapabilities {
        let limits = context.device.limits
        return BackendCapabilities(
            frameDepth: frameSubpass.usesDepth, frameStencil: frameSubpass.usesStencil, surfaceStencil: true, imageAtlas: true, maxTextureSize: Int(limits.maxImageDimension2D),
            maxSurfaceSize: Int(min(limits.maxImageDimension2D, limits.maxFramebufferWidth, limits.maxFramebufferHeight)),
            rasterizerPaysForHiddenFragments: context.rendersOnCPU)
    }

    /// The frame target's render pass for color `format`: color plus depth-stencil.
    func renderPass(format: VkFormat = GPUImage.format) throws -> VkRenderPass {
        try context.layerPipeline(format: format).renderPass
    }

    /// The frame last recorded into an app's command buffer, whose submission is the app's: its fence is
    /// not signalled yet (`signalRecordedFrame`).
    private var recordedFrame: FrameContext?

    /// The next frame slot, its previous submission finished and recycled, its command buffer begun —
    /// or, with `appBuffer` (an app's, begun, outside a render pass), recording into that buffer, which
    /// the app submits (`finishRecordedFrame`).
    func beginFrame(recordingInto appBuffer: VkCommandBuffer? = nil) throws -> FrameContext {
        try signalRecordedFrame()
        serial += 1
        let frame = frames[Int(serial % UInt64(frames.count))]
        try frame.beginReuse(recordingInto: appBuffer)
        if var finished = pendingStatistics[frame.index] {
            if frame.measuresGPU {
                let results = gpuResults(of: frame)
                finished.fragmentsShaded = results.fragments
                finished.gpuTime = results.seconds
                lastCompletedStatistics = finished
            }
            pendingStatistics[frame.index] = nil
        }
        frame.measuresGPU = (serial - 1) % UInt64(max(gpuMeasurementInterval, 1)) == 0
        staging.frameCompleted(serial: frame.serial)
        uploader.beginFrame()
        if appBuffer != nil { return frame }
        var beginInfo = VkCommandBufferBeginInfo()
        beginInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
        beginInfo.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT.rawValue
        do {
            try check(vkBeginCommandBuffer(frame.commandBuffer, &beginInfo), "vkBeginCommandBuffer(frame \(serial))")
        } catch {
            abandon(frame)
            throw error
        }
        return frame
    }

    /// Records `graph` into `target` (a framebuffer of `renderPass(format:)`); returns what recording
    /// did and the frame's statistics so far (the graph's plus recording's).
    func record(_ graph: RenderGraph, frame: FrameContext, into target: FramebufferTarget,
                format: VkFormat = GPUImage.format) throws -> (counters: FrameCounters, statistics: FrameStatistics) {
        let counters = try executor(for: format).record(graph, frame: frame, into: target)
        let statistics = graph.statistics.adding(counters)
        pendingStatistics[frame.index] = statistics
        return (counters, statistics)
    }

    /// Records the part of `graph` that goes before the app's render pass into `frame`'s command buffer
    /// (the app's, outside any render pass): uploads, instance data and offscreen passes. The frame pass
    /// follows with `recordFramePass`.
    func prepare(_ graph: RenderGraph, frame: FrameContext, width: Int, height: Int) throws -> GraphExecutor.FrameRecording {
        guard let appPassExecutor else { preconditionFailure("a frame is prepared for an app's render pass only") }
        return try appPassExecutor.prepareFrame(graph, frame: frame, width: width, height: height)
    }

    /// Records the draws of a prepared frame into `commandBuffer`, inside the app's render pass; returns
    /// what recording did and the frame's statistics so far.
    func recordFramePass(_ recording: inout GraphExecutor.FrameRecording, graph: RenderGraph,
                         inAppPassOf commandBuffer: VkCommandBuffer) throws -> (counters: FrameCounters, statistics: FrameStatistics) {
        guard let appPassExecutor else { preconditionFailure("a frame is drawn in an app's render pass only with its pipelines") }
        let counters = try appPassExecutor.recordFramePass(&recording, inAppPassOf: commandBuffer)
        let statistics = graph.statistics.adding(counters)
        pendingStatistics[recording.frame.index] = statistics
        return (counters, statistics)
    }

    /// Ends the command buffer and submits it, waiting on `wait` (at its stage) and signalling `signal`
    /// and the frame's fence.
    func submit(_ frame: FrameContext, wait: (semaphore: VkSemaphore, stage: VkPipelineStageFlagBits)? = nil,
                signal: VkSemaphore? = nil) throws {
        do {
            try check(vkEndCommandBuffer(frame.commandBuffer), "vkEndCommandBuffer(frame \(serial))")
            var waitSemaphore = wait?.semaphore
            var stage = wait?.stage.rawValue ?? 0
            var signalSemaphore = signal
            var commandBuffer: VkCommandBuffer? = frame.commandBuffer
            try withUnsafePointer(to: &waitSemaphore) { waitPointer in
                try withUnsafePointer(to: &stage) { stagePointer in
                    try withUnsafePointer(to: &signalSemaphore) { signalPointer in
                        try withUnsafePointer(to: &commandBuffer) { buffers in
                            var info = VkSubmitInfo()
                            info.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO
                            info.waitSemaphoreCount = wait == nil ? 0 : 1
                            info.pWaitSemaphores = wait == nil ? nil : waitPointer
                            info.pWaitDstStageMask = wait == nil ? nil : stagePointer
                            info.commandBufferCount = 1
                            info.pCommandBuffers = buffers
                            info.signalSemaphoreCount = signal == nil ? 0 : 1
                            info.pSignalSemaphores = signal == nil ? nil : signalPointer
                            if losesDeviceAtNextSubmit {
                                losesDeviceAtNextSubmit = false
                                throw VulkanError.call("vkQueueSubmit(frame \(serial), device loss simulated)", result: VK_ERROR_DEVICE_LOST.rawValue)
                            }
                            submissions += 1
                            try check(vkQueueSubmit(context.device.queue, 1, &info, frame.fence), "vkQueueSubmit(frame \(serial))")
                        }
                    }
                }
            }
        } catch {
            abandon(frame, consuming: wait?.semaphore)
            throw error
        }
        staging.endFrame(serial: serial)
        frame.serial = serial
    }

    /// Has the app signal a timeline when it submits frames recorded into its buffers, instead of LayerKit
    /// signalling their fences (the app's device has timeline semaphores enabled).
    func useCompletionTimeline() throws {
        if completionTimeline == nil { completionTimeline = try CompletionTimeline(device: context.device) }
    }

    /// Ends a frame recorded into an app's command buffer: the app submits it. With a completion timeline,
    /// the app's submission signals the frame's serial on it (`lastCompletionSignal`). Otherwise the frame's
    /// fence is signalled by an empty submission at the start of the next frame (or before waiting for
    /// it): a fence signal waits for everything submitted earlier on the queue, the app's buffer by then
    /// included.
    func finishRecordedFrame(_ frame: FrameContext) {
        if let completionTimeline {
            frame.completion = (completionTimeline, serial)
            lastCompletionSignal = (completionTimeline.semaphore, serial)
        } else {
            recordedFrame = frame
        }
        staging.endFrame(serial: serial)
        frame.serial = serial
    }

    /// Signals the fence of the frame last recorded into an app's command buffer, once the app has
    /// submitted that buffer (the contract of `CARenderer.render(recordingInto:)`).
    /// With `losesDeviceAtNextSubmit`, this submission reports `VK_ERROR_DEVICE_LOST` after it was made
    /// (so the frame's fence still signals, as a lost device's waits end).
    func signalRecordedFrame() throws {
        guard let frame = recordedFrame else { return }
        recordedFrame = nil
        submissions += 1
        try check(vkQueueSubmit(context.device.queue, 0, nil, frame.fence), "vkQueueSubmit(fence of recorded frame \(frame.serial))")
        if losesDeviceAtNextSubmit {
            losesDeviceAtNextSubmit = false
            throw VulkanError.call("vkQueueSubmit(fence of recorded frame \(frame.serial), device loss simulated)", result: VK_ERROR_DEVICE_LOST.rawValue)
        }
    }

    /// Gives up the frame begun last: nothing of it runs. Its uploads are forgotten, and an empty
    /// submission waits on `semaphore` (an acquire that must be consumed) and signals the fence.
    func abandon(_ frame: FrameContext, consuming semaphore: VkSemaphore? = nil) {
        for executor in allExecutors { executor.abandonFrame(frame) }
        uploader.abandonFrameUploads(frame: frame)
        pendingStatistics[frame.index] = nil
        submissions += 1
        if semaphore == nil {
            _ = vkQueueSubmit(context.device.queue, 0, nil, frame.fence)
        } else {
            var wait = semaphore
            var stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT.rawValue
            withUnsafePointer(to: &wait) { waitPointer in
                withUnsafePointer(to: &stage) { stagePointer in
                    var info = VkSubmitInfo()
                    info.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO
                    info.waitSemaphoreCount = 1
                    info.pWaitSemaphores = waitPointer
                    info.pWaitDstStageMask = stagePointer
                    _ = vkQueueSubmit(context.device.queue, 1, &info, frame.fence)
                }
            }
        }
        staging.endFrame(serial: serial)
        frame.serial = serial
    }

    /// What the GPU measured for the frame last recorded in `frame` (after its fence has signalled).
    func gpuResults(of frame: FrameContext) -> (fragments: Int?, seconds: Double?) {
        frame.queries?.results() ?? (nil, nil)
    }

    /// Waits until the GPU has finished `frame` (one recorded into an app's buffer: once the app has
    /// submitted it).
    func waitForCompletion(of frame: FrameContext) throws {
        if frame === recordedFrame { try signalRecordedFrame() }
        try frame.waitForCompletion()
    }

    /// Waits until the GPU has finished every submitted frame.
    func waitUntilIdle() throws {
        try signalRecordedFrame()
        for frame in frames { try frame.waitForCompletion() }
    }

    /// Rasterization cache entries whose images an executor lost since the last call.
    func takeLostRasterizations() -> [RasterizationEntryID] {
        allExecutors.flatMap { $0.takeLostRasterizations() }
    }

    /// Rasterization cache images held, over every executor.
    var rasterizedImageCount: Int { allExecutors.reduce(0) { $0 + $1.rasterizedImageCount } }
    /// Atlas placements the executors remember uploading (bounded by what the atlas holds).
    var atlasUploadsRemembered: Int { allExecutors.reduce(0) { $0 + $1.atlasUploadsRemembered } }

    /// The offscreen surface pools' counts, over every executor.
    var surfacePoolStatistics: SurfacePool.Statistics {
        allExecutors.reduce(into: SurfacePool.Statistics()) { total, executor in
            let statistics = executor.surfacePoolStatistics
            total.created += statistics.created
            total.destroyed += statistics.destroyed
            total.stencilsCreated += statistics.stencilsCreated
        }
    }

    /// Stencil images of offscreen surfaces alive now, over every executor.
    var residentSurfaceStencils: Int { allExecutors.reduce(0) { $0 + $1.residentSurfaceStencils } }

    private func executor(for format: VkFormat) throws -> GraphExecutor {
        if let existing = executors[format.rawValue] { return existing }
        let made = GraphExecutor(device: context.device, allocator: context.allocator, pipeline: try context.layerPipeline(format: format),
                                 uploader: uploader, instanceDescriptors: instanceDescriptors)
        executors[format.rawValue] = made
        return made
    }
}
