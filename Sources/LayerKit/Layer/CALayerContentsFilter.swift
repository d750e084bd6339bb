/// How contents are sampled when drawn smaller (`minificationFilter`) or larger (`magnificationFilter`).
public struct CALayerContentsFilter: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Bilinear filtering (the default).
    public static let linear = Self(rawValue: "linear")
    /// Nearest texel.
    public static let nearest = Self(rawValue: "nearest")
    /// Bilinear within and between mipmap levels (minification).
    public static let trilinear = Self(rawValue: "trilinear")
}
