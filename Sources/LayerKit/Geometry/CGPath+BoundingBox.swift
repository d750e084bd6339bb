import Foundation

// Bounding boxes of a CGPath.
//
// `boundingBox` is the box of every stored point, Bézier control points included (Core Graphics'
// CGPathGetBoundingBox): one pass over the points, O(points).
// `boundingBoxOfPath` is the tight box of the drawn curve (CGPathGetPathBoundingBox): end points plus, for
// each curve, the parameters where dx/dt or dy/dt is zero, solved in closed form — linear for a quadratic,
// a quadratic equation for a cubic. O(elements), no subdivision.
// Both include the point of a move that starts no segment, and both are `.null` for an empty path.

extension CGPath {
    /// The smallest rectangle containing every point of the path, control points included; `.null`
    /// when the path is empty.
    public var boundingBox: CGRect {
        var box = CGPathBox()
        for point in storage.points { box.add(point) }
        return box.rect
    }

    /// The smallest rectangle containing the path as drawn — curves' extremes, not their control points;
    /// `.null` when the path is empty.
    public var boundingBoxOfPath: CGRect {
        var box = CGPathBox()
        var current = CGPoint.zero
        var p = 0
        let pts = storage.points
        for type in storage.types {
            switch type {
            case .moveToPoint, .addLineToPoint:
                current = pts[p]
                box.add(current)
            case .addQuadCurveToPoint:
                let (c, end) = (pts[p], pts[p + 1])
                box.add(end)
                for t in CGPathBox.quadExtrema(current.x, c.x, end.x) + CGPathBox.quadExtrema(current.y, c.y, end.y) {
                    box.add(CGPathBox.quadPoint(current, c, end, t))
                }
                current = end
            case .addCurveToPoint:
                let (c1, c2, end) = (pts[p], pts[p + 1], pts[p + 2])
                box.add(end)
                for t in CGPathBox.cubicExtrema(current.x, c1.x, c2.x, end.x) + CGPathBox.cubicExtrema(current.y, c1.y, c2.y, end.y) {
                    box.add(CGPathBox.cubicPoint(current, c1, c2, end, t))
                }
                current = end
            case .closeSubpath:
                // The closing line ends at the subpath's start, already in the box.
                break
            }
            p += type.pointCount
        }
        return box.rect
    }
}

/// A running min/max box, and the curve algebra the tight box needs.
struct CGPathBox {
    private var minX = CGFloat.infinity, minY = CGFloat.infinity
    private var maxX = -CGFloat.infinity, maxY = -CGFloat.infinity

    mutating func add(_ p: CGPoint) {
        minX = min(minX, p.x); maxX = max(maxX, p.x)
        minY = min(minY, p.y); maxY = max(maxY, p.y)
    }

    var rect: CGRect {
        minX <= maxX ? CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY) : .null
    }

    /// Parameters in (0, 1) where the quadratic with coordinates p0, p1, p2 has zero derivative:
    /// B'(t) = 2[(p1 - p0) + (p0 - 2p1 + p2)t].
    static func quadExtrema(_ p0: CGFloat, _ p1: CGFloat, _ p2: CGFloat) -> [CGFloat] {
        let denominator = p0 - 2 * p1 + p2
        guard denominator != 0 else { return [] }
        let t = (p0 - p1) / denominator
        return t > 0 && t < 1 ? [t] : []
    }

    /// Parameters in (0, 1) where the cubic with coordinates p0…p3 has zero derivative:
    /// B'(t)/3 = a t² + b t + c with a = -p0 + 3p1 - 3p2 + p3, b = 2(p0 - 2p1 + p2), c = p1 - p0.
    static func cubicExtrema(_ p0: CGFloat, _ p1: CGFloat, _ p2: CGFloat, _ p3: CGFloat) -> [CGFloat] {
        let a = -p0 + 3 * p1 - 3 * p2 + p3
        let b = 2 * (p0 - 2 * p1 + p2)
        let c = p1 - p0
        var roots: [CGFloat] = []
        if a == 0 {
            if b != 0 { roots.append(-c / b) }
        } else {
            let discriminant = b * b - 4 * a * c
            guard discriminant >= 0 else { return [] }
            // The stable form: q = -(b + sign(b)·√D)/2, roots q/a and c/q, avoids cancellation when a is
            // tiny next to b (a quadratic curve raised to a cubic, say).
            let root = discriminant.squareRoot()
            let q = -(b + (b < 0 ? -root : root)) / 2
            roots.append(q / a)
            if q != 0 { roots.append(c / q) }
        }
        return roots.filter { $0 > 0 && $0 < 1 }
    }

    static func quadPoint(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ t: CGFloat) -> CGPoint {
        let s = 1 - t
        return CGPoint(
            x: s * s * p0.x + 2 * s * t * p1.x + t * t * p2.x,
            y: s * s * p0.y + 2 * s * t * p1.y + t * t * p2.y
        )
    }

    static func cubicPoint(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, _ t: CGFloat) -> CGPoint {
        let s = 1 - t
        let w0 = s * s * s, w1 = 3 * s * s * t, w2 = 3 * s * t * t, w3 = t * t * t
        return CGPoint(
            x: w0 * p0.x + w1 * p1.x + w2 * p2.x + w3 * p3.x,
            y: w0 * p0.y + w1 * p1.y + w2 * p2.y + w3 * p3.y
        )
    }
}
