import Foundation

// Converting points and rectangles between the spaces of any two layers of one tree.
//
// Each layer shows its sublayers flattened into its own plane, so the map from a layer to its superlayer
// is the projective map `transformToSuperlayerPlane` (z dropped; kept under a `CATransformLayer`, whose
// sublayers stay in 3D until its own superlayer flattens them), and the map from a layer to the root's
// superlayer space ("world") is the product of those along the superlayer chain. Converting from A to B
// maps A → world, then world → B by solving for the point on B's plane (which fails where B's plane is
// seen edge-on or the point lies behind the eye). Layers in different trees are related through their
// roots' superlayer spaces, as Core Animation relates layers with no common ancestor to the window.

extension CALayer {
    /// Maps this layer's plane to the world (the root's superlayer space).
    package var transformToWorld: CATransform3D {
        var result = CATransform3DIdentity
        var current: CALayer? = self
        while let layer = current {
            result = CATransform3DConcat(result, layer.transformToSuperlayerPlane)
            current = layer.superlayer
        }
        return result
    }

    /// Converts `p` from `layer`'s coordinate space (the world when nil) to this layer's. Returns a
    /// non-finite point when it has no image on this layer's plane (seen edge-on, or behind the eye).
    public func convert(_ p: CGPoint, from layer: CALayer?) -> CGPoint {
        mapPoint(p, from: layer) ?? CGPoint(x: CGFloat.nan, y: .nan)
    }

    /// Converts `p` from this layer's coordinate space to `layer`'s (the world when nil).
    public func convert(_ p: CGPoint, to layer: CALayer?) -> CGPoint {
        guard let layer else { return mapPoint(p, from: self, toWorld: true) ?? CGPoint(x: CGFloat.nan, y: .nan) }
        return layer.convert(p, from: self)
    }

    /// Converts `r` from `layer`'s coordinate space to this layer's: the bounding box of its corners.
    /// `CGRect.null` when a corner has no image on this layer's plane.
    public func convert(_ r: CGRect, from layer: CALayer?) -> CGRect {
        boundingBox(of: r) { mapPoint($0, from: layer) }
    }

    /// Converts `r` from this layer's coordinate space to `layer`'s (the world when nil).
    public func convert(_ r: CGRect, to layer: CALayer?) -> CGRect {
        guard let layer else { return boundingBox(of: r) { mapPoint($0, from: self, toWorld: true) } }
        return layer.convert(r, from: self)
    }

    /// `p` in `source`'s space (world when nil) mapped into this layer's space, or into the world.
    private func mapPoint(_ p: CGPoint, from source: CALayer?, toWorld: Bool = false) -> CGPoint? {
        guard p.x.isFinite, p.y.isFinite else { return nil }
        if source === self && !toWorld { return p }
        var world = p
        if let source {
            let (projected, w) = source.transformToWorld.project(p)
            guard w > 0 else { return nil }
            world = projected
        }
        if toWorld { return world }
        return transformToWorld.unproject(world)
    }

    private func boundingBox(of rect: CGRect, mapping: (CGPoint) -> CGPoint?) -> CGRect {
        if rect.isNull { return .null }
        let r = rect.standardized
        let corners = [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                       CGPoint(x: r.maxX, y: r.maxY), CGPoint(x: r.minX, y: r.maxY)]
        var minX = CGFloat.infinity, minY = CGFloat.infinity, maxX = -CGFloat.infinity, maxY = -CGFloat.infinity
        for corner in corners {
            guard let mapped = mapping(corner) else { return .null }
            minX = min(minX, mapped.x); maxX = max(maxX, mapped.x)
            minY = min(minY, mapped.y); maxY = max(maxY, mapped.y)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
