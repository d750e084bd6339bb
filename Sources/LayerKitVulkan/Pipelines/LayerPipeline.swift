import CVulkan
import LayerKitRender

/// The layer-quad pipelines and what they are built against: the frame's render pass, the descriptor
/// set layouts (set 0: the frame's instance buffer, read by the vertex shader and, for gradient stops
/// stored after the instances, by the fragment shader; set 1: the batch's texture) and the pipeline layout
/// (those two sets and the vertex shader's push constants, `viewportPushConstants`).
///
/// Input: the device, the pipeline cache and `Shaders/layer_quad.{vert,frag}`. Output: Vulkan handles.
/// State: an indexed triangle list of 6 indices over 4 corners per draw item without vertex buffers
/// (`layer_quad.vert` pulls each item's instance), no culling (transforms may mirror), premultiplied source-over blending (ONE,
/// ONE_MINUS_SRC_ALPHA) for color and alpha, dynamic viewport and scissor. Offscreen passes use `SurfacePipelines`, built from the same shaders and layouts against
/// the surface render pass.
/// Depth and stencil: every frame target (the headless image, a swapchain image) is a framebuffer of
/// `renderPass` — color plus a `device.depthStencilFormat` attachment cleared to depth 1 and stencil 0 —
/// and is drawn with the pipeline for each `DepthPhase`: `.none` no depth test (painter's order),
/// `.opaque` depth test LESS with depth writes, blending off and partially covered fragments discarded
/// (specialization constant 0 of layer_quad.frag), `.translucent` depth test LESS without writes,
/// source-over, `.resolvedGroup` depth test LESS with depth writes, source-over. Every one of them tests stencil EQUAL the dynamic stencil reference (the draw's clip
/// level, `StencilClipCommand`) and keeps it. The stencil clip pipelines (`stencilClipPipeline(for:)`)
/// draw a clip shape into the stencil only: no color, no depth test, fragments outside the shape
/// discarded (specialization constant 1), stencil EQUAL the reference then incremented (push) or
/// decremented (pop). They are built on first use.
/// Every pipeline's fragment shader is specialized to the `Material` of the batches it draws (the
/// stencil clip shapes use the whole shader).
/// An app's render pass (`CARenderer.VulkanRenderPass`): the pipelines are built against the app's
/// `VkRenderPass` and subpass instead (`init(device:cache:appRenderPass:subpass:)`), at its sample count,
/// testing depth and stencil only where the subpass has them and LayerKit may use them (`FrameSubpass`);
/// the render pass stays the app's.
/// Cost: one pipeline compile per variant used, cached on disk by `PipelineCache`.
final class LayerPipeline {
    let renderPass: VkRenderPass
    /// `renderPass` with its depth-stencil attachment neither cleared nor kept, for frames that test
    /// neither (`FrameSubpass.withoutDepthStencil`): compatible with `renderPass`, so the same framebuffers
    /// serve it, and it spares clearing the attachment (on lavapipe a fifth of an empty 1280×720 frame's
    /// time). Nil for an app's render pass.
    let depthStencilFreeRenderPass: VkRenderPass?
    /// The subpass of `renderPass` the frame pipelines draw in, and what it offers them.
    let subpass: FrameSubpass
    /// Whether `renderPass` was made here (LayerKit's own frame pass) and is destroyed here.
    private let ownsRenderPass: Bool
    let instanceSetLayout: VkDescriptorSetLayout
    let textureSetLayout: VkDescriptorSetLayout
    let layout: VkPipelineLayout
    /// The cache it was compiled through, for the variants built later (`SurfacePipelines`).
    let cache: PipelineCache
    private let device: VulkanDevice
    private struct DepthVariant: Hashable {
        var phase: DepthPhase
        var material: Material
        var blend: BlendMode
        var subpass: FrameSubpass
    }
    private let depthPipelines: PipelineVariants<DepthVariant>
    private let stencilClipPipelines: PipelineVariants<StencilClipCommand>

    /// - Parameter format: the color target's format (`GPUImage.format` offscreen; a swapchain's format).
    convenience init(device: VulkanDevice, cache: PipelineCache, format: VkFormat = GPUImage.format) throws {
        let renderPass = try Self.makeRenderPass(device: device, format: format, destination: .frame, depthFormat: device.depthStencilFormat)
        let free: VkRenderPass
        do {
            free = try Self.makeRenderPass(device: device, format: format, destination: .frame, depthFormat: device.depthStencilFormat,
                                           clearsDepthStencil: false)
        } catch {
            vkDestroyRenderPass(device.handle, renderPass, nil)
            throw error
        }
        do {
            try self.init(device: device, cache: cache, renderPass: renderPass, depthStencilFree: free, subpass: .own, ownsRenderPass: true)
        } catch {
            vkDestroyRenderPass(device.handle, renderPass, nil)
            vkDestroyRenderPass(device.handle, free, nil)
            throw error
        }
    }

    /// Pipelines for drawing inside subpass `subpass.index` of an app's render pass, which stays the app's.
    convenience init(device: VulkanDevice, cache: PipelineCache, appRenderPass: VkRenderPass, subpass: FrameSubpass) throws {
        try self.init(device: device, cache: cache, renderPass: appRenderPass, depthStencilFree: nil, subpass: subpass, ownsRenderPass: false)
    }

    private init(device: VulkanDevice, cache: PipelineCache, renderPass: VkRenderPass, depthStencilFree: VkRenderPass?, subpass: FrameSubpass,
                 ownsRenderPass: Bool) throws {
        self.device = device
        self.cache = cache
        self.renderPass = renderPass
        depthStencilFreeRenderPass = depthStencilFree
        self.subpass = subpass
        self.ownsRenderPass = ownsRenderPass
        depthPipelines = PipelineVariants(device: device)
        stencilClipPipelines = PipelineVariants(device: device)
        instanceSetLayout = try Self.makeSetLayout(
            device: device, bindings: Self.instanceSetTypes.map { ($0, VK_SHADER_STAGE_VERTEX_BIT.rawValue | VK_SHADER_STAGE_FRAGMENT_BIT.rawValue) },
            name: "set 0 · instances")
        textureSetLayout = try Self.makeSetLayout(
            device: device, bindings: [(VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_SHADER_STAGE_FRAGMENT_BIT.rawValue)], name: "set 1 · texture")
        var setLayouts: [VkDescriptorSetLayout?] = [instanceSetLayout, textureSetLayout]
        var layoutInfo = VkPipelineLayoutCreateInfo()
        layoutInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO
        layoutInfo.setLayoutCount = UInt32(setLayouts.count)
        var viewportRange = Self.viewportPushConstants
        layoutInfo.pushConstantRangeCount = 1
        var pipelineLayout: VkPipelineLayout?
        try setLayouts.withUnsafeMutableBufferPointer { pointer in
            layoutInfo.pSetLayouts = UnsafePointer(pointer.baseAddress)
            try withUnsafePointer(to: &viewportRange) { range in
                layoutInfo.pPushConstantRanges = range
                try check(vkCreatePipelineLayout(device.handle, &layoutInfo, nil, &pipelineLayout), "vkCreatePipelineLayout(layer quad)")
            }
        }
        layout = pipelineLayout!
        device.labels.name(layout, VK_OBJECT_TYPE_PIPELINE_LAYOUT, "layer quad layout")
    }

    /// The vertex shader's push constants: the pass's pixels per clip-space unit along x and y (half its
    /// viewport's width and height, two floats), from which it works out the pixel metric of an affine
    /// map (`Material.Coverage.affineShape`). Every pass that draws pushes them (`pushViewport`).
    static let viewportPushConstants = VkPushConstantRange(stageFlags: VK_SHADER_STAGE_VERTEX_BIT.rawValue, offset: 0,
                                                           size: UInt32(2 * MemoryLayout<Float>.size))

    /// Records the push constants of a pass drawn into a `width` × `height` viewport.
    func pushViewport(_ commandBuffer: VkCommandBuffer, width: Int, height: Int) {
        var pixelsPerClipUnit: (Float, Float) = (Float(width) / 2, Float(height) / 2)
        vkCmdPushConstants(commandBuffer, layout, Self.viewportPushConstants.stageFlags, 0, Self.viewportPushConstants.size, &pixelsPerClipUnit)
    }

    deinit {
        vkDestroyPipelineLayout(device.handle, layout, nil)
        vkDestroyDescriptorSetLayout(device.handle, textureSetLayout, nil)
        vkDestroyDescriptorSetLayout(device.handle, instanceSetLayout, nil)
        if ownsRenderPass { vkDestroyRenderPass(device.handle, renderPass, nil) }
        if let depthStencilFreeRenderPass { vkDestroyRenderPass(device.handle, depthStencilFreeRenderPass, nil) }
    }

    /// The frame pipeline for draws of `material` in `phase` blended by `blend` (source-over, or a
    /// layer's compositing filter), against `renderPass`, made on first use; for a frame drawn in `drawn`
    /// (this pipeline's `subpass`, or it `withoutDepthStencil`).
    func depthPipeline(for phase: DepthPhase, material: Material, blend: BlendMode = .sourceOver, in drawn: FrameSubpass? = nil) throws -> VkPipeline {
        let drawn = drawn ?? subpass
        let tests = drawn == subpass ? "" : " · no depth or stencil test"
        return try depthPipelines.pipeline(for: DepthVariant(phase: phase, material: material, blend: blend, subpass: drawn),
                                           label: "layer quad · depth \(phase) · \(material)\(blend == .sourceOver ? "" : " · \(blend)")\(tests)") {
            try Self.makePipeline(device: device, cache: cache, layout: layout, renderPass: renderPass, subpass: drawn, blend: blend,
                                  material: material, depth: phase)
        }
    }

    /// The pipeline drawing a clip shape into the stencil for `command`, against `renderPass`,
    /// made on first use.
    func stencilClipPipeline(for command: StencilClipCommand) throws -> VkPipeline {
        try stencilClipPipelines.pipeline(for: command, label: "layer quad · stencil clip \(command)") {
            try Self.makePipeline(device: device, cache: cache, layout: layout, renderPass: renderPass, subpass: subpass,
                                  blend: .sourceOver, depth: DepthPhase.none, stencilClip: command)
        }
    }

    /// What a color render pass's image is for once the pass ends.
    enum Destination {
        /// The frame's image: ends in TRANSFER_SRC_OPTIMAL for the readback copy (a swapchain's executor
        /// then moves it to PRESENT_SRC).
        case frame
        /// An offscreen surface: ends in SHADER_READ_ONLY_OPTIMAL for the fragment shaders of later passes.
        case surface
        /// The frame's image when the host reads it where it lies (a host presenter's linear image,
        /// `WindowExecutor`): ends in GENERAL, the layout host access needs, its writes made visible to
        /// host reads once the frame's fence signals. Compatible with `frame`: the same pipelines draw it.
        case hostReadFrame
    }

    /// One 8-bit UNORM color attachment (RGBA offscreen, BGRA or RGBA for a swapchain), cleared on load
    /// and stored. The dependencies order the pass after earlier passes, transfers and (for a pooled
    /// surface, written again after an earlier pass sampled it) fragment-shader reads of the image, and
    /// make its writes visible to what follows: the readback copy and host reads for the frame (host
    /// reads of a frame read where it lies, `hostReadFrame`), fragment-shader reads for a surface.
    /// With `depthFormat` (a depth-stencil or stencil-only format), attachment 1 is a depth-stencil buffer
    /// cleared to depth 1 and stencil 0 (or, without `clearsDepthStencil`, left undefined) and not stored;
    /// the dependencies then also order its clear after earlier passes' depth and stencil tests (a
    /// surface's stencil is shared by the surfaces of its bucket).
    /// With `keepingColorFrom`, the color attachment is loaded from that layout instead of cleared (an
    /// app's image drawn over); the pass stays compatible with the clearing one, so the same pipelines and
    /// framebuffers serve both.
    static func makeRenderPass(device: VulkanDevice, format: VkFormat, destination: Destination, depthFormat: VkFormat? = nil,
                               keepingColorFrom keptLayout: VkImageLayout? = nil, clearsDepthStencil: Bool = true) throws -> VkRenderPass {
        var attachment = VkAttachmentDescription()
        attachment.format = format
        attachment.samples = VK_SAMPLE_COUNT_1_BIT
        attachment.loadOp = keptLayout == nil ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_LOAD
        attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE
        attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE
        attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE
        attachment.initialLayout = keptLayout ?? VK_IMAGE_LAYOUT_UNDEFINED
        attachment.finalLayout = switch destination {
        case .frame: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL
        case .surface: VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL
        case .hostReadFrame: VK_IMAGE_LAYOUT_GENERAL
        }
        let arena = CreateInfoArena()
        var subpass = VkSubpassDescription()
        subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS
        subpass.colorAttachmentCount = 1
        subpass.pColorAttachments = UnsafePointer(arena.pointer(to: VkAttachmentReference(attachment: 0, layout: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL)))
        var attachments = [attachment]
        if let depthFormat {
            var depth = VkAttachmentDescription()
            depth.format = depthFormat
            depth.samples = VK_SAMPLE_COUNT_1_BIT
            depth.loadOp = clearsDepthStencil ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_DONT_CARE
            depth.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE
            depth.stencilLoadOp = clearsDepthStencil ? VK_ATTACHMENT_LOAD_OP_CLEAR : VK_ATTACHMENT_LOAD_OP_DONT_CARE
            depth.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE
            depth.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED
            depth.finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL
            attachments.append(depth)
            subpass.pDepthStencilAttachment = UnsafePointer(arena.pointer(
                to: VkAttachmentReference(attachment: 1, layout: VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL)))
        }
        var dependencies = [VkSubpassDependency](repeating: VkSubpassDependency(), count: 2)
        let colorOutput = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT.rawValue
        let transfer = VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue
        let fragment = VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT.rawValue
        dependencies[0].srcSubpass = VK_SUBPASS_EXTERNAL
        dependencies[0].dstSubpass = 0
        // Earlier reads (transfer, sampling) need only the execution dependency; earlier writes also the
        // memory one. For a surface, sampling by an earlier pass is named though color output implies it.
        dependencies[0].srcStageMask = destination == .surface ? colorOutput | fragment : colorOutput | transfer
        dependencies[0].srcAccessMask = Access.colorWrite
        dependencies[0].dstStageMask = colorOutput
        dependencies[0].dstAccessMask = Access.colorWrite | Access.colorRead
        if depthFormat != nil {
            // The depth buffer is cleared each frame after the previous frame's tests wrote it.
            let tests = VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT.rawValue | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT.rawValue
            dependencies[0].srcStageMask |= tests
            dependencies[0].srcAccessMask |= Access.depthWrite
            dependencies[0].dstStageMask |= tests
            dependencies[0].dstAccessMask |= Access.depthWrite | Access.depthRead
        }
        dependencies[1].srcSubpass = 0
        dependencies[1].dstSubpass = VK_SUBPASS_EXTERNAL
        dependencies[1].srcStageMask = colorOutput
        dependencies[1].srcAccessMask = Access.colorWrite
        switch destination {
        case .frame, .hostReadFrame:
            // Host reads too, in both: render passes whose dependencies differ are not compatible, and the
            // same pipelines and framebuffers serve both.
            dependencies[1].dstStageMask = transfer | colorOutput | VK_PIPELINE_STAGE_HOST_BIT.rawValue
            dependencies[1].dstAccessMask = Access.transferRead | Access.colorWrite | Access.colorRead | Access.hostRead
        case .surface:
            dependencies[1].dstStageMask = fragment
            dependencies[1].dstAccessMask = Access.shaderRead
        }
        var info = VkRenderPassCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO
        info.attachmentCount = UInt32(attachments.count)
        info.pAttachments = UnsafePointer(arena.pointer(to: attachments))
        info.subpassCount = 1
        info.pSubpasses = UnsafePointer(arena.pointer(to: subpass))
        info.dependencyCount = UInt32(dependencies.count)
        info.pDependencies = UnsafePointer(arena.pointer(to: dependencies))
        var renderPass: VkRenderPass?
        let name = switch (destination, depthFormat != nil) {
        case (.frame, false): "layer color pass"
        case (.frame, true): keptLayout == nil ? "layer color+depth-stencil pass" : "layer color+depth-stencil pass over kept color"
        case (.surface, false): "surface color pass"
        case (.surface, true): "surface color+stencil pass"
        case (.hostReadFrame, false): "layer color pass read on the host"
        case (.hostReadFrame, true): clearsDepthStencil ? "layer color+depth-stencil pass read on the host"
            : "layer color+depth-stencil pass read on the host, depth-stencil untouched"
        }
        try check(vkCreateRenderPass(device.handle, &info, nil, &renderPass), "vkCreateRenderPass(\(name))")
        device.labels.name(renderPass, VK_OBJECT_TYPE_RENDER_PASS, name)
        return renderPass!
    }

    /// Set 0's descriptors: the instance buffer as a storage buffer (binding 0: instances and gradient
    /// stops) and as a uniform texel buffer (binding 1), both for both stages; the shaders read the one
    /// `VulkanDevice.readsInstancesAsTexels` says.
    static let instanceSetTypes = [VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER]

    /// A set layout of one descriptor per binding, `bindings[i]` (its type and stages) at binding i.
    private static func makeSetLayout(device: VulkanDevice, bindings: [(type: VkDescriptorType, stages: VkShaderStageFlags)],
                                      name: String) throws -> VkDescriptorSetLayout {
        let described = bindings.enumerated().map { index, binding in
            var described = VkDescriptorSetLayoutBinding()
            described.binding = UInt32(index)
            described.descriptorType = binding.type
            described.descriptorCount = 1
            described.stageFlags = binding.stages
            return described
        }
        var setLayout: VkDescriptorSetLayout?
        try described.withUnsafeBufferPointer { bindingPointer in
            var info = VkDescriptorSetLayoutCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO
            info.bindingCount = UInt32(described.count)
            info.pBindings = bindingPointer.baseAddress
            try check(vkCreateDescriptorSetLayout(device.handle, &info, nil, &setLayout), "vkCreateDescriptorSetLayout(\(name))")
        }
        device.labels.name(setLayout, VK_OBJECT_TYPE_DESCRIPTOR_SET_LAYOUT, name)
        return setLayout!
    }

    private static func makeShaderModule(device: VulkanDevice, named name: String) throws -> VkShaderModule {
        guard let words = ShaderLibrary.spirv(named: name) else { throw VulkanError.missingShader(name) }
        return try makeShaderModule(device: device, code: words, name: name)
    }

    private static func makeShaderModule(device: VulkanDevice, code words: [UInt32], name: String) throws -> VkShaderModule {
        var module: VkShaderModule?
        try words.withUnsafeBufferPointer { code in
            var info = VkShaderModuleCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO
            info.codeSize = code.count * MemoryLayout<UInt32>.size
            info.pCode = code.baseAddress
            try check(vkCreateShaderModule(device.handle, &info, nil, &module), "vkCreateShaderModule(\(name))")
        }
        device.labels.name(module, VK_OBJECT_TYPE_SHADER_MODULE, name)
        return module!
    }

    /// The layer-quad pipeline for `renderPass` with `blend` (see `BlendMode`: source-over is
    /// (ONE, ONE_MINUS_SRC_ALPHA), destination-in is (ZERO, SRC_ALPHA), additive (ONE, ONE), for color and
    /// alpha alike), its fragment shader specialized to `material`. `depth` nil: the render pass has no
    /// depth-stencil attachment; otherwise the state of that phase with the stencil test, or with
    /// `stencilClip` the clip-shape state (see the type's contract) — each test only where `subpass` lets
    /// LayerKit use it. The pipeline is built for `subpass` (its index and sample count).
    static func makePipeline(device: VulkanDevice, cache: PipelineCache, layout: VkPipelineLayout, renderPass: VkRenderPass,
                             subpass: FrameSubpass = .own, blend blendMode: BlendMode, material: Material = .general, depth: DepthPhase? = nil,
                             stencilClip: StencilClipCommand? = nil, fragmentCode: [UInt32]? = nil) throws -> VkPipeline {
        let vertex = try makeShaderModule(device: device, named: "layer_quad.vert")
        defer { vkDestroyShaderModule(device.handle, vertex, nil) }
        // An app's kernel (`KernelCompiler`) replaces the layer shader's fragment stage; it has no
        // specialization constants (Vulkan ignores the entries of constants a module does not declare).
        let fragment = try fragmentCode.map { try makeShaderModule(device: device, code: $0, name: "app kernel") }
            ?? makeShaderModule(device: device, named: "layer_quad.frag")
        defer { vkDestroyShaderModule(device.handle, fragment, nil) }

        let arena = CreateInfoArena()
        let entry = arena.cString("main")
        // Specialization constants of the fragment shader: 0 discards partially covered fragments (opaque
        // phase), 1 discards fragments outside the shape (stencil clip shapes), 2 and 3 are the material's
        // paints and coverage (3 is the vertex shader's too); 4, of both shaders, reads the instance buffer
        // through its texel view. Each is one 32-bit word (VkBool32 or uint).
        let wordSize = MemoryLayout<UInt32>.size
        let values: [UInt32] = [depth == .opaque ? VK_TRUE : VK_FALSE, stencilClip != nil ? VK_TRUE : VK_FALSE,
                                material.paint.rawValue, material.coverage.rawValue,
                                device.readsInstancesAsTexels ? VK_TRUE : VK_FALSE]
        let entries = values.indices.map { VkSpecializationMapEntry(constantID: UInt32($0), offset: UInt32($0 * wordSize), size: wordSize) }
        var specialization = VkSpecializationInfo()
        specialization.mapEntryCount = UInt32(entries.count)
        specialization.pMapEntries = UnsafePointer(arena.pointer(to: entries))
        specialization.dataSize = wordSize * values.count
        specialization.pData = UnsafeRawPointer(arena.pointer(to: values))
        let specializationPointer = UnsafePointer(arena.pointer(to: specialization))
        let stages = [(VK_SHADER_STAGE_VERTEX_BIT, vertex), (VK_SHADER_STAGE_FRAGMENT_BIT, fragment)].map { stage, module in
            var info = VkPipelineShaderStageCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO
            info.stage = stage
            info.module = module
            info.pName = entry
            // The vertex shader reads constant 3 (coverage) too: only derivative-free coverages need its shape frame.
            info.pSpecializationInfo = specializationPointer
            return info
        }
        var vertexInput = VkPipelineVertexInputStateCreateInfo()
        vertexInput.sType = VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO
        var inputAssembly = VkPipelineInputAssemblyStateCreateInfo()
        inputAssembly.sType = VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO
        inputAssembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST
        var viewport = VkPipelineViewportStateCreateInfo()
        viewport.sType = VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO
        viewport.viewportCount = 1
        viewport.scissorCount = 1
        var raster = VkPipelineRasterizationStateCreateInfo()
        raster.sType = VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO
        raster.polygonMode = VK_POLYGON_MODE_FILL
        raster.cullMode = VK_CULL_MODE_NONE.rawValue
        raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE
        raster.lineWidth = 1
        var multisample = VkPipelineMultisampleStateCreateInfo()
        multisample.sType = VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO
        multisample.rasterizationSamples = VkSampleCountFlagBits(subpass.samples)
        var blendAttachment = VkPipelineColorBlendAttachmentState()
        // Opaque-phase draws replace what is under them (alpha 1, coverage 1): no blending needed.
        blendAttachment.blendEnable = VkBool32(depth == .opaque ? VK_FALSE : VK_TRUE)
        let equation = blendMode.equation
        blendAttachment.srcColorBlendFactor = Self.vulkan(equation.color.source)
        blendAttachment.dstColorBlendFactor = Self.vulkan(equation.color.destination)
        blendAttachment.colorBlendOp = Self.vulkan(equation.colorOperation)
        blendAttachment.srcAlphaBlendFactor = Self.vulkan(equation.alpha.source)
        blendAttachment.dstAlphaBlendFactor = Self.vulkan(equation.alpha.destination)
        blendAttachment.alphaBlendOp = Self.vulkan(equation.alphaOperation)
        // A clip shape writes only the stencil.
        blendAttachment.colorWriteMask = stencilClip != nil ? 0 : VK_COLOR_COMPONENT_R_BIT.rawValue | VK_COLOR_COMPONENT_G_BIT.rawValue
            | VK_COLOR_COMPONENT_B_BIT.rawValue | VK_COLOR_COMPONENT_A_BIT.rawValue
        var blend = VkPipelineColorBlendStateCreateInfo()
        blend.sType = VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO
        blend.attachmentCount = 1
        blend.pAttachments = UnsafePointer(arena.pointer(to: blendAttachment))
        let dynamicStates = [VK_DYNAMIC_STATE_VIEWPORT, VK_DYNAMIC_STATE_SCISSOR] + (depth != nil ? [VK_DYNAMIC_STATE_STENCIL_REFERENCE] : [])
        var dynamic = VkPipelineDynamicStateCreateInfo()
        dynamic.sType = VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO
        dynamic.dynamicStateCount = UInt32(dynamicStates.count)
        dynamic.pDynamicStates = UnsafePointer(arena.pointer(to: dynamicStates))

        var info = VkGraphicsPipelineCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO
        info.stageCount = UInt32(stages.count)
        info.pStages = UnsafePointer(arena.pointer(to: stages))
        info.pVertexInputState = UnsafePointer(arena.pointer(to: vertexInput))
        info.pInputAssemblyState = UnsafePointer(arena.pointer(to: inputAssembly))
        info.pViewportState = UnsafePointer(arena.pointer(to: viewport))
        info.pRasterizationState = UnsafePointer(arena.pointer(to: raster))
        info.pMultisampleState = UnsafePointer(arena.pointer(to: multisample))
        info.pColorBlendState = UnsafePointer(arena.pointer(to: blend))
        if let depth, subpass.hasDepthStencilAttachment {
            var depthState = VkPipelineDepthStencilStateCreateInfo()
            depthState.sType = VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO
            depthState.depthTestEnable = VkBool32(depth == .none || !subpass.usesDepth ? VK_FALSE : VK_TRUE)
            depthState.depthWriteEnable = VkBool32((depth == .opaque || depth == .resolvedGroup) && subpass.usesDepth ? VK_TRUE : VK_FALSE)
            depthState.depthCompareOp = VK_COMPARE_OP_LESS
            depthState.minDepthBounds = 0
            depthState.maxDepthBounds = 1
            // Stencil: pass where the stencil equals the draw's clip level (the dynamic reference).
            var stencil = VkStencilOpState()
            stencil.failOp = VK_STENCIL_OP_KEEP
            stencil.depthFailOp = VK_STENCIL_OP_KEEP
            stencil.compareOp = VK_COMPARE_OP_EQUAL
            stencil.compareMask = 0xFF
            switch stencilClip {
            case nil:
                stencil.passOp = VK_STENCIL_OP_KEEP
                stencil.writeMask = 0
            case .push?:
                stencil.passOp = VK_STENCIL_OP_INCREMENT_AND_CLAMP
                stencil.writeMask = 0xFF
            case .pop?:
                stencil.passOp = VK_STENCIL_OP_DECREMENT_AND_CLAMP
                stencil.writeMask = 0xFF
            }
            depthState.stencilTestEnable = VkBool32(subpass.usesStencil ? VK_TRUE : VK_FALSE)
            depthState.front = stencil
            depthState.back = stencil
            info.pDepthStencilState = UnsafePointer(arena.pointer(to: depthState))
        }
        info.pDynamicState = UnsafePointer(arena.pointer(to: dynamic))
        info.layout = layout
        info.renderPass = renderPass
        info.subpass = subpass.index
        var pipeline: VkPipeline?
        try check(vkCreateGraphicsPipelines(device.handle, cache.handle, 1, &info, nil, &pipeline), "vkCreateGraphicsPipelines(layer quad)")
        cache.save()
        return pipeline!
    }

    static func vulkan(_ factor: BlendEquation.Factor) -> VkBlendFactor {
        switch factor {
        case .zero: VK_BLEND_FACTOR_ZERO
        case .one: VK_BLEND_FACTOR_ONE
        case .sourceColor: VK_BLEND_FACTOR_SRC_COLOR
        case .oneMinusSourceColor: VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR
        case .sourceAlpha: VK_BLEND_FACTOR_SRC_ALPHA
        case .oneMinusSourceAlpha: VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA
        case .destinationColor: VK_BLEND_FACTOR_DST_COLOR
        case .oneMinusDestinationColor: VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR
        case .destinationAlpha: VK_BLEND_FACTOR_DST_ALPHA
        case .oneMinusDestinationAlpha: VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA
        }
    }

    static func vulkan(_ operation: BlendEquation.Operation) -> VkBlendOp {
        switch operation {
        case .add: VK_BLEND_OP_ADD
        case .minimum: VK_BLEND_OP_MIN
        case .maximum: VK_BLEND_OP_MAX
        }
    }
}
