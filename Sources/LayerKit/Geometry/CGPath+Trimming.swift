import Foundation

// Trimming a CGPath by arc length: what CAShapeLayer's `strokeStart` and `strokeEnd` stroke.
//
// Contract
//   Input:  a path and two fractions of its total length (all subpaths end to end, closing lines
//           included, moves counting nothing), as Core Animation measures `strokeStart`/`strokeEnd`.
//   Output: the part of the path between them, curves kept as curves: each line or cubic that is cut is
//           split exactly (de Casteljau) at the parameter where the length is reached. A closed subpath
//           that lies wholly inside the range stays closed (so its stroke joins at the start); one that is
//           cut becomes open. Quadratic curves come out as the equivalent cubics.
//   Arc length: lines exactly; curves by a polyline of 64 equal parameter steps, whose error relative to
//           the curve's length is below 1e-4 for any curve turning less than a quarter circle per segment.
//   Cost:   O(elements × 64).

extension CGPath {
    /// The length of the path: every segment, closing lines included; moves count nothing.
    package var arcLength: CGFloat {
        PathSegments(storage).totalLength
    }

    /// The part of the path from `start` to `end`, fractions (0…1, clamped) of its `arcLength`. The whole
    /// path when `start ≤ 0` and `end ≥ 1`; an empty path when `start ≥ end` or the path has no length.
    package func trimmed(from start: CGFloat, to end: CGFloat) -> CGPath {
        let start = start.isNaN ? 0 : min(max(start, 0), 1), end = end.isNaN ? 1 : min(max(end, 0), 1)
        if start <= 0 && end >= 1 { return self }
        let segments = PathSegments(storage)
        guard start < end, segments.totalLength > 0 else { return CGMutablePath() }
        return segments.trimmed(from: start * segments.totalLength, to: end * segments.totalLength)
    }
}

/// A path as segments (lines and cubics) with their lengths, for measuring and trimming.
struct PathSegments {
    struct Segment {
        /// Start, controls and end (a line's controls are its end points).
        var p0, p1, p2, p3: CGPoint
        var isLine: Bool
        /// The line back to its subpath's start that `closeSubpath` draws.
        var closesSubpath: Bool
        var subpath: Int
        /// The path length before this segment.
        var offset: CGFloat
        var length: CGFloat
        /// For curves: the length from the start at t = k / steps, k = 0…steps.
        var table: [CGFloat]
    }

    struct Subpath {
        var start: CGFloat
        var end: CGFloat
        var isClosed: Bool
    }

    static let steps = 64
    private(set) var segments: [Segment] = []
    private(set) var subpaths: [Subpath] = []
    private(set) var totalLength: CGFloat = 0

    init(_ storage: CGPathStorage) {
        var current = CGPoint.zero, subpathStart = CGPoint.zero
        var open = false
        var p = 0
        let points = storage.points
        func beginSubpath(at point: CGPoint) {
            subpaths.append(Subpath(start: totalLength, end: totalLength, isClosed: false))
            subpathStart = point
            current = point
            open = true
        }
        func add(_ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, line: Bool, closes: Bool = false) {
            if !open { beginSubpath(at: current) }
            var segment = Segment(p0: current, p1: p1, p2: p2, p3: p3, isLine: line, closesSubpath: closes,
                                  subpath: subpaths.count - 1, offset: totalLength, length: 0, table: [])
            if line {
                segment.length = hypot(p3.x - current.x, p3.y - current.y)
            } else {
                var table = [CGFloat](repeating: 0, count: Self.steps + 1)
                var previous = current
                for k in 1...Self.steps {
                    let point = Self.cubicPoint(segment, CGFloat(k) / CGFloat(Self.steps))
                    table[k] = table[k - 1] + hypot(point.x - previous.x, point.y - previous.y)
                    previous = point
                }
                segment.table = table
                segment.length = table[Self.steps]
            }
            segments.append(segment)
            totalLength += segment.length
            subpaths[subpaths.count - 1].end = totalLength
            current = p3
        }
        for type in storage.types {
            switch type {
            case .moveToPoint:
                beginSubpath(at: points[p])
            case .addLineToPoint:
                add(points[p], points[p], points[p], line: true)
            case .addQuadCurveToPoint:
                let (c, e) = (points[p], points[p + 1])
                let c1 = CGPoint(x: current.x + 2 / 3 * (c.x - current.x), y: current.y + 2 / 3 * (c.y - current.y))
                let c2 = CGPoint(x: e.x + 2 / 3 * (c.x - e.x), y: e.y + 2 / 3 * (c.y - e.y))
                add(c1, c2, e, line: false)
            case .addCurveToPoint:
                add(points[p], points[p + 1], points[p + 2], line: false)
            case .closeSubpath:
                if open {
                    add(subpathStart, subpathStart, subpathStart, line: true, closes: true)
                    subpaths[subpaths.count - 1].isClosed = true
                }
                current = subpathStart
                open = false
            }
            p += type.pointCount
        }
    }

    /// The part between lengths `s0` < `s1` (see `CGPath.trimmed(from:to:)`).
    func trimmed(from s0: CGFloat, to s1: CGFloat) -> CGPath {
        let path = CGMutablePath()
        let epsilon = totalLength * 1e-12
        var lastEmitted = -2
        for (index, segment) in segments.enumerated() {
            let a = segment.offset, b = a + segment.length
            let follows = lastEmitted == index - 1 && lastEmitted >= 0 && segments[lastEmitted].subpath == segment.subpath
            if segment.closesSubpath && follows {
                // A closed subpath wholly inside the range stays closed, even when its closing line is empty.
                let subpath = subpaths[segment.subpath]
                if subpath.start >= s0 - epsilon && subpath.end <= s1 + epsilon {
                    path.closeSubpath()
                    lastEmitted = index
                    continue
                }
            }
            guard segment.length > 0, b > s0, a < s1 else { continue }
            let t0 = a >= s0 ? 0 : parameter(of: segment, at: s0 - a)
            let t1 = b <= s1 ? 1 : parameter(of: segment, at: s1 - a)
            guard t1 > t0 else { continue }
            let piece = Self.split(segment, t0, t1)
            if !(follows && t0 == 0) { path.move(to: piece.p0) }
            if segment.isLine {
                path.addLine(to: piece.p3)
            } else {
                path.addCurve(to: piece.p3, control1: piece.p1, control2: piece.p2)
            }
            lastEmitted = index
        }
        return path
    }

    /// The curve parameter at which the segment's length from its start reaches `s`.
    private func parameter(of segment: Segment, at s: CGFloat) -> CGFloat {
        guard segment.length > 0 else { return 0 }
        if segment.isLine { return min(max(s / segment.length, 0), 1) }
        let table = segment.table
        var low = 0, high = Self.steps
        while high - low > 1 {
            let mid = (low + high) / 2
            if table[mid] <= s { low = mid } else { high = mid }
        }
        let span = table[high] - table[low]
        let fraction = span > 0 ? (s - table[low]) / span : 0
        return min(max((CGFloat(low) + fraction) / CGFloat(Self.steps), 0), 1)
    }

    static func cubicPoint(_ s: Segment, _ t: CGFloat) -> CGPoint {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return CGPoint(x: a * s.p0.x + b * s.p1.x + c * s.p2.x + d * s.p3.x,
                       y: a * s.p0.y + b * s.p1.y + c * s.p2.y + d * s.p3.y)
    }

    /// The segment restricted to parameters t0…t1 (de Casteljau for curves).
    static func split(_ s: Segment, _ t0: CGFloat, _ t1: CGFloat) -> Segment {
        var result = s
        if s.isLine {
            func lerp(_ t: CGFloat) -> CGPoint { CGPoint(x: s.p0.x + (s.p3.x - s.p0.x) * t, y: s.p0.y + (s.p3.y - s.p0.y) * t) }
            let (a, b) = (lerp(t0), lerp(t1))
            (result.p0, result.p1, result.p2, result.p3) = (a, b, b, b)
            return result
        }
        // [0, t1], then its [t0 / t1, 1].
        var (p0, p1, p2, p3) = subdivide((s.p0, s.p1, s.p2, s.p3), at: t1).left
        if t0 > 0, t1 > 0 { (p0, p1, p2, p3) = subdivide((p0, p1, p2, p3), at: t0 / t1).right }
        (result.p0, result.p1, result.p2, result.p3) = (p0, p1, p2, p3)
        return result
    }

    private typealias Cubic = (CGPoint, CGPoint, CGPoint, CGPoint)

    private static func subdivide(_ c: Cubic, at t: CGFloat) -> (left: Cubic, right: Cubic) {
        func mix(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t) }
        let ab = mix(c.0, c.1), bc = mix(c.1, c.2), cd = mix(c.2, c.3)
        let abc = mix(ab, bc), bcd = mix(bc, cd)
        let mid = mix(abc, bcd)
        return ((c.0, ab, abc, mid), (mid, bcd, cd, c.3))
    }
}
