import Foundation

// Decomposition of a CATransform3D into translation, scale, skew, perspective and a rotation quaternion,
// and back — what `transform` animations interpolate, and what the `transform.rotation.z`-style key paths
// read.
//
// Algorithm: the classic "unmatrix" (Graphics Gems II) as the W3C CSS Transforms spec writes it, in
// Core Animation's row-vector convention. Write
//
//     M = [ A  p  ]     A: upper 3×3, p: (m14, m24, m34) as a column, t: (m41, m42, m43).
//         [ t  m44]
//
// and factor it as M = [A 0; t 1] · [I p'; 0 w], so p' = A⁻¹p and w = m44 − t·p' (perspective applied last,
// as it is in a layer's world transform). Unlike CSS we do not first divide M by m44: w absorbs m44, so
// recomposition gives back M entry for entry and `translation` reads m41…m43 even under perspective
// (translate, then `m34 = -1/d`, leaves m44 ≠ 1). A is then factored by Gram–Schmidt on its rows as
// A = diag(scale) · U · R, U unit lower-triangular (the skews), R a rotation (rows orthonormal, det +1;
// a reflection is folded into negative scales). Cost: a few dozen flops, one 3×3 solve.

/// A transform taken apart; `CATransform3D(decomposition:)` puts it back together.
///
/// Composition order, as a point sees it (row vectors): scale, then skew, then rotation, then translation,
/// then perspective.
package struct DecomposedTransform3D: Equatable, Sendable {
    /// Translation along x, y, z: exactly `m41…m43`.
    package var translation: SIMD3<Double>
    /// Scale along x, y, z; a mirrored transform has one (or three) negative factors.
    package var scale: SIMD3<Double>
    /// Shear factors xy, xz, yz (the off-diagonal entries of the unit lower-triangular factor).
    package var skew: SIMD3<Double>
    /// The perspective row: `(p'x, p'y, p'z, w)`; `(0, 0, 0, 1)` for none. `m34 = -1/d` alone gives
    /// `(0, 0, -1/d, 1)`.
    package var perspective: SIMD4<Double>
    /// Unit rotation quaternion `(x, y, z, w)` in axis-angle form: rotating by θ about unit axis `n`
    /// (as `CATransform3DMakeRotation(θ, n)`) is `(n·sin(θ/2), cos(θ/2))`.
    package var quaternion: SIMD4<Double>

    /// The identity: no translation, unit scale, no skew or perspective, no rotation.
    package static let identity = DecomposedTransform3D(
        translation: .zero, scale: SIMD3(1, 1, 1), skew: .zero,
        perspective: SIMD4(0, 0, 0, 1), quaternion: SIMD4(0, 0, 0, 1)
    )

    package init(translation: SIMD3<Double>, scale: SIMD3<Double>, skew: SIMD3<Double>,
                 perspective: SIMD4<Double>, quaternion: SIMD4<Double>) {
        self.translation = translation
        self.scale = scale
        self.skew = skew
        self.perspective = perspective
        self.quaternion = quaternion
    }

    /// The rotation as Euler angles `(x, y, z)` in radians, such that rotating about x by `x`, then about y
    /// by `y`, then about z by `z` (each as `CATransform3DMakeRotation`) gives this rotation. For a pure
    /// rotation about z, `z` is the angle (in −π…π) and `x = y = 0` — what `transform.rotation.z` reads.
    /// At gimbal lock (`|y| = π/2`) `x` is reported as 0 and `z` takes the rest.
    package var rotationAngles: SIMD3<Double> {
        let r = rotationRows
        // R = Rx·Ry·Rz in rows; its entry r[0].z = −sin(y), r[0].x = cos y cos z, r[0].y = cos y sin z,
        // r[1].z = sin x cos y, r[2].z = cos x cos y.
        let sy = -r.0.z
        if abs(sy) < 1 - 1e-12 {
            return SIMD3(atan2(r.1.z, r.2.z), asin(sy), atan2(r.0.y, r.0.x))
        }
        // Gimbal lock: only x ∓ z is determined; put it all in z.
        let y = sy > 0 ? Double.pi / 2 : -Double.pi / 2
        return SIMD3(0, y, atan2(-r.1.x, r.1.y))
    }

    /// The rotation as a row-vector 3×3 matrix (rows).
    package var rotationRows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) {
        let q = quaternion
        let (x, y, z, w) = (q.x, q.y, q.z, q.w)
        // The usual column-vector matrix of q, transposed for row vectors.
        return (
            SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)),
            SIMD3(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)),
            SIMD3(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y))
        )
    }

    /// Component-wise blend toward `other`; the rotation takes the shorter spherical path (slerp).
    package func interpolated(to other: DecomposedTransform3D, fraction f: Double) -> DecomposedTransform3D {
        DecomposedTransform3D(
            translation: translation + (other.translation - translation) * f,
            scale: scale + (other.scale - scale) * f,
            skew: skew + (other.skew - skew) * f,
            perspective: perspective + (other.perspective - perspective) * f,
            quaternion: Self.slerp(quaternion, other.quaternion, f)
        )
    }

    /// Spherical linear interpolation between unit quaternions along the shorter arc (q and −q are the same
    /// rotation, so the sign of `b` is chosen to make the arc at most π/2 in quaternion space).
    static func slerp(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ f: Double) -> SIMD4<Double> {
        var b = b
        var cosTheta = (a * b).sum()
        if cosTheta < 0 {
            b = -b
            cosTheta = -cosTheta
        }
        if cosTheta > 1 - 1e-9 {
            // Nearly equal: sin θ ≈ 0 would divide by zero; a normalised lerp is exact enough.
            let q = a + (b - a) * f
            return q / (q * q).sum().squareRoot()
        }
        let theta = acos(min(cosTheta, 1))
        let sinTheta = sin(theta)
        return a * (sin((1 - f) * theta) / sinTheta) + b * (sin(f * theta) / sinTheta)
    }
}

extension CATransform3D {
    /// This transform taken apart, or nil when it cannot be: an entry is not finite, or the upper 3×3 is
    /// singular (a zero scale on some axis, a layer turned edge-on by an orthographic squash).
    package func decomposed() -> DecomposedTransform3D? {
        let r0 = self[row: 0], r1 = self[row: 1], r2 = self[row: 2], r3 = self[row: 3]
        guard r0.allFinite, r1.allFinite, r2.allFinite, r3.allFinite else { return nil }
        var rows = (SIMD3(r0.x, r0.y, r0.z), SIMD3(r1.x, r1.y, r1.z), SIMD3(r2.x, r2.y, r2.z))
        let t = SIMD3(r3.x, r3.y, r3.z)

        guard let inverseA = Self.inverse3x3(rows) else { return nil }

        // Perspective: p' = A⁻¹p (p is the fourth column), w = m44 − t·p'.
        let p = SIMD3(r0.w, r1.w, r2.w)
        let pPrime = p == .zero ? .zero : SIMD3(dot(inverseA.0, p), dot(inverseA.1, p), dot(inverseA.2, p))
        let perspective = SIMD4(pPrime.x, pPrime.y, pPrime.z, r3.w - dot(t, pPrime))

        // Gram–Schmidt on the rows of A.
        var scale = SIMD3<Double>.zero, skew = SIMD3<Double>.zero
        scale.x = length(rows.0)
        rows.0 /= scale.x
        skew.x = dot(rows.0, rows.1)
        rows.1 -= rows.0 * skew.x
        scale.y = length(rows.1)
        rows.1 /= scale.y
        skew.x /= scale.y
        skew.y = dot(rows.0, rows.2)
        rows.2 -= rows.0 * skew.y
        skew.z = dot(rows.1, rows.2)
        rows.2 -= rows.1 * skew.z
        scale.z = length(rows.2)
        rows.2 /= scale.z
        skew.y /= scale.z
        skew.z /= scale.z

        // A reflection cannot be a rotation: fold it into the scales.
        if dot(rows.0, cross(rows.1, rows.2)) < 0 {
            scale = -scale
            rows = (-rows.0, -rows.1, -rows.2)
        }

        return DecomposedTransform3D(
            translation: t, scale: scale, skew: skew, perspective: perspective,
            quaternion: Self.quaternion(fromRotationRows: rows)
        )
    }

    /// The transform that `decomposition` describes: `[S·U·R 0; t 1] · [I p'; 0 w]`.
    package init(decomposition d: DecomposedTransform3D) {
        let (q0, q1, q2) = d.rotationRows
        let s = d.scale, k = d.skew
        // Rows of S·U·R: row i of U·R, scaled by s[i].
        let a0 = q0 * s.x
        let a1 = (q1 + q0 * k.x) * s.y
        let a2 = (q2 + q0 * k.y + q1 * k.z) * s.z
        let pp = SIMD3(d.perspective.x, d.perspective.y, d.perspective.z)
        let t = d.translation
        self.init(rows:
            SIMD4(a0.x, a0.y, a0.z, dot(a0, pp)),
            SIMD4(a1.x, a1.y, a1.z, dot(a1, pp)),
            SIMD4(a2.x, a2.y, a2.z, dot(a2, pp)),
            SIMD4(t.x, t.y, t.z, dot(t, pp) + d.perspective.w))
    }

    /// The transform a `transform` animation shows at `fraction` (0 gives `self`, 1 gives `target`):
    /// both ends decomposed, the parts blended, the rotation slerped, and the result recomposed.
    ///
    /// When either end cannot be decomposed the animation is discrete, as CSS specifies: `self` below 0.5,
    /// `target` from 0.5 on. Fractions outside 0…1 extrapolate (overshooting timing functions).
    package func interpolated(to target: CATransform3D, fraction: Double) -> CATransform3D {
        if fraction == 0 { return self }
        if fraction == 1 { return target }
        guard let from = decomposed(), let to = target.decomposed() else {
            return fraction < 0.5 ? self : target
        }
        return CATransform3D(decomposition: from.interpolated(to: to, fraction: fraction))
    }

    // MARK: Key-path accessors

    /// `transform.translation.{x,y,z}`: the translation part, `(0, 0, 0)` when not decomposable.
    package var translationComponents: SIMD3<Double> { decomposed()?.translation ?? .zero }

    /// `transform.scale.{x,y,z}`: the scale part, `(1, 1, 1)` when not decomposable.
    package var scaleComponents: SIMD3<Double> { decomposed()?.scale ?? SIMD3(1, 1, 1) }

    /// `transform.rotation.{x,y,z}`: Euler angles of the rotation part (see
    /// `DecomposedTransform3D.rotationAngles`), zero when not decomposable.
    package var rotationAngles: SIMD3<Double> { decomposed()?.rotationAngles ?? .zero }

    // MARK: Small 3-vector helpers

    private static func inverse3x3(_ m: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>))
        -> (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)? {
        // Rows of the inverse are the cofactor columns over the determinant.
        let c0 = cross(m.1, m.2), c1 = cross(m.2, m.0), c2 = cross(m.0, m.1)
        let det = dot(m.0, c0)
        let bound = length(m.0) * length(m.1) * length(m.2)
        guard det.isFinite, bound > 0, abs(det) > 1e-14 * bound else { return nil }
        // inverse = [c0 c1 c2] (as columns) / det; rows of it:
        return (
            SIMD3(c0.x, c1.x, c2.x) / det,
            SIMD3(c0.y, c1.y, c2.y) / det,
            SIMD3(c0.z, c1.z, c2.z) / det
        )
    }

    /// The axis-angle quaternion of a row-vector rotation matrix (Shepperd's method: pick the largest of
    /// w, x, y, z to divide by, so no small square root decides the result).
    private static func quaternion(fromRotationRows r: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)) -> SIMD4<Double> {
        // c(i, j) is the column-vector matrix Rc = Rᵀ, the form the textbook formulas use.
        func c(_ i: Int, _ j: Int) -> Double {
            let row = j == 0 ? r.0 : (j == 1 ? r.1 : r.2)
            return row[i]
        }
        let trace = c(0, 0) + c(1, 1) + c(2, 2)
        var q: SIMD4<Double>
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            q = SIMD4((c(2, 1) - c(1, 2)) / s, (c(0, 2) - c(2, 0)) / s, (c(1, 0) - c(0, 1)) / s, s / 4)
        } else if c(0, 0) > c(1, 1) && c(0, 0) > c(2, 2) {
            let s = (1 + c(0, 0) - c(1, 1) - c(2, 2)).squareRoot() * 2
            q = SIMD4(s / 4, (c(0, 1) + c(1, 0)) / s, (c(0, 2) + c(2, 0)) / s, (c(2, 1) - c(1, 2)) / s)
        } else if c(1, 1) > c(2, 2) {
            let s = (1 + c(1, 1) - c(0, 0) - c(2, 2)).squareRoot() * 2
            q = SIMD4((c(0, 1) + c(1, 0)) / s, s / 4, (c(1, 2) + c(2, 1)) / s, (c(0, 2) - c(2, 0)) / s)
        } else {
            let s = (1 + c(2, 2) - c(0, 0) - c(1, 1)).squareRoot() * 2
            q = SIMD4((c(0, 2) + c(2, 0)) / s, (c(1, 2) + c(2, 1)) / s, s / 4, (c(1, 0) - c(0, 1)) / s)
        }
        // Keep w ≥ 0 so the same rotation always decomposes to the same quaternion.
        if q.w < 0 { q = -q }
        return q / (q * q).sum().squareRoot()
    }
}

private extension SIMD4 where Scalar == Double {
    var allFinite: Bool { x.isFinite && y.isFinite && z.isFinite && w.isFinite }
}

private func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
private func length(_ a: SIMD3<Double>) -> Double { dot(a, a).squareRoot() }
private func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
