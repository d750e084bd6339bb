import CVulkan

/// What one frame in flight owns: a fence, a command pool and buffer, the frame's instance buffer and its
/// descriptor set, the quads' index buffer, the readback buffer, and the objects to release once the GPU
/// is done with the frame.
///
/// Life cycle: `beginReuse()` waits for the fence of the frame's previous submission (or, for a frame
/// recorded into an app's buffer, for the `completion` value the app's submission signals), drops its
/// deferred releases and resets the pool; the renderer records and submits with `fence`. With two contexts the CPU
/// records frame N+1 while the GPU runs frame N. Cost: one fence wait per frame (none when the GPU is ahead).
final class FrameContext {
    let index: Int
    let fence: VkFence
    let commandPool: VkCommandPool
    /// The frame's own command buffer.
    let ownCommandBuffer: VkCommandBuffer
    /// What this frame records into: its own buffer, or an app's (`FrameRecorder.beginFrame(recordingInto:)`).
    private(set) var commandBuffer: VkCommandBuffer
    /// Serial of the last submission recorded here; 0 before the first.
    var serial: UInt64 = 0
    /// For a frame recorded into an app's buffer whose submission signals a timeline (`CompletionTimeline`):
    /// the value that means the frame is done. `fence` then stays unsignalled until the slot's next
    /// submission of LayerKit's own.
    var completion: (timeline: CompletionTimeline, value: UInt64)?
    /// Per-frame instance data (`LayerInstance.stride` bytes per instance) and its set-0 descriptor.
    private(set) var instanceBuffer: GPUBuffer?
    /// The draw-list revision whose instances the buffer holds (`DrawListRevision`); nil: unknown.
    var instanceRevision: DrawListRevision?
    /// The uv scale (pass size / pooled image size) of each surface when the buffer was written.
    var instanceSurfaceScales: [SurfaceID: SIMD2<Float>] = [:]
    private(set) var instanceSet: DescriptorAllocator.Allocation?
    /// The quads' corner indices (`ensureQuadIndexCapacity`): quad k is the triangles (4k, 4k+1, 4k+2)
    /// and (4k+1, 4k+2, 4k+3), so each draw's vertices are its quads' four corners, not six list vertices.
    private(set) var quadIndexBuffer: GPUBuffer?
    /// Where the frame's image is copied for `readback()`.
    var readbackBuffer: GPUBuffer?
    /// Whether the last submission copied the target into `readbackBuffer`.
    var hasReadback = false
    /// The frame's GPU queries (fragments shaded, GPU time), made by the executor on first use.
    var queries: GPUQueries?
    /// Whether the frame being recorded in this slot is measured by the GPU (`FrameRecorder.gpuMeasurementInterval`).
    var measuresGPU = true
    private var deferredReleases: [AnyObject] = []
    private let device: VulkanDevice

    init(device: VulkanDevice, index: Int) throws {
        self.device = device
        self.index = index
        var fenceInfo = VkFenceCreateInfo()
        fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO
        fenceInfo.flags = VK_FENCE_CREATE_SIGNALED_BIT.rawValue
        var fence: VkFence?
        try check(vkCreateFence(device.handle, &fenceInfo, nil, &fence), "vkCreateFence(frame \(index))")
        self.fence = fence!
        var poolInfo = VkCommandPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
        poolInfo.flags = VK_COMMAND_POOL_CREATE_TRANSIENT_BIT.rawValue
        poolInfo.queueFamilyIndex = device.queueFamily
        var pool: VkCommandPool?
        let poolResult = vkCreateCommandPool(device.handle, &poolInfo, nil, &pool)
        if poolResult != VK_SUCCESS { vkDestroyFence(device.handle, self.fence, nil) }
        try check(poolResult, "vkCreateCommandPool(frame \(index))")
        self.commandPool = pool!
        var allocateInfo = VkCommandBufferAllocateInfo()
        allocateInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO
        allocateInfo.commandPool = commandPool
        allocateInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY
        allocateInfo.commandBufferCount = 1
        var commandBuffer: VkCommandBuffer?
        let bufferResult = vkAllocateCommandBuffers(device.handle, &allocateInfo, &commandBuffer)
        if bufferResult != VK_SUCCESS {
            vkDestroyCommandPool(device.handle, commandPool, nil)
            vkDestroyFence(device.handle, self.fence, nil)
        }
        try check(bufferResult, "vkAllocateCommandBuffers(frame \(index))")
        ownCommandBuffer = commandBuffer!
        self.commandBuffer = commandBuffer!
        device.labels.name(self.fence, VK_OBJECT_TYPE_FENCE, "frame \(index) fence")
        device.labels.name(commandPool, VK_OBJECT_TYPE_COMMAND_POOL, "frame \(index) command pool")
        device.labels.name(commandBuffer, VK_OBJECT_TYPE_COMMAND_BUFFER, "frame \(index) commands")
    }

    deinit {
        try? waitForCompletion()
        deferredReleases.removeAll()
        if let instanceTexelView { vkDestroyBufferView(device.handle, instanceTexelView, nil) }
        vkDestroyCommandPool(device.handle, commandPool, nil)
        vkDestroyFence(device.handle, fence, nil)
    }

    /// Blocks until the GPU has finished this context's last submission.
    func waitForCompletion() throws {
        if let completion { return try completion.timeline.wait(for: completion.value) }
        var fence: VkFence? = self.fence
        try check(vkWaitForFences(device.handle, 1, &fence, VkBool32(VK_TRUE), UInt64.max), "vkWaitForFences(frame \(index))")
    }

    /// Waits for the previous submission, releases what it deferred and readies the command buffer the
    /// frame records into: its own, or `appBuffer`.
    func beginReuse(recordingInto appBuffer: VkCommandBuffer? = nil) throws {
        try waitForCompletion()
        completion = nil
        deferredReleases.removeAll()
        try check(vkResetCommandPool(device.handle, commandPool, 0), "vkResetCommandPool(frame \(index))")
        var fence: VkFence? = self.fence
        try check(vkResetFences(device.handle, 1, &fence), "vkResetFences(frame \(index))")
        hasReadback = false
        commandBuffer = appBuffer ?? ownCommandBuffer
    }

    /// Keeps `object` alive until this frame's submission has completed.
    func deferRelease(_ object: AnyObject) {
        deferredReleases.append(object)
    }

    /// The instance buffer as 16-byte texels (R32G32B32A32_UINT), for the shaders (set 0, binding 1).
    private var instanceTexelView: VkBufferView?

    /// Makes sure the instance buffer holds `count` instances, growing it (to a power of two) if not, and
    /// points the set-0 descriptors at it: the storage buffer and its texel view (as much of it as the
    /// device lets a view reach; all of it where the shaders read through the view,
    /// `VulkanDevice.readsInstancesAsTexels`). Only called after `beginReuse()`, so nothing in flight uses
    /// either.
    func ensureInstanceCapacity(_ count: Int, stride: Int, allocator: MemoryAllocator, descriptors: DescriptorAllocator) throws {
        let needed = UInt64(max(count, 64) * stride)
        if let buffer = instanceBuffer, buffer.size >= needed { return }
        let size = UInt64(1) << UInt64(64 - (needed - 1).leadingZeroBitCount)
        let buffer = try GPUBuffer(
            device: device, allocator: allocator, size: size,
            usage: VK_BUFFER_USAGE_STORAGE_BUFFER_BIT.rawValue | VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT.rawValue,
            location: .streaming, name: "frame \(index) instances")
        if instanceSet == nil {
            instanceSet = try descriptors.allocate(name: "frame \(index) instances")
        }
        var viewInfo = VkBufferViewCreateInfo()
        viewInfo.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO
        viewInfo.buffer = buffer.handle
        viewInfo.format = VulkanDevice.instanceTexelFormat
        viewInfo.offset = 0
        viewInfo.range = min(size, UInt64(device.limits.maxTexelBufferElements) * 16)
        var view: VkBufferView?
        try check(vkCreateBufferView(device.handle, &viewInfo, nil, &view), "vkCreateBufferView(frame \(index) instance texels)")
        device.labels.name(view, VK_OBJECT_TYPE_BUFFER_VIEW, "frame \(index) instance texels")
        var bufferInfo = VkDescriptorBufferInfo(buffer: buffer.handle, offset: 0, range: VkDeviceSize(VK_WHOLE_SIZE))
        withUnsafePointer(to: &bufferInfo) { bufferPointer in
            withUnsafePointer(to: &view) { viewPointer in
                var writes = [VkWriteDescriptorSet](repeating: VkWriteDescriptorSet(), count: 2)
                for binding in writes.indices {
                    writes[binding].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET
                    writes[binding].dstSet = instanceSet!.set
                    writes[binding].dstBinding = UInt32(binding)
                    writes[binding].descriptorCount = 1
                    writes[binding].descriptorType = LayerPipeline.instanceSetTypes[binding]
                }
                writes[0].pBufferInfo = bufferPointer
                writes[1].pTexelBufferView = viewPointer
                vkUpdateDescriptorSets(device.handle, UInt32(writes.count), writes, 0, nil)
            }
        }
        // The old view's buffer is released with it: nothing in flight uses either.
        if let instanceTexelView { vkDestroyBufferView(device.handle, instanceTexelView, nil) }
        instanceTexelView = view
        instanceBuffer = buffer
        instanceRevision = nil
    }

    /// Corner indices of one quad, as `quadIndexBuffer` repeats them (plus 4k for quad k).
    static let quadCornerIndices: [UInt32] = [0, 1, 2, 1, 2, 3]

    /// Makes sure `quadIndexBuffer` indexes `count` quads, growing it (to a power of two) if not. Written
    /// once when made: the indices never change. Only called after `beginReuse()`, so nothing in flight
    /// uses the buffer it replaces.
    func ensureQuadIndexCapacity(_ count: Int, allocator: MemoryAllocator) throws {
        let indicesPerQuad = Self.quadCornerIndices.count
        let needed = UInt64(max(count, 64) * indicesPerQuad * MemoryLayout<UInt32>.stride)
        if let buffer = quadIndexBuffer, buffer.size >= needed { return }
        let size = UInt64(1) << UInt64(64 - (needed - 1).leadingZeroBitCount)
        let buffer = try GPUBuffer(
            device: device, allocator: allocator, size: size, usage: VK_BUFFER_USAGE_INDEX_BUFFER_BIT.rawValue,
            location: .streaming, name: "frame \(index) quad indices")
        guard let mapped = buffer.mapped else { preconditionFailure("frame \(index)'s quad index buffer is not mapped") }
        let indices = mapped.bindMemory(to: UInt32.self, capacity: Int(size) / MemoryLayout<UInt32>.stride)
        for quad in 0..<(Int(size) / (indicesPerQuad * MemoryLayout<UInt32>.stride)) {
            for (offset, corner) in Self.quadCornerIndices.enumerated() {
                indices[quad * indicesPerQuad + offset] = UInt32(4 * quad) + corner
            }
        }
        quadIndexBuffer = buffer
    }
}
