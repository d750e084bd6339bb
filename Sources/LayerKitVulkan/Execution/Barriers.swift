import CVulkan

/// Pipeline barriers, spelled once. Every barrier names both sides of the dependency (stages and access)
/// so synchronization validation can check it.
enum Barriers {
    /// A layout transition (or plain memory dependency) on `range` of `image`.
    static func image(
        _ commandBuffer: VkCommandBuffer, _ image: VkImage, range: VkImageSubresourceRange,
        from oldLayout: VkImageLayout, to newLayout: VkImageLayout,
        source: (stage: VkPipelineStageFlagBits, access: VkAccessFlags),
        destination: (stage: VkPipelineStageFlagBits, access: VkAccessFlags)
    ) {
        var barrier = VkImageMemoryBarrier()
        barrier.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER
        barrier.srcAccessMask = source.access
        barrier.dstAccessMask = destination.access
        barrier.oldLayout = oldLayout
        barrier.newLayout = newLayout
        barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
        barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
        barrier.image = image
        barrier.subresourceRange = range
        vkCmdPipelineBarrier(commandBuffer, source.stage.rawValue, destination.stage.rawValue, 0, 0, nil, 0, nil, 1, &barrier)
    }

    /// A memory dependency on all of `buffer`.
    static func buffer(
        _ commandBuffer: VkCommandBuffer, _ buffer: VkBuffer,
        source: (stage: VkPipelineStageFlagBits, access: VkAccessFlags),
        destination: (stage: VkPipelineStageFlagBits, access: VkAccessFlags)
    ) {
        var barrier = VkBufferMemoryBarrier()
        barrier.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER
        barrier.srcAccessMask = source.access
        barrier.dstAccessMask = destination.access
        barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
        barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
        barrier.buffer = buffer
        barrier.offset = 0
        barrier.size = VkDeviceSize(VK_WHOLE_SIZE)
        vkCmdPipelineBarrier(commandBuffer, source.stage.rawValue, destination.stage.rawValue, 0, 0, nil, 1, &barrier, 0, nil)
    }
}

/// Access masks as `VkAccessFlags`, for brevity at call sites.
enum Access {
    static let none: VkAccessFlags = 0
    static let transferWrite = VK_ACCESS_TRANSFER_WRITE_BIT.rawValue
    static let transferRead = VK_ACCESS_TRANSFER_READ_BIT.rawValue
    static let shaderRead = VK_ACCESS_SHADER_READ_BIT.rawValue
    static let colorWrite = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT.rawValue
    static let colorRead = VK_ACCESS_COLOR_ATTACHMENT_READ_BIT.rawValue
    static let hostRead = VK_ACCESS_HOST_READ_BIT.rawValue
    static let depthWrite = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT.rawValue
    static let depthRead = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT.rawValue
}
