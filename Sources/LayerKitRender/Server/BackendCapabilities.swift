/// What a backend's frame target and device offer the frames built for it: the switches of
/// `DrawListCompiler` and `RenderGraphBuilder` that depend on the backend, set in one place
/// (`FrameProducer.init(builder:capabilities:)`) for every host — a headless renderer and a window alike.
///
/// The default is the most conservative backend: a color-only frame target (painter's order, analytic
/// clips only, in surfaces too), no atlas, 16,384-pixel textures and surfaces.
package struct BackendCapabilities: Hashable, Sendable {
    /// The frame target has a depth buffer the frame may use: the frame pass may be depth-ordered (opaque
    /// content front to back with a depth test).
    package var frameDepth = false
    /// The frame target has a stencil the frame may use: it may be clipped by stencil where analytic
    /// clips are not enough (`StencilClipCommand`). An app's render pass may offer depth without stencil
    /// or the reverse (`CARenderer.VulkanRenderPass`); LayerKit's own frame targets offer both.
    package var frameStencil = false
    /// Offscreen surfaces get a stencil where a pass needs one: their passes may be clipped by stencil too.
    package var surfaceStencil = false
    /// Small images may be packed into atlas pages (`ImageAtlas`).
    package var imageAtlas = false
    /// The largest texture side the device samples; larger images are tiled (`ImageTiling`).
    package var maxTextureSize = 16_384
    /// The largest offscreen surface side the device draws into and samples.
    package var maxSurfaceSize = 16_384
    /// Each fragment the device rasterizes costs about what a shaded one does, also one the depth test then
    /// rejects: a CPU rasterizer (lavapipe) walks every 4×4 block of every quad. Opaque draws are then
    /// trimmed to what shows (`OcclusionTrimmer`). A GPU rejects hidden fragments in fixed-function
    /// hardware before shading (an H200 shaded 0.93 fragments per pixel of `city`, untrimmed and twelve
    /// layers deep), so there trimming would cost the render thread and spare nothing.
    package var rasterizerPaysForHiddenFragments = true

    package init(frameDepth: Bool = false, frameStencil: Bool = false, surfaceStencil: Bool = false, imageAtlas: Bool = false,
                 maxTextureSize: Int = 16_384, maxSurfaceSize: Int = 16_384, rasterizerPaysForHiddenFragments: Bool = true) {
        self.frameDepth = frameDepth
        self.frameStencil = frameStencil
        self.surfaceStencil = surfaceStencil
        self.imageAtlas = imageAtlas
        self.maxTextureSize = maxTextureSize
        self.maxSurfaceSize = maxSurfaceSize
        self.rasterizerPaysForHiddenFragments = rasterizerPaysForHiddenFragments
    }
}
