import LayerKit

/// Turns the render tree into a render graph.
///
/// Input: the render tree, the root layer, the target's size in pixels, and the viewport (the region of
/// the root's superlayer space shown, in points, and the pixels per point).
/// Output: a `RenderGraph` whose one pass draws every visible layer back to front: for each layer its
/// background, its contents (up to nine pieces), its sublayers ordered by `zPosition`, then its border.
///
/// Each layer flattens its sublayers into its own plane (no `CATransformLayer` yet), so a layer's map to
/// the target is a plane homography built top-down: `world(child) = flatten(placement(child) ·
/// sublayerSpace(parent)) · world(parent)`. `masksToBounds` becomes an analytic rounded-rect clip that
/// the layer's contents and sublayers carry (the innermost clip when clips nest). Opacity multiplies down
/// the tree (group opacity with offscreen passes comes with the render-graph work).
/// Skipped: hidden or fully transparent subtrees, layers facing away with `isDoubleSided == false`,
/// subtrees under a singular or non-finite transform; a layer with an empty or negative size draws
/// nothing of its own but still draws its sublayers. Cost: O(visible layers).
package struct RenderGraphBuilder {
    package var targetWidth: Int
    package var targetHeight: Int
    /// The region of the root's superlayer space shown in the target, in points.
    package var viewport: CGRect
    /// Target pixels per point.
    package var scale: CGFloat

    package init(targetWidth: Int, targetHeight: Int, viewport: CGRect, scale: CGFloat) {
        self.targetWidth = targetWidth
        self.targetHeight = targetHeight
        self.viewport = viewport
        self.scale = scale
    }

    /// What building a frame found out about animations, for the render server's bookkeeping.
    package struct AnimationState: Sendable {
        /// Animations running at the frame's time (begun, not finished).
        package var running: [AnimationID] = []
        /// Animations past their active duration, with the layer they are on.
        package var finished: [(layer: LayerID, animation: AnimationID)] = []
        package init() {}
    }

    /// The graph for one frame at absolute time `time` (animations evaluated at it).
    package func build(tree: RenderTree, root: LayerID, time: Double = 0, clearColor: SIMD4<Float> = .zero) -> RenderGraph {
        var state = AnimationState()
        return build(tree: tree, root: root, time: time, clearColor: clearColor, animations: &state)
    }

    /// The graph for one frame at absolute time `time`, reporting animation progress into `animations`.
    package func build(tree: RenderTree, root: LayerID, time: Double, clearColor: SIMD4<Float>,
                       animations: inout AnimationState) -> RenderGraph {
        var items: [DrawItem] = []
        if let rootNode = tree[root] {
            // Root's superlayer space → pixels.
            let toPixels = CATransform3DConcat(
                CATransform3DMakeTranslation(-viewport.minX, -viewport.minY, 0),
                CATransform3DMakeScale(scale, scale, 1))
            var context = VisitContext(tree: tree, animations: animations)
            let (presentedRoot, rootTime) = presented(rootNode, parentTime: time, context: &context)
            visit(presentedRoot, localTime: rootTime, parentSpace: toPixels, opacity: 1, clip: nil, contentsFlipped: false,
                  context: &context, into: &items)
            animations = context.animations
        }
        let pass = RenderPass(name: "frame", target: .frame(width: targetWidth, height: targetHeight), clearColor: clearColor, items: items)
        return RenderGraph(passes: [pass])
    }

    private struct VisitContext {
        let tree: RenderTree
        var animations: AnimationState
    }

    /// The node as it appears at its parent's time: its animations applied in its local time.
    private func presented(_ node: RenderNode, parentTime: Double, context: inout VisitContext) -> (RenderNode, localTime: Double) {
        let localTime = node.timing.localTime(fromParentTime: parentTime)
        guard !node.animations.isEmpty else { return (node, localTime) }
        var presented = node
        let report = AnimationEvaluator.apply(node.animations, layerTime: localTime, to: &presented)
        context.animations.running.append(contentsOf: report.running)
        context.animations.finished.append(contentsOf: report.finished.map { (node.id, $0) })
        return (presented, localTime)
    }

    /// An analytic clip in force: the clipping layer's bounds, corner radii, and its map to pixels.
    private struct Clip {
        var rect: CGRect
        var radii: SIMD4<Float>
        var toPixelsInverse: PlaneHomography
    }

    /// Draws `node` (already presented at `localTime`) and its subtree. `parentSpace` maps the parent's sublayer space to pixels (4×4,
    /// already including the parent's `sublayerSpaceTransform`).
    private func visit(_ node: RenderNode, localTime: Double, parentSpace: CATransform3D, opacity inherited: CGFloat,
                       clip inheritedClip: Clip?, contentsFlipped: Bool, context: inout VisitContext, into items: inout [DrawItem]) {
        let opacity = inherited * min(max(node.opacity, 0), 1)
        guard !node.isHidden, opacity > 0 else { return }

        let toPixels = CATransform3DConcat(Self.placement(of: node), parentSpace).flattened
        let homography = PlaneHomography(toPixels)
        let determinant = homography.determinant
        guard determinant.isFinite, abs(determinant) > 1e-12, let inverse = homography.inverted() else { return }
        // Facing: the orientation of the layer's image (w > 0 where it is visible).
        if !node.isDoubleSided && determinant < 0 { return }

        let localToClip = Self.columnMajor(CATransform3DConcat(toPixels, pixelToClip))
        let clipToUse = inheritedClip.map { clipInstanceFields($0, localToPixels: homography) }
        let hasSize = node.bounds.width > 0 && node.bounds.height > 0
        let radii = hasSize ? Self.cornerRadii(of: node) : .zero
        let edgeFlags: LayerInstance.Flags = node.allowsEdgeAntialiasing ? [.antialiasEdges] : []

        func instance(quad: CGRect, color: SIMD4<Float>, shape: CGRect, shapeRadii: SIMD4<Float>, flags: LayerInstance.Flags,
                      uv: CGRect = CGRect(x: 0, y: 0, width: 1, height: 1), clip: (fields: ClipFields, rect: CGRect, radii: SIMD4<Float>)?) -> LayerInstance {
            var result = LayerInstance(
                localToClip: localToClip, quad: Self.vector(quad), uv: Self.vector(uv), color: color,
                shape: Self.vector(shape), shapeRadii: shapeRadii, flags: flags.union(edgeFlags))
            if let clip {
                result.clipFromLocal = clip.fields
                result.clipRect = Self.vector(clip.rect)
                result.clipRadii = clip.radii
                result.flags.insert(.clip)
            }
            return result
        }

        // Background.
        if hasSize, let color = node.backgroundColor, color.alpha > 0 {
            let fill = color.premultipliedRGBA * Float(opacity)
            items.append(DrawItem(instance: instance(quad: node.bounds, color: fill, shape: node.bounds, shapeRadii: radii,
                                                     flags: [], clip: clipToUse)))
        }

        // The clip this layer imposes on its contents and sublayers.
        var ownClip = inheritedClip
        if node.masksToBounds {
            ownClip = Clip(rect: node.bounds, radii: radii, toPixelsInverse: inverse)
        }
        let ownClipFields = ownClip.map { clipInstanceFields($0, localToPixels: homography) }

        // Contents.
        if hasSize, let image = node.contents {
            let crop = node.contentsRect
            let imageSize = CGSize(width: CGFloat(image.width) * crop.width / max(node.contentsScale, 1e-6),
                                   height: CGFloat(image.height) * crop.height / max(node.contentsScale, 1e-6))
            let destination = ContentsLayout.placement(gravity: node.contentsGravity, bounds: node.bounds,
                                                       imageSize: imageSize, contentsAreFlipped: contentsFlipped)
            let binding = TextureBinding(image: image, minification: Self.filter(node.minificationFilter),
                                         magnification: Self.filter(node.magnificationFilter))
            let tint = SIMD4<Float>(repeating: Float(opacity))
            for piece in ContentsLayout.pieces(destination: destination, imageSize: imageSize, contentsRect: crop, center: node.contentsCenter) {
                let shape = piece.rect
                items.append(DrawItem(
                    instance: instance(quad: piece.rect, color: tint, shape: shape, shapeRadii: .zero, flags: [.textured],
                                       uv: piece.uv, clip: ownClipFields),
                    texture: binding))
            }
        }

        // Sublayers, back to front by zPosition (stable).
        if !node.sublayers.isEmpty {
            let sublayerSpace = CATransform3DConcat(Self.sublayerSpaceTransform(of: node), toPixels)
            let tree = context.tree
            let children = node.sublayers.compactMap { tree[$0] }
                .map { presented($0, parentTime: localTime, context: &context) }
                .enumerated()
                .sorted { $0.element.0.zPosition != $1.element.0.zPosition ? $0.element.0.zPosition < $1.element.0.zPosition : $0.offset < $1.offset }
            for (_, (child, childTime)) in children {
                visit(child, localTime: childTime, parentSpace: sublayerSpace, opacity: opacity, clip: ownClip,
                      contentsFlipped: contentsFlipped != node.isGeometryFlipped, context: &context, into: &items)
            }
        }

        // Border, above the sublayers.
        if hasSize, node.borderWidth > 0, let color = node.borderColor, color.alpha > 0 {
            var border = instance(quad: node.bounds, color: color.premultipliedRGBA * Float(opacity), shape: node.bounds,
                                  shapeRadii: radii, flags: [.border], clip: clipToUse)
            border.borderWidth = Float(min(node.borderWidth, min(node.bounds.width, node.bounds.height) / 2))
            items.append(DrawItem(instance: border))
        }
    }

    // MARK: - Geometry

    /// Pixels → Vulkan clip space (x right, y down, both −1…1).
    private var pixelToClip: CATransform3D {
        CATransform3DConcat(CATransform3DMakeScale(2 / CGFloat(targetWidth), 2 / CGFloat(targetHeight), 1),
                            CATransform3DMakeTranslation(-1, -1, 0))
    }

    /// A layer's own space → its superlayer's sublayer space (as `CALayer.transformToSuperlayer`).
    package static func placement(of node: RenderNode) -> CATransform3D {
        let anchor = CGPoint(x: node.bounds.minX + node.anchorPoint.x * node.bounds.width,
                             y: node.bounds.minY + node.anchorPoint.y * node.bounds.height)
        let toAnchor = CATransform3DMakeTranslation(-anchor.x, -anchor.y, -node.anchorPointZ)
        let toPosition = CATransform3DMakeTranslation(node.position.x, node.position.y, node.zPosition)
        return CATransform3DConcat(CATransform3DConcat(toAnchor, node.transform), toPosition)
    }

    /// A layer's sublayer space → its own space: the geometry flip, then `sublayerTransform` about the
    /// anchor point (as `CALayer.sublayerSpaceTransform`).
    package static func sublayerSpaceTransform(of node: RenderNode) -> CATransform3D {
        var result = CATransform3DIdentity
        if node.isGeometryFlipped {
            result = CATransform3DConcat(CATransform3DMakeScale(1, -1, 1),
                                         CATransform3DMakeTranslation(0, node.bounds.minY + node.bounds.maxY, 0))
        }
        if !CATransform3DIsIdentity(node.sublayerTransform) {
            let anchor = CGPoint(x: node.bounds.minX + node.anchorPoint.x * node.bounds.width,
                                 y: node.bounds.minY + node.anchorPoint.y * node.bounds.height)
            let about = CATransform3DConcat(
                CATransform3DConcat(CATransform3DMakeTranslation(-anchor.x, -anchor.y, 0), node.sublayerTransform),
                CATransform3DMakeTranslation(anchor.x, anchor.y, 0))
            result = CATransform3DConcat(result, about)
        }
        return result
    }

    typealias ClipFields = (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)

    /// The instance fields for `clip` seen from a layer mapped to pixels by `localToPixels`: the rows of
    /// the column-vector homography layer → clip layer, its rect and radii.
    private func clipInstanceFields(_ clip: Clip, localToPixels: PlaneHomography) -> (fields: ClipFields, rect: CGRect, radii: SIMD4<Float>) {
        let localToClip = localToPixels.concatenating(clip.toPixelsInverse)
        let (c0, c1, c2) = localToClip.columns
        let fields = (SIMD4<Float>(Float(c0.x), Float(c0.y), Float(c0.z), 0),
                      SIMD4<Float>(Float(c1.x), Float(c1.y), Float(c1.z), 0),
                      SIMD4<Float>(Float(c2.x), Float(c2.y), Float(c2.z), 0))
        return (fields, clip.rect, clip.radii)
    }

    /// Corner radii (top-left, top-right, bottom-right, bottom-left), clamped to half the shorter side
    /// as Core Animation clamps them; `maskedCorners` picks which corners round (iOS y-down naming).
    private static func cornerRadii(of node: RenderNode) -> SIMD4<Float> {
        let r = Float(max(0, min(node.cornerRadius, min(node.bounds.width, node.bounds.height) / 2)))
        let m = node.maskedCorners
        return SIMD4(m & 1 != 0 ? r : 0, m & 2 != 0 ? r : 0, m & 8 != 0 ? r : 0, m & 4 != 0 ? r : 0)
    }

    /// A row-vector matrix as the shader's four columns (the rows of the row-vector matrix).
    private static func columnMajor(_ t: CATransform3D) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        (SIMD4(Float(t.m11), Float(t.m12), Float(t.m13), Float(t.m14)),
         SIMD4(Float(t.m21), Float(t.m22), Float(t.m23), Float(t.m24)),
         SIMD4(Float(t.m31), Float(t.m32), Float(t.m33), Float(t.m34)),
         SIMD4(Float(t.m41), Float(t.m42), Float(t.m43), Float(t.m44)))
    }

    private static func vector(_ r: CGRect) -> SIMD4<Float> {
        SIMD4(Float(r.minX), Float(r.minY), Float(r.maxX), Float(r.maxY))
    }

    private static func filter(_ name: String) -> TextureFilter {
        switch name {
        case "nearest": .nearest
        case "trilinear": .trilinear
        default: .linear
        }
    }
}
