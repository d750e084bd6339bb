import CVulkan
import LayerKit
import LayerKitRender

/// Records a `RenderGraph` into a frame's command buffer. It decides nothing about what to draw: the
/// graph's passes and items are executed as given.
///
/// Input: a graph whose passes draw into the renderer's frame target, a recycled `FrameContext`.
/// Output: commands — texture uploads first, then one render pass per `RenderPass` (cleared to its color),
/// each item one instance of the layer-quad pipeline — and the frame's `FrameCounters`.
/// Batching: consecutive items with equal texture bindings (image identity and filters; untextured items
/// share the nil binding) become one instanced `vkCmdDraw` of 4 vertices, with `firstInstance` indexing
/// the frame's instance buffer. Items are never reordered. An empty graph still clears the target to
/// transparent black, so a readback always has defined pixels.
/// Cost: O(items) CPU; 256 bytes of instance data per item; one draw call per batch.
final class GraphExecutor {
    private let device: VulkanDevice
    private let allocator: MemoryAllocator
    private let pipeline: LayerPipeline
    private let uploader: ImageUploader
    private let instanceDescriptors: DescriptorAllocator

    init(device: VulkanDevice, allocator: MemoryAllocator, pipeline: LayerPipeline, uploader: ImageUploader, instanceDescriptors: DescriptorAllocator) {
        self.device = device
        self.allocator = allocator
        self.pipeline = pipeline
        self.uploader = uploader
        self.instanceDescriptors = instanceDescriptors
    }

    func record(_ graph: RenderGraph, frame: FrameContext, target: HeadlessTarget) throws -> FrameCounters {
        try record(graph, frame: frame, into: FramebufferTarget(framebuffer: target.framebuffer, width: target.width, height: target.height))
    }

    /// Records `graph` into `target`, a framebuffer of this executor's render pass.
    func record(_ graph: RenderGraph, frame: FrameContext, into target: FramebufferTarget) throws -> FrameCounters {
        let commandBuffer = frame.commandBuffer
        for pass in graph.passes {
            guard case let .frame(width, height) = pass.target, width > 0, height > 0,
                  !target.requiresExactSize || (width == target.width && height == target.height) else {
                throw VulkanError.unsupportedTarget("pass \"\(pass.name)\" draws into \(pass.target); this renderer's frame is \(target.width)x\(target.height)")
            }
        }
        var counters = FrameCounters()

        // Uploads, before any render pass.
        let uploadedBefore = (uploader.imagesUploaded, uploader.bytesUploaded)
        var requests: [(image: CGImage, mipmapped: Bool)] = []
        var requestIndex: [ObjectIdentifier: Int] = [:]
        for pass in graph.passes {
            for case let binding? in pass.items.lazy.map(\.texture) {
                let wantsMips = binding.minification == .trilinear
                if let index = requestIndex[ObjectIdentifier(binding.image)] {
                    requests[index].mipmapped = requests[index].mipmapped || wantsMips
                } else {
                    requestIndex[ObjectIdentifier(binding.image)] = requests.count
                    requests.append((binding.image, wantsMips))
                }
            }
        }
        device.labels.begin(commandBuffer, "uploads")
        try uploader.prepare(requests, commandBuffer: commandBuffer, frame: frame)
        device.labels.end(commandBuffer)
        counters.imagesUploaded = uploader.imagesUploaded - uploadedBefore.0
        counters.bytesUploaded = uploader.bytesUploaded - uploadedBefore.1

        // Instance data for every pass, contiguous.
        let stride = LayerInstance.stride
        let total = graph.passes.reduce(0) { $0 + $1.items.count }
        try frame.ensureInstanceCapacity(total, stride: stride, allocator: allocator, descriptors: instanceDescriptors)
        guard let instanceBuffer = frame.instanceBuffer, let instanceSet = frame.instanceSet, let base = instanceBuffer.mapped else {
            preconditionFailure("frame \(frame.index) has no mapped instance buffer")
        }
        var index = 0
        for pass in graph.passes {
            for item in pass.items {
                withUnsafeBytes(of: item.instance) { bytes in
                    (base + index * stride).copyMemory(from: bytes.baseAddress!, byteCount: min(bytes.count, stride))
                }
                index += 1
            }
        }
        counters.instances = total

        let passes = graph.passes.isEmpty
            ? [RenderPass(name: "empty frame", target: .frame(width: target.width, height: target.height), clearColor: .zero, items: [])]
            : graph.passes
        var firstInstance = 0
        for (passIndex, pass) in passes.enumerated() {
            device.labels.begin(commandBuffer, "pass \(passIndex) · \(pass.name)")
            beginRenderPass(commandBuffer, target: target, clearColor: pass.clearColor)
            if !pass.items.isEmpty {
                // The pass's own size: a swapchain caught mid-resize draws it from the top-left corner.
                guard case let .frame(passWidth, passHeight) = pass.target else { preconditionFailure("checked above") }
                vkCmdBindPipeline(commandBuffer, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.pipeline)
                var viewport = VkViewport(x: 0, y: 0, width: Float(passWidth), height: Float(passHeight), minDepth: 0, maxDepth: 1)
                vkCmdSetViewport(commandBuffer, 0, 1, &viewport)
                let scissorExtent = VkExtent2D(width: UInt32(min(passWidth, target.width)), height: UInt32(min(passHeight, target.height)))
                var scissor = VkRect2D(offset: VkOffset2D(x: 0, y: 0), extent: scissorExtent)
                vkCmdSetScissor(commandBuffer, 0, 1, &scissor)
                var set: VkDescriptorSet? = instanceSet.set
                vkCmdBindDescriptorSets(commandBuffer, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.layout, 0, 1, &set, 0, nil)
                var boundTexture: VkDescriptorSet?
                var start = 0
                while start < pass.items.count {
                    let binding = pass.items[start].texture
                    var end = start + 1
                    while end < pass.items.count && pass.items[end].texture == binding { end += 1 }
                    var textureSet: VkDescriptorSet? = try uploader.descriptorSet(for: binding)
                    if textureSet != boundTexture {
                        vkCmdBindDescriptorSets(commandBuffer, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline.layout, 1, 1, &textureSet, 0, nil)
                        boundTexture = textureSet
                    }
                    vkCmdDraw(commandBuffer, 4, UInt32(end - start), 0, UInt32(firstInstance + start))
                    counters.drawCalls += 1
                    start = end
                }
            }
            vkCmdEndRenderPass(commandBuffer)
            device.labels.end(commandBuffer)
            firstInstance += pass.items.count
        }
        counters.passes = graph.passes.count
        return counters
    }

    private func beginRenderPass(_ commandBuffer: VkCommandBuffer, target: FramebufferTarget, clearColor: SIMD4<Float>) {
        var clear = VkClearValue()
        clear.color.float32 = (clearColor.x, clearColor.y, clearColor.z, clearColor.w)
        withUnsafePointer(to: &clear) { clearPointer in
            var info = VkRenderPassBeginInfo()
            info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO
            info.renderPass = pipeline.renderPass
            info.framebuffer = target.framebuffer
            info.renderArea = VkRect2D(offset: VkOffset2D(x: 0, y: 0), extent: VkExtent2D(width: UInt32(target.width), height: UInt32(target.height)))
            info.clearValueCount = 1
            info.pClearValues = clearPointer
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
}
