// LayerKitSDL: an SDL2 window with a Vulkan swapchain that hosts a layer tree.
//
// Does NOT: draw anything itself; it owns the window, the event loop and the implicit commit.
@_exported import LayerKitVulkan
