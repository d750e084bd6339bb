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
        let twiceArea = ConvexPolygonClipping.twiceSignedArea(piece)
        var region = [SIMD2(r.x - margin, r.y - margin), SIMD2(r.z + margin, r.y - margin),
                      SIMD2(r.z + margin, r.w + margin), SIMD2(r.x - margin, r.w + margin)]
        for i in piece.indices {
            let p = piece[i], q = piece[(i + 1) % piece.count]
            guard p != q, !onSide(p, q) else { continue }
            // Inside is left of p → q for a counter-clockwise piece (in y-up terms), right for clockwise.
            let (a, b, sign) = (p.x, p.y) < (q.x, q.y) ? (p, q, twiceArea >= 0 ? 1.0 : -1.0) : (q, p, twiceArea >= 0 ? -1.0 : 1.0)
            region = ConvexPolygonClipping.keep(region, inside: { sign * ((b.x - a.x) * ($0.y - a.y) - (b.y - a.y) * ($0.x - a.x)) })
        }
        return region
    }
}
