import Foundation
import Synchronization

/// A layer that draws a string: Core Animation's `CATextLayer`.
///
/// The text is laid out by Pango (`CGContext.drawText(_:in:style:)`) from the top-left of the bounds and
/// drawn into the layer's backing store like any `draw(in:)` layer, on the model thread, at
/// `contentsScale` (set it to the display's scale for crisp text). It redraws when a text property,
/// `contentsScale` or the bounds size changes (`needsDisplayOnBoundsChange` defaults to true here), and
/// every frame while `fontSize` or `foregroundColor` animates (`LayerDisplay`); both animate implicitly.
///
/// `string` is a `String` or an `NSAttributedString` whose runs may carry a font (a `CGFont`, or a font
/// name) under `.font` and a `CGColor` under `.foregroundColor`; the layer's `font`, `fontSize` and
/// `foregroundColor` apply where a run has none. `font` is a `CGFont` or a font name (`"DejaVu Serif
/// Bold"`); nil means LayerKit's default face (DejaVu Sans, where Core Animation uses Helvetica). A name
/// that is not installed draws with DejaVu Sans and emits `unknownFont` once per process.
///
/// Does NOT: use Core Text, honour `allowsFontSubpixelQuantization`, or draw right-to-left `natural`
/// alignment on the right (natural is left).
open class CATextLayer: CALayer {
    /// The text: a `String` or an `NSAttributedString`. Default nil (nothing is drawn).
    public var string: Any? {
        get { value(forKey: "string") }
        set { setValue(newValue, forKey: "string") }
    }

    /// The font: a `CGFont` or a font name. Default nil (LayerKit's default face).
    public var font: Any? {
        get { value(forKey: "font") }
        set { setValue(newValue, forKey: "font") }
    }

    /// The font size, in points. Default 36. Animatable.
    public var fontSize: CGFloat {
        get { scalarValue(value(forKey: "fontSize") as Any) ?? 36 }
        set { setValue(newValue, forKey: "fontSize") }
    }

    /// The text color; nil draws no text. Default opaque white. Animatable.
    public var foregroundColor: CGColor? {
        get { value(forKey: "foregroundColor") as? CGColor }
        set { setValue(newValue, forKey: "foregroundColor") }
    }

    /// Whether lines wrap at the bounds' width. Default false.
    public var isWrapped: Bool {
        get { value(forKey: "wrapped") as? Bool ?? false }
        set { setValue(newValue, forKey: "wrapped") }
    }

    /// Where text that does not fit is cut with an ellipsis. Default `.none`.
    public var truncationMode: CATextLayerTruncationMode {
        get { Self.enumValue(value(forKey: "truncationMode")) ?? .none }
        set { setValue(newValue, forKey: "truncationMode") }
    }

    /// How lines are aligned in the bounds. Default `.natural` (left).
    public var alignmentMode: CATextLayerAlignmentMode {
        get { Self.enumValue(value(forKey: "alignmentMode")) ?? .natural }
        set { setValue(newValue, forKey: "alignmentMode") }
    }

    static let textKeys: Set<String> = ["string", "font", "fontSize", "foregroundColor", "wrapped", "truncationMode", "alignmentMode"]

    open override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "fontSize": CGFloat(36)
        case "foregroundColor": CGColor.white
        case "wrapped": false
        case "truncationMode": CATextLayerTruncationMode.none
        case "alignmentMode": CATextLayerAlignmentMode.natural
        case "needsDisplayOnBoundsChange": true
        default: super.defaultValue(forKey: key)
        }
    }

    open override class func needsDisplay(forKey key: String) -> Bool {
        textKeys.contains(key) || key == "contentsScale" || super.needsDisplay(forKey: key)
    }

    /// Draws the text into the backing store (the bounds, y down).
    open override func draw(in ctx: CGContext) {
        let runs = textRuns()
        guard !runs.isEmpty else { return }
        ctx.drawText(runs, in: bounds, style: layoutStyle)
    }

    /// The text as runs of font, size and color; empty when there is nothing to draw.
    package func textRuns() -> [TextRun] {
        let size = fontSize
        guard size.isFinite, size > 0, let defaultFont = Self.resolveFont(font) ?? Self.resolveFont(nil) else { return [] }
        guard size <= CGContext.maximumFontSize else {
            LayerKitDiagnostics.emit(.drawingFailed(operation: "CATextLayer text",
                                                    reason: "font size \(size) above \(CGContext.maximumFontSize) points: not drawn"))
            return []
        }
        let color = foregroundColor
        switch string {
        case let text as String:
            guard let color, !text.isEmpty else { return [] }
            return [TextRun(text: text, font: defaultFont, size: size, color: color)]
        case let attributed as NSAttributedString:
            var runs: [TextRun] = []
            let whole = attributed.string as NSString
            attributed.enumerateAttributes(in: NSRange(location: 0, length: attributed.length), options: []) { attributes, range, _ in
                let runFont = attributes[.font].flatMap { Self.resolveFont($0) } ?? defaultFont
                guard let runColor = (attributes[.foregroundColor] as? CGColor) ?? color else { return }
                runs.append(TextRun(text: whole.substring(with: range), font: runFont, size: size, color: runColor))
            }
            return runs
        default:
            return []
        }
    }

    /// The layout options the properties describe.
    package var layoutStyle: TextLayoutStyle {
        let alignment: TextLayoutStyle.Alignment
        switch alignmentMode {
        case .center: alignment = .center
        case .right: alignment = .right
        case .justified: alignment = .justified
        default: alignment = .left
        }
        let truncation: TextLayoutStyle.Truncation
        switch truncationMode {
        case .start: truncation = .start
        case .middle: truncation = .middle
        case .end: truncation = .end
        default: truncation = .none
        }
        return TextLayoutStyle(alignment: alignment, isWrapped: isWrapped, truncation: truncation)
    }

    /// Fonts resolved by name, once per process (fontconfig lookups are slow; a text layer whose size
    /// animates redraws every frame).
    private static let fontsByName = Mutex<[String: CGFont]>([:])

    /// `font` as a CGFont: itself, a name resolved (with fallback), or the default face for nil.
    static func resolveFont(_ font: Any?) -> CGFont? {
        switch font {
        case let font as CGFont: return font
        case let name as String:
            if let known = fontsByName.withLock({ $0[name] }) { return known }
            guard let resolved = CGFont(name) else { return nil }
            fontsByName.withLock { $0[name] = resolved }
            return resolved
        default:
            return CGFont.defaultFont
        }
    }

    /// A stored enumeration, also when key-value coding stored its raw string.
    private static func enumValue<T: RawRepresentable>(_ value: Any?) -> T? where T.RawValue == String {
        if let value = value as? T { return value }
        return (value as? String).flatMap(T.init(rawValue:))
    }
}

extension CATextLayer: DeclaredLayerProperties {
    /// None committed together: the render server draws text layers from their contents.
    package static let declaredKeys: [String] = []
    package static let implicitlyAnimatedKeys: Set<String> = ["fontSize", "foregroundColor"]
    package static let renderKind: LayerRenderKind? = nil
}

/// Where a text layer cuts text that does not fit.
public struct CATextLayerTruncationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let none = CATextLayerTruncationMode(rawValue: "none")
    public static let start = CATextLayerTruncationMode(rawValue: "start")
    public static let end = CATextLayerTruncationMode(rawValue: "end")
    public static let middle = CATextLayerTruncationMode(rawValue: "middle")
}

/// How a text layer aligns its lines.
public struct CATextLayerAlignmentMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let natural = CATextLayerAlignmentMode(rawValue: "natural")
    public static let left = CATextLayerAlignmentMode(rawValue: "left")
    public static let right = CATextLayerAlignmentMode(rawValue: "right")
    public static let center = CATextLayerAlignmentMode(rawValue: "center")
    public static let justified = CATextLayerAlignmentMode(rawValue: "justified")
}

#if !canImport(AppKit) && !canImport(UIKit)
extension NSAttributedString.Key {
    /// A run's font in a text layer's attributed string: a `CGFont` or a font name (AppKit's and UIKit's
    /// key, which Foundation on Linux lacks).
    public static let font = NSAttributedString.Key("NSFont")
    /// A run's color in a text layer's attributed string: a `CGColor`.
    public static let foregroundColor = NSAttributedString.Key("NSColor")
}
#endif
