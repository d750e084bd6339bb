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

    /// The x-ranges of the parallelogram shrunk by `inset` pixels on every side, at any height, with
    /// its edges' equations worked out once.
    ///
    /// A point p is inside when s = a · (p − corner) and t = b · (p − corner) both lie in 0…1, where a and b
    /// are the rows of the inverse of [edgeX edgeY]; a side's distance in pixels is s / |a| (or t / |b|),
    /// so shrinking by `inset` narrows s to inset · |a| … 1 − inset · |a|. At a given height each condition
    /// is an x-range, and the span is their intersection.
    package struct Spans {
        private let corner: SIMD2<Double>
        private let a: SIMD2<Double>
        private let b: SIMD2<Double>
        private let aRange: (Double, Double)
        private let bRange: (Double, Double)

        package init(_ shape: PixelParallelogram, inset: Double = 0) {
            corner = shape.corner
            (a, b) = shape.inverseRows
            let (aInset, bInset) = (inset * a.length, inset * b.length)
            aRange = (aInset, 1 - aInset)
            bRange = (bInset, 1 - bInset)
        }

        /// The x-range inside at height y, or nil.
        package func span(atY y: Double) -> (Double, Double)? {
            guard let (a0, a1) = Self.range(y - corner.y, dual: a, within: aRange),
                  let (b0, b1) = Self.range(y - corner.y, dual: b, within: bRange) else { return nil }
            let low = max(a0, b0), high = min(a1, b1)
            return low <= high ? (corner.x + low, corner.x + high) : nil
        }

        /// The x offsets from the corner where dual · (x, dy) lies in `range`.
        private static func range(_ dy: Double, dual: SIMD2<Double>, within range: (Double, Double)) -> (Double, Double)? {
            guard range.0 <= range.1, dy.isFinite else { return nil }
            let fixed = dual.y * dy
            guard dual.x != 0 else { return fixed >= range.0 && fixed <= range.1 ? (-.infinity, .infinity) : nil }
            let inverse = 1 / dual.x
            let (p, q) = ((range.0 - fixed) * inverse, (range.1 - fixed) * inverse)
            return p <= q ? (p, q) : (q, p)
        }
    }
}

extension SIMD2 where Scalar == Double {
    /// The Euclidean length.
    package var length: Double { (self * self).sum().squareRoot() }
}
