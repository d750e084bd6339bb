import CVulkan

/// The logical device LayerKit renders with: one graphics queue, the physical device's limits and memory
/// types, and the debug-utils naming functions when the instance has them.
///
/// Input: an instance and a chosen physical device. Output: `handle`, `queue`. Cost: once per context.
final class VulkanDevice {
    let instance: VulkanInstance
    let physicalDevice: VkPhysicalDevice
    let handle: VkDevice
    let queue: VkQueue
    let queueFamily: UInt32
    let properties: VkPhysicalDeviceProperties
    let memoryProperties: VkPhysicalDeviceMemoryProperties
    let labels: DebugLabels

    /// Whether pipeline-statistics queries are enabled (the feature `pipelineStatisticsQuery`), so
    /// fragment-shader invocations can be counted; false on devices without it.
    let supportsPipelineStatistics: Bool
    /// Resets queries from the host (`VK_EXT_host_query_reset`, enabled where the driver offers it; nil
    /// on a borrowed device). `GPUQueries` resets its pools with it so that a frame's command buffer
    /// holds no command before its first render pass: lavapipe waits for all earlier rendering at every
    /// pipeline barrier but one that opens (or closes) a command buffer, and every render pass begins
    /// and ends with one (Mesa's common render pass emulation).
    let resetQueryPool: PFN_vkResetQueryPool?
    /// Whether the shaders read instances through a uniform texel buffer (R32G32B32A32_UINT) rather
    /// than the storage buffer they lie in: where a texel view can reach every instance a storage buffer
    /// can (`maxTexelBufferElements` 16-byte texels cover `maxStorageBufferRange`) and the format is one.
    /// lavapipe loads a storage buffer at a per-vertex address one lane at a time, a loop with a branch
    /// per lane and per load; a texel fetch is one gather. The fragment shader reads gradient stops and
    /// colour matrices the same way. Read when a pipeline is made; tests turn it off before the first
    /// frame to draw through the storage buffer.
    var readsInstancesAsTexels: Bool
    /// The format of the instance buffer's texel view: four 32-bit words a texel, read as bits.
    static let instanceTexelFormat = VK_FORMAT_R32G32B32A32_UINT

    private static func readsInstancesAsTexels(_ physicalDevice: VkPhysicalDevice, limits: VkPhysicalDeviceLimits) -> Bool {
        var format = VkFormatProperties()
        vkGetPhysicalDeviceFormatProperties(physicalDevice, instanceTexelFormat, &format)
        return format.bufferFeatures & VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT.rawValue != 0
            && UInt64(limits.maxTexelBufferElements) * 16 >= UInt64(limits.maxStorageBufferRange)
    }
    /// Valid bits of the queue's timestamps; 0 when it writes none (`GPUQueries` then skips timing).
    let timestampValidBits: UInt32
    /// The format of frame targets' depth-stencil attachment (depth-ordered passes, stencil clips): the
    /// first of D24_UNORM_S8_UINT and D32_SFLOAT_S8_UINT that can be a depth-stencil attachment (Vulkan
    /// guarantees one of them).
    ///
    /// D24S8 first: it takes 4 bytes a pixel where D32S8 takes 8 (lavapipe, and GPUs that keep stencil
    /// beside depth), so clearing it every frame touches half the memory — clearing D32S8 was 6 % of
    /// the CPU of a `city` window on lavapipe. It loses nothing: a depth-ordered pass's depths are
    /// (n − i)/(n + 1) as 32-bit floats (`DrawListCompiler`), whose spacing near 1 (2⁻²⁴) is the unorm's.
    let depthStencilFormat: VkFormat
    /// The format of offscreen surfaces' stencil (stencil clips only, no depth): S8_UINT where it can be a
    /// depth-stencil attachment (a quarter of the memory), else `depthStencilFormat`.
    let surfaceStencilFormat: VkFormat
    /// Bytes per pixel of `surfaceStencilFormat` as offscreen memory counts it (1, 4 or 8).
    var surfaceStencilBytesPerPixel: Int {
        switch surfaceStencilFormat {
        case VK_FORMAT_S8_UINT: 1
        case VK_FORMAT_D24_UNORM_S8_UINT: 4
        default: 8
        }
    }

    var name: String { fixedString(properties.deviceName) }
    var limits: VkPhysicalDeviceLimits { properties.limits }
    /// Nanoseconds per timestamp tick.
    var timestampPeriod: Float { properties.limits.timestampPeriod }
    /// Whether GPU time can be measured: the queue writes timestamps and graphics queues may (the limit
    /// `timestampComputeAndGraphics`, or a family that reports valid bits).
    var supportsTimestamps: Bool { timestampValidBits > 0 && timestampPeriod > 0 }

    /// Whether LayerKit made the device (and destroys it); an app's device is only borrowed.
    private let ownsHandle: Bool

    /// An app's device, borrowed (`CARenderer(vulkanTarget:)`): LayerKit uses queue `queueIndex` of
    /// `queueFamily`, assumes no optional feature (no pipeline statistics), and never destroys the device.
    init(borrowing device: VkDevice, physicalDevice: VkPhysicalDevice, queueFamily: UInt32, queueIndex: UInt32,
         instance: VulkanInstance) {
        self.instance = instance
        self.physicalDevice = physicalDevice
        self.queueFamily = queueFamily
        self.handle = device
        ownsHandle = false
        var queue: VkQueue?
        vkGetDeviceQueue(device, queueFamily, queueIndex, &queue)
        self.queue = queue!
        (properties, memoryProperties, timestampValidBits, depthStencilFormat, surfaceStencilFormat) =
            Self.describe(physicalDevice, queueFamily: queueFamily)
        supportsPipelineStatistics = false
        resetQueryPool = nil
        readsInstancesAsTexels = Self.readsInstancesAsTexels(physicalDevice, limits: properties.limits)
        labels = DebugLabels(instance: instance, device: device)
    }

    /// The device extensions `physicalDevice` offers (none when the query fails).
    private static func extensionNames(of physicalDevice: VkPhysicalDevice) -> Set<String> {
        var count: UInt32 = 0
        guard vkEnumerateDeviceExtensionProperties(physicalDevice, nil, &count, nil) == VK_SUCCESS else { return [] }
        var properties = [VkExtensionProperties](repeating: VkExtensionProperties(), count: Int(count))
        guard vkEnumerateDeviceExtensionProperties(physicalDevice, nil, &count, &properties) == VK_SUCCESS else { return [] }
        return Set(properties.prefix(Int(count)).map { fixedString($0.extensionName) })
    }

    /// Whether `physicalDevice` offers the feature `hostQueryReset` (its extension offered alone does not say).
    private static func supportsHostQueryReset(_ physicalDevice: VkPhysicalDevice) -> Bool {
        var hostReset = VkPhysicalDeviceHostQueryResetFeatures()
        hostReset.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES
        return withUnsafeMutablePointer(to: &hostReset) { pointer in
            var features = VkPhysicalDeviceFeatures2()
            features.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2
            features.pNext = UnsafeMutableRawPointer(pointer)
            vkGetPhysicalDeviceFeatures2(physicalDevice, &features)
            return pointer.pointee.hostQueryReset == VkBool32(VK_TRUE)
        }
    }

    /// What LayerKit needs to know of `physicalDevice`: its properties and memory, the queue family's
    /// timestamp bits, and the depth-stencil formats it draws with.
    private static func describe(_ physicalDevice: VkPhysicalDevice, queueFamily family: UInt32)
        -> (VkPhysicalDeviceProperties, VkPhysicalDeviceMemoryProperties, UInt32, VkFormat, VkFormat) {
        var properties = VkPhysicalDeviceProperties()
        vkGetPhysicalDeviceProperties(physicalDevice, &properties)
        var memoryProperties = VkPhysicalDeviceMemoryProperties()
        vkGetPhysicalDeviceMemoryProperties(physicalDevice, &memoryProperties)
        var familyCount: UInt32 = 0
        vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &familyCount, nil)
        var families = [VkQueueFamilyProperties](repeating: VkQueueFamilyProperties(), count: Int(familyCount))
        vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &familyCount, &families)
        let timestampBits = Int(family) < families.count ? families[Int(family)].timestampValidBits : 0
        let depthStencil = [VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D32_SFLOAT_S8_UINT].first { format in
            var formatProperties = VkFormatProperties()
            vkGetPhysicalDeviceFormatProperties(physicalDevice, format, &formatProperties)
            return formatProperties.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT.rawValue != 0
        } ?? VK_FORMAT_D32_SFLOAT_S8_UINT
        var stencilOnly = VkFormatProperties()
        vkGetPhysicalDeviceFormatProperties(physicalDevice, VK_FORMAT_S8_UINT, &stencilOnly)
        let surfaceStencil = stencilOnly.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT.rawValue != 0
            ? VK_FORMAT_S8_UINT : depthStencil
        return (properties, memoryProperties, timestampBits, depthStencil, surfaceStencil)
    }

    /// The extension LayerKit's own devices enable, with its feature, where the driver offers it:
    /// timeline semaphores, which an app drawing with LayerKit on such a device (tests stand in for one)
    /// signals so that a recorded frame costs no submission of LayerKit's (`CompletionTimeline`).
    static let timelineSemaphoreExtension = "VK_KHR_timeline_semaphore"
    /// The extension that lets the host reset queries (`resetQueryPool`), enabled where offered.
    static let hostQueryResetExtension = "VK_EXT_host_query_reset"

    /// - Parameter extensions: device extensions to enable (`VK_KHR_swapchain` for a window).
    init(instance: VulkanInstance, candidate: PhysicalDeviceCandidate, extensions: [String] = []) throws {
        guard let physicalDevice = candidate.handle, let family = candidate.graphicsQueueFamily else {
            throw VulkanError.noUsableDevice("\(candidate.name) has no graphics queue")
        }
        self.instance = instance
        self.physicalDevice = physicalDevice
        self.queueFamily = family
        ownsHandle = true
        (properties, memoryProperties, timestampValidBits, depthStencilFormat, surfaceStencilFormat) =
            Self.describe(physicalDevice, queueFamily: family)
        var available = VkPhysicalDeviceFeatures()
        vkGetPhysicalDeviceFeatures(physicalDevice, &available)
        var enabled = VkPhysicalDeviceFeatures()
        enabled.pipelineStatisticsQuery = available.pipelineStatisticsQuery
        supportsPipelineStatistics = available.pipelineStatisticsQuery == VkBool32(VK_TRUE)
        readsInstancesAsTexels = Self.readsInstancesAsTexels(physicalDevice, limits: properties.limits)

        let arena = CreateInfoArena()
        var extensions = extensions
        var timeline = VkPhysicalDeviceTimelineSemaphoreFeatures()
        timeline.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES
        timeline.timelineSemaphore = VkBool32(VK_TRUE)
        let offered = Self.extensionNames(of: physicalDevice)
        let offersTimeline = offered.contains(Self.timelineSemaphoreExtension)
        if offersTimeline && !extensions.contains(Self.timelineSemaphoreExtension) { extensions.append(Self.timelineSemaphoreExtension) }
        var hostReset = VkPhysicalDeviceHostQueryResetFeatures()
        hostReset.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES
        let offersHostReset = offered.contains(Self.hostQueryResetExtension) && Self.supportsHostQueryReset(physicalDevice)
        if offersHostReset {
            hostReset.hostQueryReset = VkBool32(VK_TRUE)
            if !extensions.contains(Self.hostQueryResetExtension) { extensions.append(Self.hostQueryResetExtension) }
        }
        var queueInfo = VkDeviceQueueCreateInfo()
        queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO
        queueInfo.queueFamilyIndex = family
        queueInfo.queueCount = 1
        queueInfo.pQueuePriorities = UnsafePointer(arena.pointer(to: Float(1)))
        var info = VkDeviceCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO
        info.queueCreateInfoCount = 1
        info.pQueueCreateInfos = UnsafePointer(arena.pointer(to: queueInfo))
        info.pEnabledFeatures = UnsafePointer(arena.pointer(to: enabled))
        // The feature structures chained: host query reset, then timeline semaphores.
        var chain: UnsafeMutableRawPointer?
        if offersTimeline {
            chain = UnsafeMutableRawPointer(arena.pointer(to: timeline))
        }
        if offersHostReset {
            hostReset.pNext = chain
            chain = UnsafeMutableRawPointer(arena.pointer(to: hostReset))
        }
        info.pNext = UnsafeRawPointer(chain)
        info.enabledExtensionCount = UInt32(extensions.count)
        info.ppEnabledExtensionNames = UnsafePointer(arena.cStrings(extensions))
        var device: VkDevice?
        try check(vkCreateDevice(physicalDevice, &info, nil, &device), "vkCreateDevice(\(candidate.name))")
        guard let device else { throw VulkanError.noUsableDevice("vkCreateDevice returned no device") }
        VulkanCensus.deviceCreated()
        self.handle = device
        var queue: VkQueue?
        vkGetDeviceQueue(device, family, 0, &queue)
        self.queue = queue!
        resetQueryPool = offersHostReset
            ? unsafeBitCast(vkGetDeviceProcAddr(device, "vkResetQueryPoolEXT"), to: PFN_vkResetQueryPool?.self) : nil
        self.labels = DebugLabels(instance: instance, device: device)
    }

    deinit {
        guard ownsHandle else { return }
        vkDeviceWaitIdle(handle)
        vkDestroyDevice(handle, nil)
    }

    /// Blocks until the device has finished all submitted work.
    func waitIdle() throws {
        try check(vkDeviceWaitIdle(handle), "vkDeviceWaitIdle")
    }

    /// The first memory type in `typeBits` with all of `required` (and, when possible, `preferred`) flags.
    func memoryTypeIndex(typeBits: UInt32, required: VkMemoryPropertyFlags, preferred: VkMemoryPropertyFlags = 0) throws -> UInt32 {
        let types = withUnsafeBytes(of: memoryProperties.memoryTypes) { Array($0.bindMemory(to: VkMemoryType.self)) }
        let count = Int(memoryProperties.memoryTypeCount)
        func find(_ flags: VkMemoryPropertyFlags) -> UInt32? {
            (0..<count).first { index in
                typeBits & (1 << UInt32(index)) != 0 && types[index].propertyFlags & flags == flags
            }.map { UInt32($0) }
        }
        if let index = find(required | preferred) ?? find(required) { return index }
        throw VulkanError.noSuitableMemoryType(typeBits: typeBits, required: required)
    }
}
