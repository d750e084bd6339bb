import Foundation

// Point containment for CGPath.
//
// Input:  a point (mapped by the caller's transform first, as Core Graphics does) and a fill rule.
// Output: whether the point lies in the region the path would fill.
// Algorithm: the winding number of the path around the point, counted on a ray from the point toward
//   +x. Every subpath is closed implicitly, as filling does. A line crossing the ray upward counts +1,
//   downward -1, with a half-open rule on y so a ray through a vertex counts it once. A curve is
//   decided from its control box when it can be (box entirely above, below or left of the point: no
//   crossing; entirely right: crosses like its chord, since curve and chord bound a region the ray
//   cannot separate), otherwise split in half (de Casteljau) and recursed; a piece smaller than
//   `flatness` counts as its chord. Quadratics are raised to cubics exactly first.
//   Nonzero winding is inside for `.winding`, odd winding for `.evenOdd`.
// Cost: O(elements), plus O(log(size / flatness)) subdivisions for each curve whose box holds the point.
// Points within `flatness` of the boundary may land on either side.

extension CGPath {
    /// Whether `point`, mapped by `transform`, lies inside the region the path fills under `rule`.
    /// Open subpaths count as closed. Points exactly on the boundary may go either way.
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding, transform: CGAffineTransform = .identity) -> Bool {
        let p = point.applying(transform)
        guard CGPathStorage.isFinite(p), !storage.types.isEmpty else { return false }
        let winding = storage.winding(around: p)
        switch rule {
        case .winding: return winding != 0
        case .evenOdd: return winding & 1 != 0
        }
    }
}

extension CGPathStorage {
    /// Curve pieces whose control box is smaller than this in both directions count as straight.
    static let flatness: CGFloat = 0.01
    /// Enough halvings to bring a box 10⁷ points wide under `flatness`; a backstop, not the usual exit.
    static let maximumSubdivisionDepth = 40

    /// The winding number of the path (subpaths implicitly closed) around `p`.
    func winding(around p: CGPoint) -> Int {
        var winding = 0
        var current = CGPoint.zero, start = CGPoint.zero
        var index = 0
        for type in types {
            switch type {
            case .moveToPoint:
                winding += CGPathStorage.lineWinding(current, start, around: p)  // close the previous subpath
                current = points[index]
                start = current
            case .addLineToPoint:
                winding += CGPathStorage.lineWinding(current, points[index], around: p)
                current = points[index]
            case .addQuadCurveToPoint:
                // Raising the degree is exact: controls at 2/3 of the way from each end to the quad control.
                let control = points[index], end = points[index + 1]
                let c1 = CGPoint(x: current.x + 2 / 3 * (control.x - current.x), y: current.y + 2 / 3 * (control.y - current.y))
                let c2 = CGPoint(x: end.x + 2 / 3 * (control.x - end.x), y: end.y + 2 / 3 * (control.y - end.y))
                winding += CGPathStorage.cubicWinding(current, c1, c2, end, around: p, depth: 0)
                current = end
            case .addCurveToPoint:
                let end = points[index + 2]
                winding += CGPathStorage.cubicWinding(current, points[index], points[index + 1], end, around: p, depth: 0)
                current = end
            case .closeSubpath:
                winding += CGPathStorage.lineWinding(current, start, around: p)
                current = start
            }
            index += type.pointCount
        }
        winding += CGPathStorage.lineWinding(current, start, around: p)  // close the last subpath
        return winding
    }

    /// +1 when the segment crosses the rightward ray from `p` going up, -1 going down, else 0.
    /// Half-open in y (an end exactly at p.y counts as below), so a ray through a shared vertex counts once.
    static func lineWinding(_ a: CGPoint, _ b: CGPoint, around p: CGPoint) -> Int {
        let aAbove = a.y > p.y, bAbove = b.y > p.y
        guard aAbove != bAbove else { return 0 }
        let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)
        guard x > p.x else { return 0 }
        return bAbove ? 1 : -1
    }

    static func cubicWinding(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, around p: CGPoint, depth: Int) -> Int {
        let minY = min(p0.y, p1.y, p2.y, p3.y), maxY = max(p0.y, p1.y, p2.y, p3.y)
        // Entirely above or entirely at-or-below the ray: every piece is, so nothing crosses.
        if minY > p.y || maxY <= p.y { return 0 }
        let minX = min(p0.x, p1.x, p2.x, p3.x), maxX = max(p0.x, p1.x, p2.x, p3.x)
        // Entirely left of the point: crossings there do not count.
        if maxX <= p.x { return 0 }
        // Entirely right: every crossing counts, and their sum depends only on the ends — the chord's.
        if minX > p.x { return lineWinding(p0, p3, around: p) }
        if (maxX - minX < flatness && maxY - minY < flatness) || depth >= maximumSubdivisionDepth {
            return lineWinding(p0, p3, around: p)
        }
        // de Casteljau at t = 1/2.
        func mid(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2) }
        let p01 = mid(p0, p1), p12 = mid(p1, p2), p23 = mid(p2, p3)
        let p012 = mid(p01, p12), p123 = mid(p12, p23)
        let m = mid(p012, p123)
        return cubicWinding(p0, p01, p012, m, around: p, depth: depth + 1)
            + cubicWinding(m, p123, p23, p3, around: p, depth: depth + 1)
    }
}
