import CSDL2
import LayerKitVulkan

/// SDL's Vulkan glue for one window: the instance extensions its surface needs, the surface, and the
/// drawable size in pixels.
///
/// Input: an SDL window created with `SDL_WINDOW_VULKAN`. Output: extension names for the
/// `VulkanContext`, a `PresentationSurface` on that context. The only file of LayerKitSDL that talks to
/// SDL about Vulkan; SDL's `VkInstance`/`VkSurfaceKHR` are opaque pointers, the same values Vulkan uses.
enum SDLVulkanSurface {
    /// The instance extensions SDL needs to make a surface for `window` (`VK_KHR_surface` and the window
    /// system's, e.g. `VK_KHR_xlib_surface`).
    static func instanceExtensions(for window: OpaquePointer) throws -> [String] {
        var count: UInt32 = 0
        guard SDL_Vulkan_GetInstanceExtensions(window, &count, nil) == SDL_TRUE else {
            throw LayerWindowError.surfaceCreationFailed("SDL_Vulkan_GetInstanceExtensions: \(sdlErrorMessage())")
        }
        var names = [UnsafePointer<CChar>?](repeating: nil, count: Int(count))
        guard SDL_Vulkan_GetInstanceExtensions(window, &count, &names) == SDL_TRUE else {
            throw LayerWindowError.surfaceCreationFailed("SDL_Vulkan_GetInstanceExtensions: \(sdlErrorMessage())")
        }
        return names.prefix(Int(count)).compactMap { $0.map { String(cString: $0) } }
    }

    /// The window's Vulkan surface on `context`'s instance.
    static func makeSurface(for window: OpaquePointer, context: VulkanContext) throws -> PresentationSurface {
        try PresentationSurface(context: context) { instance in
            var surface: VkSurfaceKHR?
            guard SDL_Vulkan_CreateSurface(window, instance, &surface) == SDL_TRUE, let surface else {
                throw LayerWindowError.surfaceCreationFailed("SDL_Vulkan_CreateSurface: \(sdlErrorMessage())")
            }
            return surface
        }
    }

    /// The window's size in pixels (what the swapchain holds); 0×0 while minimized on some systems.
    static func drawableSize(of window: OpaquePointer) -> (width: Int, height: Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        SDL_Vulkan_GetDrawableSize(window, &width, &height)
        return (Int(width), Int(height))
    }
}
