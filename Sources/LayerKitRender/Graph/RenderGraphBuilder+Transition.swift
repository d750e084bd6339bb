import LayerKit

/// Transitions: a `CATransition` running on a layer draws the layer's old state (its
/// `TransitionSnapshot`) and its new one (the live layer) in the layer's place, composited per type.
///
/// Input: a layer whose presented copy has an `activeTransition` (progress p: 0 old, 1 new) and whose
/// committed node holds the snapshot of its subtree from before the commit that added it.
/// Output: both states' draws, each drawn as a whole layer (its own opacity, mask, filters, shadow,
/// sublayers), in the parent's list.
/// Rules:
/// - The old state is the snapshot's copy of the layer placed where the layer is now (its position,
///   anchor, transform and zPosition; its own bounds and everything else as before the commit). Either
///   state may draw nothing (a layer that did not exist, or was or became hidden).
/// - `moveIn`: the new state slides in over the old from the subtype's side; `push`: the new slides in
///   while the old slides out; `reveal`: the old slides out, uncovering the new. Slides travel the
///   layer's bounds width or height, in its own space, with Core Animation's subtype naming (as on iOS,
///   `fromTop` enters from the maximum y). They need no offscreen pass.
/// - `fade` (and any other type): a cross-dissolve, old × (1 − p) + new × p per pixel. Each state is a
///   group (its draws folded when they do not overlap, else a surface), the old one drawn source-over
///   and the new one added onto it in a surface composited once (reason `transition`); a state alone is
///   simply faded.
/// - The states are not clipped, as Core Animation's are not; a layer that masks to its bounds keeps
///   both states inside its (unmoving) bounds.
/// - Both states are redrawn whole each frame of the transition: nothing inside is patched or cached
///   as a settled group.
/// Cost: the two subtrees' draws per frame, plus up to three surfaces for a fade of overlapping states.
extension RenderGraphBuilder {
    func visitTransition(_ node: RenderNode, transition: TransitionRecord, progress: Double, from snapshot: TransitionSnapshot,
                         localTime: Double, parentSpace: CATransform3D, opacity: CGFloat, clip inheritedClip: Clip?,
                         contentsFlipped: Bool, context: inout VisitContext, into items: inout [DrawItem]) {
        context.cacheQuestions += 1
        context.isolationDepth += 1
        context.transitionsDrawing.insert(node.id)
        defer {
            context.transitionsDrawing.remove(node.id)
            context.isolationDepth -= 1
        }
        let old = snapshot.rootNode.map { copy -> RenderNode in
            copy.position = node.position
            copy.anchorPoint = node.anchorPoint
            copy.anchorPointZ = node.anchorPointZ
            copy.transform = node.transform
            copy.zPosition = node.zPosition
            return copy
        }
        let clip = transitionClip(of: node, parentSpace: parentSpace, inherited: inheritedClip)

        /// Draws one state moved by `offset` (in its own space).
        func draw(_ state: RenderNode?, in tree: RenderTree, offset: CGPoint) -> [DrawItem] {
            guard let state else { return [] }
            let space = Self.space(parentSpace, movingLayer: state, by: offset)
            let live = context.tree
            context.tree = tree
            defer { context.tree = live }
            var drawn: [DrawItem] = []
            visit(state, localTime: localTime, parentSpace: space, opacity: opacity, clip: clip, contentsFlipped: contentsFlipped,
                  context: &context, into: &drawn)
            return drawn
        }
        let p = CGFloat(progress)
        let travel = Self.travel(of: transition.subtype, bounds: node.bounds)
        func moved(_ k: CGFloat) -> CGPoint { CGPoint(x: travel.x * k, y: travel.y * k) }
        switch transition.type {
        case .moveIn:
            items += draw(old, in: snapshot.tree, offset: .zero)
            items += draw(node, in: context.tree, offset: moved(1 - p))
        case .push:
            items += draw(old, in: snapshot.tree, offset: moved(-p))
            items += draw(node, in: context.tree, offset: moved(1 - p))
        case .reveal:
            items += draw(node, in: context.tree, offset: .zero)
            items += draw(old, in: snapshot.tree, offset: moved(-p))
        default:
            let oldItems = draw(old, in: snapshot.tree, offset: .zero)
            let newItems = draw(node, in: context.tree, offset: .zero)
            guard !oldItems.isEmpty, !newItems.isEmpty else {
                // One state alone: it fades over what is behind the layer.
                items += group(oldItems, opacity: 1 - p, blend: .sourceOver, of: node, context: &context)
                items += group(newItems, opacity: p, blend: .sourceOver, of: node, context: &context)
                return
            }
            let dissolve = group(oldItems, opacity: 1 - p, blend: .sourceOver, of: node, context: &context)
                + group(newItems, opacity: p, blend: .compositing(.addition), of: node, context: &context)
            guard let rect = union(footprintsOf(dissolve)).flatMap(surfaceRect) else { return }
            let surface = makeSurface(rect, items: dissolve, reason: .transition, name: "transition of layer \(node.id)",
                                      context: &context)
            items.append(surfaceQuad(surface, at: rect, opacity: 1, blend: .sourceOver, layer: node.id))
        }
    }

    /// `items` (one state's draws) composited as one group at `opacity` with `blend`: folded into each
    /// draw when no two of them share a pixel and all blend source-over, else through a surface.
    private func group(_ items: [DrawItem], opacity: CGFloat, blend: BlendMode, of node: RenderNode,
                       context: inout VisitContext) -> [DrawItem] {
        guard !items.isEmpty, opacity > 0 else { return [] }
        let visible = footprintsOf(items).compactMap { $0 }
        if items.allSatisfy({ $0.blend == .sourceOver }) && !OffscreenDecision.anyOverlap(visible) {
            return items.map { item in
                var item = item
                item.instance.color *= Float(opacity)
                item.blend = blend
                return item
            }
        }
        guard let rect = union(visible).flatMap(surfaceRect) else { return [] }
        let surface = makeSurface(rect, items: items, reason: .transition, name: "transition state of layer \(node.id)",
                                  context: &context)
        return [surfaceQuad(surface, at: rect, opacity: opacity, blend: blend, layer: node.id)]
    }

    /// The clip both states are drawn with: the inherited one, and the layer's bounds where it masks to
    /// them (where the two cannot combine analytically, the layer's own).
    private func transitionClip(of node: RenderNode, parentSpace: CATransform3D, inherited: Clip?) -> Clip? {
        guard node.masksToBounds else { return inherited }
        let toPixels = CATransform3DConcat(Self.placement(of: node), parentSpace).planeMap
        let homography = PlaneHomography(toPixels)
        guard let inverse = homography.inverted() else { return inherited }
        let bounds = Clip(rect: node.bounds, radii: Self.cornerRadii(of: node), toPixelsInverse: inverse, toPixels: toPixels)
        guard let inherited else { return bounds }
        return Self.intersect(outer: inherited, inner: bounds, innerToPixels: homography) ?? bounds
    }

    /// `parentSpace` changed so that `layer` is drawn moved by `offset` in its own space: with the layer's
    /// placement M, p · T(offset) · M · parent = p · M · (M⁻¹ · T(offset) · M · parent).
    private static func space(_ parentSpace: CATransform3D, movingLayer layer: RenderNode, by offset: CGPoint) -> CATransform3D {
        guard offset != .zero else { return parentSpace }
        let placement = placement(of: layer)
        let moved = CATransform3DConcat(CATransform3DConcat(CATransform3DInvert(placement),
                                                            CATransform3DMakeTranslation(offset.x, offset.y, 0)), placement)
        return CATransform3DConcat(moved, parentSpace)
    }

    /// Where a state moving in from `subtype`'s side starts, relative to where it ends: a bounds' width
    /// or height away.
    private static func travel(of subtype: CATransitionSubtype, bounds: CGRect) -> CGPoint {
        switch subtype {
        case .fromRight: CGPoint(x: bounds.width, y: 0)
        case .fromTop: CGPoint(x: 0, y: bounds.height)
        case .fromBottom: CGPoint(x: 0, y: -bounds.height)
        default: CGPoint(x: -bounds.width, y: 0)
        }
    }
}
