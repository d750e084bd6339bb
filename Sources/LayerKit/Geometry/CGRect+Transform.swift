import Foundation

// Mapping points and rectangles of a layer's plane (z = 0) through a CATransform3D, both ways — what
// `frame`, hit testing and `convert(_:from:)` need under perspective.
//
// Row-vector convention (see CATransform3D): the plane point (x, y) is the row (x, y, 0, 1) and maps to
//     X = x·m11 + y·m21 + m41,  Y = x·m12 + y·m22 + m42,  w = x·m14 + y·m24 + m44,
// seen at (X/w, Y/w). z' is dropped: the parent sees the layer flattened onto its own plane, so only the
// 3×3 homography H = [m11 m12 m14; m21 m22 m24; m41 m42 m44] matters for these mappings. w > 0 is in front
// of the eye; w ≤ 0 is at or behind it, where the projection has no meaning.

extension CATransform3D {
    /// The plane point `point` (z = 0) mapped by this transform and projected: `(X/w, Y/w)` and `w`.
    ///
    /// When `w ≤ 0` the point is at or behind the eye and the returned point is meaningless (infinite or
    /// mirrored); callers must check `w`. For an affine transform `w` is 1.
    package func project(_ point: CGPoint) -> (point: CGPoint, w: CGFloat) {
        let x = point.x, y = point.y
        let w = x * m14 + y * m24 + m44
        let X = x * m11 + y * m21 + m41
        let Y = x * m12 + y * m22 + m42
        if w == 1 { return (CGPoint(x: X, y: Y), 1) }
        return (CGPoint(x: X / w, y: Y / w), w)
    }

    /// The plane point (z = 0) whose projection is `point`: the inverse of `project(_:)`.
    ///
    /// Solves the 2×2 linear system `x·(m11 − X·m14) + y·(m21 − X·m24) = X·m44 − m41` and
    /// `x·(m12 − Y·m14) + y·(m22 − Y·m24) = Y·m44 − m42`. Returns nil when
    /// - the system is singular: the layer's plane is seen edge-on (rotated 90° about an in-plane axis, or
    ///   scaled to zero), so a whole line of plane points lands on `point` or none does; or
    /// - the solution has `w ≤ 0`: the ray through `point` meets the plane only behind the eye (the plane is
    ///   tilted past the eye and `point` lies beyond its vanishing line).
    /// Within those limits `project(unproject(p)!).point == p` up to rounding.
    package func unproject(_ point: CGPoint) -> CGPoint? {
        let X = point.x, Y = point.y
        let a11 = m11 - X * m14, a12 = m21 - X * m24, b1 = X * m44 - m41
        let a21 = m12 - Y * m14, a22 = m22 - Y * m24, b2 = Y * m44 - m42
        let det = a11 * a22 - a12 * a21
        // Relative test (a condition number above 1e12 counts as singular), so that the answer does not
        // depend on units, and an edge-on plane whose cos(π/2) left 6e-17 behind is still caught.
        let scale = a11 * a11 + a12 * a12 + a21 * a21 + a22 * a22
        guard det.isFinite, scale > 0, abs(det) > 1e-12 * scale else { return nil }
        let x = (b1 * a22 - a12 * b2) / det
        let y = (a11 * b2 - b1 * a21) / det
        let w = x * m14 + y * m24 + m44
        guard w > 0, x.isFinite, y.isFinite else { return nil }
        return CGPoint(x: x, y: y)
    }
}

extension CGRect {
    /// Below this `w` a point counts as at the eye; edges are clipped here so the division stays finite.
    private static let minimumW: CGFloat = 1e-6

    /// The bounding box of this rectangle (in the z = 0 plane) mapped by `t` and projected — a layer's
    /// `frame` in its superlayer.
    ///
    /// Edge cases: a null rectangle stays null; an infinite one stays infinite. When part of the rectangle
    /// is at or behind the eye (`w ≤ 0`), it is clipped away at `w = 1e-6` first, so the box covers only what
    /// is in front (very large but finite near the eye plane); when all of it is behind, the result is null.
    /// An affine `t` gives the same result as `applying(CATransform3DGetAffineTransform(t))`.
    package func applying(_ t: CATransform3D) -> CGRect {
        if isNull { return .null }
        if isInfinite { return .infinite }
        let r = standardized
        // Homogeneous (X, Y, w) of the corners in order around the quad.
        let corners: [SIMD3<Double>] = [
            CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
            CGPoint(x: r.maxX, y: r.maxY), CGPoint(x: r.minX, y: r.maxY),
        ].map { p in
            SIMD3(Double(p.x * t.m11 + p.y * t.m21 + t.m41),
                  Double(p.x * t.m12 + p.y * t.m22 + t.m42),
                  Double(p.x * t.m14 + p.y * t.m24 + t.m44))
        }
        let minW = Double(Self.minimumW)
        // Sutherland–Hodgman against the single plane w = minW.
        var clipped: [SIMD3<Double>] = []
        for i in 0..<corners.count {
            let current = corners[i], next = corners[(i + 1) % corners.count]
            let currentIn = current.z >= minW, nextIn = next.z >= minW
            if currentIn { clipped.append(current) }
            if currentIn != nextIn {
                let f = (minW - current.z) / (next.z - current.z)
                clipped.append(current + (next - current) * f)
            }
        }
        return CGRect(boundingBoxOf: clipped.map { CGPoint(x: $0.x / $0.z, y: $0.y / $0.z) })
    }
}
