import CVulkan

/// Allocates descriptor sets of one layout from a growing list of pools (256 sets each); sets can be freed
/// one at a time.
///
/// Cost: one `vkAllocateDescriptorSets` per set; a new pool when the current ones are full.
final class DescriptorAllocator {
    static let setsPerPool: UInt32 = 256

    /// A set and the pool it came from (needed to free it).
    struct Allocation {
        let set: VkDescriptorSet
        let pool: VkDescriptorPool
    }

    private let device: VulkanDevice
    private let layout: VkDescriptorSetLayout
    /// The descriptors of one set, by type (each pool holds `setsPerPool` times as many).
    private let types: [VkDescriptorType]
    private let name: String
    private var pools: [VkDescriptorPool] = []

    init(device: VulkanDevice, layout: VkDescriptorSetLayout, types: [VkDescriptorType], name: String) {
        self.device = device
        self.layout = layout
        self.types = types
        self.name = name
    }

    deinit {
        for pool in pools { vkDestroyDescriptorPool(device.handle, pool, nil) }
    }

    func allocate(name setName: String) throws -> Allocation {
        for pool in pools.reversed() {
            if let set = try tryAllocate(from: pool, setName: setName) { return Allocation(set: set, pool: pool) }
        }
        let pool = try makePool()
        guard let set = try tryAllocate(from: pool, setName: setName) else {
            throw VulkanError.call("vkAllocateDescriptorSets(\(setName)) from a fresh pool", result: VK_ERROR_OUT_OF_POOL_MEMORY.rawValue)
        }
        return Allocation(set: set, pool: pool)
    }

    /// Frees a set. The caller guarantees no pending command buffer uses it.
    func free(_ allocation: Allocation) {
        var set: VkDescriptorSet? = allocation.set
        _ = vkFreeDescriptorSets(device.handle, allocation.pool, 1, &set)
    }

    private func tryAllocate(from pool: VkDescriptorPool, setName: String) throws -> VkDescriptorSet? {
        var layout: VkDescriptorSetLayout? = self.layout
        var info = VkDescriptorSetAllocateInfo()
        info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO
        info.descriptorPool = pool
        info.descriptorSetCount = 1
        var set: VkDescriptorSet?
        let result = withUnsafePointer(to: &layout) { layoutPointer in
            info.pSetLayouts = layoutPointer
            return vkAllocateDescriptorSets(device.handle, &info, &set)
        }
        if result == VK_ERROR_OUT_OF_POOL_MEMORY || result == VK_ERROR_FRAGMENTED_POOL { return nil }
        try check(result, "vkAllocateDescriptorSets(\(setName))")
        device.labels.name(set, VK_OBJECT_TYPE_DESCRIPTOR_SET, setName)
        return set
    }

    private func makePool() throws -> VkDescriptorPool {
        let sizes = types.map { VkDescriptorPoolSize(type: $0, descriptorCount: Self.setsPerPool) }
        var info = VkDescriptorPoolCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO
        info.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT.rawValue
        info.maxSets = Self.setsPerPool
        info.poolSizeCount = UInt32(sizes.count)
        var pool: VkDescriptorPool?
        try sizes.withUnsafeBufferPointer { sizePointer in
            info.pPoolSizes = sizePointer.baseAddress
            try check(vkCreateDescriptorPool(device.handle, &info, nil, &pool), "vkCreateDescriptorPool(\(name))")
        }
        device.labels.name(pool, VK_OBJECT_TYPE_DESCRIPTOR_POOL, "\(name) pool \(pools.count)")
        pools.append(pool!)
        return pool!
    }
}
