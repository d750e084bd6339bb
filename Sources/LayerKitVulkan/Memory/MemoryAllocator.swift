import CVulkan

/// A range of a `MemoryBlock` bound to one buffer or image.
struct MemoryAllocation {
    let block: MemoryBlock
    let offset: UInt64
    let size: UInt64
    let kind: MemoryAllocator.ResourceKind

    var memory: VkDeviceMemory { block.memory }
    /// The allocation's bytes when the block is host-visible.
    var mapped: UnsafeMutableRawPointer? { block.mapped.map { $0 + Int(offset) } }
}

/// Sub-allocates buffers and images from large `VkDeviceMemory` blocks, so creating a texture never calls
/// `vkAllocateMemory`.
///
/// Input: memory requirements, required and preferred property flags, and whether the resource is
/// linear (buffers) or optimal-tiling (images). Output: a `MemoryAllocation`.
/// Algorithm: one pool of 64 MiB blocks per (memory type, linear/optimal) — keeping linear and optimal
/// resources in separate blocks sidesteps `bufferImageGranularity` — each block a first-fit free list.
/// A request over half a block gets a dedicated block. Empty blocks beyond the first of a pool are freed.
/// Cost: O(blocks × free ranges) per call. Not thread-safe: the render thread owns it.
final class MemoryAllocator {
    static let blockSize: UInt64 = 64 << 20

    enum ResourceKind: Hashable { case linear, optimal }

    private struct PoolKey: Hashable {
        let memoryTypeIndex: UInt32
        let kind: ResourceKind
    }

    private let device: VulkanDevice
    private var pools: [PoolKey: [MemoryBlock]] = [:]
    private var dedicated: [ObjectIdentifier: MemoryBlock] = [:]

    /// Bytes of the allocations alive now.
    private(set) var usedBytes: UInt64 = 0
    /// Test hook: allocations that would take `usedBytes` past this fail as the driver's
    /// `VK_ERROR_OUT_OF_DEVICE_MEMORY` would, so memory-pressure handling can be tested on any device.
    var injectedLimit: UInt64?

    init(device: VulkanDevice) {
        self.device = device
    }

    /// Blocks currently allocated from the driver, dedicated ones included.
    var blockCount: Int { pools.values.reduce(0) { $0 + $1.count } + dedicated.count }

    /// Bytes allocated from the driver.
    var reservedBytes: UInt64 {
        pools.values.joined().reduce(0) { $0 + $1.size } + dedicated.values.reduce(0) { $0 + $1.size }
    }

    func allocate(
        _ requirements: VkMemoryRequirements, required: VkMemoryPropertyFlags, preferred: VkMemoryPropertyFlags = 0,
        kind: ResourceKind, name: String
    ) throws -> MemoryAllocation {
        let typeIndex = try device.memoryTypeIndex(typeBits: requirements.memoryTypeBits, required: required, preferred: preferred)
        let size = max(requirements.size, 1)
        if let injectedLimit, usedBytes + size > injectedLimit {
            throw VulkanError.call("vkAllocateMemory(\(name), \(size) bytes; injected limit \(injectedLimit))",
                                   result: VK_ERROR_OUT_OF_DEVICE_MEMORY.rawValue)
        }
        let allocation = try suballocate(size: size, alignment: max(requirements.alignment, 1), typeIndex: typeIndex, kind: kind, name: name)
        usedBytes += allocation.size
        return allocation
    }

    private func suballocate(size: UInt64, alignment: UInt64, typeIndex: UInt32, kind: ResourceKind, name: String) throws -> MemoryAllocation {
        if size > Self.blockSize / 2 {
            let block = try MemoryBlock(device: device, size: size, memoryTypeIndex: typeIndex, dedicated: true, name: "dedicated · \(name)")
            dedicated[ObjectIdentifier(block)] = block
            _ = block.allocate(size: size, alignment: 1)
            return MemoryAllocation(block: block, offset: 0, size: size, kind: kind)
        }
        let key = PoolKey(memoryTypeIndex: typeIndex, kind: kind)
        for block in pools[key, default: []] {
            if let offset = block.allocate(size: size, alignment: alignment) {
                return MemoryAllocation(block: block, offset: offset, size: size, kind: kind)
            }
        }
        let blockName = "memory block \(pools[key, default: []].count) · type \(typeIndex) · \(kind)"
        let block = try MemoryBlock(device: device, size: Self.blockSize, memoryTypeIndex: typeIndex, dedicated: false, name: blockName)
        pools[key, default: []].append(block)
        guard let offset = block.allocate(size: size, alignment: alignment) else {
            preconditionFailure("a fresh \(Self.blockSize)-byte block cannot hold \(size) bytes")
        }
        return MemoryAllocation(block: block, offset: offset, size: size, kind: kind)
    }

    /// Returns an allocation. The caller has already destroyed the resource bound to it.
    func free(_ allocation: MemoryAllocation) {
        let block = allocation.block
        usedBytes -= allocation.size
        block.free(offset: allocation.offset, size: allocation.size)
        guard block.isEmpty else { return }
        if block.isDedicated {
            dedicated[ObjectIdentifier(block)] = nil
            return
        }
        let key = PoolKey(memoryTypeIndex: block.memoryTypeIndex, kind: allocation.kind)
        if var blocks = pools[key], blocks.count > 1, let index = blocks.firstIndex(where: { $0 === block }) {
            blocks.remove(at: index)
            pools[key] = blocks
        }
    }
}
