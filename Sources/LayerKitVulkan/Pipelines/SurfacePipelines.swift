import CVulkan
import LayerKitRender

/// What offscreen passes are recorded with: the surface render pass (`GPUImage.format`, ending in
/// SHADER_READ_ONLY_OPTIMAL) and the layer-quad pipeline for it in each `BlendMode`.
///
/// Input: a frame `LayerPipeline`, whose shaders, set layouts and pipeline layout these share, so
/// descriptor sets bind alike in every pass. Output: Vulkan handles.
/// Masks use `destinationIn` (ZERO, SRC_ALPHA): drawing a mask surface over a surface of masked content
/// leaves content × mask alpha with the ordinary layer shader and one texture per draw, so no second
/// sampler or mask-apply shader is needed. The additive pipeline (debug: fragment counting for the
/// overdraw view) is made on first use. Cost: two pipeline compiles (cached on disk), once per executor.
final class SurfacePipelines {
    let renderPass: VkRenderPass
    let layout: VkPipelineLayout
    private let sourceOver: VkPipeline
    private let destinationIn: VkPipeline
    private var additive: VkPipeline?
    private let cache: PipelineCache
    private let device: VulkanDevice

    init(device: VulkanDevice, sharing frame: LayerPipeline) throws {
        self.device = device
        cache = frame.cache
        layout = frame.layout
        renderPass = try LayerPipeline.makeRenderPass(device: device, format: GPUImage.format, destination: .surface)
        do {
            sourceOver = try LayerPipeline.makePipeline(device: device, cache: frame.cache, layout: layout, renderPass: renderPass, blend: .sourceOver)
        } catch {
            vkDestroyRenderPass(device.handle, renderPass, nil)
            throw error
        }
        do {
            destinationIn = try LayerPipeline.makePipeline(
                device: device, cache: frame.cache, layout: layout, renderPass: renderPass, blend: .destinationIn)
        } catch {
            vkDestroyPipeline(device.handle, sourceOver, nil)
            vkDestroyRenderPass(device.handle, renderPass, nil)
            throw error
        }
        device.labels.name(sourceOver, VK_OBJECT_TYPE_PIPELINE, "layer quad · surface · sourceOver")
        device.labels.name(destinationIn, VK_OBJECT_TYPE_PIPELINE, "layer quad · surface · destinationIn")
    }

    deinit {
        if let additive { vkDestroyPipeline(device.handle, additive, nil) }
        vkDestroyPipeline(device.handle, destinationIn, nil)
        vkDestroyPipeline(device.handle, sourceOver, nil)
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
}
