/// The pixels-space image of a layer rect under an `AffinePixelMap`: corner + s · edgeX + t · edgeY for
/// s, t in 0…1.
package struct PixelParallelogram: Sendable {
    package var corner: SIMD2<Double>
    package var edgeX: SIMD2<Double>
    package var edgeY: SIMD2<Double>

    package init(corner: SIMD2<Double>, edgeX: SIMD2<Double>, edgeY: SIMD2<Double>) {
        self.corner = corner
        self.edgeX = edgeX
        self.edgeY = edgeY
    }

    /// The four corners, in order around the outline.
    package var corners: (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>, SIMD2<Double>) {
        (corner, corner + edgeX, corner + edgeX + edgeY, corner + edgeY)
    }

    /// The area in square pixels.
    package var area: Double { abs(edgeX.x * edgeY.y - edgeX.y * edgeY.x) }

    /// The rows a and b of the inverse of [edgeX edgeY]: a point p has parameters s = a · (p − corner)
    /// and t = b · (p − corner) (non-finite for a degenerate parallelogram).
    package var inverseRows: (a: SIMD2<Double>, b: SIMD2<Double>) {
        let determinant = edgeX.x * edgeY.y - edgeX.y * edgeY.x
        return (SIMD2(edgeY.y, -edgeY.x) / determinant, SIMD2(-edgeX.y, edgeX.x) / determinant)
    }

    /// The bounding box (minX, minY, maxX, maxY).
    package var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let (a, b, c, d) = corners
        let low = pointwiseMin(pointwiseMin(a, b), pointwiseMin(c, d))
        let high = pointwiseMax(pointwiseMax(a, b), pointwiseMax(c, d))
        return (low.x, low.y, high.x, high.y)
    }

    /// The x-ranges of the parallelogram shrunk by `inset` pixels on every side (grown, for a negative
    /// inset), at any height, with its edges' equations worked out once.
    ///
    /// A point p is inside when s = a · (p − corner) and t = b · (p − corner) both lie in 0…1, where a and b
    /// are the rows of the inverse of [edgeX edgeY]; a side's distance in pixels is s / |a| (or t / |b|),
    /// so shrinking by `inset` narrows s to inset · |a| … 1 − inset · |a|. At a given height each condition
    /// is an x-range whose ends are linear in the height, and the span is their intersection: two
    /// multiply-adds per end (asked for every block row of every occluder, `OpaqueBlockMask`).
    package struct Spans {
        private let cornerY: Double
        /// Each condition's range at height y: from (low.x + slope.x · dy) to (high.x + slope.x · dy),
        /// dy = y − corner.y, for s (x) and t (y); absolute x (the corner's x included).
        private let low: SIMD2<Double>
        private let high: SIMD2<Double>
        private let slope: SIMD2<Double>
        /// For a condition whose range does not depend on x (an edge parallel to the x axis): the dy
        /// range where it holds (its x-range is then unbounded).
        private let levelRange: (s: (Double, Double)?, t: (Double, Double)?)
        private let isEmpty: Bool

        package init(_ shape: PixelParallelogram, inset: Double = 0) {
            cornerY = shape.corner.y
            let (a, b) = shape.inverseRows
            let (aInset, bInset) = (inset * a.length, inset * b.length)
            let ranges = [(aInset, 1 - aInset), (bInset, 1 - bInset)]
            isEmpty = !(ranges[0].0 <= ranges[0].1 && ranges[1].0 <= ranges[1].1) || !(a.x.isFinite && a.y.isFinite && b.x.isFinite && b.y.isFinite)
            var low = SIMD2<Double>(repeating: -.infinity), high = SIMD2<Double>(repeating: .infinity), slope = SIMD2<Double>.zero
            var level: [(Double, Double)?] = [nil, nil]
            for (index, dual) in [a, b].enumerated() {
                let range = ranges[index]
                if dual.x == 0 {
                    // dual.y · dy within the range.
                    let (p, q) = dual.y == 0 ? (-Double.infinity, Double.infinity) : (range.0 / dual.y, range.1 / dual.y)
                    level[index] = dual.y < 0 ? (q, p) : (p, q)
                    if dual.y == 0 && !(range.0 <= 0 && 0 <= range.1) { level[index] = (1, 0) }
                    continue
                }
                let inverse = 1 / dual.x
                let (p, q) = (range.0 * inverse, range.1 * inverse)
                low[index] = shape.corner.x + min(p, q)
                high[index] = shape.corner.x + max(p, q)
                slope[index] = -dual.y * inverse
            }
            self.low = low
            self.high = high
            self.slope = slope
            levelRange = (level[0], level[1])
        }

        /// The x-range inside at height y, or nil.
        @inline(__always)
        package func span(atY y: Double) -> (Double, Double)? {
            let dy = y - cornerY
            guard !isEmpty, dy.isFinite else { return nil }
            if let (p, q) = levelRange.s, !(dy >= p && dy <= q) { return nil }
            if let (p, q) = levelRange.t, !(dy >= p && dy <= q) { return nil }
            let lows = low + slope * dy, highs = high + slope * dy
            let left = max(lows.x, lows.y), right = min(highs.x, highs.y)
            return left <= right ? (left, right) : nil
        }
    }
}

extension PixelParallelogram {
    /// The x-extent of the parallelogram's part between two heights, with its edges' slopes worked out
    /// once (asked for every block row of a shape whose exposure is sought, `OpaqueBlockMask.exposure`).
    ///
    /// The part of a convex outline within a horizontal band is convex, and its corners are the outline's
    /// corners within the band and the points where an edge crosses either side of the band: the extent
    /// is the least and greatest x among those. Each edge adds its first corner and its crossings.
    package struct BandExtents {
        /// One edge from `start` to `end`: its dx/dy (0 for a level edge) and the y-range it spans.
        private struct Edge {
            let startX: Double
            let startY: Double
            let slope: Double
            let low: Double
            let high: Double

            init(_ start: SIMD2<Double>, _ end: SIMD2<Double>) {
                startX = start.x
                startY = start.y
                slope = end.y == start.y ? 0 : (end.x - start.x) / (end.y - start.y)
                low = min(start.y, end.y)
                high = max(start.y, end.y)
            }

            /// Widens `range` by the point where the edge crosses height y, if it crosses it.
            @inline(__always)
            func addCrossing(atY y: Double, to range: inout (Double, Double)) {
                guard low < y, y < high else { return }
                let x = startX + (y - startY) * slope
                range = (min(range.0, x), max(range.1, x))
            }
        }

        private let edges: (Edge, Edge, Edge, Edge)

        package init(_ shape: PixelParallelogram) {
            let (p0, p1, p2, p3) = shape.corners
            edges = (Edge(p0, p1), Edge(p1, p2), Edge(p2, p3), Edge(p3, p0))
        }

        /// The least and greatest x of the parallelogram's points with y in `top...bottom`, or nil when it has
        /// none there.
        @inline(__always)
        package func xRange(fromY top: Double, toY bottom: Double) -> (Double, Double)? {
            var range = (Double.infinity, -Double.infinity)
            // Every corner starts one edge.
            @inline(__always) func add(_ edge: Edge) {
                if edge.startY >= top && edge.startY <= bottom { range = (min(range.0, edge.startX), max(range.1, edge.startX)) }
                edge.addCrossing(atY: top, to: &range)
                edge.addCrossing(atY: bottom, to: &range)
            }
            add(edges.0)
            add(edges.1)
            add(edges.2)
            add(edges.3)
            return range.0 <= range.1 ? range : nil
        }
    }
}

extension SIMD2 where Scalar == Double {
    /// The Euclidean length.
    package var length: Double { (self * self).sum().squareRoot() }
}
