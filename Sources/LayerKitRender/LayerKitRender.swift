// LayerKitRender: the render server, the render tree and the backend-neutral render graph.
//
// Does NOT: import Vulkan, read model-thread state, or decide how a pass is recorded on a GPU.
@_exported import LayerKit
