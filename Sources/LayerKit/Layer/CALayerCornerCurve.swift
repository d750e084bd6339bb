/// The curve of rounded corners.
public struct CALayerCornerCurve: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A quarter circle (the default).
    public static let circular = Self(rawValue: "circular")
    /// Apple's continuous ("squircle") corner. Stored; drawn as circular until the renderer supports it.
    public static let continuous = Self(rawValue: "continuous")
}

/// The pixel format of a layer's backing store when it draws its own contents.
public struct CALayerContentsFormat: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let RGBA8Uint = Self(rawValue: "RGBA8")
    public static let RGBA16Float = Self(rawValue: "RGBA16Float")
    public static let gray8Uint = Self(rawValue: "Gray8")
}
