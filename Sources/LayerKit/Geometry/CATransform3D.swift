import Foundation

/// A 4×4 homogeneous transform with Core Animation's layout and conventions.
///
/// **Row-vector convention**, exactly as Core Animation: a point is the row vector `(x, y, z, 1)` and maps
/// as `p' = p * M`, then divides by `w'`. Consequences that the rest of LayerKit relies on:
/// - translation lives in `m41`, `m42`, `m43`;
/// - perspective is `m34 = -1 / d` (the eye at distance `d` on +z), giving `w' = 1 - z / d`;
/// - `CATransform3DConcat(a, b)` is `a * b`: apply `a`, then `b`;
/// - `CATransform3DTranslate/Scale/Rotate(t, …)` apply the new operation *first*, then `t`;
/// - positive angles rotate +x toward +y about +z (clockwise on screen, as y grows down).
///
/// The GPU side uses column vectors; the renderer transposes when it writes instance data.
public struct CATransform3D: Equatable, Hashable, Sendable {
    public var m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat
    public var m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat
    public var m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat
    public var m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat

    /// The all-zero matrix, as Apple's imported C struct initializer gives — *not* the identity.
    /// Use `CATransform3DIdentity` for the identity.
    public init() {
        self.init(m11: 0, m12: 0, m13: 0, m14: 0,
                  m21: 0, m22: 0, m23: 0, m24: 0,
                  m31: 0, m32: 0, m33: 0, m34: 0,
                  m41: 0, m42: 0, m43: 0, m44: 0)
    }

    /// Creates a transform from its sixteen entries, row by row.
    public init(m11: CGFloat, m12: CGFloat, m13: CGFloat, m14: CGFloat,
                m21: CGFloat, m22: CGFloat, m23: CGFloat, m24: CGFloat,
                m31: CGFloat, m32: CGFloat, m33: CGFloat, m34: CGFloat,
                m41: CGFloat, m42: CGFloat, m43: CGFloat, m44: CGFloat) {
        self.m11 = m11; self.m12 = m12; self.m13 = m13; self.m14 = m14
        self.m21 = m21; self.m22 = m22; self.m23 = m23; self.m24 = m24
        self.m31 = m31; self.m32 = m32; self.m33 = m33; self.m34 = m34
        self.m41 = m41; self.m42 = m42; self.m43 = m43; self.m44 = m44
    }
}

/// The identity transform: `[1 0 0 0; 0 1 0 0; 0 0 1 0; 0 0 0 1]`.
public let CATransform3DIdentity = CATransform3D(
    m11: 1, m12: 0, m13: 0, m14: 0,
    m21: 0, m22: 1, m23: 0, m24: 0,
    m31: 0, m32: 0, m33: 1, m34: 0,
    m41: 0, m42: 0, m43: 0, m44: 1
)

// MARK: - Row access

extension CATransform3D {
    /// Row `i` (0-based) as four values; the matrix algorithms below index rows instead of naming entries.
    package subscript(row i: Int) -> SIMD4<Double> {
        get {
            switch i {
            case 0: return SIMD4(Double(m11), Double(m12), Double(m13), Double(m14))
            case 1: return SIMD4(Double(m21), Double(m22), Double(m23), Double(m24))
            case 2: return SIMD4(Double(m31), Double(m32), Double(m33), Double(m34))
            default: return SIMD4(Double(m41), Double(m42), Double(m43), Double(m44))
            }
        }
        set {
            let r = (CGFloat(newValue.x), CGFloat(newValue.y), CGFloat(newValue.z), CGFloat(newValue.w))
            switch i {
            case 0: (m11, m12, m13, m14) = r
            case 1: (m21, m22, m23, m24) = r
            case 2: (m31, m32, m33, m34) = r
            default: (m41, m42, m43, m44) = r
            }
        }
    }

    /// Builds a transform from four rows.
    package init(rows r0: SIMD4<Double>, _ r1: SIMD4<Double>, _ r2: SIMD4<Double>, _ r3: SIMD4<Double>) {
        self.init()
        self[row: 0] = r0
        self[row: 1] = r1
        self[row: 2] = r2
        self[row: 3] = r3
    }

    /// The row vector `v` times this matrix: how a homogeneous point maps under the row-vector convention.
    package func transform(_ v: SIMD4<Double>) -> SIMD4<Double> {
        self[row: 0] * v.x + self[row: 1] * v.y + self[row: 2] * v.z + self[row: 3] * v.w
    }
}

// MARK: - Construction

/// A transform that translates by `(tx, ty, tz)`.
public func CATransform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    var t = CATransform3DIdentity
    t.m41 = tx; t.m42 = ty; t.m43 = tz
    return t
}

/// A transform that scales by `(sx, sy, sz)`.
public func CATransform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    var t = CATransform3DIdentity
    t.m11 = sx; t.m22 = sy; t.m33 = sz
    return t
}

/// A transform that rotates by `angle` radians about the axis `(x, y, z)`.
///
/// The axis is normalised; a zero (or non-finite) axis gives the identity, as Core Animation does. A positive
/// angle about +z takes +x toward +y: `(1, 0, 0)` rotated by π/2 becomes `(0, 1, 0)`.
public func CATransform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    let length = (x * x + y * y + z * z).squareRoot()
    guard length > 0, length.isFinite else { return CATransform3DIdentity }
    let (x, y, z) = (x / length, y / length, z / length)
    let c = cos(angle), s = sin(angle), k = 1 - c
    // Rodrigues' formula R = cI + s[axis]× + (1-c)·axis·axisᵀ is for column vectors; rows want Rᵀ,
    // which flips the sign of the cross-product terms.
    return CATransform3D(
        m11: c + k * x * x,     m12: k * x * y + s * z, m13: k * x * z - s * y, m14: 0,
        m21: k * x * y - s * z, m22: c + k * y * y,     m23: k * y * z + s * x, m24: 0,
        m31: k * x * z + s * y, m32: k * y * z - s * x, m33: c + k * z * z,     m34: 0,
        m41: 0,                 m42: 0,                 m43: 0,                 m44: 1
    )
}

/// Translates by `(tx, ty, tz)` first, then applies `t`: `CATransform3DConcat(MakeTranslation(tx, ty, tz), t)`.
public func CATransform3DTranslate(_ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    // Only the last row changes: (tx, ty, tz, 1) * t added to t's translation row.
    var r = t
    r.m41 = tx * t.m11 + ty * t.m21 + tz * t.m31 + t.m41
    r.m42 = tx * t.m12 + ty * t.m22 + tz * t.m32 + t.m42
    r.m43 = tx * t.m13 + ty * t.m23 + tz * t.m33 + t.m43
    r.m44 = tx * t.m14 + ty * t.m24 + tz * t.m34 + t.m44
    return r
}

/// Scales by `(sx, sy, sz)` first, then applies `t`: `CATransform3DConcat(MakeScale(sx, sy, sz), t)`.
public func CATransform3DScale(_ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    var r = t
    r.m11 *= sx; r.m12 *= sx; r.m13 *= sx; r.m14 *= sx
    r.m21 *= sy; r.m22 *= sy; r.m23 *= sy; r.m24 *= sy
    r.m31 *= sz; r.m32 *= sz; r.m33 *= sz; r.m34 *= sz
    return r
}

/// Rotates by `angle` about `(x, y, z)` first, then applies `t`:
/// `CATransform3DConcat(MakeRotation(angle, x, y, z), t)`. A zero axis leaves `t` unchanged.
public func CATransform3DRotate(_ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    CATransform3DConcat(CATransform3DMakeRotation(angle, x, y, z), t)
}

/// `a` then `b`: the matrix product `a * b` under the row-vector convention.
@inlinable @inline(__always)
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D {
    // Row i of a*b is row i of a (a row vector) taken through b — `b.transform(a[row: i])` written out,
    // in the same order of operations, with b's rows loaded once: the render thread concatenates
    // several transforms per layer per frame. Always inlined: called, its arguments were written to the
    // stack entry by entry and read back in pairs, which the CPU cannot forward from the stores (a stall
    // per call, a third of its time); inlined, what the caller holds in registers stays there.
    let b0 = SIMD4(Double(b.m11), Double(b.m12), Double(b.m13), Double(b.m14))
    let b1 = SIMD4(Double(b.m21), Double(b.m22), Double(b.m23), Double(b.m24))
    let b2 = SIMD4(Double(b.m31), Double(b.m32), Double(b.m33), Double(b.m34))
    let b3 = SIMD4(Double(b.m41), Double(b.m42), Double(b.m43), Double(b.m44))
    @inline(__always) func through(_ row: SIMD4<Double>) -> (CGFloat, CGFloat, CGFloat, CGFloat) {
        let mapped = b0 * row.x + b1 * row.y + b2 * row.z + b3 * row.w
        return (CGFloat(mapped.x), CGFloat(mapped.y), CGFloat(mapped.z), CGFloat(mapped.w))
    }
    let r0 = through(SIMD4(Double(a.m11), Double(a.m12), Double(a.m13), Double(a.m14)))
    let r1 = through(SIMD4(Double(a.m21), Double(a.m22), Double(a.m23), Double(a.m24)))
    let r2 = through(SIMD4(Double(a.m31), Double(a.m32), Double(a.m33), Double(a.m34)))
    let r3 = through(SIMD4(Double(a.m41), Double(a.m42), Double(a.m43), Double(a.m44)))
    return CATransform3D(m11: r0.0, m12: r0.1, m13: r0.2, m14: r0.3, m21: r1.0, m22: r1.1, m23: r1.2, m24: r1.3,
                         m31: r2.0, m32: r2.1, m33: r2.2, m34: r2.3, m41: r3.0, m42: r3.1, m43: r3.2, m44: r3.3)
}

// MARK: - Inversion

/// The inverse of `t`, or `t` itself, unchanged, when `t` is singular — as Core Animation returns it.
///
/// Singular means: the determinant is zero or not finite, or it is below `1e-14` of the bound that
/// Hadamard's inequality puts on it (the product of the row lengths). The relative test catches matrices
/// that are singular but carry rounding noise (a zero scale composed with rotations) at any scale.
public func CATransform3DInvert(_ t: CATransform3D) -> CATransform3D {
    t.inverse ?? t
}

extension CATransform3D {
    /// The inverse, or nil when singular (see `CATransform3DInvert`).
    package var inverse: CATransform3D? {
        // Gauss–Jordan elimination with partial pivoting on [M | I].
        var m = [self[row: 0], self[row: 1], self[row: 2], self[row: 3]]
        var inv: [SIMD4<Double>] = [SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1)]
        var hadamard = 1.0
        for row in m { hadamard *= (row * row).sum().squareRoot() }
        guard hadamard > 0, hadamard.isFinite else { return nil }
        var det = 1.0
        for col in 0..<4 {
            var pivot = col
            for r in (col + 1)..<4 where abs(m[r][col]) > abs(m[pivot][col]) { pivot = r }
            if pivot != col {
                m.swapAt(pivot, col)
                inv.swapAt(pivot, col)
                det = -det
            }
            let p = m[col][col]
            det *= p
            guard p != 0 else { return nil }
            m[col] /= p
            inv[col] /= p
            for r in 0..<4 where r != col {
                let f = m[r][col]
                if f != 0 {
                    m[r] -= f * m[col]
                    inv[r] -= f * inv[col]
                }
            }
        }
        guard det.isFinite, abs(det) > 1e-14 * hadamard else { return nil }
        let result = CATransform3D(rows: inv[0], inv[1], inv[2], inv[3])
        guard result[row: 0].isFinite, result[row: 1].isFinite, result[row: 2].isFinite, result[row: 3].isFinite else {
            return nil
        }
        return result
    }

    /// The determinant of the 4×4 matrix.
    package var determinant: Double {
        let r0 = self[row: 0], r1 = self[row: 1], r2 = self[row: 2], r3 = self[row: 3]
        // Laplace expansion by 2×2 minors of the first two and last two rows.
        let s0 = r0.x * r1.y - r1.x * r0.y, s1 = r0.x * r1.z - r1.x * r0.z
        let s2 = r0.x * r1.w - r1.x * r0.w, s3 = r0.y * r1.z - r1.y * r0.z
        let s4 = r0.y * r1.w - r1.y * r0.w, s5 = r0.z * r1.w - r1.z * r0.w
        let c5 = r2.z * r3.w - r3.z * r2.w, c4 = r2.y * r3.w - r3.y * r2.w
        let c3 = r2.y * r3.z - r3.y * r2.z, c2 = r2.x * r3.w - r3.x * r2.w
        let c1 = r2.x * r3.z - r3.x * r2.z, c0 = r2.x * r3.y - r3.x * r2.y
        return s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
    }
}

extension SIMD4 where Scalar == Double {
    fileprivate var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite && w.isFinite }
}

// MARK: - Queries

/// Whether `t` is exactly the identity.
public func CATransform3DIsIdentity(_ t: CATransform3D) -> Bool {
    // Against literals, not the global identity: a spinning layer asks this twice per frame, and each
    // read of a global goes through its lazy initialization. Row by row as vectors, one branch in all:
    // sixteen comparisons each with its own branches (and a second for NaN) were 70 instructions.
    let rows = (SIMD4(Double(t.m11), Double(t.m12), Double(t.m13), Double(t.m14)) .== SIMD4(1, 0, 0, 0))
        .& (SIMD4(Double(t.m21), Double(t.m22), Double(t.m23), Double(t.m24)) .== SIMD4(0, 1, 0, 0))
        .& (SIMD4(Double(t.m31), Double(t.m32), Double(t.m33), Double(t.m34)) .== SIMD4(0, 0, 1, 0))
        .& (SIMD4(Double(t.m41), Double(t.m42), Double(t.m43), Double(t.m44)) .== SIMD4(0, 0, 0, 1))
    return all(rows)
}

/// Whether `a` and `b` are exactly equal, entry by entry.
public func CATransform3DEqualToTransform(_ a: CATransform3D, _ b: CATransform3D) -> Bool {
    a == b
}

/// Whether `t` can be represented exactly by a `CGAffineTransform`: it leaves z alone (`m33 = 1`, no
/// z coupling in `m13`, `m23`, `m31`, `m32`, `m43`) and has no perspective (`m14 = m24 = m34 = 0`, `m44 = 1`).
public func CATransform3DIsAffine(_ t: CATransform3D) -> Bool {
    t.m13 == 0 && t.m14 == 0 && t.m23 == 0 && t.m24 == 0 &&
        t.m31 == 0 && t.m32 == 0 && t.m33 == 1 && t.m34 == 0 &&
        t.m43 == 0 && t.m44 == 1
}

/// The 3D transform equivalent to the 2D affine transform `m`: `a, b, c, d, tx, ty` go to
/// `m11, m12, m21, m22, m41, m42`; z passes through.
public func CATransform3DMakeAffineTransform(_ m: CGAffineTransform) -> CATransform3D {
    CATransform3D(
        m11: m.a, m12: m.b, m13: 0, m14: 0,
        m21: m.c, m22: m.d, m23: 0, m24: 0,
        m31: 0, m32: 0, m33: 1, m34: 0,
        m41: m.tx, m42: m.ty, m43: 0, m44: 1
    )
}

/// The affine part of `t`: `m11, m12, m21, m22, m41, m42`. The other entries are ignored, so the result is
/// only faithful when `CATransform3DIsAffine(t)`.
public func CATransform3DGetAffineTransform(_ t: CATransform3D) -> CGAffineTransform {
    CGAffineTransform(a: t.m11, b: t.m12, c: t.m21, d: t.m22, tx: t.m41, ty: t.m42)
}

extension CATransform3D: CustomStringConvertible {
    /// The four rows, for test failures and logs.
    public var description: String {
        "CATransform3D([\(m11), \(m12), \(m13), \(m14)], [\(m21), \(m22), \(m23), \(m24)], "
            + "[\(m31), \(m32), \(m33), \(m34)], [\(m41), \(m42), \(m43), \(m44)])"
    }
}
