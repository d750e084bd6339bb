import CVulkan
import LayerKit
import LayerKitRender

/// Renders `RenderGraph`s into an offscreen `width`×`height` RGBA8 image and reads it back as a `CGImage`.
///
/// Input: graphs whose passes target `.frame(width:height:)` of this size (the frame pass may be
/// depth-ordered and clipped by stencil: the target has a depth-stencil attachment). Output: each
/// frame's `FrameCounters` (recorded through `FrameRecorder`, as a window's frames are); `readback()`
/// gives the last frame's pixels (premultiplied RGBA8, gamma-encoded as composited);
/// `lastFrameGPUResults()` what the GPU measured for the last frame.
/// Frames in flight: two. `render` waits only for the frame two submissions back, so the CPU records while
/// the GPU draws; `readback` waits for the last frame. Images are uploaded once per `CGImage` and kept
/// while the image lives; offscreen surfaces come from the executor's pool, reused across frames. Cost per frame: uploads of new images, 256 bytes per item, one draw per batch,
/// and a width × height × 4 byte copy when `readback` is requested.
///
/// Inside an app's render pass (`init(context:appRenderPass:subpass:width:height:)`) there is no image of
/// LayerKit's or the app's to name: each frame is recorded in two calls into the app's command buffers
/// (`prepare` outside the app's pass, `drawPreparedFrame` inside it) and cannot be read back.
/// Threading: one thread at a time, like its `VulkanContext` (checked).
package final class HeadlessRenderer: @unchecked Sendable {
    package static let framesInFlight = FrameRecorder.framesInFlight

    package let width: Int
    package let height: Int
    private let context: VulkanContext
    /// The image drawn into (LayerKit's or an app's); nil inside an app's render pass.
    private let target: HeadlessTarget?
    private let recorder: FrameRecorder
    private var lastFrame: FrameContext?

    /// - Throws: `VulkanError.unsupportedTarget` for a size the device cannot render, or a failed call.
    package init(context: VulkanContext, width: Int, height: Int) throws {
        (target, recorder) = try context.access.run {
            let recorder = try FrameRecorder(context: context)
            let target = try HeadlessTarget(device: context.device, allocator: context.allocator, renderPass: try recorder.renderPass(),
                                            width: width, height: height)
            return (target, recorder)
        }
        self.context = context
        self.width = width
        self.height = height
        appTarget = nil
        keepingPass = nil
    }

    /// A renderer drawing inside subpass `subpass` of an app's render pass `renderPass`, over a
    /// `width`×`height` area from the framebuffer's top-left corner, on `context` (the app's device).
    init(context: VulkanContext, appRenderPass renderPass: VkRenderPass, subpass: FrameSubpass, width: Int, height: Int) throws {
        let limits = context.device.limits
        guard width > 0, height > 0, width <= Int(limits.maxFramebufferWidth), height <= Int(limits.maxFramebufferHeight) else {
            throw VulkanError.unsupportedTarget("\(width)x\(height) is outside 1...\(limits.maxFramebufferWidth) pixels")
        }
        recorder = try context.access.run {
            let pipeline = try LayerPipeline(device: context.device, cache: context.pipelineCache, appRenderPass: renderPass, subpass: subpass)
            return try FrameRecorder(context: context, appPass: pipeline)
        }
        target = nil
        self.context = context
        self.width = width
        self.height = height
        appTarget = nil
        keepingPass = nil
    }

    /// A frame recorded up to the app's render pass (`prepare`), waiting for its draws inside it.
    private var preparedFrame: (recording: GraphExecutor.FrameRecording, graph: RenderGraph)?

    /// An app's target: where each frame leaves its image, and the semaphores its submit waits on and
    /// signals (`CARenderer.VulkanTarget`); nil for LayerKit's own image.
    private let appTarget: (finalLayout: VkImageLayout, wait: VkSemaphore?, signal: VkSemaphore?)?
    /// The frame render pass that draws over what the app's image holds (`CARenderer.VulkanTarget.initialLayout`),
    /// made and destroyed here; nil: the pipeline's, which clears.
    private let keepingPass: VkRenderPass?
    /// The app's image and the layout its kept pixels are in, which background filters' backdrops copy
    /// (`TargetPixelCopier`); nil when the frame clears its target.
    private var keptPixels: KeptTargetPixels? = nil

    /// A renderer drawing into an app's image (`CARenderer.VulkanTarget`) on `context`, which borrows the
    /// app's device.
    package init(context: VulkanContext, appImage: VkImage, view: VkImageView, format: VkFormat, width: Int, height: Int,
                 finalLayout: VkImageLayout, wait: VkSemaphore?, signal: VkSemaphore?, keepingFrom keptLayout: VkImageLayout? = nil) throws {
        (target, recorder, keepingPass) = try context.access.run {
            let recorder = try FrameRecorder(context: context)
            let target = try HeadlessTarget(device: context.device, allocator: context.allocator, renderPass: try recorder.renderPass(format: format),
                                            appImage: appImage, view: view, format: format, width: width, height: height)
            let keepingPass = try keptLayout.map {
                try LayerPipeline.makeRenderPass(device: context.device, format: format, destination: .frame,
                                                 depthFormat: context.device.depthStencilFormat, keepingColorFrom: $0)
            }
            return (target, recorder, keepingPass)
        }
        self.context = context
        self.width = width
        self.height = height
        appTarget = (finalLayout, wait, signal)
        // Pixels in no defined layout are not kept: nothing to copy.
        if let target, let keptLayout, keptLayout != VK_IMAGE_LAYOUT_UNDEFINED, keptLayout != VK_IMAGE_LAYOUT_PREINITIALIZED {
            keptPixels = KeptTargetPixels(image: target.colorImage, layout: keptLayout)
        }
    }

    /// A renderer drawing into the app's image `target` describes, on `context` (which borrows its device).
    /// With `target.timelineSemaphores`, frames recorded into the app's buffers are completed by the app's
    /// submission signalling a timeline (`completionSignal`).
    package convenience init(context: VulkanContext, appTarget target: CARenderer.VulkanTarget) throws {
        if let pass = target.renderPass {
            try self.init(context: context, appRenderPass: pass.renderPass, subpass: try pass.frameSubpass(), width: target.width,
                          height: target.height)
        } else {
            try self.init(context: context, imageTarget: target)
        }
        if target.timelineSemaphores { try context.access.run { try recorder.useCompletionTimeline() } }
    }

    /// A renderer drawing into the app's image `target` names (it names no render pass).
    private convenience init(context: VulkanContext, imageTarget target: CARenderer.VulkanTarget) throws {
        let format = VkFormat(target.format)
        guard format == VK_FORMAT_R8G8B8A8_UNORM || format == VK_FORMAT_B8G8R8A8_UNORM else {
            throw VulkanError.unsupportedTarget("CARenderer draws into R8G8B8A8_UNORM or B8G8R8A8_UNORM images, not VkFormat \(target.format)")
        }
        guard let image = target.image, let view = target.imageView else {
            throw VulkanError.unsupportedTarget("a VulkanTarget names an image and its view, or an app's render pass to draw inside")
        }
        let needed = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue
        if let usage = target.imageUsage, usage & needed != needed {
            throw VulkanError.unsupportedTarget(
                "a VulkanTarget's image needs COLOR_ATTACHMENT and TRANSFER_SRC usage (LayerKit draws into it, leaves it in TRANSFER_SRC_OPTIMAL and copies from it: snapshot(), and the app's pixels under background filters); its usage is 0x\(String(usage, radix: 16))")
        }
        try self.init(context: context, appImage: image, view: view, format: format, width: target.width,
                      height: target.height, finalLayout: VkImageLayout(target.finalLayout), wait: target.waitSemaphore,
                      signal: target.signalSemaphore, keepingFrom: target.initialLayout.map { VkImageLayout($0) })
    }

    deinit {
        // A frame prepared but never drawn: its commands are in the app's buffer, which the app submits.
        if let prepared = preparedFrame { recorder.finishRecordedFrame(prepared.recording.frame) }
        // On the app's device only LayerKit's own frames are waited for: the app's queue is the app's.
        if context.ownsDevice { try? context.device.waitIdle() } else { try? recorder.waitUntilIdle() }
        if let keepingPass { vkDestroyRenderPass(context.device.handle, keepingPass, nil) }
    }

    /// What graphs rendered here may use (`BackendCapabilities`): depth-stencil, atlas, the device's limits.
    package var capabilities: BackendCapabilities { recorder.capabilities }

    /// Records and submits one frame. Returns without waiting for the GPU.
    ///
    /// - Parameter readback: copy the result for `readback()` (skip it for frames nobody reads).
    /// - Parameter appBuffer: an app's command buffer (begun, outside a render pass) to record into
    ///   instead of submitting: the app submits it, before the next frame or readback.
    @discardableResult
    package func render(_ graph: RenderGraph, readback: Bool = true, recordingInto appBuffer: VkCommandBuffer? = nil) throws -> FrameCounters {
        try context.access.run { try renderFrame(graph, readback: readback, recordingInto: appBuffer) }
    }

    /// Records the part of `graph` that comes before the app's render pass into `appBuffer` (the app's,
    /// begun, outside any render pass): uploads, instance data and offscreen passes. `drawPreparedFrame`
    /// records the rest inside the app's pass. A frame prepared earlier and never drawn is ended as it
    /// is (its uploads and offscreen passes run when the app submits it; its draws never do).
    package func prepare(_ graph: RenderGraph, recordingInto appBuffer: VkCommandBuffer) throws {
        try context.access.run {
            guard target == nil else {
                throw VulkanError.unsupportedTarget("prepareRender(recordingInto:) is for a renderer drawing inside an app's render pass (VulkanTarget.renderPass)")
            }
            if let unfinished = preparedFrame {
                preparedFrame = nil
                recorder.finishRecordedFrame(unfinished.recording.frame)
            }
            let frame = try recorder.beginFrame(recordingInto: appBuffer)
            do {
                preparedFrame = (try recorder.prepare(graph, frame: frame, width: width, height: height), graph)
            } catch {
                recorder.abandon(frame)
                throw error
            }
        }
    }

    /// Records the draws of the frame `prepare` recorded into `appBuffer`, inside the app's render pass (in
    /// the subpass the renderer was made for), and ends the frame: the app submits both buffers (or the
    /// one) on the renderer's queue before the next frame.
    ///
    /// - Throws: `VulkanError.nothingRendered` when no frame is prepared; a failure to record (the
    ///   app's buffers must then not be submitted).
    package func drawPreparedFrame(inAppPassOf appBuffer: VkCommandBuffer) throws -> FrameCounters {
        try context.access.run {
            guard var prepared = preparedFrame else { throw VulkanError.nothingRendered }
            preparedFrame = nil
            let frame = prepared.recording.frame
            let counters: FrameCounters
            do {
                counters = try recorder.recordFramePass(&prepared.recording, graph: prepared.graph, inAppPassOf: appBuffer).counters
            } catch {
                recorder.abandon(frame)
                throw error
            }
            recorder.finishRecordedFrame(frame)
            frame.hasReadback = false
            lastFrame = frame
            return counters
        }
    }

    private func renderFrame(_ graph: RenderGraph, readback: Bool, recordingInto appBuffer: VkCommandBuffer?) throws -> FrameCounters {
        guard let target else {
            throw VulkanError.unsupportedTarget("a renderer drawing inside an app's render pass records with prepareRender(recordingInto:) and render(inRenderPassOf:)")
        }
        let frame = try recorder.beginFrame(recordingInto: appBuffer)
        let counters: FrameCounters
        do {
            (counters, _) = try recorder.record(graph, frame: frame, into: FramebufferTarget(
                framebuffer: target.framebuffer, width: target.width, height: target.height, renderPass: keepingPass, keptPixels: keptPixels),
                format: target.format)
            if readback {
                if frame.readbackBuffer == nil {
                    frame.readbackBuffer = try GPUBuffer(
                        device: context.device, allocator: context.allocator, size: UInt64(target.byteCount),
                        usage: VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue, location: .readback, name: "frame \(frame.index) readback")
                }
                context.device.labels.begin(frame.commandBuffer, "readback")
                target.recordReadback(frame.commandBuffer, into: frame.readbackBuffer!)
                context.device.labels.end(frame.commandBuffer)
            }
            if let appTarget {
                // The frame pass leaves the image ready to copy; the app asked for `finalLayout`.
                Barriers.image(
                    frame.commandBuffer, target.colorImage,
                    range: VkImageSubresourceRange(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, baseMipLevel: 0, levelCount: 1,
                                                   baseArrayLayer: 0, layerCount: 1),
                    from: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, to: appTarget.finalLayout,
                    source: (VkPipelineStageFlagBits(VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT.rawValue | VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue),
                             VK_ACCESS_TRANSFER_READ_BIT.rawValue | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT.rawValue),
                    destination: (VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_ACCESS_MEMORY_READ_BIT.rawValue))
            }
        } catch {
            recorder.abandon(frame, consuming: appBuffer == nil ? appTarget?.wait : nil)
            throw error
        }
        if appBuffer != nil {
            // The app's buffer orders LayerKit's commands after the app's own: no semaphores.
            recorder.finishRecordedFrame(frame)
        } else {
            // Copies of the app's pixels read them at the transfer stage, before the frame's render pass.
            let waitStages = graph.targetPixelCopies.isEmpty ? VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT : TargetPixelCopier.waitStages
            try recorder.submit(frame, wait: appTarget?.wait.map { ($0, waitStages) }, signal: appTarget?.signal)
        }
        frame.hasReadback = readback
        lastFrame = frame
        return counters
    }

    /// The last rendered frame's pixels. Waits for that frame to finish.
    ///
    /// - Throws: `VulkanError.nothingRendered` before the first `render(_:readback: true)`.
    package func readback() throws -> CGImage {
        try context.access.run { try readLastFrame() }
    }

    private func readLastFrame() throws -> CGImage {
        guard let target, let frame = lastFrame, frame.hasReadback, let buffer = frame.readbackBuffer else { throw VulkanError.nothingRendered }
        try recorder.waitForCompletion(of: frame)
        return target.image(from: buffer)
    }

    /// What the GPU measured for the last rendered frame — fragments shaded (nil without pipeline
    /// statistics) and seconds (nil without timestamps). Waits for that frame to finish.
    ///
    /// - Throws: `VulkanError.nothingRendered` before the first `render`.
    package func lastFrameGPUResults() throws -> (fragments: Int?, seconds: Double?) {
        try context.access.run {
            guard let frame = lastFrame else { throw VulkanError.nothingRendered }
            try recorder.waitForCompletion(of: frame)
            return recorder.gpuResults(of: frame)
        }
    }

    /// Whether the device counts fragment-shader invocations (pipeline-statistics queries).
    package var countsFragments: Bool { context.device.supportsPipelineStatistics }

    /// Waits until the GPU has finished every submitted frame.
    package func waitUntilIdle() throws {
        try recorder.waitUntilIdle()
    }

    /// Images resident on the GPU.
    package var residentTextureCount: Int { recorder.uploader.residentCount }

    /// Images uploaded since this renderer was created.
    package var totalImagesUploaded: Int { recorder.uploader.imagesUploaded }

    /// Offscreen surfaces created and destroyed since this renderer was created.
    package var surfacePoolStatistics: (created: Int, resident: Int) {
        context.access.run {
            let statistics = recorder.surfacePoolStatistics
            return (statistics.created, statistics.resident)
        }
    }

    /// Bytes per pixel of offscreen surfaces' stencil images (`VulkanDevice.surfaceStencilFormat`).
    package var surfaceStencilBytesPerPixel: Int { context.device.surfaceStencilBytesPerPixel }

    /// Stencil images of offscreen surfaces created since this renderer was created, and alive now.
    package var surfaceStencilStatistics: (created: Int, resident: Int) {
        context.access.run { (recorder.surfacePoolStatistics.stencilsCreated, recorder.residentSurfaceStencils) }
    }

    /// Rasterization cache entries whose images the renderer lost since the last call (the render
    /// server's cache forgets them).
    package func takeLostRasterizations() -> [RasterizationEntryID] {
        context.access.run { recorder.takeLostRasterizations() }
    }

    /// Rasterization cache images held now.
    package var rasterizedImageCount: Int { context.access.run { recorder.rasterizedImageCount } }
    package var atlasUploadsRemembered: Int { context.access.run { recorder.atlasUploadsRemembered } }

    /// What the app's submission of the frame last recorded into its buffer must signal, when the app's
    /// device has timeline semaphores (`CARenderer.VulkanTarget.timelineSemaphores`).
    package var completionSignal: (semaphore: VkSemaphore, value: UInt64)? { context.access.run { recorder.lastCompletionSignal } }

    /// Queue submissions the renderer has made (`FrameRecorder.submissions`).
    package var queueSubmissions: Int { context.access.run { recorder.submissions } }

    /// Test hook: device memory allocations past this many bytes in use fail with
    /// `VK_ERROR_OUT_OF_DEVICE_MEMORY` (`MemoryAllocator.injectedLimit`); nil lifts the limit.
    /// Test hook: the next frame's submit reports `VK_ERROR_DEVICE_LOST` (`FrameRecorder.losesDeviceAtNextSubmit`).
    package func loseDeviceAtNextSubmit() {
        context.access.run { recorder.losesDeviceAtNextSubmit = true }
    }

    package func injectDeviceMemoryLimit(_ extraBytes: UInt64?) {
        context.access.run {
            context.allocator.injectedLimit = extraBytes.map { context.allocator.usedBytes + $0 }
        }
    }

    /// Device memory blocks held by the context's allocator (growth checks).
    package var memoryBlockCount: Int { context.memoryBlockCount }
}
