import LayerKit

// Plain leaves: layers without sublayers that draw nothing but their background and contents — no
// mask, filters, shadow, border, clip, edge antialiasing, transition, rasterization or class-specific
// drawing. They are most layers of a busy frame (`city`'s 6,000 tiles, `animated-layers`' 10,000
// squares), and what they draw in their own space changes only when a commit changes more than where
// they are: so the draws are worked out once per content change (`PlainLeafPlan`, kept on the committed
// node) and each frame only maps them to pixels. Walking `visit`'s general checks for every such layer
// was half of the graph build (every check reads a property, most of them retained and released).
//
// Pixels: the same instances `visit` makes for the layer; `visit` builds its background and contents
// draws from the same `LeafDraw`s.
//
// A plain leaf whose animations write nothing but its placement (`RenderNode.isPlacedByValue`: `city`'s
// tiles, `animated-layers`' squares) is not evaluated on a presentation copy of its node at all: its
// animations are evaluated into a copy of its `LayerPlacementProperties` (192 bytes, kept in
// `PresentedPlacements` while its parent draws its sublayers), and its draws are mapped from that. Should
// it turn out not to be drawn from its plan after all (a clip, a group at its opacity), it is presented on
// its node's copy then, as any other layer.

/// The placements of the leaves presented by value (`RenderGraphBuilder.presented(_:parentTime:
/// placingLeavesByValue:context:)`), a stack: a layer's sublayers push theirs before any is drawn and
/// pop them once all are. One per builder, reused from frame to frame (its storage kept), render thread
/// only.
final class PresentedPlacements: @unchecked Sendable {
    // A buffer of its own, not an array: reading an array held by a class retained its storage and
    // checked exclusive access at run time, per layer per frame.
    private var storage: UnsafeMutablePointer<LayerPlacementProperties>
    private var capacity = 1_024
    /// How many placements the stack holds.
    private(set) var count = 0

    init() {
        storage = .allocate(capacity: capacity)
    }

    deinit {
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    /// Pushes `node`'s committed placement and evaluates its animations at `time` into it, in place,
    /// appending what they report to `report`; returns where it lies.
    func pushPresented(_ node: RenderNode, layerTime time: Double, awaitingStart: Set<AnimationID>,
                       reportingTo report: inout AnimationEvaluator.Report) -> Int {
        if count == capacity {
            let larger = UnsafeMutablePointer<LayerPlacementProperties>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: storage, count: count)
            storage.deallocate()
            storage = larger
            capacity *= 2
        }
        let placement = storage + count
        placement.initialize(to: node.placement)
        count += 1
        AnimationEvaluator.apply(node.packedAnimationEntries, layerTime: time, toPlacement: &placement.pointee,
                                 awaitingStart: awaitingStart, reportingTo: &report)
        return count - 1
    }

    /// The placement at `index`, where it lies: valid until the stack is popped below it.
    subscript(index: Int) -> UnsafePointer<LayerPlacementProperties> {
        precondition(index >= 0 && index < count, "no placement at \(index)")
        return UnsafePointer(storage + index)
    }

    /// Drops the placements from `count` on.
    func pop(to count: Int) {
        precondition(count >= 0 && count <= self.count, "popping to \(count) of \(self.count)")
        (storage + count).deinitialize(count: self.count - count)
        self.count = count
    }
}

/// One draw of a layer in its own space, before the frame's map and opacity: the quad and texture
/// coordinates, the colour at full opacity (premultiplied), and the shape its coverage follows.
struct LeafDraw {
    var quad: CGRect
    var uv = SIMD4<Float>(0, 0, 1, 1)
    var unitColor: SIMD4<Float>
    var shape: CGRect
    var shapeRadii: SIMD4<Float>
    var flags: LayerInstance.Flags
    var texture: TextureBinding?
}

/// What the builder worked out of a committed node at one content stamp: whether it is a plain leaf,
/// and then its draws.
struct PlainLeafPlan {
    // (Declared widest first: the plan lies among the fields a frame reads of every node, `RenderNode`.)
    /// The node's `contentStamp` when worked out.
    let stamp: UInt64
    /// The draws, in order; nil when the node is not a plain leaf.
    let draws: [LeafDraw]?
    /// What a frame reads of the plan, `draws` by address.
    let drawing: PlainLeafDrawing?
    /// The `contentsFlipped` the draws were laid out for.
    let contentsFlipped: Bool

    init(stamp: UInt64, contentsFlipped: Bool, draws: [LeafDraw]?, groupsBelowFullOpacity: Bool) {
        self.stamp = stamp
        self.contentsFlipped = contentsFlipped
        self.draws = draws
        // The buffer stays while `draws` holds it: the plan never changes it, and a node replaces its
        // plan only when it works out a new one.
        drawing = draws.map { draws in
            PlainLeafDrawing(draws: draws.withUnsafeBufferPointer { $0 }, groupsBelowFullOpacity: groupsBelowFullOpacity)
        }
    }
}

/// A plain leaf's draws as a frame reads them: in place, where its plan keeps them. (Copying the plan out
/// of its node retained the draws' buffer, a write to an object far off, per layer per frame: a tenth of
/// `big`'s patch.) Valid while the node keeps the plan.
struct PlainLeafDrawing {
    let draws: UnsafeBufferPointer<LeafDraw>
    /// Whether below full opacity the layer composites as a group (`needsIsolation`): then `visit`
    /// draws it.
    let groupsBelowFullOpacity: Bool
}

extension RenderGraphBuilder {
    /// The background draw of `node` (corner radii `radii`), or nil when it has none.
    static func backgroundDraw(of node: RenderNode, radii: SIMD4<Float>) -> LeafDraw? {
        guard let color = node.backgroundColor, color.alpha > 0 else { return nil }
        return LeafDraw(quad: node.bounds, unitColor: color.premultipliedRGBA, shape: node.bounds, shapeRadii: radii, flags: [])
    }

    /// The draws of `image` as `node`'s contents (one per `contentsCenter` piece), laid out by its
    /// gravity, crop and scale; mirrored within the bounds when `contentsFlipped`.
    static func contentsDraws(of node: RenderNode, image: CGImage, contentsFlipped: Bool) -> [LeafDraw] {
        let crop = node.contentsRect
        let imageSize = CGSize(width: CGFloat(image.width) * crop.width / max(node.contentsScale, 1e-6),
                               height: CGFloat(image.height) * crop.height / max(node.contentsScale, 1e-6))
        let destination = ContentsLayout.placement(gravity: node.contentsGravity, bounds: node.bounds,
                                                   imageSize: imageSize, contentsAreFlipped: contentsFlipped)
        let binding = TextureBinding(image: image, minification: Self.filter(node.minificationFilter),
                                     magnification: Self.filter(node.magnificationFilter))
        return ContentsLayout.pieces(destination: destination, imageSize: imageSize, contentsRect: crop, center: node.contentsCenter).map { piece in
            // Flipped contents are laid out in a space mirrored within the bounds (as Core Animation
            // renders contents when `contentsAreFlipped()`), so the image stays upright on screen and
            // the swapped vertical gravities land where they name: mirror the piece and its v range.
            var rect = piece.rect
            var uv = Self.vector(piece.uv)
            if contentsFlipped {
                rect.origin.y = node.bounds.minY + node.bounds.maxY - piece.rect.maxY
                uv = SIMD4(uv.x, uv.w, uv.z, uv.y)
            }
            return LeafDraw(quad: rect, uv: uv, unitColor: SIMD4(repeating: 1), shape: rect, shapeRadii: .zero, flags: [.textured],
                            texture: binding)
        }
    }

    /// `committed`'s draws as a plain leaf laid out for `contentsFlipped`, its plan worked out again when
    /// its content changed since. Nil when it is no plain leaf, or a plan cannot stand for `presented`:
    /// its animations may change more than where it is.
    func plainLeafDrawing(of committed: RenderNode, presented: RenderNode, contentsFlipped: Bool) -> PlainLeafDrawing? {
        guard presented === committed || committed.animationsOnlyPlace else { return nil }
        // Field by field: nothing of the plan is copied but what the frame reads.
        if committed.plainLeafPlan?.stamp == committed.contentStamp, committed.plainLeafPlan?.contentsFlipped == contentsFlipped {
            return committed.plainLeafPlan?.drawing
        }
        return workOutPlainLeafPlan(of: committed, contentsFlipped: contentsFlipped).drawing
    }

    /// Works out `node`'s plan for `contentsFlipped` and keeps it on the node.
    private func workOutPlainLeafPlan(of node: RenderNode, contentsFlipped: Bool) -> PlainLeafPlan {
        let isPlain = node.sublayers.isEmpty && node.mask == nil && node.customProperties.isEmpty && node.filters.isEmpty
            && node.backgroundFilters.isEmpty && Self.compositingBlend(of: node) == .sourceOver && !node.shouldRasterize
            && !ShadowShape.casts(node) && !(node.borderWidth > 0) && node.transitionSnapshot == nil && node.activeTransition == nil
            && !node.masksToBounds && !node.allowsEdgeAntialiasing && node.contentsCrossfadeFrom == nil
        var draws: [LeafDraw]?
        if isPlain {
            var own: [LeafDraw] = []
            if node.bounds.width > 0 && node.bounds.height > 0 {
                if let background = Self.backgroundDraw(of: node, radii: Self.cornerRadii(of: node)) { own.append(background) }
                if let image = node.contents { own += Self.contentsDraws(of: node, image: image, contentsFlipped: contentsFlipped) }
            }
            draws = own
        }
        let plan = PlainLeafPlan(stamp: node.contentStamp, contentsFlipped: contentsFlipped, draws: draws,
                                 groupsBelowFullOpacity: node.allowsGroupOpacity && !node.drawsAtMostBackground)
        node.plainLeafPlan = plan
        return plan
    }

    /// Draws `node`, a plain leaf presented at this frame at `placement` as `drawing` describes it, as
    /// `visit` would with no clip, isolation or effects: false when `visit` must (it groups at this
    /// opacity). `node` gives what animations of a plain leaf drawn from its plan do not change: its
    /// bounds, whether it is double-sided, its identity.
    func visitPlainLeaf(_ node: RenderNode, placement: UnsafePointer<LayerPlacementProperties>, drawing: PlainLeafDrawing,
                        parentSpace: CATransform3D, opacity inherited: CGFloat, into items: inout [DrawItem]) -> Bool {
        guard inherited > 0 else { return true }
        let ownOpacity = min(max(placement.pointee.opacity, 0), 1)
        guard !placement.pointee.isHidden, ownOpacity > 0 else { return true }
        if ownOpacity < 1 && drawing.groupsBelowFullOpacity { return false }
        let draws = drawing.draws
        guard !draws.isEmpty else { return true }
        let opacity = Float(inherited * ownOpacity)
        let toPixels = CATransform3DConcat(Self.placement(of: placement, bounds: node.bounds), parentSpace).planeMap
        let homography = PlaneHomography(toPixels)
        let determinant = homography.determinant
        guard determinant.isFinite, abs(determinant) > 1e-12, homography.isInvertible(determinant: determinant) else { return true }
        if !node.isDoubleSided && determinant < 0 { return true }
        let localToClip = localToClipColumns(toPixels)
        let mapFlags: LayerInstance.Flags = Self.isSimilarity(homography) ? [.similarityMap] : []
        // Read where they lie: iterating copied each draw out (and retained its texture) first.
        guard let first = draws.baseAddress else { return true }
        for draw in draws.indices.lazy.map({ first + $0 }) {
            items.append(DrawItem(
                instance: LayerInstance(localToClip: localToClip, quad: Self.vector(draw.pointee.quad), uv: draw.pointee.uv,
                                        color: draw.pointee.unitColor * opacity, shape: Self.vector(draw.pointee.shape),
                                        shapeRadii: draw.pointee.shapeRadii, flags: draw.pointee.flags.union(mapFlags)),
                texture: draw.pointee.texture, layer: node.id))
        }
        return true
    }
}
