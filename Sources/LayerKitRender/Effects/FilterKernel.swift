/// One pass of a filter kernel over a surface, as the layer shader runs it
/// (`Shaders/include/filter_kernel.glsl`, `LayerInstance.Flags.filterKernel`).
///
/// A pass reads its source surface at 2 · `radius` + 1 taps spaced `step` apart (in source texels: one
/// texel along x or y, or along a motion blur's direction), and writes their weighted average (Gaussian or box) or per-channel
/// extreme (maximum, minimum). Separable filters run one pass per axis (`FilterPlan`).
package struct FilterKernel: Equatable, Sendable {
    package enum Kind: UInt32, Sendable {
        /// One tap: a copy, or with linear sampling into a smaller surface, a 2× box downsample.
        case copy = 0
        /// Weights exp(-i² / 2σ²), normalized over the taps taken.
        case gaussian = 1
        /// Equal weights.
        case box = 2
        /// Per-channel maximum (dilation).
        case maximum = 3
        /// Per-channel minimum (erosion).
        case minimum = 4
    }

    package var kind: Kind
    /// Source texels from one tap to the next.
    package var step: SIMD2<Float>
    /// Taps on each side of the centre.
    package var radius: Int
    /// The Gaussian's standard deviation, in taps (unused by other kinds).
    package var sigma: Float

    package init(kind: Kind, step: SIMD2<Float> = .zero, radius: Int = 0, sigma: Float = 0) {
        self.kind = kind
        self.step = step
        self.radius = radius
        self.sigma = sigma
    }

    /// A plain read of the source.
    package static let copy = FilterKernel(kind: .copy)
}
