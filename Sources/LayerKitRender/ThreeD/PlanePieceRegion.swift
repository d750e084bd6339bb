/// The region a piece of a split plane draws, in the plane's layer space.
///
/// Input: a piece (convex polygon, layer space of the plane's layer) and the plane's rectangle — the
/// union of what its draws cover, which is the polygon the BSP tree split.
/// Output: the piece with its edges on the rectangle's sides pushed out by `margin`, its cut edges kept:
/// the rectangle grown by `margin` cut by the lines the piece was cut along. Draws grow their quads past
/// the layer's bounds to antialias its edges (`allowsEdgeAntialiasing`); cut to the piece itself they
/// would lose the outer half of that fringe. Pieces of one plane still tile it, fringe included, since
/// each is the grown rectangle on its side of the cuts between them.
/// Each cut line is taken with its endpoints in a fixed order, so the two pieces on either side compute
/// the same cut points. Cost: O(corners²).
enum PlanePieceRegion {
    static func region(of piece: [SIMD2<Double>], planeRect r: SIMD4<Double>, margin: Double) -> [SIMD2<Double>] {
        let tolerance = 1e-6 * max(r.z - r.x, r.w - r.y, 1)
        func onSide(_ p: SIMD2<Double>, _ q: SIMD2<Double>) -> Bool {
            (abs(p.x - r.x) < tolerance && abs(q.x - r.x) < tolerance) || (abs(p.x - r.z) < tolerance && abs(q.x - r.z) < tolerance)
                || (abs(p.y - r.y) < tolerance && abs(q.y - r.y) < tolerance) || (abs(p.y - r.w) < tolerance && abs(q.y - r.w) < tolerance)
        }
        var twiceArea = 0.0
        for i in piece.indices {
            let a = piece[i], b = piece[(i + 1) % piece.count]
            twiceArea += a.x * b.y - b.x * a.y
        }
        var region = [SIMD2(r.x - margin, r.y - margin), SIMD2(r.z + margin, r.y - margin),
                      SIMD2(r.z + margin, r.w + margin), SIMD2(r.x - margin, r.w + margin)]
        for i in piece.indices {
            let p = piece[i], q = piece[(i + 1) % piece.count]
            guard p != q, !onSide(p, q) else { continue }
            // Inside is left of p → q for a counter-clockwise piece (in y-up terms), right for clockwise.
            let (a, b, sign) = (p.x, p.y) < (q.x, q.y) ? (p, q, twiceArea >= 0 ? 1.0 : -1.0) : (q, p, twiceArea >= 0 ? -1.0 : 1.0)
            region = keep(region, inside: { sign * ((b.x - a.x) * ($0.y - a.y) - (b.y - a.y) * ($0.x - a.x)) })
        }
        return region
    }

    /// `polygon` cut to where `side` ≥ 0 (`side` affine), cut points from edge endpoints in a fixed order.
    private static func keep(_ polygon: [SIMD2<Double>], inside side: (SIMD2<Double>) -> Double) -> [SIMD2<Double>] {
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
}
