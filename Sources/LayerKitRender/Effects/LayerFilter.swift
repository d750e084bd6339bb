import LayerKit

/// A filter of a layer's `filters` as the renderer draws it: Core Image's filter types reduced to the
/// passes LayerKit has (`FilterPlan`).
///
/// Input: a committed or animated `FilterValue` (Core Image's type name and parameters, defaults filled in
/// by `CIFilter`). Output: a blur, a morphology, or a colour matrix; nil for a type the renderer does not
/// draw (the model reported it when the filter was set: `CIFilter.drawnFilters`). Lengths are in the
/// layer's units (points), as Core Animation takes them, and become pixels at the layer's scale on screen.
/// Blur radii: CIGaussianBlur's `inputRadius` is the Gaussian's standard deviation (Core Image extends the
/// image by 3 of them); CIBoxBlur's box is n = max(2⌊r/2 − 0.25⌋ + 1, 1) pixels wide (Core Image's tap
/// count: 9 for the default 10); CIMorphology's radius is the half-width of a square window (Core
/// Image's window is a disc); CIMotionBlur's is the standard deviation of a 1D Gaussian along `inputAngle`.
/// Points (`inputCenter`) are in the layer's bounds space. CIVibrance and CIBloom follow the published
/// stand-ins (Core Image's kernels are not published): vibrance mixes each colour toward its largest
/// channel by (max − mean) · −3 · amount; bloom adds the image blurred by σ = radius, times intensity.
/// CIZoomBlur, CIPixellate and CIVibrance do not grow the drawn area.
package enum LayerFilter: Equatable, Sendable {
    case gaussianBlur(sigma: Double)
    case boxBlur(radius: Double)
    case motionBlur(sigma: Double, angle: Double)
    case morphology(maximum: Bool, radius: Double)
    case discBlur(radius: Double)
    /// `center` in the layer's bounds space; samples run a fraction 1 − 0.98^amount of the way to it.
    case zoomBlur(center: CGPoint, amount: Double)
    /// Square cells of `scale` a side on a grid through `center` (layer space).
    case pixellate(center: CGPoint, scale: Double)
    /// Cells of `radius` a side on a grid through `center` (layer space), one feature point each.
    case crystallize(center: CGPoint, radius: Double)
    case vibrance(amount: Double)
    /// A Gaussian blur of σ = `radius`, added to the image at `intensity`.
    case bloom(radius: Double, intensity: Double)
    case color(ColorMatrix)
    /// A run-time GLSL kernel (`CIColorKernel`) and its numeric inputs in sorted key order.
    case custom(CIColorKernel, inputs: SIMD4<Float>)

    package init?(_ filter: FilterValue) {
        if let kernel = filter.kernel {
            var inputs = SIMD4<Float>.zero
            for (index, key) in filter.parameters.keys.sorted().prefix(4).enumerated() {
                if case .scalar(let value)? = filter.parameters[key] { inputs[index] = Float(value) }
            }
            self = .custom(kernel, inputs: inputs)
            return
        }
        func number(_ key: String, _ fallback: Double) -> Double {
            if case .scalar(let value)? = filter.parameters[key], value.isFinite { return value }
            return fallback
        }
        /// A length parameter, within 0…`maximumLength` (hostile values are cut, never overflow a count).
        func length(_ key: String, _ fallback: Double) -> Double { min(max(number(key, fallback), 0), Self.maximumLength) }
        func vector(_ key: String, _ fallback: SIMD4<Float>) -> SIMD4<Float> {
            guard case .numbers(let values)? = filter.parameters[key], values.allSatisfy(\.isFinite) else { return fallback }
            var result = SIMD4<Float>.zero
            for (index, value) in values.prefix(4).enumerated() { result[index] = Float(value) }
            return result
        }
        func point(_ key: String, _ fallback: CGPoint) -> CGPoint {
            guard case .numbers(let values)? = filter.parameters[key], values.count >= 2, values.allSatisfy(\.isFinite) else { return fallback }
            return CGPoint(x: values[0], y: values[1])
        }
        func color(_ key: String, _ fallback: SIMD4<Double>) -> SIMD4<Double> {
            if case .color(let value)? = filter.parameters[key] { return value }
            return fallback
        }
        switch filter.filterName {
        case "CIGaussianBlur": self = .gaussianBlur(sigma: length("inputRadius", 10))
        case "CIBoxBlur": self = .boxBlur(radius: length("inputRadius", 10))
        case "CIMotionBlur": self = .motionBlur(sigma: length("inputRadius", 20), angle: number("inputAngle", 0))
        case "CIMorphologyMaximum": self = .morphology(maximum: true, radius: length("inputRadius", 0))
        case "CIMorphologyMinimum": self = .morphology(maximum: false, radius: length("inputRadius", 0))
        case "CIDiscBlur": self = .discBlur(radius: length("inputRadius", 8))
        case "CIZoomBlur":
            self = .zoomBlur(center: point("inputCenter", CGPoint(x: 150, y: 150)), amount: number("inputAmount", 20))
        case "CIPixellate": self = .pixellate(center: point("inputCenter", CGPoint(x: 150, y: 150)), scale: max(length("inputScale", 8), 1))
        case "CICrystallize":
            self = .crystallize(center: point("inputCenter", CGPoint(x: 150, y: 150)), radius: max(length("inputRadius", 20), 1))
        case "CIVibrance": self = .vibrance(amount: min(max(number("inputAmount", 0), -1), 1))
        case "CIBloom": self = .bloom(radius: length("inputRadius", 10), intensity: min(max(number("inputIntensity", 0.5), 0), 100))
        case "CIColorControls":
            self = .color(.colorControls(saturation: Float(number("inputSaturation", 1)), brightness: Float(number("inputBrightness", 0)),
                                         contrast: Float(number("inputContrast", 1))))
        case "CIColorMatrix":
            self = .color(ColorMatrix(red: vector("inputRVector", SIMD4(1, 0, 0, 0)), green: vector("inputGVector", SIMD4(0, 1, 0, 0)),
                                      blue: vector("inputBVector", SIMD4(0, 0, 1, 0)), alpha: vector("inputAVector", SIMD4(0, 0, 0, 1)),
                                      bias: vector("inputBiasVector", .zero)))
        case "CIColorInvert": self = .color(.invert)
        case "CIColorMonochrome":
            let tint = color("inputColor", SIMD4(0.6, 0.45, 0.3, 1))
            self = .color(.monochrome(color: SIMD3(Float(tint.x), Float(tint.y), Float(tint.z)), intensity: Float(number("inputIntensity", 1))))
        case "CISepiaTone": self = .color(.sepia(intensity: Float(number("inputIntensity", 1))))
        case "CIHueAdjust": self = .color(.hueRotation(Float(number("inputAngle", 0))))
        case "CIExposureAdjust": self = .color(.exposure(Float(number("inputEV", 0))))
        case "CITemperatureAndTint":
            let neutral = point("inputNeutral", CGPoint(x: 6500, y: 0)), target = point("inputTargetNeutral", CGPoint(x: 6500, y: 0))
            let m = WhiteBalance.matrix(neutral: SIMD2(Double(neutral.x), Double(neutral.y)), target: SIMD2(Double(target.x), Double(target.y)))
            func row(_ r: SIMD3<Double>) -> SIMD3<Float> { SIMD3(Float(r.x), Float(r.y), Float(r.z)) }
            self = .color(ColorMatrix(rgb: (row(m.rows.0), row(m.rows.1), row(m.rows.2))))
        default: return nil
        }
    }

    /// The longest length a filter parameter takes, in layer units.
    package static let maximumLength = 10_000.0

    /// The taps on each side of CIBoxBlur's box for `radius` (its width is 2 · this + 1).
    package static func boxHalfWidth(_ radius: Double) -> Int {
        let bounded = radius.isNaN ? 0 : min(max(radius, 0), 1e6)
        let width = max(2 * Int((bounded / 2 - 0.25).rounded(.down)) + 1, 1)
        return (width - 1) / 2
    }

    /// How far the filter spreads a pixel, in target pixels for a layer drawn at `pixelsPerUnit` (the drawn
    /// area grows by it on every side). Lengths past `maximumPixels` are cut (hostile radii), and kernels
    /// that run at full resolution reach no farther than their tap limit.
    package func reach(pixelsPerUnit: Double) -> Double {
        func px(_ length: Double) -> Double {
            let pixels = length * pixelsPerUnit
            return pixels.isNaN ? 0 : min(max(pixels, 0), Self.maximumPixels)
        }
        let taps = Double(Self.maximumTaps)
        return switch self {
        case .gaussianBlur(let sigma): 3 * px(sigma)
        case .bloom(let radius, _): 3 * px(radius)
        case .motionBlur(let sigma, _): min(3 * px(sigma), taps)
        case .boxBlur(let radius): min(Double(Self.boxHalfWidth(px(radius))), taps)
        case .morphology(let maximum, let radius): maximum ? min(px(radius), taps) : 0
        case .discBlur(let radius): px(radius)
        case .crystallize(_, let radius): px(radius)
        case .zoomBlur, .pixellate, .vibrance, .color, .custom: 0
        }
    }

    /// The longest length an effect takes, in target pixels.
    package static let maximumPixels = 1_024.0
    /// The most taps a full-resolution kernel takes on each side (box, morphology, motion; Gaussians and
    /// discs downsample instead).
    package static let maximumTaps = 64
}
