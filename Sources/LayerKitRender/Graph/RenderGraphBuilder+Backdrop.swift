import LayerKit

/// Background filters: what is already drawn behind a layer, filtered and composited under it, within
/// its shape (frosted glass).
///
/// Input: a layer with drawn `backgroundFilters` (`LayerFilter`), reached in its parent's draw list
/// before any of its own draws, so the list so far is what lies behind it in the target being drawn (the
/// frame, or the surface of an isolated ancestor: a layer inside a group sees the group's content).
/// Output: one composite draw, placed first among the layer's own draws (under its shadow and content,
/// inside its opacity group), and the passes that make it:
/// - The draws behind it whose footprints meet the layer's footprint grown by the filters' reach are
///   drawn again into a surface (reason `backgroundFilter`) covering that region, so a blur near the
///   layer's edge sees what lies beyond it, as Core Animation's does.
/// - Where the frame's target keeps an app's pixels under LayerKit's draws (`targetContents`), a
///   backdrop drawn in the frame (not in an isolated ancestor's surface) starts from them, as a screen
///   shows them: the region's part inside the target is copied out of the target as the frame begins
///   (`TargetPixelCopy`, a surface no pass draws) and drawn 1:1 first in the backdrop's surface, under the
///   draws behind. Where those pixels cannot be read when the offscreen passes run (the frame drawn inside
///   the app's render pass), the backdrop holds LayerKit's draws only and the graph names the layer
///   (`RenderGraph.backdropsWithoutTargetPixels`), for the host to say so.
/// - The filters run over it as `filters` do (`RenderGraphBuilder+Effects.swift`: kernel passes, colour
///   matrices, packed with other effects' passes).
/// - The composite draws the result at the layer's footprint, clipped to the layer's rounded bounds (an
///   analytic clip in the layer's own space, so it turns and projects with the layer).
/// Rules: a frame that draws a backdrop is not retained (`AnimationState.drewBackdrop`): any change behind
/// the layer changes the backdrop, which a patch of another subtree would not redraw. Draws behind that sit
/// inside a stencil clip still open (a push without its pop yet) are left out of the backdrop.
/// Cost: the draws behind, within reach, once more per layer; then the filters' passes; over an app's
/// pixels, a copy of the region (at most the layer's footprint grown by the reach) and one more draw.
/// Does NOT: apply the layer's `mask` to the backdrop, or let one layer's backdrop include another
/// backdrop-filtered layer's output drawn later in the same list (it sees what is drawn before it).
extension RenderGraphBuilder {
    /// The largest side of an effect surface drawn whole and packed with others (backdrops are larger
    /// than group surfaces: a panel plus its blur's reach).
    static let packableEffectSide = 512

    /// Finds what lies behind `node` in `behind` (the draws before it in its target) and keeps it in the
    /// context for the node's own draws to place (`takeBackdrop`).
    func prepareBackdrop(of node: RenderNode, parentSpace: CATransform3D, behind: [DrawItem], context: inout VisitContext) {
        let filters = node.backgroundFilters.compactMap(LayerFilter.init)
        guard !filters.isEmpty, node.bounds.width > 0, node.bounds.height > 0 else { return }
        context.animations.drewBackdrop = true
        // Backdrops read what other subtrees drew: a subtree holding one is never patched alone.
        context.cacheQuestions += 1
        let layerToPixels = CATransform3DConcat(Self.placement(of: node), parentSpace).planeMap
        let toPixels = PlaneHomography(layerToPixels)
        guard let inverse = toPixels.inverted() else { return }
        let pixelsPerUnit = Self.pixelsPerUnit(toPixels, at: CGPoint(x: node.bounds.midX, y: node.bounds.midY))
        let reach = Self.pixelLength(filters.reduce(0) { $0 + $1.reach(pixelsPerUnit: pixelsPerUnit) })

        // The layer's footprint, as a draw of its bounds would have.
        let radii = Self.cornerRadii(of: node)
        let boundsDraw = DrawItem(instance: LayerInstance(localToClip: localToClipColumns(layerToPixels),
                                                          quad: Self.vector(node.bounds), color: .zero, shape: Self.vector(node.bounds)))
        guard let footprint = OffscreenDecision.footprint(of: boundsDraw, targetWidth: targetWidth, targetHeight: targetHeight) else { return }
        let pad = Int(min(reach, 16_384).rounded(.up))
        let region = PixelRect(minX: footprint.minX - pad, minY: footprint.minY - pad, maxX: footprint.maxX + pad, maxY: footprint.maxY + pad)
        guard var rect = region.intersection(PixelRect(minX: -pad, minY: -pad, maxX: targetWidth + pad, maxY: targetHeight + pad)) else { return }
        rect.maxX = min(rect.maxX, rect.minX + maxSurfaceSize)
        rect.maxY = min(rect.maxY, rect.minY + maxSurfaceSize)

        let backdrop = itemsBehind(behind, within: rect)
        let shape = Clip(rect: node.bounds, radii: radii, toPixelsInverse: inverse, toPixels: layerToPixels)
        // Only a backdrop drawn straight into the frame lies over the target's own pixels: one inside an
        // isolated ancestor sees that ancestor's surface, which starts transparent.
        let overTargetPixels: PendingBackdrop.TargetPixels
        switch (targetContents, context.isolationDepth) {
        case (.appPixels(copyable: true), 0):
            overTargetPixels = rect.intersection(PixelRect(minX: 0, minY: 0, maxX: targetWidth, maxY: targetHeight)).map { .copied($0) } ?? .noAppPixels
        case (.appPixels(copyable: false), 0): overTargetPixels = .unreadable
        default: overTargetPixels = .noAppPixels
        }
        context.pendingBackdrops[node.id] = PendingBackdrop(rect: rect, items: backdrop, filters: filters, toPixels: toPixels,
                                                            pixelsPerUnit: pixelsPerUnit, shape: clipInstanceFields(shape, localToPixels: .identity),
                                                            targetPixels: overTargetPixels)
    }

    /// A backdrop found behind a layer, drawn when the layer's own draws place it (a layer that turns out
    /// to draw nothing leaves no pass behind).
    struct PendingBackdrop {
        var rect: PixelRect
        var items: [DrawItem]
        var filters: [LayerFilter]
        var toPixels: PlaneHomography
        var pixelsPerUnit: Double
        var shape: (fields: ClipFields, rect: CGRect, radii: SIMD4<Float>)
        /// What of the target's own pixels lies under the backdrop (`TargetContents`).
        var targetPixels: TargetPixels

        enum TargetPixels {
            /// None: the target is cleared, or the backdrop is drawn in an isolated ancestor's surface.
            case noAppPixels
            /// These target pixels (inside the target), copied as the frame begins.
            case copied(PixelRect)
            /// The app's pixels, which this frame cannot read.
            case unreadable
        }
    }

    /// The backdrop composite of `node`, if one was prepared: its passes are made now (placed once, first
    /// among the layer's own draws).
    func takeBackdrop(of node: RenderNode, context: inout VisitContext) -> DrawItem? {
        guard !context.pendingBackdrops.isEmpty, let backdrop = context.pendingBackdrops.removeValue(forKey: node.id) else { return nil }
        let name = "layer \(node.id)"
        var items = backdrop.items
        switch backdrop.targetPixels {
        case .noAppPixels: break
        case let .copied(region):
            // The target's own pixels first, 1:1 over a transparent surface: an exact copy, under the draws behind.
            let copy = SurfaceID(context.offscreen.nextSurface)
            context.offscreen.nextSurface += 1
            context.offscreen.targetPixelCopies.append(TargetPixelCopy(surface: copy, region: region))
            items.insert(surfaceQuad(copy, at: region, opacity: 1, blend: .sourceOver), at: 0)
        case .unreadable:
            context.offscreen.backdropsWithoutTargetPixels.append(node.id)
        }
        var surface = makeEffectSurface(backdrop.rect, items: items, reason: .backgroundFilter, name: "backdrop of \(name)",
                                        context: &context)
        for filter in backdrop.filters {
            apply(filter, to: &surface, toPixels: backdrop.toPixels, pixelsPerUnit: backdrop.pixelsPerUnit, reason: .backgroundFilter,
                  name: "backdrop of \(name)", context: &context)
        }
        // The composite carries the layer's shape as its clip, which shares fields with a colour matrix.
        resolveMatrix(&surface, reason: .backgroundFilter, name: "backdrop colour filters of \(name)", context: &context)
        var composite = compositeItem(surface, at: Self.cgRect(surface.rect), tint: nil)
        Self.setClip(backdrop.shape, on: &composite.instance)
        composite.layer = node.id
        return composite
    }

    /// The draws of `behind` whose footprints meet `rect` (target pixels), leaving out everything from the
    /// first stencil clip still open (a push without its pop): the backdrop a surface redraws.
    func itemsBehind(_ behind: [DrawItem], within rect: PixelRect) -> [DrawItem] {
        var openStencils = 0
        for item in behind {
            if item.stencilCommand == .push { openStencils += 1 } else if item.stencilCommand == .pop { openStencils -= 1 }
        }
        let unclosed = openStencils > 0 ? Self.unclosedStencilStart(behind) : behind.count
        return behind[..<unclosed].filter { item in
            if item.stencilCommand != nil { return true }
            guard let drawn = OffscreenDecision.footprint(of: item, targetWidth: targetWidth, targetHeight: targetHeight,
                                                          clippedToTarget: false) else { return false }
            return drawn.intersects(rect)
        }
    }

    /// Where the first stencil push without its pop lies in `items`.
    private static func unclosedStencilStart(_ items: [DrawItem]) -> Int {
        var open: [Int] = []
        for (index, item) in items.enumerated() {
            if item.stencilCommand == .push { open.append(index) } else if item.stencilCommand == .pop { _ = open.popLast() }
        }
        return open.first ?? items.count
    }
}
