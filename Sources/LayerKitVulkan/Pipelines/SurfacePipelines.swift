import CVulkan
import LayerKit
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
    private struct KernelVariant: Hashable {
        var kernel: CIColorKernel
        var blend: BlendMode
    }
    private let kernels: PipelineVariants<KernelVariant>
    /// App kernels compiled (their SPIR-V) and those that failed, so each compiles once.
    private var compiledKernels: [CIColorKernel: [UInt32]] = [:]
    private var failedKernels = Set<CIColorKernel>()
    private let stencilClips: PipelineVariants<StencilClipCommand>
    private let cache: PipelineCache
    private let device: VulkanDevice

    init(device: VulkanDevice, sharing frame: LayerPipeline) throws {
        self.device = device
        cache = frame.cache
        layout = frame.layout
        variants = PipelineVariants(device: device)
        kernels = PipelineVariants(device: device)
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
    /// The pipeline running an app's kernel (`KernelCompiler`), compiled on first use and kept, or nil
    /// when its source does not compile: that is reported once (`LayerKitDiagnostic.kernelCompileFailed`)
    /// and the caller draws the pass as a copy.
    func pipeline(for kernel: CIColorKernel, blend: BlendMode) throws -> VkPipeline? {
        if failedKernels.contains(kernel) { return nil }
        if let code = compiledKernels[kernel] {
            return try kernels.pipeline(for: KernelVariant(kernel: kernel, blend: blend), label: "app kernel '\(kernel.name)'") {
                try LayerPipeline.makePipeline(device: device, cache: cache, layout: layout, renderPass: renderPass, blend: blend,
                                               material: Material(paint: .filter, coverage: .none), fragmentCode: code)
            }
        }
        switch KernelCompiler.spirv(for: kernel) {
        case .success(let code):
            compiledKernels[kernel] = code
            return try pipeline(for: kernel, blend: blend)
        case .failure(let failure):
            failedKernels.insert(kernel)
            LayerKitDiagnostics.emit(.kernelCompileFailed(kernel: kernel.name, line: failure.line, message: failure.message))
            return nil
        }
    }

    func stencilClipPipeline(for command: StencilClipCommand) throws -> VkPipeline {
        try stencilClips.pipeline(for: command, label: "layer quad · surface · stencil clip \(command)") {
            try LayerPipeline.makePipeline(device: device, cache: cache, layout: layout, renderPass: stencilRenderPass,
                                           blend: .sourceOver, depth: DepthPhase.none, stencilClip: command)
        }
    }
}
