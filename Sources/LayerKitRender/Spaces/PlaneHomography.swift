import LayerKit

/// A projective map between two planes, 3×3, row-vector convention as `CATransform3D`:
/// `(X, Y, W) = (x, y, 1) * H`, seen at `(X/W, Y/W)`.
///
/// Every layer-to-layer map in LayerKit is one (each layer flattens its sublayers into its own plane),
/// so clips and culling work with these rather than full 4×4 transforms.
package struct PlaneHomography: Equatable, Sendable {
    /// Rows.
    package var r0: SIMD3<Double>, r1: SIMD3<Double>, r2: SIMD3<Double>

    package static let identity = PlaneHomography(r0: SIMD3(1, 0, 0), r1: SIMD3(0, 1, 0), r2: SIMD3(0, 0, 1))

    package init(r0: SIMD3<Double>, r1: SIMD3<Double>, r2: SIMD3<Double>) {
        self.r0 = r0; self.r1 = r1; self.r2 = r2
    }

    /// The plane part of a transform applied to z = 0 points: rows x, y and translation, columns x, y, w.
    package init(_ t: CATransform3D) {
        r0 = SIMD3(Double(t.m11), Double(t.m12), Double(t.m14))
        r1 = SIMD3(Double(t.m21), Double(t.m22), Double(t.m24))
        r2 = SIMD3(Double(t.m41), Double(t.m42), Double(t.m44))
    }

    /// Columns, for the shader's column-vector convention (`H_col = Hᵀ`, whose rows these are).
    package var columns: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) {
        (SIMD3(r0.x, r1.x, r2.x), SIMD3(r0.y, r1.y, r2.y), SIMD3(r0.z, r1.z, r2.z))
    }

    package var determinant: Double {
        r0.x * (r1.y * r2.z - r1.z * r2.y) - r0.y * (r1.x * r2.z - r1.z * r2.x) + r0.z * (r1.x * r2.y - r1.y * r2.x)
    }

    /// `self` then `other`.
    package func concatenating(_ other: PlaneHomography) -> PlaneHomography {
        func row(_ r: SIMD3<Double>) -> SIMD3<Double> { r.x * other.r0 + r.y * other.r1 + r.z * other.r2 }
        return PlaneHomography(r0: row(r0), r1: row(r1), r2: row(r2))
    }

    /// The inverse, or nil when singular relative to the matrix's size: when |det| is below 1e-12 of the
    /// product of the row lengths (Hadamard's bound on |det|), so a far translation alone, which
    /// lengthens one row, does not make a map singular.
    package func inverted() -> PlaneHomography? {
        let det = determinant
        guard isInvertible(determinant: det) else { return nil }
        let c0 = SIMD3(r1.y * r2.z - r1.z * r2.y, r0.z * r2.y - r0.y * r2.z, r0.y * r1.z - r0.z * r1.y)
        let c1 = SIMD3(r1.z * r2.x - r1.x * r2.z, r0.x * r2.z - r0.z * r2.x, r0.z * r1.x - r0.x * r1.z)
        let c2 = SIMD3(r1.x * r2.y - r1.y * r2.x, r0.y * r2.x - r0.x * r2.y, r0.x * r1.y - r0.y * r1.x)
        return PlaneHomography(r0: c0 / det, r1: c1 / det, r2: c2 / det)
    }

    /// Whether `inverted()` gives an inverse, without working it out (the render thread asks this of
    /// every layer it draws).
    package var isInvertible: Bool { isInvertible(determinant: determinant) }

    /// `isInvertible` given the map's `determinant`, for a caller that has it already.
    package func isInvertible(determinant det: Double) -> Bool {
        func length(_ r: SIMD3<Double>) -> Double { (r * r).sum().squareRoot() }
        let bound = length(r0) * length(r1) * length(r2)
        return det.isFinite && bound > 0 && abs(det) > 1e-12 * bound
    }

    /// Maps a point: `(X, Y, W)`.
    package func apply(_ p: CGPoint) -> SIMD3<Double> {
        Double(p.x) * r0 + Double(p.y) * r1 + r2
    }
}
