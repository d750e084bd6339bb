import CVulkan

/// Names Vulkan objects and labels command-buffer regions through `VK_EXT_debug_utils`, so a validation
/// message or a frame capture reads "pass 0 · frame" instead of a handle (STYLE.md guideline 17).
///
/// Every call is a no-op when the instance lacks the extension. Cost: one driver call per name or label.
final class DebugLabels {
    private let device: VkDevice
    private let setName: PFN_vkSetDebugUtilsObjectNameEXT?
    private let beginLabel: PFN_vkCmdBeginDebugUtilsLabelEXT?
    private let endLabel: PFN_vkCmdEndDebugUtilsLabelEXT?

    init(instance: VulkanInstance, device: VkDevice) {
        self.device = device
        if instance.debugUtilsEnabled {
            setName = loadInstanceFunction(instance.handle, "vkSetDebugUtilsObjectNameEXT")
            beginLabel = loadInstanceFunction(instance.handle, "vkCmdBeginDebugUtilsLabelEXT")
            endLabel = loadInstanceFunction(instance.handle, "vkCmdEndDebugUtilsLabelEXT")
        } else {
            setName = nil
            beginLabel = nil
            endLabel = nil
        }
    }

    /// Gives `handle` (of Vulkan type `type`) a name.
    func name(_ handle: OpaquePointer?, _ type: VkObjectType, _ name: String) {
        guard let setName, let handle else { return }
        name.withCString { cName in
            var info = VkDebugUtilsObjectNameInfoEXT()
            info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_OBJECT_NAME_INFO_EXT
            info.objectType = type
            info.objectHandle = UInt64(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle))))
            info.pObjectName = cName
            _ = setName(device, &info)
        }
    }

    /// Opens a labelled region in `commandBuffer`; close it with `end(_:)`.
    func begin(_ commandBuffer: VkCommandBuffer, _ label: String) {
        guard let beginLabel else { return }
        label.withCString { cName in
            var info = VkDebugUtilsLabelEXT()
            info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_LABEL_EXT
            info.pLabelName = cName
            beginLabel(commandBuffer, &info)
        }
    }

    func end(_ commandBuffer: VkCommandBuffer) {
        endLabel?(commandBuffer)
    }
}
