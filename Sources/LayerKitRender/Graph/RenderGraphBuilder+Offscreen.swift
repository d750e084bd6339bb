import LayerKit

/// Group opacity and masks: where the builder draws a subtree into an offscreen surface, and where it
/// folds instead (DESIGN.md §4).
///
/// Input: a layer that needs isolating — a `mask`, or `allowsGroupOpacity` with an opacity below 1 —
/// visited like any other layer, its own opacity left out.
/// Output: its draws appended to the parent's list, either directly (opacity folded in) or as one
/// composite quad sampling a surface whose pass is appended to the graph before the parent's.
/// Rules:
/// - Group opacity folds when the subtree has at most one visible draw, or when no two draws share a
///   pixel (`OffscreenDecision.anyOverlap`). Overlapping draws that are all opaque and hard-edged
///   (`DrawListCompiler.isDepthOpaque`), of a group drawn straight into a depth-ordered frame
///   (`resolvesGroupsByDepth`, not inside another isolated layer or a 3D rendering context), fold too,
///   marked as one `depthGroup`: drawn front to back with depth writes, each pixel shows the front-most
///   child at the group's opacity — the group's composite, exactly, without a surface. Otherwise the
///   subtree goes to a surface (reason `groupOpacity`) composited once at the group's opacity. `allowsGroupOpacity == false` never
///   isolates for opacity: the opacity multiplies down into every draw.
/// - A mask: the masked layer's subtree goes to one surface, the mask layer's subtree (placed in the
///   masked layer's bounds space, as its superlayer space, at the masked layer's time) to another, and a
///   destination-in draw of the mask surface over the content surface leaves content × mask alpha
///   (`BlendMode.destinationIn`); both passes carry reason `mask`. The composite carries the layer's
///   opacity when it allows group opacity (masked content is composited once anyway).
/// - A compositing filter (`compositingBlend`): the layer's composite is drawn with its blend — its one
///   draw itself, or a surface of its subtree (reason `compositingFilter`, or its mask's or group's).
/// - Surfaces are sized to what is visible: the pixel footprint of the draws (for a mask, of content and
///   mask both), clipped to the target and to `maxSurfaceSize` — except a group-opacity surface at most
///   `packableSurfaceSide` a side, which is drawn whole so that it can share a target with others
///   (`SurfacePacker`; its composite is then partly off-target, which the GPU clips). The composite draws the surface 1:1 at
///   that pixel rect, nearest-sampled at texel centres, so pixels come through exactly.
/// - A group-opacity surface small enough to be packed whose subtree stays the same is instead drawn
///   once into a cached bitmap and composited from it in later frames (`RasterizationCache+Groups.swift`).
/// Draws are built in the frame's clip space; a surface's draws are re-expressed in the surface's clip
/// space once, when its pass is made (an affine change of x and y). Ancestors' analytic clips stay on
/// the draws inside the surface (they relate layer spaces, not targets), so the composite needs none.
/// Cost: O(draws in the subtree) per isolated layer for footprints and folding, O(n log n) for overlap;
/// nested isolated layers revisit their draws once per level.
extension RenderGraphBuilder {
    /// The offscreen passes of the graph being built, in the order they must run (a surface's pass
    /// before every pass that samples it), and the next surface number.
    struct OffscreenPasses {
        var passes: [RenderPass] = []
        var nextSurface = 0
        /// Surfaces drawn whole (not cut to the target) and small enough to share a target with others
        /// (`SurfacePacker`).
        var packable = Set<SurfaceID>()
        /// Surfaces filled from the frame target's kept pixels (`RenderGraph.targetPixelCopies`).
        var targetPixelCopies: [TargetPixelCopy] = []
        /// Layers whose backdrop could not include the target's kept pixels (`RenderGraph.backdropsWithoutTargetPixels`).
        var backdropsWithoutTargetPixels: [LayerID] = []
    }

    /// The largest side of a group-opacity surface that is drawn whole, uncut by the target's edges, so
    /// it can be packed with others; larger ones are cut to what is visible and get a pass of their own.
    static let packableSurfaceSide = 256

    /// Whether `node` (visible, with opacity `opacity` in 0...1) is drawn through `visitIsolated`.
    /// A group of at most one draw folds exactly: such a layer's opacity multiplies into its draw, as a
    /// fold would, without drawing it aside first (most animated layers fade, most are one quad).
    static func needsIsolation(_ node: RenderNode, opacity: CGFloat) -> Bool {
        node.mask != nil || (node.allowsGroupOpacity && opacity < 1 && !node.drawsAtMostBackground)
            || compositingBlend(of: node) != .sourceOver
    }

    /// How `node`'s composite blends with what is behind it: its `compositingFilter`, or source-over.
    static func compositingBlend(of node: RenderNode) -> BlendMode {
        guard let operation = node.compositingOperation, operation != .sourceOver else { return .sourceOver }
        return .compositing(operation)
    }

    /// Draws an isolated layer (see the extension's contract). `inherited` is the opacity folded down
    /// from ancestors that do not group.
    func visitIsolated(_ node: RenderNode, localTime: Double, parentSpace: CATransform3D, opacity inherited: CGFloat,
                       clip: Clip?, contentsFlipped: Bool, context: inout VisitContext, into items: inout [DrawItem]) {
        let ownOpacity = min(max(node.opacity, 0), 1)
        let grouped = node.allowsGroupOpacity && ownOpacity < 1
        let blend = Self.compositingBlend(of: node)
        // Grouped: draw the subtree at full opacity and apply the group's afterwards, once.
        let innerOpacity = grouped ? 1 : inherited * ownOpacity
        let outerOpacity = grouped ? inherited * ownOpacity : 1
        var content: [DrawItem] = []
        let beforeContent = OffscreenState(context)
        visit(node, localTime: localTime, parentSpace: parentSpace, opacity: innerOpacity, clip: clip,
              contentsFlipped: contentsFlipped, isolated: true, context: &context, into: &content)
        guard !content.isEmpty else { return }

        if let maskID = node.mask, let maskNode = context.tree[maskID] {
            let footprints = footprintsOf(content)
            let (presentedMask, maskTime) = presented(maskNode, parentTime: localTime, context: &context)
            // The mask's superlayer space is the masked layer's bounds space.
            let layerToPixels = CATransform3DConcat(Self.placement(of: node), parentSpace).planeMap
            var maskItems: [DrawItem] = []
            visit(presentedMask, localTime: maskTime, parentSpace: layerToPixels, opacity: 1, clip: nil,
                  contentsFlipped: contentsFlipped, context: &context, into: &maskItems)
            let maskFootprints = footprintsOf(maskItems)
            // Outside the mask's draws its alpha is 0: only where both draw can anything show.
            guard let contentRect = union(footprints), let maskRect = union(maskFootprints),
                  let rect = contentRect.intersection(maskRect).flatMap(surfaceRect) else { return }
            let name = "layer \(node.id)"
            let maskSurface = makeSurface(rect, items: maskItems, reason: .mask, name: "mask of \(name)", context: &context)
            content.append(surfaceQuad(maskSurface, at: rect, opacity: 1, blend: .destinationIn))
            let contentSurface = makeSurface(rect, items: content, reason: .mask, name: "masked \(name)", context: &context)
            // A mode that reads the backdrop blends the masked composite with it.
            if case .compositing(let operation) = blend, let mode = operation.shaderMode, 2 * rect.width <= maxSurfaceSize {
                blendWithBackdrop(node, source: contentSurface, at: rect, mode: mode, opacity: outerOpacity, behind: items,
                                  context: &context, into: &items)
                return
            }
            items.append(surfaceQuad(contentSurface, at: rect, opacity: outerOpacity, blend: blend, layer: node.id))
            return
        }
        if case .compositing(let operation) = blend, let mode = operation.shaderMode {
            blendWithBackdrop(node, content: content, mode: mode, opacity: outerOpacity, behind: items, context: &context, into: &items)
            return
        }
        if blend != .sourceOver {
            // A compositing filter blends the layer's composite: one draw is its own composite; more are
            // flattened first (group opacity, if any, applied by the composite).
            if content.count == 1 {
                var item = content[0]
                item.instance.color *= Float(outerOpacity)
                item.blend = blend
                items.append(item)
                return
            }
            guard let rect = union(footprintsOf(content)).flatMap(surfaceRect) else { return }
            let surface = makeSurface(rect, items: content, reason: .compositingFilter, name: "compositing filter of layer \(node.id)",
                                      context: &context)
            items.append(surfaceQuad(surface, at: rect, opacity: outerOpacity, blend: blend, layer: node.id))
            return
        }

        // A single draw overlaps nothing: it folds without its footprint being worked out.
        let footprints = grouped && content.count > 1 ? footprintsOf(content) : []
        let visible = footprints.compactMap { $0 }
        if visible.count > 1 && OffscreenDecision.anyOverlap(visible) {
            // Opaque, hard-edged children straight in the frame: the depth test keeps the front-most.
            if context.groupsResolveByDepth && context.isolationDepth == 1 && content.allSatisfy(DrawListCompiler.isDepthOpaque) {
                let fade = Float(outerOpacity)
                let group = context.nextDepthGroup
                context.nextDepthGroup += 1
                for var item in content {
                    item.instance.color *= fade
                    item.depthGroup = group
                    items.append(item)
                }
                return
            }
            // A small group is drawn whole (its off-target part costs little) so its surface can share a
            // target; a large one only where visible.
            let whole = union(content.map { OffscreenDecision.footprint(of: $0, targetWidth: targetWidth, targetHeight: targetHeight,
                                                                         clippedToTarget: false) })
            let side = min(Self.packableSurfaceSide, maxSurfaceSize)
            let packable = whole.map { $0.width <= side && $0.height <= side } ?? false
            // A small group whose subtree stays the same is drawn from a cached bitmap; a large one keeps
            // its surface cut to what is visible.
            var settled = false
            if packable && cachesGroups {
                context.cacheQuestions += 1
                settled = !context.isPatching && cachesGroup(node, parentSpace: parentSpace, context: context)
                if settled { context.cacheUses.settledGroups.append(node.id) } else { context.cacheUses.unsettledGroups += 1 }
            }
            if settled {
                // The cached group draws its subtree again (or reuses it): what drawing `content` added goes,
                // or a layer rasterized inside would be drawn twice, the second time as a hit this very frame.
                let afterContent = OffscreenState(context)
                rollBack(to: beforeContent, context: &context)
                if visitRasterized(node, localTime: localTime, parentSpace: parentSpace, opacity: inherited, clip: clip,
                                   contentsFlipped: contentsFlipped, cachedGroup: true, context: &context, into: &items) {
                    return
                }
                // Declined: the content drawn above stands after all.
                afterContent.restore(into: &context)
            }
            guard let rect = packable ? whole : union(footprints).flatMap(surfaceRect) else { return }
            let surface = makeSurface(rect, items: content, reason: .groupOpacity, name: "group opacity of layer \(node.id)", context: &context)
            if packable { context.offscreen.packable.insert(surface) }
            items.append(surfaceQuad(surface, at: rect, opacity: outerOpacity, blend: .sourceOver, layer: node.id))
            return
        }
        // Folding: every draw is premultiplied, so fading it is scaling all four channels.
        let fade = Float(outerOpacity)
        for var item in content {
            if fade != 1 { item.instance.color *= fade }
            items.append(item)
        }
    }

    /// A compositing filter that needs the backdrop's colour (`CompositingOperation.needsBackdrop`): the
    /// layer's content and what lies behind it (the draws before it in its target, within its footprint)
    /// each go to a surface; both are copied side by side into one pair surface (backdrop left, content
    /// right), so a single draw can read both; the blend kernel (`FilterKernel.Kind.blend`) computes
    /// W3C's formula there and its result replaces the backdrop over the footprint (`BlendMode.replace`).
    /// All passes carry reason `compositingFilter`; the group's opacity fades the content before it blends.
    private func blendWithBackdrop(_ node: RenderNode, content: [DrawItem], mode: UInt32, opacity: CGFloat, behind: [DrawItem],
                                   context: inout VisitContext, into items: inout [DrawItem]) {
        guard let rect = union(footprintsOf(content)).flatMap(surfaceRect), 2 * rect.width <= maxSurfaceSize else { return }
        let source = makeSurface(rect, items: content, reason: .compositingFilter, name: "compositing filter of layer \(node.id)",
                                 context: &context)
        blendWithBackdrop(node, source: source, at: rect, mode: mode, opacity: opacity, behind: behind, context: &context, into: &items)
    }

    /// As `blendWithBackdrop(_:content:…)`, for content already flattened into `source`, covering `rect`
    /// (a masked layer's composite).
    private func blendWithBackdrop(_ node: RenderNode, source: SurfaceID, at rect: PixelRect, mode: UInt32, opacity: CGFloat,
                                   behind: [DrawItem], context: inout VisitContext, into items: inout [DrawItem]) {
        context.animations.drewBackdrop = true
        context.cacheQuestions += 1
        let name = "compositing filter of layer \(node.id)"
        let backdrop = makeSurface(rect, items: itemsBehind(behind, within: rect), reason: .compositingFilter,
                                   name: "backdrop of \(name)", context: &context)
        // The pair, in frame pixels: the backdrop at `rect`, the content just right of it.
        let right = PixelRect(minX: rect.maxX, minY: rect.minY, maxX: rect.maxX + rect.width, maxY: rect.maxY)
        let pairRect = PixelRect(minX: rect.minX, minY: rect.minY, maxX: right.maxX, maxY: rect.maxY)
        let pair = makeSurface(pairRect, items: [surfaceQuad(backdrop, at: rect, opacity: 1, blend: .sourceOver),
                                                 surfaceQuad(source, at: right, opacity: 1, blend: .sourceOver)],
                               reason: .compositingFilter, name: "pair of \(name)", context: &context)
        var blended = surfaceQuad(pair, at: rect, opacity: 1, blend: .replace, layer: node.id)
        blended.instance.uv = SIMD4(0.5, 0, 1, 1)
        blended.instance.flags = [.filterKernel]
        blended.instance.filterKernel = FilterKernel(kind: .blend, parameters: SIMD4(Float(mode), Float(opacity), 0, 0))
        items.append(blended)
    }

    /// Whether the group `node` is drawn from a cached bitmap (`RasterizationCache+Groups.swift`): its
    /// map to the target is affine and the cache finds it settled.
    func cachesGroup(_ node: RenderNode, parentSpace: CATransform3D, context: VisitContext) -> Bool {
        guard cachesGroups else { return false }
        let map = PlaneHomography(CATransform3DConcat(Self.placement(of: node), parentSpace).planeMap)
        guard abs(map.r0.z) < 1e-12, abs(map.r1.z) < 1e-12, map.r2.z > 1e-12 else { return false }
        let state = context.tree.rasterizedState(of: node.id)
        guard !state.isAnimating else { return false }
        let linear = SIMD4(map.r0.x, map.r0.y, map.r1.x, map.r1.y) / map.r2.z
        return rasterizationCache.groupIsSettled(node.id, stamp: state.stamp, linear: linear)
    }

    /// The pixel footprint of each of `items` within the target (nil where it shows nothing).
    func footprintsOf(_ items: [DrawItem]) -> [PixelRect?] {
        items.map { OffscreenDecision.footprint(of: $0, targetWidth: targetWidth, targetHeight: targetHeight) }
    }

    /// The bounding rect of the visible footprints, nil when none is visible.
    func union(_ footprints: [PixelRect?]) -> PixelRect? {
        footprints.reduce(nil as PixelRect?) { result, footprint in
            guard let footprint else { return result }
            return result.map { $0.union(footprint) } ?? footprint
        }
    }

    /// `rect` cut to the target and to the largest surface allowed; nil when nothing is left.
    func surfaceRect(_ rect: PixelRect) -> PixelRect? {
        guard var visible = rect.intersection(PixelRect(x: 0, y: 0, width: targetWidth, height: targetHeight)) else { return nil }
        visible.maxX = min(visible.maxX, visible.minX + maxSurfaceSize)
        visible.maxY = min(visible.maxY, visible.minY + maxSurfaceSize)
        return visible
    }

    /// Appends the pass that draws `items` (built in the frame's clip space) into a new surface covering
    /// the target pixels `rect`, and returns the surface.
    /// With `size`, the surface has that many texels instead of one per pixel of `rect` (a downsampled
    /// filter pass), still covering `rect`.
    func makeSurface(_ rect: PixelRect, items: [DrawItem], reason: OffscreenReason, name: String,
                     size: (width: Int, height: Int)? = nil, context: inout VisitContext) -> SurfaceID {
        let surface = SurfaceID(context.offscreen.nextSurface)
        context.offscreen.nextSurface += 1
        // Frame clip x_f = 2 px / W - 1; surface clip x_s = 2 (px - minX) / w - 1. So, homogeneously,
        // x_s = (W / w) x_f + ((W - 2 minX - w) / w) w_f, and likewise for y.
        let (fw, fh) = (Float(targetWidth), Float(targetHeight))
        let (w, h) = (Float(rect.width), Float(rect.height))
        let scale = SIMD2<Float>(fw / w, fh / h)
        let offset = SIMD2<Float>((fw - 2 * Float(rect.minX) - w) / w, (fh - 2 * Float(rect.minY) - h) / h)
        func reexpress(_ column: SIMD4<Float>) -> SIMD4<Float> {
            SIMD4(scale.x * column.x + offset.x * column.w, scale.y * column.y + offset.y * column.w, column.z, column.w)
        }
        // A surface of other than one texel per pixel scales its draws' pixels, perhaps unequally per axis.
        let keepsPixels = size.map { $0 == (rect.width, rect.height) } ?? true
        let moved = items.map { item -> DrawItem in
            var item = item
            let (c0, c1, c2, c3) = item.instance.localToClip
            item.instance.localToClip = (reexpress(c0), reexpress(c1), reexpress(c2), reexpress(c3))
            if !keepsPixels { item.instance.flags.remove(.similarityMap) }
            return item
        }
        context.offscreen.passes.append(RenderPass(
            name: name, target: .offscreen(surface, width: size?.width ?? rect.width, height: size?.height ?? rect.height), clearColor: .zero,
            items: moved, reason: reason))
        return surface
    }

    /// A quad drawing `surface` 1:1 at the target pixels `rect`, in the frame's clip space (its layer
    /// space is target pixels), faded by `opacity`.
    func surfaceQuad(_ surface: SurfaceID, at rect: PixelRect, opacity: CGFloat, blend: BlendMode, layer: LayerID? = nil) -> DrawItem {
        let bounds = SIMD4<Float>(Float(rect.minX), Float(rect.minY), Float(rect.maxX), Float(rect.maxY))
        let instance = LayerInstance(
            localToClip: Self.columnMajor(pixelToClip), quad: bounds, uv: SIMD4(0, 0, 1, 1),
            color: SIMD4(repeating: Float(opacity)), shape: bounds, flags: [.textured])
        return DrawItem(instance: instance, texture: TextureBinding(surface: surface), blend: blend, layer: layer)
    }
}
