import CVulkan

/// A `VkSurfaceKHR`: the window a swapchain presents to, created by the window host (SDL) on this
/// context's instance, and what the device can do with it.
///
/// Input: a context whose instance has the window system's surface extensions, and a function that
/// creates the surface from the instance handle (`SDL_Vulkan_CreateSurface`). Output: the surface, its
/// capabilities, formats and present modes. The surface is destroyed before its instance (it holds the
/// context). Cost: a window-system round trip per capabilities query.
/// Sendable: its handles are immutable; queries go to the driver, which allows them from any thread, and
/// the swapchain using it is made on the render thread only.
package final class PresentationSurface: @unchecked Sendable {
    let context: VulkanContext
    let handle: VkSurfaceKHR

    /// - Parameter create: makes the surface from the `VkInstance` (passed as an opaque pointer, the
    ///   type SDL's headers use), or throws.
    /// - Throws: what `create` throws; `VulkanError.noUsableDevice` when the context's queue cannot present
    ///   to the surface.
    package init(context: VulkanContext, create: (_ instance: OpaquePointer) throws -> OpaquePointer) throws {
        let surface = try create(context.instance.handle)
        self.context = context
        self.handle = surface
        var supported: VkBool32 = 0
        try check(
            vkGetPhysicalDeviceSurfaceSupportKHR(context.device.physicalDevice, context.device.queueFamily, surface, &supported),
            "vkGetPhysicalDeviceSurfaceSupportKHR")
        guard supported != 0 else {
            throw VulkanError.noUsableDevice("\(context.deviceName) cannot present to this window from its graphics queue")
        }
    }

    deinit {
        vkDestroySurfaceKHR(context.instance.handle, handle, nil)
    }

    /// Extent limits, image counts, transforms and usage the surface supports now.
    func capabilities() throws -> VkSurfaceCapabilitiesKHR {
        var capabilities = VkSurfaceCapabilitiesKHR()
        try check(
            vkGetPhysicalDeviceSurfaceCapabilitiesKHR(context.device.physicalDevice, handle, &capabilities),
            "vkGetPhysicalDeviceSurfaceCapabilitiesKHR")
        return capabilities
    }

    /// The formats and color spaces the surface accepts.
    func formats() throws -> [VkSurfaceFormatKHR] {
        var count: UInt32 = 0
        let physical = context.device.physicalDevice
        try check(vkGetPhysicalDeviceSurfaceFormatsKHR(physical, handle, &count, nil), "vkGetPhysicalDeviceSurfaceFormatsKHR")
        var formats = [VkSurfaceFormatKHR](repeating: VkSurfaceFormatKHR(), count: Int(count))
        try check(vkGetPhysicalDeviceSurfaceFormatsKHR(physical, handle, &count, &formats), "vkGetPhysicalDeviceSurfaceFormatsKHR")
        return Array(formats.prefix(Int(count)))
    }

    /// The present modes the surface supports that LayerKit knows (FIFO is always among them).
    func presentModes() throws -> [PresentMode] {
        var count: UInt32 = 0
        let physical = context.device.physicalDevice
        try check(vkGetPhysicalDeviceSurfacePresentModesKHR(physical, handle, &count, nil), "vkGetPhysicalDeviceSurfacePresentModesKHR")
        var modes = [VkPresentModeKHR](repeating: VK_PRESENT_MODE_FIFO_KHR, count: Int(count))
        try check(vkGetPhysicalDeviceSurfacePresentModesKHR(physical, handle, &count, &modes), "vkGetPhysicalDeviceSurfacePresentModesKHR")
        return modes.prefix(Int(count)).compactMap(PresentMode.init)
    }
}
