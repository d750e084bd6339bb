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
        // Scalar min and max (the same order of operands as `pointwiseMin`/`pointwiseMax`): the generic SIMD
        // ones were six calls, asked twice per occluder per frame (`OpaqueBlockMask`).
        let (a, b, c, d) = corners
        return (min(min(a.x, b.x), min(c.x, d.x)), min(min(a.y, b.y), min(c.y, d.y)),
                max(max(a.x, b.x), max(c.x, d.x)), max(max(a.y, b.y), max(c.y, d.y)))
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
        /// The dy range where the conditions that do not depend on x (an edge parallel to the x axis)
        /// hold; empty (low > high) when the shrunk parallelogram has no point at all. One range, not one
        /// per condition: each was an optional read at every height asked.
        private let heights: (low: Double, high: Double)

        package init(_ shape: PixelParallelogram, inset: Double = 0) {
            cornerY = shape.corner.y
            let (a, b) = shape.inverseRows
            let (aInset, bInset) = (inset * a.length, inset * b.length)
            let ranges = [(aInset, 1 - aInset), (bInset, 1 - bInset)]
            let isEmpty = !(ranges[0].0 <= ranges[0].1 && ranges[1].0 <= ranges[1].1) || !(a.x.isFinite && a.y.isFinite && b.x.isFinite && b.y.isFinite)
            var low = SIMD2<Double>(repeating: -.infinity), high = SIMD2<Double>(repeating: .infinity), slope = SIMD2<Double>.zero
            var heights = isEmpty ? (low: Double.infinity, high: -Double.infinity) : (low: -Double.infinity, high: Double.infinity)
            for (index, dual) in [a, b].enumerated() {
                let range = ranges[index]
                if dual.x == 0 {
                    // dual.y · dy within the range.
                    if dual.y == 0 {
                        if !(range.0 <= 0 && 0 <= range.1) { heights = (.infinity, -.infinity) }
                    } else {
                        let (p, q) = (range.0 / dual.y, range.1 / dual.y)
                        heights = (max(heights.low, min(p, q)), min(heights.high, max(p, q)))
                    }
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
            self.heights = heights
        }

        /// The x-range inside at height y, or nil.
        @inline(__always)
        package func span(atY y: Double) -> (Double, Double)? {
            let dy = y - cornerY
            guard dy >= heights.low, dy <= heights.high, dy.isFinite else { return nil }
            let lows = low + slope * dy, highs = high + slope * dy
            let left = max(lows.x, lows.y), right = min(highs.x, highs.y)
            return left <= right ? (left, right) : nil
        }
    }
}

extension PixelParallelogram {
    /// The x-extent of the parallelogram's part between two heights, with its outline's slopes worked out
    /// once (asked for every block row of a shape whose exposure is sought, `OpaqueBlockMask.exposure`).
    ///
    /// The outline's highest and lowest corners are opposite (a parallelogram is symmetric about its
    /// centre) and split it into a left and a right chain of two edges each, meeting at a middle corner;
    /// at each height the left chain holds the least x and the right chain the greatest. Along the left
    /// chain x is a convex function of y, so over a band it is least at the band's height nearest the
    /// outline's leftmost corner (which lies on that chain); along the right chain it is concave, greatest
    /// nearest the rightmost corner. Two clamps and two multiply-adds, no branch on the data but the
    /// chain's piece. (Each of the four edges adding its corner and its crossings of the band's sides took
    /// twelve data-dependent branches.)
    package struct BandExtents {
        /// One side of the outline from the highest corner to the lowest: x at height y.
        private struct Chain {
            let top: SIMD2<Double>
            let middle: SIMD2<Double>
            /// dx/dy from `top` to `middle` and from `middle` to the lowest corner (0 for a level edge,
            /// which no height strictly inside the chain's pieces reaches).
            let upperSlope: Double
            let lowerSlope: Double
            /// The height of the outline's leftmost corner (left chain) or rightmost (right chain).
            let extremeY: Double

            init(top: SIMD2<Double>, middle: SIMD2<Double>, bottom: SIMD2<Double>, extremeY: Double) {
                self.top = top
                self.middle = middle
                upperSlope = middle.y == top.y ? 0 : (middle.x - top.x) / (middle.y - top.y)
                lowerSlope = bottom.y == middle.y ? 0 : (bottom.x - middle.x) / (bottom.y - middle.y)
                self.extremeY = extremeY
            }

            @inline(__always)
            func x(atY y: Double) -> Double {
                y < middle.y ? top.x + (y - top.y) * upperSlope : middle.x + (y - middle.y) * lowerSlope
            }
        }

        private let top: Double
        private let bottom: Double
        private let left: Chain
        private let right: Chain

        package init(_ shape: PixelParallelogram) {
            let (p0, p1, p2, p3) = shape.corners
            // The highest corner (the first of equals) and its opposite, the lowest; the other two are the
            // middle corners, one each side of the line between those.
            let (highest, lowest, middle, other) = p0.y <= p1.y && p0.y <= p2.y && p0.y <= p3.y ? (p0, p2, p1, p3)
                : p1.y <= p2.y && p1.y <= p3.y ? (p1, p3, p2, p0)
                : p2.y <= p3.y ? (p2, p0, p3, p1) : (p3, p1, p0, p2)
            top = highest.y
            bottom = lowest.y
            if !(bottom > top) {
                // No height: a level segment (or a point), spanning its corners' x at its one height.
                let least = SIMD2(min(min(p0.x, p1.x), min(p2.x, p3.x)), top)
                let greatest = SIMD2(max(max(p0.x, p1.x), max(p2.x, p3.x)), top)
                left = Chain(top: least, middle: least, bottom: least, extremeY: top)
                right = Chain(top: greatest, middle: greatest, bottom: greatest, extremeY: top)
                return
            }
            // `middle` lies left of the line from the highest corner to the lowest when its x is less than
            // the line's at its height (multiplied out by the positive height difference).
            let side = (middle.x - highest.x) * (lowest.y - highest.y) - (middle.y - highest.y) * (lowest.x - highest.x)
            let (leftMiddle, rightMiddle) = side < 0 ? (middle, other) : (other, middle)
            // The leftmost of the left chain's corners is the outline's, the rightmost of the right chain's too.
            // (Of corners level in x, either will do: x is the same all along between them.)
            let leftmostY = leftMiddle.x < min(highest.x, lowest.x) ? leftMiddle.y : highest.x <= lowest.x ? highest.y : lowest.y
            let rightmostY = rightMiddle.x > max(highest.x, lowest.x) ? rightMiddle.y : highest.x >= lowest.x ? highest.y : lowest.y
            left = Chain(top: highest, middle: leftMiddle, bottom: lowest, extremeY: leftmostY)
            right = Chain(top: highest, middle: rightMiddle, bottom: lowest, extremeY: rightmostY)
        }

        /// The least and greatest x of the parallelogram's points with y in `top...bottom`, or nil when it has
        /// none there.
        @inline(__always)
        package func xRange(fromY top: Double, toY bottom: Double) -> (Double, Double)? {
            let low = max(top, self.top), high = min(bottom, self.bottom)
            guard low <= high else { return nil }
            return (left.x(atY: min(max(left.extremeY, low), high)), right.x(atY: min(max(right.extremeY, low), high)))
        }
    }
}

extension SIMD2 where Scalar == Double {
    /// The Euclidean length.
    package var length: Double { (self * self).sum().squareRoot() }
}
