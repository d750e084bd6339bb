/// A layer space → target pixels map without perspective: `pixel = origin + x · xAxis + y · yAxis`.
///
/// Worked out from an instance's `localToClip` (clip = localToClip · (x, y, 0, 1), column vectors;
/// pixel = (clip.xy / clip.w + 1) · size / 2) where clip.w does not depend on x or y. Pixels are the
/// target's, origin top-left, y down, pixel (i, j) centred at (i + ½, j + ½).
package struct AffinePixelMap: Sendable {
    /// The pixel position of the layer-space origin.
    package var origin: SIMD2<Double>
    /// The pixel step of one layer unit along x, and along y.
    package var xAxis: SIMD2<Double>
    package var yAxis: SIMD2<Double>

    package init(origin: SIMD2<Double>, xAxis: SIMD2<Double>, yAxis: SIMD2<Double>) {
        self.origin = origin
        self.xAxis = xAxis
        self.yAxis = yAxis
    }

    /// The instance's map, or nil where it projects (clip.w varies over the layer) or is degenerate.
    package init?(_ instance: LayerInstance, targetWidth: Int, targetHeight: Int) {
        let (c0, c1, _, c3) = instance.localToClip
        let tolerance: Float = 1e-6
        guard c3.w > 0, abs(c0.w) <= tolerance * c3.w, abs(c1.w) <= tolerance * c3.w else { return nil }
        let half = SIMD2(Double(targetWidth), Double(targetHeight)) / 2
        let w = Double(c3.w)
        xAxis = SIMD2(Double(c0.x), Double(c0.y)) / w * half
        yAxis = SIMD2(Double(c1.x), Double(c1.y)) / w * half
        origin = (SIMD2(Double(c3.x), Double(c3.y)) / w + 1) * half
        let determinant = xAxis.x * yAxis.y - xAxis.y * yAxis.x
        guard determinant.isFinite, determinant != 0, origin.x.isFinite, origin.y.isFinite else { return nil }
    }

    /// The pixel position of layer point (x, y).
    package func callAsFunction(_ x: Double, _ y: Double) -> SIMD2<Double> {
        origin + x * xAxis + y * yAxis
    }

    /// The parallelogram the layer rect (minX, minY, maxX, maxY) maps to.
    package func parallelogram(_ rect: SIMD4<Float>) -> PixelParallelogram {
        let (x0, y0) = (Double(rect.x), Double(rect.y))
        return PixelParallelogram(corner: self(x0, y0), edgeX: xAxis * (Double(rect.z) - x0), edgeY: yAxis * (Double(rect.w) - y0))
    }
}

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
            let (u, v) = (shape.edgeX, shape.edgeY)
            let determinant = u.x * v.y - u.y * v.x
            a = SIMD2(v.y, -v.x) / determinant
            b = SIMD2(-u.y, u.x) / determinant
            let (aInset, bInset) = (inset * (a * a).sum().squareRoot(), inset * (b * b).sum().squareRoot())
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
