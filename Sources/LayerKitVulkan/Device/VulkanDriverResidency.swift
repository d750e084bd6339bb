import CVulkan

/// Keeps the Vulkan driver's library loaded for the rest of the process once LayerKit has made an
/// instance of its own.
///
/// Why: the loader opens the driver's library for each instance (and for each enumeration of instance
/// layers and extensions) and closes it when the last user goes. NVIDIA's driver holds thread-local
/// storage of the static kind, which glibc takes anew at each load and does not give back at the close:
/// on an H200 the 51st renderer made and dropped in one process found no driver ("cannot allocate memory
/// in static TLS block", then `VK_ERROR_INCOMPATIBLE_DRIVER`). One instance that is never destroyed keeps
/// the library's reference count above zero, so later opens and closes only count. It has no layers, no
/// extensions and no device: it draws nothing and costs the loader's bookkeeping for one instance.
///
/// Not made for a renderer on an app's instance (`VulkanInstance(borrowing:)`): the app's instance keeps
/// the driver loaded, and LayerKit creates nothing there. Not counted by `VulkanCensus`, which counts the
/// instances and devices renderers use.
enum VulkanDriverResidency {
    /// Whether the resident instance exists; evaluated once, on first use, under Swift's lazy-global lock.
    private static let resident: Bool = {
        var app = VkApplicationInfo()
        app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO
        app.apiVersion = VulkanInstance.apiVersion
        return withUnsafePointer(to: &app) { app in
            var info = VkInstanceCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO
            info.pApplicationInfo = app
            var instance: VkInstance?
            // Deliberately never destroyed. Failure is harmless: the instance LayerKit makes next reports it.
            return vkCreateInstance(&info, nil, &instance) == VK_SUCCESS
        }
    }()

    /// Makes the resident instance if it does not exist yet.
    static func keepDriverLoaded() {
        _ = resident
    }
}
