import Foundation

/// The kind of components a color space has, as Core Graphics names them.
public enum CGColorSpaceModel: Int32, Sendable {
    /// One gray component (plus alpha).
    case monochrome = 0
    /// Red, green and blue components (plus alpha).
    case rgb = 1
}

/// A color space. LayerKit knows two, both with the sRGB transfer curve in the renderer: sRGB and generic
/// gray with gamma 2.2 (treated as sRGB gray: the renderer widens gray `g` to `(g, g, g)`). Instances compare
/// by name, so spaces made separately by the same name are equal.
public final class CGColorSpace: Equatable, Hashable, Sendable {
    /// The name of the sRGB color space.
    public static let sRGB = "kCGColorSpaceSRGB"
    /// The name of the generic gray color space with gamma 2.2.
    public static let genericGrayGamma2_2 = "kCGColorSpaceGenericGrayGamma2_2"

    /// The space's name (one of the static name constants).
    public let name: String?
    /// Whether colors in this space have gray or RGB components.
    public let model: CGColorSpaceModel

    /// The space with the given name, or nil when LayerKit does not know it.
    public convenience init?(name: String) {
        switch name {
        case CGColorSpace.sRGB: self.init(knownName: name, model: .rgb)
        case CGColorSpace.genericGrayGamma2_2: self.init(knownName: name, model: .monochrome)
        default: return nil
        }
    }

    private init(knownName: String, model: CGColorSpaceModel) {
        self.name = knownName
        self.model = model
    }

    /// Number of color components, alpha excluded: 1 for gray, 3 for RGB.
    public var numberOfComponents: Int { model == .rgb ? 3 : 1 }

    /// Shared instances for the colors LayerKit creates itself.
    package static let sRGBSpace = CGColorSpace(knownName: CGColorSpace.sRGB, model: .rgb)
    package static let graySpace = CGColorSpace(knownName: CGColorSpace.genericGrayGamma2_2, model: .monochrome)

    public static func == (lhs: CGColorSpace, rhs: CGColorSpace) -> Bool {
        lhs.name == rhs.name && lhs.model == rhs.model
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(model)
    }
}

/// Core Graphics' device RGB space; in LayerKit this is sRGB.
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { CGColorSpace.sRGBSpace }

/// Core Graphics' device gray space; in LayerKit this is generic gray gamma 2.2.
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace { CGColorSpace.graySpace }

/// An immutable color: components in a color space, alpha last.
///
/// Made in gray, a color keeps its gray components: `components` is `[gray, alpha]`, as Core Graphics
/// returns it; made in RGB, it is `[red, green, blue, alpha]`. Components are clamped to 0…1 at creation
/// (LayerKit has no extended-range spaces). Equality is by value: same space and same components.
public final class CGColor: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The color space the color was made in.
    public let colorSpace: CGColorSpace?
    /// The components inline, alpha last (gray colors use the first two). Inline rather than an array:
    /// a color per layer is common, and an array would double its memory.
    private let inlineComponents: (CGFloat, CGFloat, CGFloat, CGFloat)
    private let componentCount: UInt8

    /// The stored components, alpha last; never empty.
    private var storedComponents: [CGFloat] {
        let c = inlineComponents
        return Array([c.0, c.1, c.2, c.3].prefix(Int(componentCount)))
    }

    private init(space: CGColorSpace, clamping components: [CGFloat]) {
        self.colorSpace = space
        // NaN clamps to 0 so that equality and hashing stay well defined.
        let clamped = components.map { $0.isNaN ? 0 : Swift.min(Swift.max($0, 0), 1) }
        let padded = clamped + [CGFloat](repeating: 0, count: Swift.max(0, 4 - clamped.count))
        self.inlineComponents = (padded[0], padded[1], padded[2], padded[3])
        self.componentCount = UInt8(clamped.count)
    }

    /// An sRGB color.
    public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(space: CGColorSpace.sRGBSpace, clamping: [red, green, blue, alpha])
    }

    /// An sRGB color (Apple's explicit-sRGB spelling).
    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// A gray color; `components` will be `[gray, alpha]`.
    public convenience init(gray: CGFloat, alpha: CGFloat) {
        self.init(space: CGColorSpace.graySpace, clamping: [gray, alpha])
    }

    /// A gray color in the generic gray gamma 2.2 space (Apple's explicit spelling).
    public convenience init(genericGrayGamma2_2Gray gray: CGFloat, alpha: CGFloat) {
        self.init(gray: gray, alpha: alpha)
    }

    /// A color from `space.numberOfComponents + 1` components (alpha last), as `CGColor(colorSpace:components:)`.
    /// Returns nil for a space LayerKit does not know.
    public convenience init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {
        guard let name = space.name, CGColorSpace(name: name) != nil else { return nil }
        let count = space.numberOfComponents + 1
        self.init(space: space, clamping: Array(UnsafeBufferPointer(start: components, count: count)))
    }

    /// The components, alpha last: `[r, g, b, a]` for RGB colors, `[gray, a]` for gray colors.
    public var components: [CGFloat]? { storedComponents }

    /// The number of components, alpha included: 4 for RGB, 2 for gray.
    public var numberOfComponents: Int { storedComponents.count }

    /// The alpha component.
    public var alpha: CGFloat { componentCount == 4 ? inlineComponents.3 : inlineComponents.1 }

    /// The same color with `alpha` replaced (clamped to 0…1), in the same space.
    public func copy(alpha: CGFloat) -> CGColor? {
        var c = storedComponents
        c[c.count - 1] = alpha
        return CGColor(space: colorSpace ?? CGColorSpace.sRGBSpace, clamping: c)
    }

    /// Opaque black, in the gray space (`components == [0, 1]`) as Core Graphics' `CGColor.black`.
    public static let black = CGColor(gray: 0, alpha: 1)
    /// Opaque white, in the gray space (`components == [1, 1]`).
    public static let white = CGColor(gray: 1, alpha: 1)
    /// Fully transparent, in the gray space (`components == [0, 0]`).
    public static let clear = CGColor(gray: 0, alpha: 0)

    /// Straight (not premultiplied) RGBA; gray `g` becomes `(g, g, g)`.
    package var rgba: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat) {
        let c = inlineComponents
        return componentCount == 4 ? (c.0, c.1, c.2, c.3) : (c.0, c.0, c.0, c.1)
    }

    /// RGBA with alpha multiplied into the color channels, as the renderer blends.
    package var premultipliedRGBA: SIMD4<Float> {
        let (r, g, b, a) = rgba
        return SIMD4(Float(r * a), Float(g * a), Float(b * a), Float(a))
    }

    public static func == (lhs: CGColor, rhs: CGColor) -> Bool {
        lhs === rhs || (lhs.colorSpace == rhs.colorSpace && lhs.storedComponents == rhs.storedComponents)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(colorSpace)
        hasher.combine(storedComponents)
    }

    /// The space and components, for test failures and logs.
    public var description: String {
        "CGColor(\(colorSpace?.name ?? "nil"): \(storedComponents))"
    }
}
