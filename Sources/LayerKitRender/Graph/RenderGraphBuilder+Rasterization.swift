import LayerKit

/// `shouldRasterize`: a layer's subtree drawn once into a bitmap that later frames composite while
/// nothing in it changes (DESIGN.md §4, rule 2).
///
/// Input: a visible layer with `shouldRasterize`, its map to the target, and the rasterization cache.
/// Output: one composite quad in the layer's own space sampling the bitmap, faded by the layer's
/// opacity (a rasterized layer composites as a group, as in Core Animation) and cut by the clips of its
/// ancestors. On a miss, a pass with reason `rasterize` draws the bitmap first.
/// Algorithm: the bitmap is the subtree in the layer's own space at `pixelScale` =
/// `rasterizationScale` × the layer's on-screen scale (target pixels per layer point at the centre of
/// its bounds), so moving, rotating or fading the layer itself reuses it. It covers every draw of the
/// subtree (contents, sublayers, border, mask — not the ancestors' clips, which the composite applies),
/// found by drawing the subtree onto a `maxSurfaceSize`-square canvas with the layer's origin at its
/// centre. Hit: the entry was drawn at the subtree's current change stamp
/// (`RenderTree.rasterizedState(of:)`), nothing inside animates, and the pixel scale is within the
/// cache's tolerance. A subtree that animates is drawn every frame and not kept (its surface, like a
/// group's, may then share a target with others: `SurfacePacker`). Declined (drawn as if
/// not rasterized): a non-positive scale, or a bitmap wider or taller than `maxRasterizedSide`.
/// Cached groups (`RasterizationCache+Groups.swift`) take the same path with `cachedGroup`: scale 1
/// instead of `rasterizationScale`, nearest sampling whatever the layer's filters (SCENES.md allows it
/// for groups; a group at a whole-pixel offset then comes through exactly), and reason `groupOpacity`
/// for the pass that first draws the bitmap. A settled layer with filters or a shadow drawn offscreen is
/// cached the same way (`bitmapReason` `rasterize`: its bitmap holds the effects' results).
/// Kept bitmaps live on shared pages (`RasterizationCache+Pages.swift`) when they fit and their draws
/// sample no surface or atlas: the composite samples the page (its uv in page pixels until the frame
/// ends, `finishPages`), and the bitmap's own pass is folded into the page's.
/// Cost: a hit is O(subtree nodes) to read stamps plus one quad; a miss is the subtree's draws plus one
/// offscreen pass (for paged bitmaps, one pass per page redrawn).
extension RenderGraphBuilder {
    /// The largest bitmap side a rasterized layer is cached at; larger subtrees are drawn directly.
    var maxRasterizedSide: Int { min(maxSurfaceSize, 4_096) }

    /// Draws `node` through the rasterization cache; false when it declines (the caller then draws the
    /// layer as usual). See the extension's contract.
    func visitRasterized(_ node: RenderNode, localTime: Double, parentSpace: CATransform3D, opacity inherited: CGFloat,
                         clip: Clip?, contentsFlipped: Bool, cachedGroup: Bool = false, bitmapReason: OffscreenReason? = nil,
                         context: inout VisitContext,
                         into items: inout [DrawItem]) -> Bool {
        let toPixels = CATransform3DConcat(Self.placement(of: node), parentSpace).planeMap
        let homography = PlaneHomography(toPixels)
        let determinant = homography.determinant
        guard determinant.isFinite, abs(determinant) > 1e-12 else { return false }
        if !node.isDoubleSided && determinant < 0 { return true }
        let center = CGPoint(x: node.bounds.midX, y: node.bounds.midY)
        let scale = cachedGroup ? 1 : max(node.rasterizationScale, 0)
        let pixelScale = scale / Self.onePixelInLayerUnits(homography, at: center)
        guard pixelScale.isFinite, pixelScale > 1e-3 else { return false }

        let id = RasterizationEntryID(layer: node.id)
        let state = context.tree.rasterizedState(of: node.id)
        let entry: RasterizationCache.Entry
        let surface: SurfaceID
        // Drawn (or reused) earlier in this frame — a replicator draws its sublayers once per instance:
        // the same bitmap serves again; at another scale a bitmap is drawn for this frame only, never
        // stored (the cache would hold two, and find the first as a hit before any backend held it).
        let earlier = context.bitmapsThisFrame[id]
        if let earlier, earlier.entry.pixelScale == pixelScale {
            entry = earlier.entry
            surface = earlier.surface
        } else if earlier == nil, !state.isAnimating, let hit = rasterizationCache.lookUp(id, stamp: state.stamp, pixelScale: pixelScale) {
            entry = hit
            context.rasterization.hits += 1
            context.cacheUses.entries.append(id)
            if let placement = hit.placement {
                surface = pageSurface(placement.page, context: &context)
            } else {
                surface = SurfaceID(context.offscreen.nextSurface)
                context.offscreen.nextSurface += 1
                context.rasterization.reused[surface] = RasterizedSurface(entry: id, width: hit.width, height: hit.height)
            }
        } else {
            let before = OffscreenState(context)
            let reason: OffscreenReason = bitmapReason ?? (cachedGroup ? .groupOpacity : .rasterize)
            switch drawBitmap(of: node, localTime: localTime, pixelScale: pixelScale, stamp: state.stamp, reason: reason,
                              contentsFlipped: contentsFlipped, context: &context) {
            case .declined, .empty:
                // Drop what drawing the bitmap added (nested surfaces, nested cache entries).
                rollBack(to: before, context: &context)
                return false
            case let .drawn(drawn, drawnSurface):
                context.rasterization.misses += 1
                if !state.isAnimating, earlier == nil, let paged = storeInPage(id, drawn, surface: drawnSurface, reason: reason, context: &context) {
                    entry = paged
                    surface = pageSurface(paged.placement!.page, context: &context)
                } else {
                    entry = drawn
                    surface = drawnSurface
                    let kept = !state.isAnimating && earlier == nil && rasterizationCache.store(id, drawn)
                    if kept {
                        context.rasterization.rendered[surface] = RasterizedSurface(entry: id, width: drawn.width, height: drawn.height)
                    } else {
                        // Drawn for this frame only, like a group's surface: it may share a target.
                        context.rasterization.uncached.insert(surface)
                        let side = min(Self.packableSurfaceSide, maxSurfaceSize)
                        if drawn.width <= side && drawn.height <= side { context.offscreen.packable.insert(surface) }
                    }
                }
            }
        }

        if earlier == nil { context.bitmapsThisFrame[id] = (surface, entry) }
        let opacity = inherited * min(max(node.opacity, 0), 1)
        let quad = Self.vector(entry.layerRect)
        // A paged bitmap's uv are set once its place on the page is final (`finishPages`).
        var instance = LayerInstance(
            localToClip: localToClipColumns(toPixels), quad: quad, uv: SIMD4(0, 0, 1, 1),
            color: SIMD4(repeating: Float(opacity)), shape: quad, flags: [.textured])
        if let clip { Self.setClip(clipInstanceFields(clip, localToPixels: homography), on: &instance) }
        let binding = cachedGroup
            ? TextureBinding(source: .surface(surface), minification: .nearest, magnification: .nearest)
            : TextureBinding(source: .surface(surface), minification: Self.filter(node.minificationFilter),
                             magnification: Self.filter(node.magnificationFilter))
        items.append(DrawItem(instance: instance, texture: binding, layer: node.id))
        return true
    }

    /// What drawing a subtree adds to a frame's offscreen work, saved so that a drawing thrown away can be
    /// undone (`rollBack`).
    struct OffscreenState {
        var offscreen: OffscreenPasses
        var rasterization: RasterizedSurfaces
        var pageSurfaces: [Int: SurfaceID]
        var bitmapsThisFrame: [RasterizationEntryID: (surface: SurfaceID, entry: RasterizationCache.Entry)]
        /// Shared blurred shadow paths: a surface of a drawing thrown away must serve no later layer.
        var sharedShadows: [SharedShadowKey: SharedShadow]

        init(_ context: VisitContext) {
            offscreen = context.offscreen
            rasterization = context.rasterization
            pageSurfaces = context.pageSurfaces
            bitmapsThisFrame = context.bitmapsThisFrame
            sharedShadows = context.sharedShadows
        }

        /// Puts `context`'s offscreen state back to this one.
        func restore(into context: inout VisitContext) {
            context.offscreen = offscreen
            context.rasterization = rasterization
            context.pageSurfaces = pageSurfaces
            context.bitmapsThisFrame = bitmapsThisFrame
            context.sharedShadows = sharedShadows
        }
    }

    /// Undoes a drawing thrown away: its passes and surfaces, and the cache entries it stored (which this
    /// frame would otherwise find as hits before the backend holds them).
    func rollBack(to state: OffscreenState, context: inout VisitContext) {
        let nested = context.rasterization.rendered.keys.filter { state.rasterization.rendered[$0] == nil }
        rasterizationCache.forget(nested.compactMap { context.rasterization.rendered[$0]?.entry })
        state.restore(into: &context)
    }

    /// Keeps a bitmap just drawn into `surface` on a shared page, taking its pass out of the frame (the
    /// page's pass draws it); nil when it cannot be paged (see `RasterizationCache+Pages.swift`).
    private func storeInPage(_ id: RasterizationEntryID, _ drawn: RasterizationCache.Entry, surface: SurfaceID,
                             reason: OffscreenReason, context: inout VisitContext) -> RasterizationCache.Entry? {
        guard let last = context.offscreen.passes.last, last.target.surface == surface,
              !last.items.contains(where: { item in
                  switch item.texture?.source {
                  case .surface, .atlas: true
                  default: false
                  }
              }) else { return nil }
        let side = min(maxSurfaceSize, RasterizationCache.defaultPageSide)
        guard let paged = rasterizationCache.storeInPage(id, drawn, items: last.items, reason: reason, pageSide: side) else { return nil }
        context.offscreen.passes.removeLast()
        return paged
    }

    /// The surface standing for shared page `page` in this frame's graph.
    private func pageSurface(_ page: Int, context: inout VisitContext) -> SurfaceID {
        if let surface = context.pageSurfaces[page] { return surface }
        let surface = SurfaceID(context.offscreen.nextSurface)
        context.offscreen.nextSurface += 1
        context.pageSurfaces[page] = surface
        return surface
    }

    /// Ends the frame's use of shared pages: each page sampled gets its pass (before every other, as it
    /// samples nothing) when it changed (its bitmaps placed afresh), or is reused as the backend holds
    /// it; every composite sampling a page gets its bitmap's place there as uv.
    func finishPages(_ pageSurfaces: [Int: SurfaceID], passes: inout [RenderPass], rasterization: inout RasterizedSurfaces) {
        guard !pageSurfaces.isEmpty else { return }
        var sizes: [SurfaceID: SIMD4<Float>] = [:]
        var pagePasses: [RenderPass] = []
        for (page, surface) in pageSurfaces.sorted(by: { $0.value < $1.value }) {
            guard let frame = rasterizationCache.pageFrame(page, surface: surface) else { continue }
            let named = RasterizedSurface(entry: .page(page), width: frame.width, height: frame.height)
            if let pass = frame.pass {
                pagePasses.append(pass)
                rasterization.rendered[surface] = named
            } else {
                rasterization.reused[surface] = named
            }
            sizes[surface] = SIMD4(Float(frame.width), Float(frame.height), Float(frame.width), Float(frame.height))
        }
        passes.insert(contentsOf: pagePasses, at: 0)
        for passIndex in passes.indices {
            for index in passes[passIndex].items.indices {
                let item = passes[passIndex].items[index]
                guard let surface = item.texture?.surface, let size = sizes[surface], let layer = item.layer,
                      let rect = rasterizationCache.entries[RasterizationEntryID(layer: layer)]?.placement?.rect else { continue }
                passes[passIndex].items[index].instance.uv = SIMD4(Float(rect.minX), Float(rect.minY), Float(rect.maxX), Float(rect.maxY)) / size
            }
        }
    }

    private enum DrawnBitmap {
        case declined
        case empty
        case drawn(RasterizationCache.Entry, SurfaceID)
    }

    /// Appends the pass drawing `node`'s subtree in its own space at `pixelScale` (see the contract).
    private func drawBitmap(of node: RenderNode, localTime: Double, pixelScale: CGFloat, stamp: UInt64, reason: OffscreenReason,
                            contentsFlipped: Bool, context: inout VisitContext) -> DrawnBitmap {
        var canvas = self
        canvas.targetWidth = maxSurfaceSize
        canvas.targetHeight = maxSurfaceSize
        let origin = CGFloat(maxSurfaceSize / 2)
        // Row vectors: scale the layer's space, then move its origin to the canvas centre.
        let layerToCanvas = CATransform3DConcat(CATransform3DMakeScale(pixelScale, pixelScale, 1),
                                                CATransform3DMakeTranslation(origin, origin, 0))
        // The layer placed at its own origin, unfaded, and not rasterized again.
        let inner = node.copy()
        inner.activeTransition = node.activeTransition
        inner.contentsCrossfadeFrom = node.contentsCrossfadeFrom
        inner.contentsCrossfadeFraction = node.contentsCrossfadeFraction
        inner.transform = CATransform3DIdentity
        inner.anchorPointZ = 0
        inner.zPosition = 0
        inner.position = LayerPlacement.anchorInBounds(bounds: node.bounds, anchorPoint: node.anchorPoint)
        inner.opacity = 1
        inner.shouldRasterize = false
        var content: [DrawItem] = []
        canvas.visit(inner, localTime: localTime, parentSpace: layerToCanvas, opacity: 1, clip: nil,
                     contentsFlipped: contentsFlipped, context: &context, into: &content)
        let footprints = content.compactMap {
            OffscreenDecision.footprint(of: $0, targetWidth: maxSurfaceSize, targetHeight: maxSurfaceSize)
        }
        guard let first = footprints.first else { return .empty }
        let rect = footprints.dropFirst().reduce(first) { $0.union($1) }
        // A bitmap reaching the canvas edge was cut; one past the size limit costs too much to keep.
        guard rect.minX > 0, rect.minY > 0, rect.maxX < maxSurfaceSize, rect.maxY < maxSurfaceSize,
              rect.width <= maxRasterizedSide, rect.height <= maxRasterizedSide else { return .declined }
        let surface = canvas.makeSurface(rect, items: content, reason: reason, name: "rasterized layer \(node.id)",
                                         context: &context)
        let layerRect = CGRect(x: (CGFloat(rect.minX) - origin) / pixelScale, y: (CGFloat(rect.minY) - origin) / pixelScale,
                               width: CGFloat(rect.width) / pixelScale, height: CGFloat(rect.height) / pixelScale)
        let entry = RasterizationCache.Entry(stamp: stamp, pixelScale: pixelScale, layerRect: layerRect,
                                             width: rect.width, height: rect.height)
        return .drawn(entry, surface)
    }
}
