/// How a layer's contents are positioned or scaled within its bounds (Core Animation's constants).
///
/// Core Animation names the vertical gravities by a y-up axis: `.top` aligns the contents with the
/// bounds' *maximum* y, `.bottom` with the minimum. LayerKit keeps that definition as it behaves on iOS for
/// a plain layer: with y growing down, `.top` shows the image at the visual bottom and `.bottom` at the
/// visual top (the well-known iOS quirk; view-backed layers hide it by flipping their contents). When the
/// layer's contents are flipped (an odd number of its superlayers are `isGeometryFlipped`), the two swap
/// back, as `contentsAreFlipped()` makes them swap in Core Animation.
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
