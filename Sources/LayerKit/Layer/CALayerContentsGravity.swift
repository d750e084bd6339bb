/// How a layer's contents are positioned or scaled within its bounds (Core Animation's constants).
///
/// `top` and `bottom` keep their iOS meaning: with LayerKit's y-down geometry, `.top` places the image at
/// the top of the bounds (minimum y), as on iOS; under `isGeometryFlipped` they swap, as in Core Animation.
public struct CALayerContentsGravity: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let center = Self(rawValue: "center")
    public static let top = Self(rawValue: "top")
    public static let bottom = Self(rawValue: "bottom")
    public static let left = Self(rawValue: "left")
    public static let right = Self(rawValue: "right")
    public static let topLeft = Self(rawValue: "topLeft")
    public static let topRight = Self(rawValue: "topRight")
    public static let bottomLeft = Self(rawValue: "bottomLeft")
    public static let bottomRight = Self(rawValue: "bottomRight")
    /// Stretch to fill the bounds (the default).
    public static let resize = Self(rawValue: "resize")
    /// Scale uniformly to fit inside the bounds.
    public static let resizeAspect = Self(rawValue: "resizeAspect")
    /// Scale uniformly to fill the bounds, cropping the overflow.
    public static let resizeAspectFill = Self(rawValue: "resizeAspectFill")
}
