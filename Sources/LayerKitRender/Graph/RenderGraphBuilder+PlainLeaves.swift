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
    /// The node's `contentStamp` when worked out.
    var stamp: UInt64
    /// The `contentsFlipped` the draws were laid out for.
    var contentsFlipped: Bool
    /// The draws, in order; nil when the node is not a plain leaf.
    var draws: [LeafDraw]?
    /// Whether below full opacity the layer composites as a group (`needsIsolation`): then `visit`
    /// draws it.
    var groupsBelowFullOpacity: Bool
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

    /// `committed`'s plan for `contentsFlipped`, worked out again when its content changed since.
    /// Nil when a plan cannot stand for `presented`: its animations may change more than where it is.
    func plainLeafPlan(of committed: RenderNode, presented: RenderNode, contentsFlipped: Bool) -> PlainLeafPlan? {
        guard presented === committed || committed.animationsOnlyPlace else { return nil }
        if let plan = committed.plainLeafPlan, plan.stamp == committed.contentStamp, plan.contentsFlipped == contentsFlipped {
            return plan
        }
        let node = committed
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
        committed.plainLeafPlan = plan
        return plan
    }

    /// Draws `node`, a plain leaf presented at this frame as `draws` describe it, as `visit` would with
    /// no clip, isolation or effects: false when `visit` must (it groups at this opacity).
    func visitPlainLeaf(_ node: RenderNode, plan: PlainLeafPlan, draws: [LeafDraw], parentSpace: CATransform3D,
                        opacity inherited: CGFloat, into items: inout [DrawItem]) -> Bool {
        guard inherited > 0 else { return true }
        let ownOpacity = min(max(node.opacity, 0), 1)
        guard !node.isHidden, ownOpacity > 0 else { return true }
        if ownOpacity < 1 && plan.groupsBelowFullOpacity { return false }
        guard !draws.isEmpty else { return true }
        let opacity = Float(inherited * ownOpacity)
        let toPixels = CATransform3DConcat(Self.placement(of: node), parentSpace).planeMap
        let homography = PlaneHomography(toPixels)
        let determinant = homography.determinant
        guard determinant.isFinite, abs(determinant) > 1e-12, homography.inverted() != nil else { return true }
        if !node.isDoubleSided && determinant < 0 { return true }
        let localToClip = Self.columnMajor(CATransform3DConcat(toPixels, pixelToClip))
        let mapFlags: LayerInstance.Flags = Self.isSimilarity(homography) ? [.similarityMap] : []
        // Read where they lie: iterating copied each draw out (and retained its texture) first.
        draws.withUnsafeBufferPointer { draws in
            guard let first = draws.baseAddress else { return }
            for draw in draws.indices.lazy.map({ first + $0 }) {
                items.append(DrawItem(
                    instance: LayerInstance(localToClip: localToClip, quad: Self.vector(draw.pointee.quad), uv: draw.pointee.uv,
                                            color: draw.pointee.unitColor * opacity, shape: Self.vector(draw.pointee.shape),
                                            shapeRadii: draw.pointee.shapeRadii, flags: draw.pointee.flags.union(mapFlags)),
                    texture: draw.pointee.texture, layer: node.id))
            }
        }
        return true
    }
}
