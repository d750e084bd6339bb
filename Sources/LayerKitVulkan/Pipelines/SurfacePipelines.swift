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
/// sampler or mask-apply shader is needed. The additive pipeline (debug: fragment counting for the
/// overdraw view) and every stencil pipeline are made on first use. Cost: two pipeline compiles (cached on
/// disk), once per executor, plus one per stencil variant used.
final class SurfacePipelines {
    let renderPass: VkRenderPass
    /// The surface render pass with a stencil attachment (attachment 1).
    let stencilRenderPass: VkRenderPass
    let layout: VkPipelineLayout
    private let sourceOver: VkPipeline
    private let destinationIn: VkPipeline
    private var additive: VkPipeline?
    private var stencilTested: [BlendMode: VkPipeline] = [:]
    private var stencilClips: [StencilClipCommand: VkPipeline] = [:]
    private let cache: PipelineCache
    private let device: VulkanDevice

    init(device: VulkanDevice, sharing frame: LayerPipeline) throws {
        self.device = device
        cache = frame.cache
        layout = frame.layout
        renderPass = try LayerPipeline.makeRenderPass(device: device, format: GPUImage.format, destination: .surface)
        do {
            stencilRenderPass = try LayerPipeline.makeRenderPass(device: device, format: GPUImage.format, destination: .surface,
                                                                 depthFormat: device.surfaceStencilFormat)
        } catch {
            vkDestroyRenderPass(device.handle, renderPass, nil)
            throw error
        }
        do {
            sourceOver = try LayerPipeline.makePipeline(device: device, cache: frame.cache, layout: layout, renderPass: renderPass, blend: .sourceOver)
        } catch {
            vkDestroyRenderPass(device.handle, stencilRenderPass, nil)
            vkDestroyRenderPass(device.handle, renderPass, nil)
            throw error
        }
        do {
            destinationIn = try LayerPipeline.makePipeline(
                device: device, cache: frame.cache, layout: layout, renderPass: renderPass, blend: .destinationIn)
        } catch {
            vkDestroyPipeline(device.handle, sourceOver, nil)
            vkDestroyRenderPass(device.handle, stencilRenderPass, nil)
            vkDestroyRenderPass(device.handle, renderPass, nil)
            throw error
        }
        device.labels.name(sourceOver, VK_OBJECT_TYPE_PIPELINE, "layer quad · surface · sourceOver")
        device.labels.name(destinationIn, VK_OBJECT_TYPE_PIPELINE, "layer quad · surface · destinationIn")
    }

    deinit {
        for variant in stencilTested.values { vkDestroyPipeline(device.handle, variant, nil) }
        for variant in stencilClips.values { vkDestroyPipeline(device.handle, variant, nil) }
        if let additive { vkDestroyPipeline(device.handle, additive, nil) }
        vkDestroyPipeline(device.handle, destinationIn, nil)
        vkDestroyPipeline(device.handle, sourceOver, nil)
        vkDestroyRenderPass(device.handle, stencilRenderPass, nil)
        vkDestroyRenderPass(device.handle, renderPass, nil)
    }

    func pipeline(for blend: BlendMode) throws -> VkPipeline {
        switch blend {
        case .sourceOver: return sourceOver
        case .destinationIn: return destinationIn
        case .additive:
            if let additive { return additive }
            let made = try LayerPipeline.makePipeline(device: device, cache: cache, layout: layout, renderPass: renderPass, blend: .additive)
            device.labels.name(made, VK_OBJECT_TYPE_PIPELINE, "layer quad · surface · additive")
            additive = made
            return made
        }
    }

    /// The pipeline for draws in `blend` in a pass of `stencilRenderPass`: stencil EQUAL the reference.
    func stencilTestedPipeline(for blend: BlendMode) throws -> VkPipeline {
        if let existing = stencilTested[blend] { return existing }
        let made = try LayerPipeline.makePipeline(device: device, cache: cache, layout: layout, renderPass: stencilRenderPass,
                                                  blend: blend, depth: DepthPhase.none)
        device.labels.name(made, VK_OBJECT_TYPE_PIPELINE, "layer quad · surface · stencil tested · \(blend)")
        stencilTested[blend] = made
        return made
    }

    /// The pipeline drawing a clip shape into the stencil for `command` in a pass of `stencilRenderPass`.
    func stencilClipPipeline(for command: StencilClipCommand) throws -> VkPipeline {
        if let existing = stencilClips[command] { return existing }
        let made = try LayerPipeline.makePipeline(device: device, cache: cache, layout: layout, renderPass: stencilRenderPass,
                                                  blend: .sourceOver, depth: DepthPhase.none, stencilClip: command)
        device.labels.name(made, VK_OBJECT_TYPE_PIPELINE, "layer quad · surface · stencil clip \(command)")
        stencilClips[command] = made
        return made
    }
}
