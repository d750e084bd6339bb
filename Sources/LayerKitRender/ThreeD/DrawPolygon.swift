/// One plane of a 3D rendering context as a convex polygon in the context's depth space, or a piece of
/// one after splitting (Chromium's `draw_polygon.cc`, our own code).
///
/// Depth space: the context root's sublayer space with its perspective applied and divided out — the
/// point (X/W, Y/W, Z/W) of a row-vector 4×4 map. There the viewer looks straight down −z from +z (lines
/// of sight are parallel to z), so larger z is nearer and painter's order is back (small z) to front.
///
/// `order` is the plane's draw order in the context (its sublayer order, `zPosition` first); pieces keep
/// their plane's. `isSplit` says whether the polygon is a piece rather than the whole plane.
package struct DrawPolygon: Sendable {
    package var points: [SIMD3<Double>]
    /// Unit normal (Newell's method, so it follows the points' winding); zero for a degenerate polygon.
    package var normal: SIMD3<Double>
    package var order: Int
    package var isSplit = false

    /// How far from a plane a point may lie and still count as on it (Chromium's thick plane): keeps
    /// planes that meet at an edge, like a cube's faces, from being split by rounding.
    package static let splitThreshold = 0.05

    package init(points: [SIMD3<Double>], order: Int) {
        self.points = points
        self.order = order
        var n = SIMD3<Double>.zero
        for i in points.indices {
            let a = points[i], b = points[(i + 1) % points.count]
            n += SIMD3((a.y - b.y) * (a.z + b.z), (a.z - b.z) * (a.x + b.x), (a.x - b.x) * (a.y + b.y))
        }
        let length = (n * n).sum().squareRoot()
        normal = length > 1e-12 && length.isFinite ? n / length : .zero
    }

    /// Signed distance of `p` from this polygon's plane, positive on the side the normal points to.
    package func signedDistance(_ p: SIMD3<Double>) -> Double {
        guard let origin = points.first else { return 0 }
        return (normal * (p - origin)).sum()
    }

    /// Where `other` lies relative to this polygon's (thick) plane.
    package enum Side: Equatable, Sendable { case front, back, coplanar, straddling }

    package func side(of other: DrawPolygon) -> Side {
        var front = false, back = false
        for p in other.points {
            let d = signedDistance(p)
            if d > Self.splitThreshold { front = true } else if d < -Self.splitThreshold { back = true }
        }
        switch (front, back) {
        case (true, true): return .straddling
        case (true, false): return .front
        case (false, true): return .back
        case (false, false): return .coplanar
        }
    }

    /// `other` cut by this polygon's plane into the part in front and the part behind (nil where a part
    /// has fewer than three points). Points within the thick plane go to both parts; an edge that
    /// crosses from one side beyond the threshold to the other beyond it is cut where it meets the plane.
    /// The cut point is computed from the edge's endpoints in a fixed order, so the two parts agree on it
    /// to the bit.
    package func split(_ other: DrawPolygon) -> (front: DrawPolygon?, back: DrawPolygon?) {
        var front: [SIMD3<Double>] = [], back: [SIMD3<Double>] = []
        let distances = other.points.map(signedDistance)
        let t = Self.splitThreshold
        for i in other.points.indices {
            let j = (i + 1) % other.points.count
            let (a, da) = (other.points[i], distances[i])
            if da >= -t { front.append(a) }
            if da <= t { back.append(a) }
            let db = distances[j]
            if (da > t && db < -t) || (da < -t && db > t) {
                // Same formula whichever way the edge is walked: from the point with the larger distance.
                let (p, dp, q, dq) = da > db ? (a, da, other.points[j], db) : (other.points[j], db, a, da)
                let cut = p + (q - p) * (dp / (dp - dq))
                front.append(cut)
                back.append(cut)
            }
        }
        func piece(_ points: [SIMD3<Double>]) -> DrawPolygon? {
            guard points.count >= 3 else { return nil }
            var result = other
            result.points = points
            result.isSplit = true
            return result
        }
        return (piece(front), piece(back))
    }

    /// The polygon's area (for tests and diagnostics).
    package var area: Double {
        var n = SIMD3<Double>.zero
        for i in points.indices {
            let a = points[i], b = points[(i + 1) % points.count]
            n += SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        }
        return (n * n).sum().squareRoot() / 2
    }

    /// Whether the polygon's front faces the viewer (its normal points toward +z).
    package var facesViewer: Bool { normal.z > 0 }
}
