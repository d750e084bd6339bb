import CVulkan
import Foundation
import LayerKitRender
import Logging

/// Executes render graphs into a window: acquire a swapchain image, record the graph into it, submit,
/// present — or, with a host presenter, render into host memory the window system copies from. The
/// render server's backend for `LayerWindow`.
///
/// Input: graphs whose last pass targets `.frame(width:height:)` at the window's drawable size in pixels
/// (the server's builder follows the window). Output: presented images, `status` counters, and on request
/// a copy of a presented image (`requestCapture()`).
///
/// Frames are recorded through `FrameRecorder`, as headless frames are: the same depth-stencil
/// attachment (one per swapchain), atlas, batching, offscreen passes and statistics (`BackendCapabilities`
/// tells the render server's builder so).
/// Per frame: wait for the previous frame's present to be done, wait for the frame slot's fence (two
/// frames in flight), acquire an image (signalling the slot's semaphore), record uploads and passes
/// (`FrameRecorder`), move the image from the pass's TRANSFER_SRC layout to PRESENT_SRC (copying it out
/// first when a capture is pending), submit (waiting on the acquire at color output, signalling the
/// image's "rendered" semaphore and the slot's fence) and hand the present to the `PresentThread`, whose
/// wait for the GPU and copy to the window system then overlap the render thread's next graph build.
/// Recreation: when the graph's size differs from the size the swapchain was made for, when
/// acquire or present reports `VK_ERROR_OUT_OF_DATE_KHR` or `VK_SUBOPTIMAL_KHR`, or after a failure, the
/// queue is drained and a new swapchain replaces the old (`oldSwapchain`), at the surface's current
/// extent. A surface with a 0×0 extent (minimized), a 0×0 graph, or `setSuspended(true)` skips the frame
/// without error; the swapchain is rebuilt when presenting is possible again.
/// A graph of another size than the swapchain (a resize racing the render thread) is drawn from the
/// top-left corner, clipped; the frame after the window's next resize report has the right size.
///
/// Host presentation (`hostPresenter`, a window host's choice on a CPU device): no swapchain. Each frame
/// slot has an offscreen target of the graph's size (B8G8R8A8; remade when the size changes, counted in
/// `swapchainsCreated`), laid out linearly in host memory where the device allows it (lavapipe does);
/// per frame: wait for the slot's fence, record the graph (and, for a target the host cannot read, a
/// copy of the image into the slot's host buffer), submit, wait for the previous present, and hand the
/// present thread a present that waits for this frame's fence and gives the frame's pixels, where they
/// lie, to the presenter. The queue thus renders frame N+1 while frame N is being shown. Captures read
/// the same pixels.
/// Threading: `execute` runs on the render thread, presents on the executor's present thread (a
/// swapchain's never at the same time as the render thread's use of the queue or swapchain; a host
/// presenter's touch neither, only the frame's fence and pixels, which the render thread reuses
/// after the next present was handed over); `status`, `setSuspended`,
/// `requestCapture` and `waitForCapture` may be called from any thread.
/// Cost per frame: one acquire, one submit, one present, one fence wait (none while the GPU keeps up);
/// a recreation drains the queue.
package final class WindowExecutor: RenderGraphExecutor, @unchecked Sendable {
    /// Device extensions a context needs for this executor.
    package static let requiredDeviceExtensions = ["VK_KHR_swapchain"]
    package static let framesInFlight = FrameRecorder.framesInFlight
    /// On a CPU device the GPU measures one frame in this many (`FrameRecorder.gpuMeasurementInterval`):
    /// lavapipe's `vkGetQueryPoolResults` waits for the device to go idle, every frame in flight, so
    /// reading every frame's results kept the driver from setting up one frame while it rasterized the
    /// one before (a `city` window: the render thread 2.2 and lavapipe's queue thread 2.5 waits a frame
    /// more than without queries, 10 % fewer frames a second).
    static let cpuDeviceGPUMeasurementInterval = 16

    /// What the executor has done, for hosts and tests. Read with `status`.
    package struct Status: Sendable {
        /// Frames submitted and presented.
        package var framesPresented = 0
        /// Frames skipped: nothing to present to (minimized, suspended, a 0×0 size) or an out-of-date
        /// swapchain that could not be rebuilt yet.
        package var framesSkipped = 0
        /// Swapchains created so far (the first one included).
        package var swapchainsCreated = 0
        /// The present mode in use; nil before the first swapchain.
        package var presentMode: PresentMode?
        /// The current swapchain's size in pixels; zero before the first.
        package var width = 0
        package var height = 0
        /// The last presented frame's statistics: the graph's and recording's (no GPU results yet).
        package var lastFrame = FrameStatistics()
        /// The latest frame the GPU has finished, with what it measured (fragments shaded, GPU time).
        package var lastCompletedFrame: FrameStatistics?
        /// Device memory blocks held by the context's allocator after the last frame (leak checks).
        package var memoryBlockCount = 0
        /// Whether the swapchain's images can be copied out for captures (the surface allows
        /// `VK_IMAGE_USAGE_TRANSFER_SRC_BIT`; every desktop driver does).
        package var supportsCapture = true
        /// Whether frames are shown from host memory by the host presenter rather than by a swapchain.
        package var presentsFromHostMemory = false
        /// Whether the host presenter is handed each frame where it was drawn (a host-readable target),
        /// not a copy of it.
        package var presentsWhereDrawn = false
    }

    /// The present mode asked for (`LK_PRESENT_MODE`); the one in use is in `status`.
    package let requestedPresentMode: PresentMode

    private let context: VulkanContext
    private let surface: PresentationSurface
    private let recorder: FrameRecorder
    private let imageAvailable: [VkSemaphore]
    private let onDiagnostic: @Sendable (PresentMode.Diagnostic) -> Void
    /// Told of each present as it is handed over and as it completes (the clock pacing the window's
    /// frames, `PresentPacedClock`); nil: nobody listens.
    private let presentObserver: PresentObserver?
    private let presentThread = PresentThread(name: "LayerKit present")
    /// Shows frames from host memory instead of a swapchain (nil: the swapchain presents).
    private let hostPresenter: HostPresenter?
    /// The format frames are rendered in for a host presenter: X11's 24-bit TrueColor byte order.
    static let hostPixelFormat = VK_FORMAT_B8G8R8A8_UNORM
    /// Host presentation: each frame slot's offscreen target, all of one size.
    private var hostTargets: [HeadlessTarget] = []
    /// The frame passes of host-readable targets (clearing the depth-stencil attachment, and leaving it
    /// alone), made with the first such targets; nil while the targets are read through a copy.
    private var hostReadPasses: (clearing: VkRenderPass, depthStencilFree: VkRenderPass)?

    // Render-thread state.
    /// Rasterization cache entries of frames that were skipped, not yet reported.
    private var lostRasterizations: [RasterizationEntryID] = []
    /// Whether the current `execute` recorded its graph.
    private var didRecord = false
    private var swapchain: Swapchain?
    private var surfaceFormat: VkSurfaceFormatKHR?
    private var presentMode: PresentMode?
    /// The graph size the swapchain was last built for.
    private var builtForSize: (width: Int, height: Int)?
    private var needsRecreation = false

    // Shared with other threads, under `condition`.
    private let condition = NSCondition()
    private var sharedStatus = Status()
    private var suspended = false
    private var captureRequests = 0
    private var capturesServed = 0
    private var capturedImage: CGImage?
    /// What the last present reported, until the render thread acts on it (`takePresentResult()`).
    private var presentResult: VkResult?

    /// - Parameters:
    ///   - presentMode: the mode to ask for; FIFO is used when the surface lacks it.
    ///   - presentObserver: told (on the render thread) as each present is handed over and (on the present
    ///     thread) when `vkQueuePresentKHR` returns, with that time: the window's frame clock when the
    ///     swapchain paces its frames.
    ///   - hostPresenter: shows frames from host memory instead of a swapchain on `surface` (see the
    ///     type's contract); `presentMode` then only names the pacing the host asked for.
    ///   - onDiagnostic: told (on the render thread) when the requested mode falls back to FIFO; the
    ///     diagnostic is also logged.
    /// - Throws: `VulkanError` from creating per-frame resources.
    package init(
        context: VulkanContext, surface: PresentationSurface, presentMode: PresentMode, presentObserver: PresentObserver? = nil,
        hostPresenter: HostPresenter? = nil, onDiagnostic: @escaping @Sendable (PresentMode.Diagnostic) -> Void = { _ in }
    ) throws {
        precondition(surface.context === context, "the surface belongs to another VulkanContext")
        self.context = context
        self.surface = surface
        self.requestedPresentMode = presentMode
        self.onDiagnostic = onDiagnostic
        self.presentObserver = presentObserver
        self.hostPresenter = hostPresenter
        let device = context.device
        (recorder, imageAvailable) = try context.access.run {
            let recorder = try FrameRecorder(context: context)
            if context.rendersOnCPU { recorder.gpuMeasurementInterval = Self.cpuDeviceGPUMeasurementInterval }
            var semaphores: [VkSemaphore] = []
            do {
                for index in 0..<Self.framesInFlight {
                    var info = VkSemaphoreCreateInfo()
                    info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO
                    var semaphore: VkSemaphore?
                    try check(vkCreateSemaphore(device.handle, &info, nil, &semaphore), "vkCreateSemaphore(frame \(index) image available)")
                    device.labels.name(semaphore, VK_OBJECT_TYPE_SEMAPHORE, "frame \(index) image available")
                    semaphores.append(semaphore!)
                }
            } catch {
                for semaphore in semaphores { vkDestroySemaphore(device.handle, semaphore, nil) }
                throw error
            }
            return (recorder, semaphores)
        }
    }

    deinit {
        presentThread.stop()
        try? context.device.waitIdle()
        swapchain = nil
        hostTargets = []
        if let hostReadPasses {
            vkDestroyRenderPass(context.device.handle, hostReadPasses.clearing, nil)
            vkDestroyRenderPass(context.device.handle, hostReadPasses.depthStencilFree, nil)
        }
        for semaphore in imageAvailable { vkDestroySemaphore(context.device.handle, semaphore, nil) }
    }

    // MARK: Any thread

    /// Counters and the current swapchain's size and mode.
    package var status: Status {
        condition.lock()
        defer { condition.unlock() }
        return sharedStatus
    }

    /// Waits until `status` satisfies `condition` (checked as frames are presented or skipped), or
    /// `timeout` seconds pass; returns whether it does. For tests that wait on the render thread alone,
    /// without running the window's loop (whose events could change what they wait for).
    package func waitForStatus(timeout: Double, until isMet: (Status) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !isMet(sharedStatus) {
            if !condition.wait(until: deadline) { return isMet(sharedStatus) }
        }
        return true
    }

    /// While suspended (the window is minimized) frames are skipped without touching the swapchain.
    package func setSuspended(_ isSuspended: Bool) {
        condition.lock()
        suspended = isSuspended
        condition.unlock()
    }

    /// Asks for a copy of the next presented frame that starts after this call; returns a ticket for
    /// `waitForCapture(_:timeout:)`.
    package func requestCapture() -> Int {
        condition.lock()
        defer { condition.unlock() }
        captureRequests += 1
        return captureRequests
    }

    /// Waits until the capture `ticket` was taken and returns it (premultiplied RGBA8 as the window shows
    /// it: opaque, over black); nil when `timeout` passes first (no frame was presented), the swapchain
    /// cannot be copied (`status.supportsCapture`) or the device was lost.
    package func waitForCapture(_ ticket: Int, timeout: TimeInterval) -> CGImage? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while capturesServed < ticket && !isDeviceLost {
            if !condition.wait(until: deadline) { break }
        }
        return capturesServed >= ticket ? capturedImage : nil
    }

    /// Waits until the GPU has finished everything submitted (after the render thread has stopped).
    package func waitUntilIdle() {
        presentThread.waitUntilIdle()
        try? context.device.waitIdle()
    }

    // MARK: Render thread

    /// Frames here have what headless frames have: a depth-stencil target, the atlas, the device's limits.
    package var capabilities: BackendCapabilities { recorder.capabilities }

    /// The last presented frame's statistics, for `LK_STATS`.
    package var lastFrameStatistics: FrameStatistics? { status.lastFrame }

    package func execute(_ graph: RenderGraph) throws {
        do {
            try context.access.run {
                didRecord = false
                condition.lock()
                let losesDevice = losesDeviceAtNextFrame
                losesDeviceAtNextFrame = false
                condition.unlock()
                if losesDevice { recorder.losesDeviceAtNextSubmit = true }
                try executeFrame(graph)
                // A skipped frame (suspended, zero-sized) drew none of its rasterization bitmaps.
                if !didRecord { lostRasterizations += graph.rasterization.rendered.values.map(\.entry) }
            }
        } catch let error as VulkanError where error.isDeviceLost {
            // No frame will be presented here again: captures waiting for one end now.
            condition.lock()
            isDeviceLost = true
            condition.broadcast()
            condition.unlock()
            throw error
        }
    }

    /// Whether a frame found the device lost (guarded by `condition`); the executor draws nothing more.
    private var isDeviceLost = false

    /// Whether a frame found the device lost (the render thread reports the error just after). Any thread.
    package var hasLostDevice: Bool {
        condition.lock()
        defer { condition.unlock() }
        return isDeviceLost
    }

    /// Test hook: the next frame's submit reports `VK_ERROR_DEVICE_LOST` (`FrameRecorder.losesDeviceAtNextSubmit`).
    /// Any thread: the request waits under `condition` and the render thread hands it to the recorder,
    /// which only it touches (entering the context from here would overlap a frame in flight).
    package func loseDeviceAtNextSubmit() {
        condition.lock()
        losesDeviceAtNextFrame = true
        condition.unlock()
    }

    /// A device loss asked for by `loseDeviceAtNextSubmit()` that no frame has taken yet (guarded by
    /// `condition`).
    private var losesDeviceAtNextFrame = false

    package func takeLostRasterizations() -> [RasterizationEntryID] {
        context.access.run {
            defer { lostRasterizations = [] }
            return lostRasterizations + recorder.takeLostRasterizations()
        }
    }

    private func executeFrame(_ graph: RenderGraph) throws {
        if let hostPresenter { return try executeHostPresentedFrame(graph, presenter: hostPresenter) }
        // The queue and the swapchain are the present thread's until its present is done.
        presentThread.waitUntilIdle()
        try takePresentResult()
        let (isSuspended, captureTicket) = frameRequests()

        guard case let .frame(width, height)? = graph.passes.last?.target, width > 0, height > 0, !isSuspended else {
            return skipFrame()
        }
        if swapchain == nil || needsRecreation || builtForSize.map({ $0 != (width, height) }) ?? true {
            guard try recreateSwapchain(width: width, height: height) else { return skipFrame() }
        }

        // The slot's previous submission is done (so its semaphore is free) once the frame begins.
        let frame = try recorder.beginFrame()
        let slot = frame.index
        let acquired: (Swapchain, UInt32)?
        do {
            acquired = try acquire(slot: slot)
        } catch {
            recorder.abandon(frame)
            throw error
        }
        guard let (swapchain, imageIndex) = acquired else {
            recorder.abandon(frame)
            return skipFrame()
        }

        let capture = captureTicket != nil && swapchain.supportsReadback
        if let captureTicket, !swapchain.supportsReadback {
            // Answer at once: no frame of this swapchain can be copied.
            condition.lock()
            capturesServed = captureTicket
            capturedImage = nil
            condition.broadcast()
            condition.unlock()
        }
        let statistics: FrameStatistics
        do {
            statistics = try record(graph, swapchain: swapchain, imageIndex: imageIndex, frame: frame, capture: capture)
        } catch {
            // Nothing of this frame runs: consume the acquire, and rebuild the swapchain next frame (the
            // acquired image is abandoned).
            recorder.abandon(frame, consuming: imageAvailable[slot])
            needsRecreation = true
            throw error
        }
        do {
            // The image is written (layout transition, clear) at color output: wait for the acquire there.
            try recorder.submit(frame, wait: (imageAvailable[slot], VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT),
                                signal: swapchain.renderFinished[Int(imageIndex)])
        } catch {
            needsRecreation = true
            throw error
        }

        present(swapchain: swapchain, imageIndex: imageIndex)
        let image = capture ? try readCapture(frame: frame, width: swapchain.width, height: swapchain.height, format: swapchain.format) : nil
        publish(statistics, capture: captureTicket.flatMap { ticket in image.map { (ticket, $0) } })
    }

    /// Publishes a recorded frame's statistics and the device memory in use to `status`, and serves the
    /// capture taken of it, if any.
    private func publish(_ statistics: FrameStatistics, capture: (ticket: Int, image: CGImage?)?) {
        let completed = recorder.lastCompletedStatistics
        let blocks = context.allocator.blockCount
        condition.lock()
        sharedStatus.lastFrame = statistics
        sharedStatus.lastCompletedFrame = completed
        sharedStatus.memoryBlockCount = blocks
        if let capture {
            capturesServed = capture.ticket
            capturedImage = capture.image
            condition.broadcast()
        }
        condition.unlock()
    }

    /// A frame for the host presenter (see the type's contract): rendered into the slot's target, shown
    /// from it on the present thread while the queue goes on. A host-readable target is shown where it
    /// was drawn; another is copied into the slot's host buffer first. (On lavapipe that copy kept the
    /// queue from setting up the next frame until the rasterizer had finished this one.)
    private func executeHostPresentedFrame(_ graph: RenderGraph, presenter: HostPresenter) throws {
        let (isSuspended, captureTicket) = frameRequests()
        guard case let .frame(width, height)? = graph.passes.last?.target, width > 0, height > 0, !isSuspended else {
            presentThread.waitUntilIdle()
            try takePresentResult()
            return skipFrame()
        }
        if hostTargets.first.map({ ($0.width, $0.height) != (width, height) }) ?? true {
            try makeHostTargets(width: width, height: height)
        }
        // The slot's previous frame was shown before the frame after it was handed over: its buffer is free.
        let frame = try recorder.beginFrame()
        let target = hostTargets[frame.index]
        let statistics: FrameStatistics
        let pixels: (base: UnsafeRawPointer, bytesPerRow: Int)
        do {
            var framebuffer = FramebufferTarget(framebuffer: target.framebuffer, width: width, height: height, requiresExactSize: true)
            // The buffer the frame is copied into, for a target the host cannot read where it lies.
            var readback: GPUBuffer?
            if let hostPixels = target.hostPixels, let hostReadPasses {
                framebuffer.renderPass = hostReadPasses.clearing
                framebuffer.depthStencilFreeRenderPass = hostReadPasses.depthStencilFree
                pixels = hostPixels
            } else {
                if frame.readbackBuffer.map({ $0.size != UInt64(target.byteCount) }) ?? true {
                    frame.readbackBuffer = try GPUBuffer(
                        device: context.device, allocator: context.allocator, size: UInt64(target.byteCount),
                        usage: VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue, location: .readback, name: "frame \(frame.index) presented pixels")
                }
                readback = frame.readbackBuffer
                guard let mapped = readback?.mapped else { preconditionFailure("the presented pixels' buffer is not host-visible") }
                pixels = (UnsafeRawPointer(mapped), width * 4)
            }
            statistics = try recorder.record(graph, frame: frame, into: framebuffer, format: Self.hostPixelFormat).statistics
            didRecord = true
            if let readback { target.recordReadback(frame.commandBuffer, into: readback) }
        } catch {
            recorder.abandon(frame)
            throw error
        }
        try recorder.submit(frame)

        // One present at a time: the last frame's is done (or finishing) while the queue renders this one.
        presentThread.waitUntilIdle()
        try takePresentResult()
        let present = HostPresent(device: context.device.handle, fence: frame.fence, pixels: pixels.base, width: width, height: height,
                                  bytesPerRow: pixels.bytesPerRow, presenter: presenter)
        presentObserver?.presentQueued()
        presentThread.perform({ present.run() }, then: presentCompletion)
        let image = captureTicket != nil
            ? try readCapture(frame: frame, pixels: pixels.base, bytesPerRow: pixels.bytesPerRow, width: width, height: height,
                              format: Self.hostPixelFormat)
            : nil
        publish(statistics, capture: captureTicket.map { ($0, image) })
    }

    /// One present for the host presenter: waits for the frame's fence, then shows its pixels.
    private struct HostPresent: @unchecked Sendable {
        let device: VkDevice
        let fence: VkFence
        let pixels: UnsafeRawPointer
        let width: Int
        let height: Int
        let bytesPerRow: Int
        let presenter: HostPresenter

        func run() -> VkResult {
            var fence: VkFence? = self.fence
            let waited = vkWaitForFences(device, 1, &fence, VkBool32(VK_TRUE), UInt64.max)
            guard waited == VK_SUCCESS else { return waited }
            let shown = presenter.present(pixels: pixels, width: width, height: height, bytesPerRow: bytesPerRow)
            return shown ? VK_SUCCESS : VK_ERROR_OUT_OF_DATE_KHR
        }
    }

    /// Remakes the slots' targets at `width`×`height` once nothing in flight uses the old ones.
    private func makeHostTargets(width: Int, height: Int) throws {
        presentThread.waitUntilIdle()
        try takePresentResult()
        try context.device.waitIdle()
        hostTargets = []
        let renderPass = try recorder.renderPass(format: Self.hostPixelFormat)
        let device = context.device
        if hostReadPasses == nil && GPUImage.supportsHostReadable(device: device, format: Self.hostPixelFormat, usage: HeadlessTarget.colorUsage) {
            let clearing = try LayerPipeline.makeRenderPass(device: device, format: Self.hostPixelFormat, destination: .hostReadFrame,
                                                            depthFormat: device.depthStencilFormat)
            do {
                let free = try LayerPipeline.makeRenderPass(device: device, format: Self.hostPixelFormat, destination: .hostReadFrame,
                                                            depthFormat: device.depthStencilFormat, clearsDepthStencil: false)
                hostReadPasses = (clearing, free)
            } catch {
                vkDestroyRenderPass(device.handle, clearing, nil)
                throw error
            }
        }
        func makeTargets(hostReadable: Bool) throws -> [HeadlessTarget] {
            try (0..<Self.framesInFlight).map { _ in
                try HeadlessTarget(device: device, allocator: context.allocator, renderPass: renderPass, width: width, height: height,
                                   format: Self.hostPixelFormat, hostReadable: hostReadable)
            }
        }
        if let passes = hostReadPasses {
            do {
                hostTargets = try makeTargets(hostReadable: true)
            } catch {
                // A size linear images do not reach on this device: read through a copy at this size (the
                // next size made tries linear images again).
                vkDestroyRenderPass(device.handle, passes.clearing, nil)
                vkDestroyRenderPass(device.handle, passes.depthStencilFree, nil)
                hostReadPasses = nil
            }
        }
        if hostReadPasses == nil { hostTargets = try makeTargets(hostReadable: false) }
        condition.lock()
        sharedStatus.swapchainsCreated += 1
        sharedStatus.presentMode = requestedPresentMode
        sharedStatus.width = width
        sharedStatus.height = height
        sharedStatus.supportsCapture = true
        sharedStatus.presentsFromHostMemory = true
        sharedStatus.presentsWhereDrawn = hostReadPasses != nil
        condition.unlock()
    }

    /// What the frame about to start is asked for from other threads: whether frames are suspended, and
    /// the capture ticket it must serve, if any.
    private func frameRequests() -> (isSuspended: Bool, captureTicket: Int?) {
        condition.lock()
        defer { condition.unlock() }
        return (suspended, captureRequests > capturesServed ? captureRequests : nil)
    }

    private func skipFrame() {
        condition.lock()
        sharedStatus.framesSkipped += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Builds a swapchain for a `width`×`height` graph at the surface's current extent. Returns false when
    /// the surface cannot be presented to now (a 0×0 extent); the old swapchain is then kept.
    private func recreateSwapchain(width: Int, height: Int) throws -> Bool {
        let capabilities = try surface.capabilities()
        let extent = Swapchain.chooseExtent(capabilities, requestedWidth: width, requestedHeight: height)
        guard extent.width > 0, extent.height > 0 else { return false }
        // Every submission that used the old images, and the presents waiting on their semaphores, finish
        // before those images, views and semaphores go.
        try context.device.waitIdle()

        if surfaceFormat == nil {
            let formats = try surface.formats()
            guard let chosen = Swapchain.chooseFormat(formats) else {
                let offered = formats.map { "\($0.format.rawValue)" }.joined(separator: ", ")
                throw VulkanError.unsupportedTarget("the window's surface offers no 8-bit UNORM sRGB-nonlinear format (VkFormat values offered: \(offered))")
            }
            surfaceFormat = chosen
        }
        if presentMode == nil {
            let (mode, diagnostic) = requestedPresentMode.resolved(supported: try surface.presentModes())
            if let diagnostic {
                context.logger.warning("\(diagnostic.description)", metadata: ["diagnostic": .string(diagnostic.name)])
                onDiagnostic(diagnostic)
            }
            presentMode = mode
        }
        let format = surfaceFormat!
        let renderPass = try recorder.renderPass(format: format.format)
        let old = swapchain
        swapchain = nil
        condition.lock()
        let generation = sharedStatus.swapchainsCreated + 1
        condition.unlock()
        // The old swapchain is retired by this call even when it fails, and destroyed after it returns.
        swapchain = try Swapchain(
            surface: surface, capabilities: capabilities, format: format, renderPass: renderPass,
            width: extent.width, height: extent.height, presentMode: presentMode!, replacing: old, generation: generation)
        builtForSize = (width, height)
        needsRecreation = false
        condition.lock()
        sharedStatus.swapchainsCreated = generation
        sharedStatus.presentMode = presentMode
        sharedStatus.width = extent.width
        sharedStatus.height = extent.height
        sharedStatus.supportsCapture = swapchain!.supportsReadback
        condition.unlock()
        context.logger.debug("swapchain created", metadata: [
            "size": "\(extent.width)x\(extent.height)", "presentMode": "\(presentMode!.rawValue)", "generation": "\(generation)",
        ])
        return true
    }

    /// Acquires the next image, signalling the slot's semaphore. Rebuilds once on OUT_OF_DATE; nil when
    /// no image can be had now (the frame is skipped and the swapchain rebuilt next time).
    private func acquire(slot: Int) throws -> (Swapchain, UInt32)? {
        for attempt in 0..<2 {
            guard let swapchain else { return nil }
            var index: UInt32 = 0
            let result = vkAcquireNextImageKHR(context.device.handle, swapchain.handle, UInt64.max, imageAvailable[slot], nil, &index)
            switch result {
            case VK_SUCCESS:
                return (swapchain, index)
            case VK_SUBOPTIMAL_KHR:
                // The semaphore is signalled: draw and present this one, rebuild afterwards.
                needsRecreation = true
                return (swapchain, index)
            case VK_ERROR_OUT_OF_DATE_KHR:
                needsRecreation = true
                guard attempt == 0, let size = builtForSize, try recreateSwapchain(width: size.width, height: size.height) else { return nil }
            default:
                try check(result, "vkAcquireNextImageKHR")
            }
        }
        return nil
    }

    /// Records the graph into the acquired image, then the capture copy when asked, then the move to
    /// PRESENT_SRC; the command buffer stays open for `FrameRecorder.submit`.
    private func record(_ graph: RenderGraph, swapchain: Swapchain, imageIndex: UInt32, frame: FrameContext, capture: Bool) throws -> FrameStatistics {
        let commandBuffer = frame.commandBuffer
        let image = swapchain.images[Int(imageIndex)]
        let target = FramebufferTarget(
            framebuffer: swapchain.framebuffers[Int(imageIndex)], width: swapchain.width, height: swapchain.height,
            requiresExactSize: false)
        let (_, statistics) = try recorder.record(graph, frame: frame, into: target, format: swapchain.format)
        didRecord = true
        // The layer pass leaves the image in TRANSFER_SRC_OPTIMAL.
        if capture {
            let byteCount = UInt64(swapchain.width * swapchain.height * 4)
            if frame.readbackBuffer.map({ $0.size != byteCount }) ?? true {
                frame.readbackBuffer = try GPUBuffer(
                    device: context.device, allocator: context.allocator, size: byteCount,
                    usage: VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue, location: .readback, name: "frame \(frame.index) capture")
            }
            context.device.labels.begin(commandBuffer, "capture")
            var region = VkBufferImageCopy()
            region.imageSubresource = VkImageSubresourceLayers(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, baseArrayLayer: 0, layerCount: 1)
            region.imageExtent = VkExtent3D(width: UInt32(swapchain.width), height: UInt32(swapchain.height), depth: 1)
            vkCmdCopyImageToBuffer(commandBuffer, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, frame.readbackBuffer!.handle, 1, &region)
            Barriers.buffer(
                commandBuffer, frame.readbackBuffer!.handle,
                source: (VK_PIPELINE_STAGE_TRANSFER_BIT, Access.transferWrite),
                destination: (VK_PIPELINE_STAGE_HOST_BIT, Access.hostRead))
            context.device.labels.end(commandBuffer)
        }
        // To the presentation engine: after the pass (whose writes its dependency made available to the
        // transfer stage) and the capture copy; the submit's semaphore makes it visible to the present.
        Barriers.image(
            commandBuffer, image, range: Swapchain.colorRange,
            from: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, to: VK_IMAGE_LAYOUT_PRESENT_SRC_KHR,
            source: (VK_PIPELINE_STAGE_TRANSFER_BIT, Access.none),
            destination: (VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, Access.none))
        return statistics
    }

    /// Hands the image's present to the present thread, which counts it as presented or skipped when
    /// done (OUT_OF_DATE: skipped), tells the present observer when (the time `vkQueuePresentKHR`
    /// returned: the image is the present engine's) and leaves its result for `takePresentResult()`.
    /// The observer hears of the completion before the render thread can see the present thread idle.
    private func present(swapchain: Swapchain, imageIndex: UInt32) {
        let request = PresentThread.Request(queue: context.device.queue, swapchain: swapchain.handle, imageIndex: imageIndex,
                                            wait: swapchain.renderFinished[Int(imageIndex)])
        presentObserver?.presentQueued()
        presentThread.present(request, then: presentCompletion)
    }

    /// Counts a present as shown or skipped when it is done, on the present thread, and leaves its result
    /// for `takePresentResult()`; tells the present observer.
    private var presentCompletion: @Sendable (VkResult) -> Void {
        { [self] result in
            let completed = CACurrentMediaTime()
            let shown = result == VK_SUCCESS || result == VK_SUBOPTIMAL_KHR
            condition.lock()
            if shown { sharedStatus.framesPresented += 1 } else { sharedStatus.framesSkipped += 1 }
            presentResult = result
            condition.broadcast()
            condition.unlock()
            presentObserver?.presentCompleted(at: completed, shown: shown)
        }
    }

    /// Acts on the last present's result (once the present thread is idle): OUT_OF_DATE and SUBOPTIMAL
    /// mark the swapchain for rebuilding; an error (a lost device) is thrown for this frame.
    private func takePresentResult() throws {
        condition.lock()
        let result = presentResult
        presentResult = nil
        condition.unlock()
        switch result {
        case nil, VK_SUCCESS?:
            return
        case VK_SUBOPTIMAL_KHR?, VK_ERROR_OUT_OF_DATE_KHR?:
            needsRecreation = true
        case let failure?:
            needsRecreation = true
            try check(failure, "vkQueuePresentKHR")
        }
    }

    /// Waits for the frame and turns its capture buffer into an image: RGBA byte order, alpha 255 (the
    /// window composites opaquely, so what shows is the premultiplied color over black).
    private func readCapture(frame: FrameContext, width: Int, height: Int, format: VkFormat) throws -> CGImage? {
        guard let buffer = frame.readbackBuffer, let mapped = buffer.mapped else { return nil }
        return try readCapture(frame: frame, pixels: UnsafeRawPointer(mapped), bytesPerRow: width * 4, width: width, height: height, format: format)
    }

    /// The frame's pixels at `pixels` (rows `bytesPerRow` apart) as an opaque image, once it is drawn.
    private func readCapture(frame: FrameContext, pixels: UnsafeRawPointer, bytesPerRow: Int, width: Int, height: Int,
                             format: VkFormat) throws -> CGImage? {
        try frame.waitForCompletion()
        let count = width * height * 4
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { rows in
            PackedRows.copy(rows: height, of: width * 4, from: pixels, bytesPerRow: bytesPerRow, to: rows.baseAddress!)
        }
        let swapRedBlue = format == VK_FORMAT_B8G8R8A8_UNORM
        bytes.withUnsafeMutableBufferPointer { pixels in
            var offset = 0
            while offset < count {
                if swapRedBlue { pixels.swapAt(offset, offset + 2) }
                pixels[offset + 3] = 255
                offset += 4
            }
        }
        return CGImage(width: width, height: height, bytesPerRow: width * 4, premultipliedRGBA: bytes)
    }
}
