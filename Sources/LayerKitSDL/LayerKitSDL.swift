// LayerKitSDL: hosts a layer tree in an SDL2 window presented through a Vulkan swapchain.
//
// What it does: opens the window (`LayerWindow`), sizes the root layer to it, runs the main-thread event
// loop (SDL events → pointer, key, resize and quit callbacks; one `CATransaction.flush()` per iteration,
// which commits the implicit transaction and delivers animation callbacks), and starts the render server
// whose thread draws and presents at the display's rate (`WindowExecutor`).
//
// Does NOT: draw anything itself (LayerKitRender decides what to draw, LayerKitVulkan draws it); render on
// the main thread; hit-test (apps call `rootLayer.hitTest(_:)` with the event's location); deliver text
// input, scroll-wheel, touch, gamepad or drag-and-drop events; route events between several windows
// (each window's loop handles only its own window's events and drops the others it drains); or fall back
// to headless rendering when there is no display (it throws `LayerWindowError.noDisplay`; hosts use
// `CARenderer` then).
@_exported import LayerKitVulkan
