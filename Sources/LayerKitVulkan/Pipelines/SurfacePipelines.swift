import CVulkan
import LayerKitRender

/// What offscreen passes are recorded with: the surface render pass (`GPUImage.format`, ending in
/// SHADER_READ_ONLY_OPTIMAL) and the layer-quad pipeline for it in each `BlendMode`; for passes that clip
/// by stencil (`StencilClipCommand`), the surface stencil render pass (the same color attachment plus a
/// `device.surfaceStencilFormat` attachment cleared to 0 and not stored) with, in each `BlendMode`, the
/// pipeline that tests stencil EQUAL the dynamic reference, and the clip-shape pipelines of push and pop
/// (the frame's stencil state, `LayerPipeline`, without a depth test).
///
/// Input: a frame `LayerPipeline`, whose shaders, set layouts and pipeline layout these share, so
/// descriptor sets bind alike in every pass. Output: Vulkan handles.
/// Masks use `destinationIn` (ZERO, SRC_ALPHA): drawing a mask surface over a surface of masked content
/// leaves content × mask alpha with the ordinary layer shader and one texture per draw, so no second
/// sampler or mask-apply shader is needed. The additive blend is the overdraw view's fragment counting.
/// Every pipeline is made on first use, its fragment shader specialized to the batch's `Material`.
/// Cost: one pipeline compile (cached on disk) per variant used.
final class SurfacePipelines {
    let renderPass: VkRenderPass
    /// The surface render pass with a stencil attachment (attachment 1).
    let stencilRenderPass: VkRenderPass
    let layout: VkPipelineLayout
    private struct Variant: Hashable {
        var blend: BlendMode
        var material: Material
        var stencilTested: Bool
    }
    private let variants: PipelineVariants<Variant>
    private let stencilClips: PipelineVariants<StencilClipCommand>
    private let cache: PipelineCache
    private let device: VulkanDevice

    init(device: VulkanDevice, sharing frame: LayerPipeline) throws {
        self.device = device
        cache = frame.cache
        layout = frame.layout
        variants = PipelineVariants(device: device)
        stencilClips = PipelineVariants(device: device)
        renderPass = try LayerPipeline.makeRenderPass(device: device, format: GPUImage.format, destination: .surface)
        do {
            stencilRenderPass = try LayerPipeline.makeRenderPass(device: device, format: GPUImage.format, destination: .surface,
                                                                 depthFormat: device.surfaceStencilFormat)
        } catch {
            vkDestroyRenderPass(device.handle, renderPass, nil)
            throw error
        }
    }

    deinit {
        vkDestroyRenderPass(device.handle, stencilRenderPass, nil)
        vkDestroyRenderPass(device.handle, renderPass, nil)
    }

    /// The pipeline for draws of `material` in `blend` in a pass of `renderPass`, or with `stencilTested`
    /// in a pass of `stencilRenderPass` (stencil EQUAL the reference).
    func pipeline(for blend: BlendMode, material: Material, stencilTested: Bool = false) throws -> VkPipeline {
        let variant = Variant(blend: blend, material: material, stencilTested: stencilTested)
        let label = "layer quad · surface · \(stencilTested ? "stencil tested · " : "")\(blend) · \(material)"
        return try variants.pipeline(for: variant, label: label) {
            try LayerPipeline.makePipeline(device: device, cache: cache, layout: layout, renderPass: stencilTested ? stencilRenderPass : renderPass,
                                           blend: blend, material: material, depth: stencilTested ? DepthPhase.none : nil)
        }
    }

    /// The pipeline drawing a clip shape into the stencil for `command` in a pass of `stencilRenderPass`.
    func stencilClipPipeline(for command: StencilClipCommand) throws -> VkPipeline {
        try stencilClips.pipeline(for: command, label: "layer quad · surface · stencil clip \(command)") {
            try LayerPipeline.makePipeline(device: device, cache: cache, layout: layout, renderPass: stencilRenderPass,
                                           blend: .sourceOver, depth: DepthPhase.none, stencilClip: command)
        }
    }
}
