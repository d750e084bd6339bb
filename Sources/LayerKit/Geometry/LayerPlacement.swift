import Foundation

/// The transforms that place a layer in its superlayer, from plain values — one definition shared by the
/// model (`CALayer`) and the render tree, so both place layers identically.
///
/// Row-vector convention (as `CATransform3D`): `p_super = p * placement`.
package enum LayerPlacement {
    /// The anchor point in the layer's own (bounds) coordinates.
    package static func anchorInBounds(bounds: CGRect, anchorPoint: CGPoint) -> CGPoint {
        CGPoint(x: bounds.minX + anchorPoint.x * bounds.width, y: bounds.minY + anchorPoint.y * bounds.height)
    }

    /// The layer's own space → its superlayer's sublayer space:
    /// `(p − anchorInBounds − (0, 0, anchorPointZ)) · transform + (position, zPosition)`.
    // Always inlined where the body is seen: the render thread's call per drawn layer otherwise went
    // through a thunk that handed the 128-byte transform on.
    @inline(__always)
    package static func toSuperlayer(bounds: CGRect, anchorPoint: CGPoint, anchorPointZ: CGFloat, transform: CATransform3D,
                                     position: CGPoint, zPosition: CGFloat) -> CATransform3D {
        // T(−anchor) · transform · T(position), without two 4×4 products (the render thread places every
        // layer it draws each frame): a translation first only replaces the last row by the translation
        // taken through the matrix, and one last adds each row's w times the translation to its x, y, z.
        let anchor = anchorInBounds(bounds: bounds, anchorPoint: anchorPoint)
        var placed = transform
        placed[row: 3] = transform[row: 0] * Double(-anchor.x) + transform[row: 1] * Double(-anchor.y)
            + transform[row: 2] * Double(-anchorPointZ) + transform[row: 3]
        let offset = SIMD4(Double(position.x), Double(position.y), Double(zPosition), 0)
        for row in 0..<4 {
            let r = placed[row: row]
            placed[row: row] = r + offset * r.w
        }
        return placed
    }

    /// The layer's sublayer space → its own space: `isGeometryFlipped` (y mirrored within the bounds),
    /// then `sublayerTransform` about the anchor point. Identity for most layers.
    package static func sublayerSpace(bounds: CGRect, anchorPoint: CGPoint, isGeometryFlipped: Bool,
                                      sublayerTransform: CATransform3D) -> CATransform3D {
        var result = CATransform3DIdentity
        if isGeometryFlipped {
            // y' = minY + maxY - y
            result = CATransform3DConcat(CATransform3DMakeScale(1, -1, 1),
                                         CATransform3DMakeTranslation(0, bounds.minY + bounds.maxY, 0))
        }
        if !CATransform3DIsIdentity(sublayerTransform) {
            let anchor = anchorInBounds(bounds: bounds, anchorPoint: anchorPoint)
            let aboutAnchor = CATransform3DConcat(
                CATransform3DConcat(CATransform3DMakeTranslation(-anchor.x, -anchor.y, 0), sublayerTransform),
                CATransform3DMakeTranslation(anchor.x, anchor.y, 0))
            result = CATransform3DConcat(result, aboutAnchor)
        }
        return result
    }
}
