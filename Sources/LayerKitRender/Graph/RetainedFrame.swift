import LayerKit

/// The last frame the render server built, kept so the next one can be a patch of it (issue 5,
/// "Retained and incremental"; DESIGN.md §2: transforms, opacity and clips recomputed for dirty
/// subtrees only).
///
/// Holds the builder's draws — the frame pass's (`items`) and the offscreen passes' (`offscreen`, after
/// surface packing), what `RenderGraphBuilder.patch` edits — with where each surface's draws lie among
/// them (`surfaceSlots`), the compiled graph and its `CompileIndex` (what `DrawListCompiler.patch` and
/// `recompile` edit), the generation its node records carry, and the settings it was built with — a
/// frame with other settings is built in full.
/// Not kept for frames that drew cached bitmaps (`shouldRasterize` layers and cached groups missing
/// from the cache, or drawn for this frame only), that found a group not settled yet (its answer changes
/// as frames pass), with tiles (which fade in by the frame time) or a `CATransformLayer`'s planes
/// (sorted and split together): those are built in full each time. Frames compositing cached bitmaps
/// are kept, with what they asked of the cache (`cacheUses`). Owned by `FrameProducer`, on the render
/// thread.
package struct RetainedFrame: Sendable {
    /// The generation written into the node records of this frame (`RetainedNodeRecord`).
    package let generation: UInt64
    /// Counts patches, so a patch can mark the nodes it chose as roots (`RetainedNodeRecord.patchSerial`).
    package var patchSerial: UInt64 = 0
    package let root: LayerID
    /// The builder's frame-pass draws, in painter's order, before culling and batching.
    package var items: [DrawItem]
    /// The builder's offscreen passes, in execution order, surfaces packed, before culling and batching.
    package var offscreen: [RenderPass]
    /// Where each surface the builder opened lies in `offscreen`.
    package var surfaceSlots: [SurfaceID: SurfaceSlot]
    /// The cache entries and settled groups the frame composites, asked again by each patch of it.
    package var cacheUses: RasterizationCache.Uses
    /// The compiled graph last handed out.
    package var graph: RenderGraph
    package var index: CompileIndex
    /// What the frame was built and compiled with.
    package let settings: Settings
    /// The nodes of the tree's animated layers, listed when its `animatedLayersRevision` was `revision`,
    /// for patches while it stays so: looking each up every frame retained it, a write to a node far
    /// off in a big tree that waited for it (an eighth of `big`'s patch).
    package var animatedNodes: (revision: UInt64, nodes: [RenderNode])?

    /// The builder's draws of every pass.
    package var drawCount: Int { offscreen.reduce(items.count) { $0 + $1.items.count } }

    /// Where one surface's draws went: its own pass, or a range of a shared (packed) one.
    package struct SurfaceSlot: Sendable {
        /// The index in `offscreen` of the pass that draws it.
        package var pass: Int
        /// The surface's own target, before packing (its size is what a patch must keep).
        package var target: RenderTarget
        package var reason: OffscreenReason?
        /// Its draws: `itemCount` of them, from `placement.firstItem` in a shared pass, else the whole pass.
        package var itemCount: Int
        /// Whether the builder let it be packed (`RenderGraphBuilder.OffscreenPasses.packable`).
        package var packable: Bool
        /// Where it went in a shared pass; nil for a surface drawn by a pass of its own.
        package var placement: SurfacePacker.Placement?
    }

    package struct Settings: Equatable, Sendable {
        var targetWidth: Int
        var targetHeight: Int
        var viewport: CGRect
        var scale: CGFloat
        var maxSurfaceSize: Int
        var packsSurfaces: Bool
        var cachesGroups: Bool
        var clearColor: SIMD4<Float>
        var options: DebugOptions
        var depthTesting: Bool
        var stencilClipping: Bool
        var surfaceStencilClipping: Bool
        var maxTextureSize: Int
        var atlas: ObjectIdentifier?

        package init(builder: RenderGraphBuilder, compiler: DrawListCompiler, clearColor: SIMD4<Float>) {
            targetWidth = builder.targetWidth
            targetHeight = builder.targetHeight
            viewport = builder.viewport
            scale = builder.scale
            maxSurfaceSize = builder.maxSurfaceSize
            packsSurfaces = builder.packsSurfaces
            cachesGroups = builder.cachesGroups
            self.clearColor = clearColor
            options = compiler.options
            depthTesting = compiler.depthTesting
            stencilClipping = compiler.stencilClipping
            surfaceStencilClipping = compiler.surfaceStencilClipping
            maxTextureSize = compiler.maxTextureSize
            atlas = compiler.atlas.map(ObjectIdentifier.init)
        }
    }

    /// The builder's graph: the offscreen passes, then the frame pass drawing `items`.
    func builderGraph(frameTarget: RenderTarget, clearColor: SIMD4<Float>) -> RenderGraph {
        RenderGraph(passes: offscreen + [RenderPass(name: "frame", target: frameTarget, clearColor: clearColor, items: items)])
    }
}
