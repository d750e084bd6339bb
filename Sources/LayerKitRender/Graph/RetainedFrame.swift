import LayerKit

/// The last frame the render server built, kept so the next one can be a patch of it (issue 5,
/// "Retained and incremental"; DESIGN.md §2: transforms, opacity and clips recomputed for dirty
/// subtrees only).
///
/// Holds the builder's frame-pass draws (what `RenderGraphBuilder.patch` edits), the compiled graph
/// and its `CompileIndex` (what `DrawListCompiler.patch` edits), the generation its node records
/// carry, and the settings it was built with — a frame with other settings is built in full.
/// Kept only for graphs that are a lone frame pass without tiled layers or 3D rendering contexts: a
/// frame with offscreen passes or rasterized bitmaps, tiles (which fade in by the frame time) or a `CATransformLayer`'s planes
/// (sorted and split together) is built in full each time. Owned by `FrameProducer`, on the render thread.
package struct RetainedFrame: Sendable {
    /// The generation written into the node records of this frame (`RetainedNodeRecord`).
    package let generation: UInt64
    /// Counts patches, so a patch can mark the nodes it chose as roots (`RetainedNodeRecord.patchSerial`).
    package var patchSerial: UInt64 = 0
    package let root: LayerID
    /// The builder's frame-pass draws, in painter's order, before culling and batching.
    package var items: [DrawItem]
    /// The compiled graph last handed out.
    package var graph: RenderGraph
    package var index: CompileIndex
    /// What the frame was built and compiled with.
    package let settings: Settings

    package struct Settings: Equatable, Sendable {
        var targetWidth: Int
        var targetHeight: Int
        var viewport: CGRect
        var scale: CGFloat
        var maxSurfaceSize: Int
        var clearColor: SIMD4<Float>
        var options: DebugOptions
        var depthTesting: Bool
        var maxTextureSize: Int
        var atlas: ObjectIdentifier?

        package init(builder: RenderGraphBuilder, compiler: DrawListCompiler, clearColor: SIMD4<Float>) {
            targetWidth = builder.targetWidth
            targetHeight = builder.targetHeight
            viewport = builder.viewport
            scale = builder.scale
            maxSurfaceSize = builder.maxSurfaceSize
            self.clearColor = clearColor
            options = compiler.options
            depthTesting = compiler.depthTesting
            maxTextureSize = compiler.maxTextureSize
            atlas = compiler.atlas.map(ObjectIdentifier.init)
        }
    }
}
