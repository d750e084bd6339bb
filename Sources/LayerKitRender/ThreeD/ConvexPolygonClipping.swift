/// Clipping polygons by half-planes, for the pieces of split planes (`PlanePieceRegion`,
/// `DrawItem.restricted(to:)`).
///
/// Every cut point is computed from its edge's endpoints taken in a fixed order (lexicographic), so two
/// pieces sharing an edge get bit-identical cut points and no seam opens between them.
/// Cost: O(corners) per half-plane.
enum ConvexPolygonClipping {
    /// Twice the signed area of `polygon` (positive when counter-clockwise in y-up terms).
    static func twiceSignedArea(_ polygon: [SIMD2<Double>]) -> Double {
        var twiceArea = 0.0
        for i in polygon.indices {
            let a = polygon[i], b = polygon[(i + 1) % polygon.count]
            twiceArea += a.x * b.y - b.x * a.y
        }
        return twiceArea
    }

    /// `polygon` cut to where `side` ≥ 0 (`side` affine).
    static func keep(_ polygon: [SIMD2<Double>], inside side: (SIMD2<Double>) -> Double) -> [SIMD2<Double>] {
        var output: [SIMD2<Double>] = []
        for j in polygon.indices {
            let p = polygon[j], q = polygon[(j + 1) % polygon.count]
            let sp = side(p), sq = side(q)
            if sp >= 0 { output.append(p) }
            if (sp >= 0) != (sq >= 0) {
                let (m, sm, n, sn) = (p.x, p.y) < (q.x, q.y) ? (p, sp, q, sq) : (q, sq, p, sp)
                output.append(m + (n - m) * (sm / (sm - sn)))
            }
        }
        return output
    }

    /// `subject` ∩ the convex polygon `convex` (Sutherland–Hodgman), either winding.
    static func clip(_ subject: [SIMD2<Double>], to convex: [SIMD2<Double>]) -> [SIMD2<Double>] {
        let orientation: Double = twiceSignedArea(convex) >= 0 ? 1 : -1
        var output = subject
        for i in convex.indices where !output.isEmpty {
            let a = convex[i], b = convex[(i + 1) % convex.count]
            output = keep(output) { p in orientation * ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) }
        }
        return output
    }
}
