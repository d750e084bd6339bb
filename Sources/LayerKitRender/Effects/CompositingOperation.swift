/// A layer's `compositingFilter` as the GPU's fixed-function blending draws it: Core Image's blend and
/// compositing filters whose formula, on premultiplied colours, is a blend equation.
///
/// Formulas (W3C Compositing and Blending on premultiplied source s and backdrop b, alpha a):
/// - Exact for any alpha: screen s + b − s·b (ONE, ONE_MINUS_SRC_COLOR); exclusion s + b − 2·s·b
///   (ONE_MINUS_DST_COLOR, ONE_MINUS_SRC_COLOR); addition s + b (ONE, ONE); multiply-compositing s·b on all
///   four channels (DST_COLOR, ZERO); maximum and minimum compositing (MAX, MIN on all four); source-atop
///   s·a_b + b·(1 − a_s); source-in s·a_b; source-out s·(1 − a_b); source-over.
/// - Exact over an opaque backdrop (a_b = 1), the usual case in a window: multiply s·b + b·(1 − a_s)
///   (DST_COLOR, ONE_MINUS_SRC_ALPHA; over a translucent backdrop the term s·(1 − a_b) is missing).
/// - Exact where both are opaque: darken min(s, b) and lighten max(s, b) (MIN, MAX on colour).
/// Alpha is source-over's a_s + a_b·(1 − a_s) except for the compositing operations, which combine it
/// as they combine colour. Source-in and source-out change only the pixels the layer draws.
/// Modes that need the backdrop's colour (overlay, soft and hard light, colour dodge and burn, difference,
/// subtract, divide, linear burn, pin light, hue, saturation, colour, luminosity) are drawn by a blend
/// kernel with W3C's formulas (`needsBackdrop`): co = cs·(1 − a_b) + cb·(1 − a_s) + a_s·a_b·B(Cb, Cs).
package enum CompositingOperation: String, CaseIterable, Hashable, Sendable {
    case multiply = "CIMultiplyBlendMode"
    case screen = "CIScreenBlendMode"
    case darken = "CIDarkenBlendMode"
    case lighten = "CILightenBlendMode"
    case exclusion = "CIExclusionBlendMode"
    case addition = "CIAdditionCompositing"
    case multiplyCompositing = "CIMultiplyCompositing"
    case maximum = "CIMaximumCompositing"
    case minimum = "CIMinimumCompositing"
    case sourceAtop = "CISourceAtopCompositing"
    case sourceIn = "CISourceInCompositing"
    case sourceOut = "CISourceOutCompositing"
    case sourceOver = "CISourceOverCompositing"
    // Modes that read the backdrop's colour in the shader (`needsBackdrop`).
    case overlay = "CIOverlayBlendMode"
    case softLight = "CISoftLightBlendMode"
    case hardLight = "CIHardLightBlendMode"
    case colorDodge = "CIColorDodgeBlendMode"
    case colorBurn = "CIColorBurnBlendMode"
    case difference = "CIDifferenceBlendMode"
    case subtract = "CISubtractBlendMode"
    case divide = "CIDivideBlendMode"
    case linearBurn = "CILinearBurnBlendMode"
    case pinLight = "CIPinLightBlendMode"
    case hue = "CIHueBlendMode"
    case saturation = "CISaturationBlendMode"
    case color = "CIColorBlendMode"
    case luminosity = "CILuminosityBlendMode"

    /// Whether the blend needs the backdrop's colour in the shader (no fixed-function equation draws it):
    /// the builder then draws the layer and what lies behind it into one surface, side by side, and a
    /// blend kernel replaces the backdrop with the result (`RenderGraphBuilder+Offscreen.swift`).
    package var needsBackdrop: Bool { shaderMode != nil }

    /// The blend kernel's mode number (`Shaders/include/blend_modes.glsl`), for modes that need the backdrop.
    package var shaderMode: UInt32? {
        switch self {
        case .overlay: 1
        case .softLight: 2
        case .hardLight: 3
        case .colorDodge: 4
        case .colorBurn: 5
        case .difference: 6
        case .subtract: 7
        case .divide: 8
        case .linearBurn: 9
        case .pinLight: 10
        case .hue: 11
        case .saturation: 12
        case .color: 13
        case .luminosity: 14
        default: nil
        }
    }

    /// The operation a committed `compositingFilter` names (Core Image's filter name), nil for none or one
    /// the GPU's blending cannot draw.
    package init?(filterName: String?) {
        guard let filterName else { return nil }
        self.init(rawValue: filterName == "CILinearDodgeBlendMode" ? Self.addition.rawValue : filterName)
    }

    /// The blend equation that draws it.
    package var equation: BlendEquation {
        let over = (BlendEquation.Factor.one, BlendEquation.Factor.oneMinusSourceAlpha)
        switch self {
        case .multiply: return BlendEquation(color: (.destinationColor, .oneMinusSourceAlpha), alpha: over)
        case .screen: return BlendEquation(color: (.one, .oneMinusSourceColor), alpha: over)
        case .darken: return BlendEquation(color: (.one, .one), colorOperation: .minimum, alpha: over)
        case .lighten: return BlendEquation(color: (.one, .one), colorOperation: .maximum, alpha: over)
        case .exclusion: return BlendEquation(color: (.oneMinusDestinationColor, .oneMinusSourceColor), alpha: over)
        case .addition: return BlendEquation(color: (.one, .one), alpha: (.one, .one))
        case .multiplyCompositing: return BlendEquation(color: (.destinationColor, .zero), alpha: (.destinationAlpha, .zero))
        case .maximum: return BlendEquation(color: (.one, .one), colorOperation: .maximum, alpha: (.one, .one), alphaOperation: .maximum)
        case .minimum: return BlendEquation(color: (.one, .one), colorOperation: .minimum, alpha: (.one, .one), alphaOperation: .minimum)
        case .sourceAtop: return BlendEquation(color: (.destinationAlpha, .oneMinusSourceAlpha), alpha: (.destinationAlpha, .oneMinusSourceAlpha))
        case .sourceIn: return BlendEquation(color: (.destinationAlpha, .zero), alpha: (.destinationAlpha, .zero))
        case .sourceOut: return BlendEquation(color: (.oneMinusDestinationAlpha, .zero), alpha: (.oneMinusDestinationAlpha, .zero))
        case .sourceOver: return BlendEquation(color: over, alpha: over)
        default:
            // Drawn by the blend kernel, whose result replaces the backdrop (`BlendMode.replace`).
            return BlendEquation(color: over, alpha: over)
        }
    }
}

/// A fixed-function blend, backend-neutral: `result = source·sourceFactor (op) destination·destinationFactor`,
/// for colour and for alpha. The backend maps it to its API (`LayerPipeline`).
package struct BlendEquation: Hashable, Sendable {
    package enum Factor: Hashable, Sendable {
        case zero, one, sourceColor, oneMinusSourceColor, sourceAlpha, oneMinusSourceAlpha
        case destinationColor, oneMinusDestinationColor, destinationAlpha, oneMinusDestinationAlpha
    }

    /// Minimum and maximum ignore the factors (as Vulkan's and OpenGL's do).
    package enum Operation: Hashable, Sendable {
        case add, minimum, maximum
    }

    package var color: (source: Factor, destination: Factor)
    package var colorOperation: Operation
    package var alpha: (source: Factor, destination: Factor)
    package var alphaOperation: Operation

    package init(color: (Factor, Factor), colorOperation: Operation = .add, alpha: (Factor, Factor), alphaOperation: Operation = .add) {
        self.color = color
        self.colorOperation = colorOperation
        self.alpha = alpha
        self.alphaOperation = alphaOperation
    }

    package static func == (lhs: BlendEquation, rhs: BlendEquation) -> Bool {
        lhs.color == rhs.color && lhs.colorOperation == rhs.colorOperation && lhs.alpha == rhs.alpha && lhs.alphaOperation == rhs.alphaOperation
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(color.source)
        hasher.combine(color.destination)
        hasher.combine(colorOperation)
        hasher.combine(alpha.source)
        hasher.combine(alpha.destination)
        hasher.combine(alphaOperation)
    }
}
