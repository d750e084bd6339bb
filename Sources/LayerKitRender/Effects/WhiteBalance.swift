import Foundation

/// CITemperatureAndTint as a colour matrix: the image's white, lit by `neutral`, re-lit by `target`.
///
/// Input: two (temperature in kelvin, tint) pairs, Core Image's `inputNeutral` and `inputTargetNeutral`.
/// Output: a matrix on RGB: M = A⁻¹ · B⁻¹ · diag(B·W_target / B·W_neutral) · B · A, where A maps RGB to
/// XYZ (Core Image's D50 matrix), B is the Bradford cone response, and W are the illuminants' XYZ whites
/// (Y = 1). So a pixel of the neutral illuminant's colour becomes the target's: a warm neutral under a
/// daylight target turns the image cooler, and the reverse.
/// An illuminant's chromaticity: the Planckian locus at the temperature by Kang et al.'s cubic fit
/// (1,667 K to 25,000 K; temperatures are clamped to it), then moved along the locus's normal in the CIE
/// 1960 uv plane by tint / −3000 (DNG's convention; Core Image's own uses Robertson's isotherm table, which
/// this fit follows within about 1e-3 in uv).
enum WhiteBalance {
    /// Core Image's RGB → XYZ (D50).
    static let rgbToXYZ = Matrix3(rows: (SIMD3(0.454268, 0.353316, 0.156617), SIMD3(0.241899, 0.673652, 0.084449),
                                         SIMD3(0.014891, 0.090623, 0.719386)))
    static let bradford = Matrix3(rows: (SIMD3(0.8951, 0.2664, -0.1614), SIMD3(-0.7502, 1.7135, 0.0367), SIMD3(0.0389, -0.0685, 1.0296)))

    /// The matrix re-lighting an image from `neutral` to `target` (temperature, tint).
    static func matrix(neutral: SIMD2<Double>, target: SIMD2<Double>) -> Matrix3 {
        let from = bradford * whitePoint(temperature: neutral.x, tint: neutral.y)
        let to = bradford * whitePoint(temperature: target.x, tint: target.y)
        let gains = Matrix3.diagonal(to / from)
        return rgbToXYZ.inverse * bradford.inverse * gains * bradford * rgbToXYZ
    }

    /// The XYZ (Y = 1) of the illuminant at `temperature` kelvin moved by `tint`.
    static func whitePoint(temperature: Double, tint: Double) -> SIMD3<Double> {
        func locus(_ t: Double) -> SIMD2<Double> {
            let x = t <= 4000 ? -0.2661239e9 / (t * t * t) - 0.2343589e6 / (t * t) + 0.8776956e3 / t + 0.179910
                              : -3.0258469e9 / (t * t * t) + 2.1070379e6 / (t * t) + 0.2226347e3 / t + 0.240390
            let y = t <= 2222 ? -1.1063814 * x * x * x - 1.34811020 * x * x + 2.18555832 * x - 0.20219683
                  : t <= 4000 ? -0.9549476 * x * x * x - 1.37418593 * x * x + 2.09137015 * x - 0.16748867
                              : 3.0817580 * x * x * x - 5.87338670 * x * x + 3.75112997 * x - 0.37001483
            // CIE 1960 uv.
            let d = -2 * x + 12 * y + 3
            return SIMD2(4 * x / d, 6 * y / d)
        }
        let t = min(max(temperature.isFinite ? temperature : 6500, 1667), 25_000)
        var uv = locus(t)
        if tint.isFinite && tint != 0 {
            // The locus's normal at t (toward green for a negative offset, as DNG's tint sign has it).
            let step = max(t * 1e-3, 1)
            let tangent = locus(min(t + step, 25_000)) - locus(max(t - step, 1667))
            let length = (tangent * tangent).sum().squareRoot()
            if length > 0 {
                let normal = SIMD2(-tangent.y, tangent.x) / length
                uv += normal * (tint / -3000)
            }
        }
        // uv → xy → XYZ with Y = 1.
        let d = 2 * uv.x - 8 * uv.y + 4
        let x = 3 * uv.x / d, y = 2 * uv.y / d
        return SIMD3(x / y, 1, (1 - x - y) / y)
    }
}

/// A 3×3 matrix on column vectors (rows stored), for colour-space maps.
struct Matrix3: Equatable {
    var rows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)

    static func == (lhs: Matrix3, rhs: Matrix3) -> Bool { lhs.rows == rhs.rows }

    static func diagonal(_ d: SIMD3<Double>) -> Matrix3 {
        Matrix3(rows: (SIMD3(d.x, 0, 0), SIMD3(0, d.y, 0), SIMD3(0, 0, d.z)))
    }

    static func * (m: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((m.rows.0 * v).sum(), (m.rows.1 * v).sum(), (m.rows.2 * v).sum())
    }

    static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let columns = (SIMD3(b.rows.0.x, b.rows.1.x, b.rows.2.x), SIMD3(b.rows.0.y, b.rows.1.y, b.rows.2.y),
                       SIMD3(b.rows.0.z, b.rows.1.z, b.rows.2.z))
        func row(_ r: SIMD3<Double>) -> SIMD3<Double> { SIMD3((r * columns.0).sum(), (r * columns.1).sum(), (r * columns.2).sum()) }
        return Matrix3(rows: (row(a.rows.0), row(a.rows.1), row(a.rows.2)))
    }

    /// The inverse (the matrices here are well conditioned colour maps).
    var inverse: Matrix3 {
        let (a, b, c) = rows
        let r0 = SIMD3(b.y * c.z - b.z * c.y, a.z * c.y - a.y * c.z, a.y * b.z - a.z * b.y)
        let r1 = SIMD3(b.z * c.x - b.x * c.z, a.x * c.z - a.z * c.x, a.z * b.x - a.x * b.z)
        let r2 = SIMD3(b.x * c.y - b.y * c.x, a.y * c.x - a.x * c.y, a.x * b.y - a.y * b.x)
        let determinant = a.x * r0.x + a.y * r1.x + a.z * r2.x
        return Matrix3(rows: (r0 / determinant, r1 / determinant, r2 / determinant))
    }
}
