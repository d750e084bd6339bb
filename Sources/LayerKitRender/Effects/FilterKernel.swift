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
        /// CIPixellate: the colour at the centre of the pixel's cell (cell size and grid origin in the
        /// surface's normalized space).
        case pixellate = 5
        /// CIDiscBlur: the mean over a disc of `radius` texels.
        case disc = 6
        /// CIZoomBlur: the mean along the segment from the pixel a fraction of the way to a centre.
        case zoom = 7
        /// CIVibrance: saturation raised where it is low.
        case vibrance = 8
        /// CICrystallize: the colour at the nearest of one hashed feature point per cell.
        case crystallize = 9
        /// A compositing filter that needs the backdrop: the source in the right half of a pair surface,
        /// the backdrop in the left, blended by mode `parameters.x` (`CompositingOperation.shaderMode`).
        case blend = 10
    }

    package var kind: Kind
    /// The four parameters the shader reads: for a line of taps (Gaussian, box, maximum, minimum) the
    /// step between taps in source texels (x, y), the tap radius (z) and the Gaussian's σ in taps (w); for
    /// the others, as `Shaders/include/filter_kernel.glsl` says per kind.
    package var parameters: SIMD4<Float>

    /// A line of 2 · `radius` + 1 taps, `step` source texels apart (σ in taps for a Gaussian).
    package init(kind: Kind, step: SIMD2<Float> = .zero, radius: Int = 0, sigma: Float = 0) {
        self.init(kind: kind, parameters: SIMD4(step.x, step.y, Float(radius), sigma))
    }

    package init(kind: Kind, parameters: SIMD4<Float>) {
        self.kind = kind
        self.parameters = parameters
    }

    /// A plain read of the source.
    package static let copy = FilterKernel(kind: .copy)
}
