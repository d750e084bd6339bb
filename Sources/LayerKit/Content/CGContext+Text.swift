import CPango
import Foundation

// Text in a CGContext, laid out and drawn by Pango — the one place LayerKit calls Pango.
//
// Contract
//   Input:  a string, a CGFont (a family with optional style words, resolved through fontconfig), a size
//           in user-space units, and a point: the start of the first line's baseline, as Core Graphics'
//           `CGContextShowTextAtPoint` takes it.
//   Output: glyphs filled with the fill color through the graphics state (blend mode, alpha, shadow,
//           clip). Text space maps to user space by the text matrix (its translation set to the point),
//           then the ctm: with the identity text matrix glyphs rise toward +y, upright in a y-up context.
//           In a flipped, layer-drawing context they come out upside down, as Core Graphics text does on
//           iOS; set `textMatrix = CGAffineTransform(scaleX: 1, y: -1)` there, as iOS code does.
//           Drawing advances `textPosition` by the string's advance along the text matrix's x axis.
//   Fonts:  `CGFont(name)` asks fontconfig (through Pango) for the family. When the family it gets back
//           is not the one requested (fontconfig substitutes silently), LayerKit falls back to DejaVu Sans
//           (installed by Tools/setup) and emits `unknownFont(requested:fallback:)`. Generic families
//           (`sans-serif`, `serif`, `monospace`, …) are accepted as they resolve.
//   Metrics: sizes are absolute (one em = `size` user-space units, no 96-dpi scaling) and unhinted, with
//           unrounded glyph positions, so a string measures the same under any ctm.
//   Cost:   one Pango layout per drawing pass (shadows and unbounded blend modes draw more than one).
//
// Does NOT: offer Core Text (CTFont, CTLine, attributed strings), glyph-level calls (`showGlyphs`), text
// drawing modes other than fill, or CGFont's glyph tables.

/// A font face family and style, resolved through fontconfig. Apple's `CGFont`.
///
/// The name is a family with optional style words in Pango's syntax: `"DejaVu Sans"`,
/// `"DejaVu Sans Bold"`, `"DejaVu Serif Italic"`, or a generic family such as `"monospace"`. Sizes are
/// given when drawing.
public final class CGFont: @unchecked Sendable, CustomStringConvertible {
    /// The name the font was asked for.
    public let requestedName: String
    /// The family actually used (after fallback), as fontconfig names it.
    public let familyName: String
    /// The full name of the face used, e.g. `"DejaVu Sans Bold"`.
    public let fullName: String?
    /// Pango's size-less description of the face used (family and style).
    let pangoDescription: String

    /// The font named `name`, or — when that family is not installed — DejaVu Sans in the same style,
    /// with an `unknownFont` diagnostic. Nil only when no font can be loaded at all. (Apple returns nil
    /// for an unknown name; LayerKit falls back so that ported text still shows.)
    public init?(_ name: String) {
        guard let resolved = PangoFontResolver.resolve(name) else { return nil }
        self.requestedName = name
        self.familyName = resolved.family
        self.fullName = resolved.fullName
        self.pangoDescription = resolved.description
    }

    /// The font named `name`; see `init(_:)`.
    public convenience init?(name: String) {
        self.init(name)
    }

    /// LayerKit's default face, DejaVu Sans (Core Graphics' is Helvetica).
    static let defaultFont: CGFont? = CGFont(PangoFontResolver.fallbackFamily)

    public var description: String { "CGFont(\(fullName ?? familyName))" }

    /// The advance width of `string` and the font's ascent and descent (positive, below the baseline) at
    /// `size`, in user-space units: what `draw(_:at:font:size:)` lays out.
    package func lineMetrics(of string: String, size: CGFloat) -> (advance: CGFloat, ascent: CGFloat, descent: CGFloat) {
        guard let scratch = CairoSurface(width: 1, height: 1) else { return (0, 0, 0) }
        let layout = PangoText.makeLayout(on: scratch.cairoContext, string: string, font: self, size: size)
        defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        let baseline = pango_layout_get_baseline(layout)
        let scale = CGFloat(PANGO_SCALE)
        return (CGFloat(logical.width) / scale, CGFloat(baseline) / scale, CGFloat(logical.height - baseline) / scale)
    }
}

extension CGContext {
    /// The font `showText(_:)` uses; part of the graphics state (default DejaVu Sans).
    public func setFont(_ font: CGFont) { state.font = font }

    /// The size `showText(_:)` uses, in user-space units; part of the graphics state (default 12).
    public func setFontSize(_ size: CGFloat) {
        guard size.isFinite, size >= 0 else { return refuse("setFontSize(_:)", "font size must be finite and non-negative, got \(size)") }
        state.fontSize = size
    }

    /// Draws `string` at the text position with the graphics state's font and size.
    public func showText(_ string: String) {
        guard let font = state.font ?? CGFont.defaultFont else { return }
        draw(string, at: textPosition, font: font, size: state.fontSize)
    }

    /// Draws `string` in `font` at `size` (user-space units per em) with its first baseline starting at
    /// `point`, filled with the fill color. An empty string draws nothing. Lines break at newlines only.
    /// (A LayerKit addition: Core Graphics draws text through Core Text or glyph arrays.)
    public func draw(_ string: String, at point: CGPoint, font: CGFont, size: CGFloat) {
        let operation = "draw(_:at:font:size:)"
        guard point.x.isFinite, point.y.isFinite, size.isFinite, size >= 0 else {
            return refuse(operation, "non-finite point or size, or negative size")
        }
        guard !string.isEmpty, size > 0 else { return }
        var placement = textMatrix
        placement.tx = point.x
        placement.ty = point.y
        // Pango's glyph space is y-down; text space is y-up.
        let textToPixels = CGAffineTransform(scaleX: 1, y: -1).concatenating(placement).concatenating(userToPixels)
        guard CairoSurface.isInvertible(textToPixels) else { return }

        composite(.color(state.fillColor)) { surface, _ in
            surface.save()
            surface.setMatrix(textToPixels)
            let layout = PangoText.makeLayout(on: surface.cairoContext, string: string, font: font, size: size)
            let baseline = CGFloat(pango_layout_get_baseline(layout)) / CGFloat(PANGO_SCALE)
            surface.move(to: CGPoint(x: 0, y: -baseline))
            pango_cairo_show_layout(surface.cairoContext, layout)
            g_object_unref(UnsafeMutableRawPointer(layout))
            surface.restore()
        }
        let advance = font.lineMetrics(of: string, size: size).advance
        textPosition = CGPoint(x: point.x + advance * textMatrix.a, y: point.y + advance * textMatrix.b)
        didDraw(operation)
    }
}

/// Pango layouts for CGContext text.
private enum PangoText {
    /// A layout of `string` in `font` at absolute `size`, unhinted, for drawing on `cr` (a `cairo_t`).
    /// The caller unrefs it.
    static func makeLayout(on cr: OpaquePointer, string: String, font: CGFont, size: CGFloat) -> OpaquePointer {
        let layout = pango_cairo_create_layout(cr)!
        let context = pango_layout_get_context(layout)
        CairoSurface.withUnhintedFontOptions { options in
            pango_cairo_context_set_font_options(context, options)
        }
        pango_context_set_round_glyph_positions(context, 0)
        pango_layout_context_changed(layout)
        let description = pango_font_description_from_string(font.pangoDescription)
        pango_font_description_set_absolute_size(description, Double(size) * Double(PANGO_SCALE))
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        pango_layout_set_text(layout, string, -1)
        return layout
    }
}

/// Finds out which family fontconfig really gives for a name.
private enum PangoFontResolver {
    static let fallbackFamily = "DejaVu Sans"
    /// Families that name a role, not a face: whatever they resolve to is what was asked for.
    static let genericFamilies: Set<String> = ["sans-serif", "sans", "serif", "monospace", "mono", "system-ui", "cursive", "fantasy"]

    struct Resolved {
        var family: String
        var fullName: String?
        var description: String
    }

    static func resolve(_ name: String) -> Resolved? {
        guard let description = pango_font_description_from_string(name) else { return nil }
        defer { pango_font_description_free(description) }
        pango_font_description_unset_fields(description, PANGO_FONT_MASK_SIZE)
        let requested = pango_font_description_get_family(description).map { String(cString: $0) } ?? ""
        let requestedFamilies = requested.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }

        if let loaded = load(description) {
            let family = loaded.family.lowercased()
            if requestedFamilies.contains(family) || requestedFamilies.contains(where: genericFamilies.contains) {
                return loaded
            }
        }
        pango_font_description_set_family(description, fallbackFamily)
        guard let fallback = load(description) else { return nil }
        LayerKitDiagnostics.emit(.unknownFont(requested: requested.isEmpty ? name : requested, fallback: fallback.family))
        return fallback
    }

    /// The face fontconfig loads for `description`, described without a size.
    private static func load(_ description: OpaquePointer) -> Resolved? {
        let fontMap = pango_cairo_font_map_get_default()
        guard let context = pango_font_map_create_context(fontMap) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(context)) }
        let sized = pango_font_description_copy(description)
        defer { pango_font_description_free(sized) }
        pango_font_description_set_absolute_size(sized, 12 * Double(PANGO_SCALE))
        guard let font = pango_font_map_load_font(fontMap, context, sized) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(font)) }
        guard let loaded = pango_font_describe(font) else { return nil }
        defer { pango_font_description_free(loaded) }
        guard let familyPointer = pango_font_description_get_family(loaded) else { return nil }
        pango_font_description_unset_fields(loaded, PANGO_FONT_MASK_SIZE)
        let text = pango_font_description_to_string(loaded)
        defer { g_free(text) }
        let full = text.map { String(cString: $0) }
        return Resolved(family: String(cString: familyPointer), fullName: full, description: full ?? String(cString: familyPointer))
    }
}
