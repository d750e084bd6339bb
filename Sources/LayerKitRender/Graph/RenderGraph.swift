import LayerKit

/// What a frame draws: passes in execution order, each into a target, each with its draw list.
///
/// A value, printable (`description`, see `RenderGraph+Description.swift`) and checkable
/// (`invariantViolations`, see `RenderGraph+Invariants.swift`) without a GPU. The last pass draws into the
/// frame's target (the swapchain image or the headless image); earlier passes draw offscreen surfaces that
/// later passes sample (`TextureSource.surface`). Each surface is drawn by exactly one pass, which comes
/// before every pass that samples it, and each is sampled at least once — except surfaces copied from
/// the frame target's kept pixels (`targetPixelCopies`), which no pass draws.
package struct RenderGraph: Sendable {
    package var passes: [RenderPass]
    /// Atlas placements the items of this frame sample (`TextureSource.atlas`); the backend uploads each
    /// placement it has not uploaded before (`ImageAtlas`). Empty without an atlas.
    package var atlasPlacements: [AtlasPlacement] = []
    /// Atlas placements freed since the last compile (`ImageAtlas.takeFreedPlacements()`): the backend
    /// forgets that it uploaded them.
    package var freedAtlasPlacements: [FreedAtlasPlacement] = []
    /// Which surfaces are rasterization cache entries (bitmaps of their own, or shared cache pages)
    /// drawn or reused this frame, and which entries the backend may free (`RasterizedSurfaces`).
    /// Surfaces in `rasterization.reused` are sampled without a pass of this graph drawing them.
    package var rasterization = RasterizedSurfaces()
    /// What building the graph counted and timed; the backend adds what recording and the GPU did.
    package var statistics = FrameStatistics()
    /// For a retained frame pass: which of its draws changed in recent frames (`DrawListRevision`); nil
    /// when the graph was compiled without a retained frame.
    package var revision: DrawListRevision?
    /// Surfaces the backend fills, before any pass, with the frame target's own pixels as the frame
    /// begins (the app's, under background filters' backdrops: `TargetPixelCopy`).
    package var targetPixelCopies: [TargetPixelCopy] = []
    /// Layers whose backdrop holds LayerKit's draws only, though the target keeps an app's pixels behind
    /// them that the frame cannot read (`TargetContents.appPixels(copyable: false)`); the host says so once.
    package var backdropsWithoutTargetPixels: [LayerID] = []

    package init(passes: [RenderPass]) {
        self.passes = passes
    }

    /// The passes that draw offscreen surfaces, in execution order.
    package var offscreenPasses: [RenderPass] { passes.filter { $0.reason != nil } }
}

/// Names one offscreen surface within a graph. Numbers are assigned in the order the builder opens
/// surfaces and mean nothing across frames; the backend maps each to a pooled image.
package struct SurfaceID: Hashable, Sendable, Comparable, CustomStringConvertible {
    package var rawValue: Int

    package init(_ rawValue: Int) {
        self.rawValue = rawValue
    }

    package static func < (lhs: SurfaceID, rhs: SurfaceID) -> Bool { lhs.rawValue < rhs.rawValue }

    package var description: String { "surface \(rawValue)" }
}

/// Where a pass draws.
package enum RenderTarget: Hashable, Sendable {
    /// The frame's own image, `width`×`height` pixels.
    case frame(width: Int, height: Int)
    /// An offscreen surface of `width`×`height` pixels (premultiplied RGBA8), drawn by this pass and
    /// sampled by later ones.
    case offscreen(SurfaceID, width: Int, height: Int)

    package var width: Int {
        switch self {
        case let .frame(width, _), let .offscreen(_, width, _): width
        }
    }

    package var height: Int {
        switch self {
        case let .frame(_, height), let .offscreen(_, _, height): height
        }
    }

    /// The surface drawn, for an offscreen target.
    package var surface: SurfaceID? {
        if case let .offscreen(surface, _, _) = self { return surface }
        return nil
    }
}

/// One render pass: clear a target, then draw its items — in painter's order, back to front, unless
/// the draw-list compiler (`DrawListCompiler`) has planned the draws as batches.
package struct RenderPass: Sendable {
    package var name: String
    package var target: RenderTarget
    /// Premultiplied RGBA the target is cleared to.
    package var clearColor: SIMD4<Float>
    /// The layer whose opaque, target-covering background the compiler made the clear colour instead of
    /// drawing it (`DrawListCompiler.drawsAsClear`); nil when the clear is the host's.
    package var clearPaintsLayer: LayerID?
    /// The draws, in painter's order (what the pass looks like is drawing these one after another).
    package var items: [DrawItem]
    /// Why an offscreen pass exists; nil for the frame's pass.
    package var reason: OffscreenReason?
    /// The recording plan: indices into `items` in the order they are drawn, cut into `batches` (each a
    /// contiguous run of it, one draw call). Empty until compiled; `drawPlan` then batches
    /// consecutive equal keys in painter's order.
    package var drawOrder: [Int] = []
    package var batches: [DrawBatch] = []
    /// Whether the pass is drawn with a depth attachment: opaque batches front to back with depth writes,
    /// then the rest back to front with a depth test. Items then carry their depth (`LayerInstance.depth`).
    package var depthOrdered = false
    /// Items the compiler dropped from this pass.
    package var culled = CullCounts()

    package init(name: String, target: RenderTarget, clearColor: SIMD4<Float>, items: [DrawItem], reason: OffscreenReason? = nil) {
        self.name = name
        self.target = target
        self.clearColor = clearColor
        self.items = items
        self.reason = reason
    }

    /// The order and batches to record: the compiled plan, or, for a pass nobody compiled, the items in
    /// painter's order with consecutive equal keys batched.
    package var drawPlan: (order: [Int], batches: [DrawBatch]) {
        if !batches.isEmpty || items.isEmpty { return (drawOrder, batches) }
        return (Array(items.indices), Batcher.consecutiveBatches(items))
    }
}

/// Draw items a pass no longer draws, by why.
package struct CullCounts: Hashable, Sendable {
    /// Items with no pixel in the target (or clipped away entirely).
    package var offTarget = 0
    /// Items every pixel of which a later opaque item paints over (`OcclusionCuller`).
    package var occluded = 0

    package init(offTarget: Int = 0, occluded: Int = 0) {
        self.offTarget = offTarget
        self.occluded = occluded
    }

    package var total: Int { offTarget + occluded }
}
