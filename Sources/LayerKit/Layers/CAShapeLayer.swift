import Foundation

/// A layer that draws a path: Core Animation's `CAShapeLayer`.
///
/// The shape is drawn between the layer's contents and its first sublayer, in the layer's own space (it
/// is not clipped to the bounds unless `masksToBounds` is set): filled with `fillColor` by `fillRule`, then
/// stroked with `strokeColor` from `strokeStart` to `strokeEnd` of its length.
///
/// Unlike a layer that draws with `draw(in:)`, a shape layer is drawn by the render server
/// (`ShapeRasterizer`): its properties are committed, animated on the render thread (a `strokeEnd`
/// write-on, `lineDashPhase` marching ants, `path` morphing), and the shape is rasterized at the scale it
/// appears on screen, so a shape zoomed by a transform stays crisp. The same path and style on many layers
/// is rasterized once per scale.
///
/// Properties are declared through key-value coding (`value(forKey:)` / `setValue(_:forKey:)` reach them
/// by the names below) and all animate; every one but `path` animates implicitly, as in Core Animation:
/// a path change takes effect at once unless you add an explicit animation (path morphing interpolates
/// point by point when both paths have the same elements; otherwise it switches at the halfway point).
/// The path is copied when set, so later changes to a `CGMutablePath` do not show.
///
/// Does NOT: hit-test its path (`contains(_:)` is the bounds', as Core Animation's), or draw with
/// `draw(in:)`.
open class CAShapeLayer: CALayer {
    /// The path to fill and stroke, in the layer's space. Default nil (nothing is drawn).
    public var path: CGPath? {
        get { value(forKey: "path") as? CGPath }
        set { setValue(newValue?.copy(), forKey: "path") }
    }

    /// The color the path is filled with; nil fills nothing. Default opaque black.
    public var fillColor: CGColor? {
        get { value(forKey: "fillColor") as? CGColor }
        set { setValue(newValue, forKey: "fillColor") }
    }

    /// Which regions count as inside when filling. Default `.nonZero`.
    public var fillRule: CAShapeLayerFillRule {
        get { Self.enumValue(value(forKey: "fillRule")) ?? .nonZero }
        set { setValue(newValue, forKey: "fillRule") }
    }

    /// The color the path is stroked with; nil strokes nothing. Default nil.
    public var strokeColor: CGColor? {
        get { value(forKey: "strokeColor") as? CGColor }
        set { setValue(newValue, forKey: "strokeColor") }
    }

    /// Where the stroke starts, a fraction (0…1) of the path's length. Default 0.
    public var strokeStart: CGFloat {
        get { scalarValue(value(forKey: "strokeStart") as Any) ?? 0 }
        set { setValue(newValue, forKey: "strokeStart") }
    }

    /// Where the stroke ends, a fraction (0…1) of the path's length. Default 1.
    public var strokeEnd: CGFloat {
        get { scalarValue(value(forKey: "strokeEnd") as Any) ?? 1 }
        set { setValue(newValue, forKey: "strokeEnd") }
    }

    /// The stroke's width, in the layer's units. Default 1.
    public var lineWidth: CGFloat {
        get { scalarValue(value(forKey: "lineWidth") as Any) ?? 1 }
        set { setValue(newValue, forKey: "lineWidth") }
    }

    /// The limit on a miter join's length, in line widths, beyond which it is bevelled. Default 10.
    public var miterLimit: CGFloat {
        get { scalarValue(value(forKey: "miterLimit") as Any) ?? 10 }
        set { setValue(newValue, forKey: "miterLimit") }
    }

    /// How the ends of open subpaths are stroked. Default `.butt`.
    public var lineCap: CAShapeLayerLineCap {
        get { Self.enumValue(value(forKey: "lineCap")) ?? .butt }
        set { setValue(newValue, forKey: "lineCap") }
    }

    /// How corners are stroked. Default `.miter`.
    public var lineJoin: CAShapeLayerLineJoin {
        get { Self.enumValue(value(forKey: "lineJoin")) ?? .miter }
        set { setValue(newValue, forKey: "lineJoin") }
    }

    /// How far into the dash pattern the stroke starts, in the layer's units. Default 0.
    public var lineDashPhase: CGFloat {
        get { scalarValue(value(forKey: "lineDashPhase") as Any) ?? 0 }
        set { setValue(newValue, forKey: "lineDashPhase") }
    }

    /// Alternating painted and unpainted lengths of the stroke, in the layer's units; nil or empty
    /// strokes a solid line. Default nil.
    public var lineDashPattern: [NSNumber]? {
        get {
            guard let values = value(forKey: "lineDashPattern") as? [Any] else { return nil }
            return values.compactMap { scalarValue($0).map { NSNumber(value: Double($0)) } }
        }
        set { setValue(newValue, forKey: "lineDashPattern") }
    }

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "fillColor": CGColor.black
        case "fillRule": CAShapeLayerFillRule.nonZero
        case "strokeStart", "lineDashPhase": CGFloat(0)
        case "strokeEnd", "lineWidth": CGFloat(1)
        case "miterLimit": CGFloat(10)
        case "lineCap": CAShapeLayerLineCap.butt
        case "lineJoin": CAShapeLayerLineJoin.miter
        default: super.defaultValue(forKey: key)
        }
    }

    /// `path` has no implicit animation (Core Animation's shape layers change their path at once); the
    /// search stops here unless the delegate, `actions` or `style` supplied one.
    open override class func defaultAction(forKey event: String) -> CAAction? {
        event == "path" ? NSNull() : super.defaultAction(forKey: event)
    }

    /// A stored enumeration, also when key-value coding stored its raw string.
    private static func enumValue<T: RawRepresentable>(_ value: Any?) -> T? where T.RawValue == String {
        if let value = value as? T { return value }
        return (value as? String).flatMap(T.init(rawValue:))
    }
}

extension CAShapeLayer: DeclaredLayerProperties {
    package static let declaredKeys = ["path", "fillColor", "fillRule", "strokeColor", "strokeStart", "strokeEnd", "lineWidth",
                                       "miterLimit", "lineCap", "lineJoin", "lineDashPhase", "lineDashPattern"]
    package static let implicitlyAnimatedKeys: Set<String> = ["fillColor", "strokeColor", "strokeStart", "strokeEnd", "lineWidth",
                                                              "miterLimit", "lineDashPhase", "lineDashPattern"]
    package static let renderKind: LayerRenderKind? = .shape
}

/// How a shape layer decides what is inside its path.
public struct CAShapeLayerFillRule: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Nonzero winding.
    public static let nonZero = CAShapeLayerFillRule(rawValue: "non-zero")
    /// Even-odd.
    public static let evenOdd = CAShapeLayerFillRule(rawValue: "even-odd")
}

/// The ends of a shape layer's open subpaths.
public struct CAShapeLayerLineCap: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let butt = CAShapeLayerLineCap(rawValue: "butt")
    public static let round = CAShapeLayerLineCap(rawValue: "round")
    public static let square = CAShapeLayerLineCap(rawValue: "square")
}

/// The corners of a shape layer's stroke.
public struct CAShapeLayerLineJoin: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let miter = CAShapeLayerLineJoin(rawValue: "miter")
    public static let round = CAShapeLayerLineJoin(rawValue: "round")
    public static let bevel = CAShapeLayerLineJoin(rawValue: "bevel")
}
