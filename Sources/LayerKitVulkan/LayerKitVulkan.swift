// LayerKitVulkan: executes render graphs with Vulkan; `CARenderer`, the headless host.
//
// Does NOT: decide what to draw (LayerKitRender does), or touch the model tree.
@_exported import LayerKit
// `CARenderer.lastFrameStatistics` and `debugOptions` are LayerKitRender's `FrameStatistics` and `DebugOptions`.
@_exported import LayerKitRender
