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
