import Foundation

// Geometry: bounds, position, anchor point, transforms and the frame derived from them.
//
// A layer's own space is its bounds coordinate system (bounds.origin included, y down). The layer is
// placed in its superlayer by `transformToSuperlayer`:
//     p_super = (p - anchorInBounds - (0, 0, anchorPointZ)) * transform + (position, zPosition)
// (row vectors, as CATransform3D), where anchorInBounds = bounds.origin + anchorPoint * bounds.size.
// The superlayer then applies its own `sublayerSpaceTransform` (isGeometryFlipped, sublayerTransform about
// its anchor point) to everything in its sublayer space.

extension CALayer {
    /// The layer's bounds rectangle in its own coordinate space. Animatable.
    public var bounds: CGRect {
        get { storedBounds }
        set {
            guard acceptsGeometry(newValue, keyPath: "bounds") else { return }
            let oldSize = storedBounds.size
            change(.bounds) { storedBounds = newValue }
            if newValue.size != oldSize { boundsSizeDidChange(from: oldSize) }
        }
    }

    /// The position of the anchor point in the superlayer's coordinate space. Animatable.
    public var position: CGPoint {
        get { storedPosition }
        set {
            guard acceptsGeometry(newValue, keyPath: "position") else { return }
            change(.position) { storedPosition = newValue }
        }
    }

    /// The layer's position on the z axis: orders siblings (higher is in front) and places the layer in
    /// 3D. Animatable.
    public var zPosition: CGFloat {
        get { value(of: .zPosition) }
        set { setValue(newValue, of: .zPosition) }
    }

    /// The point of the bounds, in unit coordinates, that `position` places and transforms pivot
    /// around. Default (0.5, 0.5). Animatable.
    public var anchorPoint: CGPoint {
        get { value(of: .anchorPoint) }
        set { setValue(newValue, of: .anchorPoint) }
    }

    /// The anchor point's z coordinate. Animatable.
    public var anchorPointZ: CGFloat {
        get { value(of: .anchorPointZ) }
        set { setValue(newValue, of: .anchorPointZ) }
    }

    /// The transform applied to the layer's contents, about its anchor point. Animatable.
    public var transform: CATransform3D {
        get { value(of: .transform) }
        set { setValue(newValue, of: .transform) }
    }

    /// The transform applied to the sublayers, about the layer's anchor point (perspective lives here:
    /// `m34 = -1/d`). Animatable.
    public var sublayerTransform: CATransform3D {
        get { value(of: .sublayerTransform) }
        set { setValue(newValue, of: .sublayerTransform) }
    }

    /// Whether the sublayers' geometry is flipped vertically (their y grows up from the bottom of the bounds).
    public var isGeometryFlipped: Bool {
        get { value(of: .isGeometryFlipped) }
        set { setValue(newValue, of: .isGeometryFlipped) }
    }

    /// The scale factor between the layer's points and its backing pixels.
    public var contentsScale: CGFloat {
        get { value(of: .contentsScale) }
        set { setValue(newValue, of: .contentsScale) }
    }

    /// The layer's frame in its superlayer: the bounding box of the bounds through `transform`, about the
    /// anchor point, placed at `position` (projected when the transform has perspective).
    ///
    /// Setting it under the identity transform sets `bounds.size` and `position` as Core Animation does.
    /// Under another transform (Core Animation warns the result is only meaningful for rotations by
    /// multiples of 90° and scales), `bounds.size` becomes the frame's size through the inverse of the
    /// transform and `position` moves so that the frame's origin lands where asked; for those transforms
    /// the frame then reads back exactly as set.
    public var frame: CGRect {
        get { storedBounds.applying(transformToSuperlayer) }
        set {
            guard acceptsGeometry(newValue, keyPath: "frame") else { return }
            let rect = newValue.standardized
            let t = transform
            var size = rect.size
            if !CATransform3DIsIdentity(t) {
                let inverse = CATransform3DInvert(t)
                size = CGRect(origin: .zero, size: rect.size).applying(inverse).size
            }
            let anchor = anchorPoint
            bounds = CGRect(origin: storedBounds.origin, size: size)
            position = CGPoint(x: rect.minX + anchor.x * rect.width, y: rect.minY + anchor.y * rect.height)
            if !CATransform3DIsIdentity(t) {
                // Move so the transformed bounds start at the requested origin.
                let placed = frame
                position = CGPoint(x: position.x + rect.minX - placed.minX, y: position.y + rect.minY - placed.minY)
            }
        }
    }

    /// The anchor point in the layer's own (bounds) coordinates.
    package var anchorInBounds: CGPoint {
        LayerPlacement.anchorInBounds(bounds: storedBounds, anchorPoint: anchorPoint)
    }

    /// Maps the layer's own space into its superlayer's sublayer space (before the superlayer's
    /// `sublayerSpaceTransform`). Row-vector: `p_super = p * transformToSuperlayer`.
    package var transformToSuperlayer: CATransform3D {
        LayerPlacement.toSuperlayer(bounds: storedBounds, anchorPoint: anchorPoint, anchorPointZ: anchorPointZ,
                                    transform: transform, position: storedPosition, zPosition: zPosition)
    }

    /// Maps the sublayer space into the layer's own space: `isGeometryFlipped`, then `sublayerTransform`
    /// about the anchor point. Identity for most layers.
    package var sublayerSpaceTransform: CATransform3D {
        LayerPlacement.sublayerSpace(bounds: storedBounds, anchorPoint: anchorPoint, isGeometryFlipped: isGeometryFlipped,
                                     sublayerTransform: sublayerTransform)
    }

    /// Maps this layer's space onto its superlayer's own plane: its placement, then the superlayer's
    /// sublayer space, then flattened (z dropped), since a layer shows its sublayers flattened into its
    /// own plane — except a `CATransformLayer`, which keeps them in 3D: under one, z is kept and goes on
    /// through the transform layer's own placement (its superlayer flattens it).
    package var transformToSuperlayerPlane: CATransform3D {
        var result = transformToSuperlayer
        if let superlayer {
            result = CATransform3DConcat(result, superlayer.sublayerSpaceTransform)
        }
        return superlayer is CATransformLayer ? result : result.flattened
    }

    /// The transform as an affine transform (its 2D part).
    public func affineTransform() -> CGAffineTransform {
        CATransform3DGetAffineTransform(transform)
    }

    /// Sets `transform` from an affine transform.
    public func setAffineTransform(_ m: CGAffineTransform) {
        transform = CATransform3DMakeAffineTransform(m)
    }

    /// `preferredFrameSize()`'s behaviour: the layout manager's `preferredSize(of:)`, or without one the
    /// size of the bounds through the transform.
    package func defaultPreferredFrameSize() -> CGSize {
        layoutManager?.preferredSize(of: self) ?? transformedBoundsSize
    }

    /// The size of the bounds through the transform, in the superlayer.
    package var transformedBoundsSize: CGSize {
        storedBounds.applying(transformToSuperlayer).size
    }
}

extension CATransform3D {
    /// The same transform with its output z dropped (column 3 zeroed): points land on the z = 0 plane.
    @inlinable @inline(__always)
    package var flattened: CATransform3D {
        var result = self
        result.m13 = 0; result.m23 = 0; result.m33 = 0; result.m43 = 0
        return result
    }
}
