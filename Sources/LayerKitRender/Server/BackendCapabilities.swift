/// What a backend's frame target and device offer the frames built for it: the switches of
/// `DrawListCompiler` and `RenderGraphBuilder` that depend on the backend, set in one place
/// (`FrameProducer.init(builder:capabilities:)`) for every host — a headless renderer and a window alike.
///
/// The default is the most conservative backend: a color-only frame target (painter's order, analytic
/// clips only, in surfaces too), no atlas, 16,384-pixel textures and surfaces.
package struct BackendCapabilities: Hashable, Sendable {
    /// The frame target has a depth-stencil attachment: the frame pass may be depth-ordered (opaque
    /// content front to back with a depth test) and clipped by stencil where analytic clips are not
    /// enough (`StencilClipCommand`).
    package var depthStencilAttachment = false
    /// Offscreen surfaces get a stencil where a pass needs one: their passes may be clipped by stencil too.
    package var surfaceStencil = false
    /// Small images may be packed into atlas pages (`ImageAtlas`).
    package var imageAtlas = false
    /// The largest texture side the device samples; larger images are tiled (`ImageTiling`).
    package var maxTextureSize = 16_384
    /// The largest offscreen surface side the device draws into and samples.
    package var maxSurfaceSize = 16_384

    package init(depthStencilAttachment: Bool = false, surfaceStencil: Bool = false, imageAtlas: Bool = false,
                 maxTextureSize: Int = 16_384, maxSurfaceSize: Int = 16_384) {
        self.depthStencilAttachment = depthStencilAttachment
        self.surfaceStencil = surfaceStencil
        self.imageAtlas = imageAtlas
        self.maxTextureSize = maxTextureSize
        self.maxSurfaceSize = maxSurfaceSize
    }
}
