import CVulkan
import LayerKit
import LayerKitRender

/// Renders `RenderGraph`s into an offscreen `width`×`height` RGBA8 image and reads it back as a `CGImage`.
///
/// Input: graphs whose passes target `.frame(width:height:)` of this size (the frame pass may be
/// depth-ordered: the target has a depth attachment). Output: `FrameCounters` per frame; `readback()`
/// gives the last frame's pixels (premultiplied RGBA8, gamma-encoded as composited);
/// `lastFrameGPUResults()` what the GPU measured for the last frame.
/// Frames in flight: two. `render` waits only for the frame two submissions back, so the CPU records while
/// the GPU draws; `readback` waits for the last frame. Images are uploaded once per `CGImage` and kept
/// while the image lives; offscreen surfaces come from the executor's pool, reused across frames. Cost per frame: uploads of new images, 256 bytes per item, one draw per batch,
/// and a width × height × 4 byte copy when `readback` is requested.
///
/// Threading: one thread at a time, like its `VulkanContext` (checked).
package final class HeadlessRenderer: @unchecked Sendable {
    package static let framesInFlight = 2
    /// Bytes of the upload ring; a larger image goes through a one-off staging buffer.
    static let stagingCapacity: UInt64 = 16 << 20

    package let width: Int
    package let height: Int
    private let context: VulkanContext
    private let target: HeadlessTarget
    private let frames: [FrameContext]
    private let staging: StagingRing
    private let samplers: SamplerCache
    private let instanceDescriptors: DescriptorAllocator
    private let textureDescriptors: DescriptorAllocator
    private let uploader: ImageUploader
    private let executor: GraphExecutor
    private var serial: UInt64 = 0
    private var lastFrame: FrameContext?

    /// - Throws: `VulkanError.unsupportedTarget` for a size the device cannot render, or a failed call.
    package init(context: VulkanContext, width: Int, height: Int) throws {
        (target, frames, staging, samplers, instanceDescriptors, textureDescriptors, uploader, executor) = try context.access.run {
            try Self.makeResources(context: context, width: width, height: height)
        }
        self.context = context
        self.width = width
        self.height = height
    }

    private static func makeResources(context: VulkanContext, width: Int, height: Int) throws -> (
        HeadlessTarget, [FrameContext], StagingRing, SamplerCache, DescriptorAllocator, DescriptorAllocator, ImageUploader, GraphExecutor
    ) {
        let device = context.device
        let pipeline = try context.layerPipeline()
        let target = try HeadlessTarget(device: device, allocator: context.allocator, renderPass: try pipeline.depthRenderPass(),
                                        width: width, height: height)
        let frames = try (0..<framesInFlight).map { try FrameContext(device: device, index: $0) }
        let staging = try StagingRing(device: device, allocator: context.allocator, capacity: stagingCapacity)
        let samplers = SamplerCache(device: device)
        let instanceDescriptors = DescriptorAllocator(
            device: device, layout: pipeline.instanceSetLayout, type: VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, name: "instance sets")
        let textureDescriptors = DescriptorAllocator(
            device: device, layout: pipeline.textureSetLayout, type: VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, name: "texture sets")
        let uploader = ImageUploader(device: device, allocator: context.allocator, staging: staging, samplers: samplers, descriptors: textureDescriptors)
        let executor = GraphExecutor(
            device: device, allocator: context.allocator, pipeline: pipeline, uploader: uploader, instanceDescriptors: instanceDescriptors)
        return (target, frames, staging, samplers, instanceDescriptors, textureDescriptors, uploader, executor)
    }

    deinit {
        try? context.device.waitIdle()
    }

    /// Records and submits one frame. Returns without waiting for the GPU.
    ///
    /// - Parameter readback: copy the result for `readback()` (skip it for frames nobody reads).
    @discardableResult
    package func render(_ graph: RenderGraph, readback: Bool = true) throws -> FrameCounters {
        try context.access.run { try renderFrame(graph, readback: readback) }
    }

    private func renderFrame(_ graph: RenderGraph, readback: Bool) throws -> FrameCounters {
        serial += 1
        let frame = frames[Int(serial % UInt64(frames.count))]
        try frame.beginReuse()
        staging.frameCompleted(serial: frame.serial)
        uploader.beginFrame()

        let commandBuffer = frame.commandBuffer
        let counters: FrameCounters
        do {
            var beginInfo = VkCommandBufferBeginInfo()
            beginInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
            beginInfo.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT.rawValue
            try check(vkBeginCommandBuffer(commandBuffer, &beginInfo), "vkBeginCommandBuffer(frame \(serial))")
            counters = try executor.record(graph, frame: frame, target: target)
            if readback {
                if frame.readbackBuffer == nil {
                    frame.readbackBuffer = try GPUBuffer(
                        device: context.device, allocator: context.allocator, size: UInt64(target.byteCount),
                        usage: VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue, location: .readback, name: "frame \(frame.index) readback")
                }
                context.device.labels.begin(commandBuffer, "readback")
                target.recordReadback(commandBuffer, into: frame.readbackBuffer!)
                context.device.labels.end(commandBuffer)
            }
            try check(vkEndCommandBuffer(commandBuffer), "vkEndCommandBuffer(frame \(serial))")

            var commandBufferPointer: VkCommandBuffer? = commandBuffer
            try withUnsafePointer(to: &commandBufferPointer) { buffers in
                var submit = VkSubmitInfo()
                submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO
                submit.commandBufferCount = 1
                submit.pCommandBuffers = buffers
                try check(vkQueueSubmit(context.device.queue, 1, &submit, frame.fence), "vkQueueSubmit(frame \(serial))")
            }
        } catch {
            // Nothing of this frame runs: undo its uploads and signal the fence with an empty submission so
            // the context can be reused.
            executor.abandonFrame(frame)
            _ = vkQueueSubmit(context.device.queue, 0, nil, frame.fence)
            staging.endFrame(serial: serial)
            frame.serial = serial
            throw error
        }
        staging.endFrame(serial: serial)
        frame.serial = serial
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
        guard let frame = lastFrame, frame.hasReadback, let buffer = frame.readbackBuffer else { throw VulkanError.nothingRendered }
        try frame.waitForCompletion()
        return target.image(from: buffer)
    }

    /// What the GPU measured for the last rendered frame — fragments shaded (nil without pipeline
    /// statistics) and seconds (nil without timestamps). Waits for that frame to finish.
    ///
    /// - Throws: `VulkanError.nothingRendered` before the first `render`.
    package func lastFrameGPUResults() throws -> (fragments: Int?, seconds: Double?) {
        try context.access.run {
            guard let frame = lastFrame else { throw VulkanError.nothingRendered }
            try frame.waitForCompletion()
            return executor.gpuResults(of: frame)
        }
    }

    /// Whether the device counts fragment-shader invocations (pipeline-statistics queries).
    package var countsFragments: Bool { context.device.supportsPipelineStatistics }

    /// Waits until the GPU has finished every submitted frame.
    package func waitUntilIdle() throws {
        for frame in frames { try frame.waitForCompletion() }
    }

    /// Images resident on the GPU.
    package var residentTextureCount: Int { uploader.residentCount }

    /// Images uploaded since this renderer was created.
    package var totalImagesUploaded: Int { uploader.imagesUploaded }

    /// Offscreen surfaces created and destroyed since this renderer was created.
    package var surfacePoolStatistics: (created: Int, resident: Int) {
        context.access.run {
            let statistics = executor.surfacePoolStatistics
            return (statistics.created, statistics.resident)
        }
    }

    /// The largest offscreen surface side the device can draw into and sample, for the graph builder.
    package var maxSurfaceSize: Int {
        let limits = context.device.limits
        return Int(min(limits.maxImageDimension2D, limits.maxFramebufferWidth, limits.maxFramebufferHeight))
    }

    /// The largest texture side the device samples (`maxImageDimension2D`): larger images are tiled.
    package var maxTextureSize: Int { Int(context.device.limits.maxImageDimension2D) }

    /// Device memory blocks held by the context's allocator (growth checks).
    package var memoryBlockCount: Int { context.memoryBlockCount }
}
