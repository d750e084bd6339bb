import CVulkan
@testable import LayerKitVulkan

/// One command buffer of `level` from `pool`, as the apps these tests play the part of allocate theirs
/// (`what` names it in the error when allocation fails).
func allocateAppCommandBuffer(_ device: VkDevice, pool: VkCommandPool?, level: VkCommandBufferLevel = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
                              _ what: String) throws -> VkCommandBuffer? {
    var allocation = VkCommandBufferAllocateInfo()
    allocation.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO
    allocation.commandPool = pool
    allocation.level = level
    allocation.commandBufferCount = 1
    var buffer: VkCommandBuffer?
    try check(vkAllocateCommandBuffers(device, &allocation, &buffer), "vkAllocateCommandBuffers(\(what))")
    return buffer
}
