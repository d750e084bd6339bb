import Foundation

/// A layer that keeps its sublayers in 3D: Core Animation's `CATransformLayer`.
///
/// Every other layer flattens its sublayers into its own plane. A transform layer does not: its sublayers
/// (and, through nested transform layers, theirs) join its superlayer's *3D rendering context*, where the
/// renderer sorts their planes by depth and splits planes that intersect, so a cube built from six
/// layers under one transform layer draws with correct occlusion however it turns.
///
/// As Apple documents, a transform layer draws nothing of its own: `backgroundColor`, `contents`, the
/// border, the shadow, `masksToBounds`, `mask` and group opacity are ignored; `opacity` still multiplies
/// into each sublayer. Its `transform` and `sublayerTransform` place its sublayers in 3D.
///
/// Hit testing goes through it in 3D: `hitTest(_:)` maps the point into each plane of the context with
/// the unflattened transforms and returns the nearest hit (never the transform layer itself).
///
/// Does NOT: draw, clip or composite anything itself; `contains(_:)` is false everywhere.
open class CATransformLayer: CALayer {
    public override init() {
        super.init()
        // Announce the kind with the layer's first commit, whatever else is set.
        didChangeCustomProperty(LayerRenderKind.propertyKey)
    }

    public required init(layer: Any) {
        super.init(layer: layer)
    }

    /// A transform layer has no area of its own.
    open override func contains(_ p: CGPoint) -> Bool {
        false
    }

    /// The nearest layer of this transform layer's 3D context at `p` (in the superlayer's space), or nil.
    open override func hitTest(_ p: CGPoint) -> CALayer? {
        guard !isHidden else { return nil }
        var toSuperlayerPlane = transformToSuperlayer
        if let superlayer { toSuperlayerPlane = CATransform3DConcat(toSuperlayerPlane, superlayer.sublayerSpaceTransform) }
        return nearestHit(p, sublayerSpaceToPlane: CATransform3DConcat(sublayerSpaceTransform, toSuperlayerPlane))?.layer
    }

    /// The nearest hit among the planes of this layer's sublayers (nested transform layers looked through),
    /// where `toPlane` maps this layer's sublayer space, unflattened, into the superlayer of the context.
    /// Depth is `z / w` in that space (larger is nearer the viewer); on a tie the layer earlier in
    /// hit-test order (front-most by `zPosition` and sublayer order) wins.
    private func nearestHit(_ p: CGPoint, sublayerSpaceToPlane toPlane: CATransform3D) -> (layer: CALayer, depth: CGFloat)? {
        var best: (layer: CALayer, depth: CGFloat)?
        for sublayer in sublayersFrontToBack where !sublayer.isHidden {
            let sublayerToPlane = CATransform3DConcat(sublayer.transformToSuperlayer, toPlane)
            var candidate: (layer: CALayer, depth: CGFloat)?
            if let nested = sublayer as? CATransformLayer {
                candidate = nested.nearestHit(p, sublayerSpaceToPlane: CATransform3DConcat(nested.sublayerSpaceTransform, sublayerToPlane))
            } else if let local = sublayerToPlane.flattened.unproject(p), let hit = sublayer.hitTestInOwnSpace(local) {
                let t = sublayerToPlane
                let z = local.x * t.m13 + local.y * t.m23 + t.m43
                let w = local.x * t.m14 + local.y * t.m24 + t.m44
                candidate = (hit, z / w)
            }
            if let candidate, best.map({ candidate.depth > $0.depth }) ?? true { best = candidate }
        }
        return best
    }
}

extension CATransformLayer: DeclaredLayerProperties {
    package static let declaredKeys: [String] = []
    package static let implicitlyAnimatedKeys: Set<String> = []
    package static let renderKind: LayerRenderKind? = .transform
}
