import Foundation

/// A layer that fills its bounds with a color gradient: Core Animation's `CAGradientLayer`.
///
/// The gradient is drawn where a background would be — over `backgroundColor`, under the contents and the
/// sublayers, inside the bounds rounded by `cornerRadius` — by the render server on the GPU
/// (`GradientPaint` and `layer_quad.frag`); no image is made on the CPU. Its properties are committed
/// together and animate on the render thread like any built-in property.
///
/// Geometry, in the unit coordinate space of the bounds ((0, 0) the top-left corner, (1, 1) the
/// bottom-right; y down as every LayerKit layer), mapped to the bounds in points before use:
/// - `.axial`: colors change along the line from `startPoint` to `endPoint`; lines at right angles to it
///   (in points, as Core Graphics' linear gradients) have one color.
/// - `.radial`: an ellipse centred on `startPoint` whose radii are |endPoint.x − startPoint.x| · width and
///   |endPoint.y − startPoint.y| · height; the first color at the centre, the last on the ellipse.
/// - `.conic`: centred on `startPoint`, colors go once around, clockwise on screen, starting in the
///   direction from `startPoint` to `endPoint`.
/// `locations` place the colors along the way (0 the start, 1 the end); nil spaces them evenly. Before the
/// first location the first color shows, after the last the last (Core Animation's clamping). Colors are
/// interpolated premultiplied, in gamma-encoded sRGB, as the renderer blends; ordered dithering keeps
/// long ramps free of visible bands.
///
/// Bad input: a `colors` element that is not a `CGColor`, or a non-finite location, is refused with a
/// diagnostic (the previous value stays). `locations` whose count differs from `colors`' are ignored (the
/// colors are spaced evenly); locations out of order are taken as the running maximum. No colors draw
/// nothing; one color fills.
///
/// Does NOT: draw with `draw(in:)` (a subclass's drawing shows as contents above the gradient), or
/// hit-test by color.
open class CAGradientLayer: CALayer {
    /// The colors, `CGColor`s, as Core Animation types them (`[Any]`). Default nil (nothing is drawn).
    /// Animatable: element by element when the counts match.
    public var colors: [Any]? {
        get { value(forKey: "colors") as? [Any] }
        set {
            if let newValue, let stranger = newValue.first(where: { !($0 is CGColor) }) {
                return LayerKitDiagnostics.emit(.valueTypeMismatch(keyPath: "colors", expected: "[CGColor]", got: "\(Swift.type(of: stranger)) element"))
            }
            setValue(newValue, forKey: "colors")
        }
    }

    /// Where each color lies along the gradient, 0…1, one per color. Default nil (evenly spaced).
    /// Animatable: element by element when the counts match.
    public var locations: [NSNumber]? {
        get {
            guard let values = value(forKey: "locations") as? [Any] else { return nil }
            return values.compactMap { scalarValue($0).map { NSNumber(value: Double($0)) } }
        }
        set {
            if let newValue, newValue.contains(where: { !$0.doubleValue.isFinite }) {
                return LayerKitDiagnostics.emit(.nonFiniteGeometry(layer: diagnosticName, keyPath: "locations"))
            }
            setValue(newValue, forKey: "locations")
        }
    }

    /// Where the gradient starts, in the unit space of the bounds. Default (0.5, 0). Animatable.
    public var startPoint: CGPoint {
        get { value(forKey: "startPoint") as? CGPoint ?? CGPoint(x: 0.5, y: 0) }
        set { setValue(newValue, forKey: "startPoint") }
    }

    /// Where the gradient ends, in the unit space of the bounds. Default (0.5, 1). Animatable.
    public var endPoint: CGPoint {
        get { value(forKey: "endPoint") as? CGPoint ?? CGPoint(x: 0.5, y: 1) }
        set { setValue(newValue, forKey: "endPoint") }
    }

    /// The kind of gradient. Default `.axial`.
    public var type: CAGradientLayerType {
        get {
            let stored = value(forKey: "type")
            if let type = stored as? CAGradientLayerType { return type }
            return (stored as? String).map(CAGradientLayerType.init(rawValue:)) ?? .axial
        }
        set { setValue(newValue, forKey: "type") }
    }

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "startPoint": CGPoint(x: 0.5, y: 0)
        case "endPoint": CGPoint(x: 0.5, y: 1)
        case "type": CAGradientLayerType.axial
        default: super.defaultValue(forKey: key)
        }
    }
}

extension CAGradientLayer: DeclaredLayerProperties {
    package static let declaredKeys = ["type", "colors", "locations", "startPoint", "endPoint"]
    package static let implicitlyAnimatedKeys: Set<String> = ["colors", "locations", "startPoint", "endPoint"]
    package static let renderKind: LayerRenderKind? = .gradient
}

/// The kinds of gradient a `CAGradientLayer` draws.
public struct CAGradientLayerType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Along the line from the start point to the end point.
    public static let axial = CAGradientLayerType(rawValue: "axial")
    /// Outward from the start point to an ellipse the end point sets.
    public static let radial = CAGradientLayerType(rawValue: "radial")
    /// Around the start point, from the direction of the end point.
    public static let conic = CAGradientLayerType(rawValue: "conic")
}
