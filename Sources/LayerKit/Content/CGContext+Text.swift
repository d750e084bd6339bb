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
//   Layout: `drawText(_:in:style:)` (package, for CATextLayer) lays out runs of fonts, sizes and colors in
//           a rectangle with Pango: wrapping at the width, alignment, justification and ellipsizing.
//
// Does NOT: offer Core Text (CTFont, CTLine, attributed strings), glyph-level calls (`showGlyphs`), text
// drawing modes other than fill, or CGFont's glyph tables.

/// A font face family and style, resolved through fontconfig. Apple's `CGFont`.
///
/// The name is a family with optional style words in Pango's syntax: `"DejaVu Sans"`,
/// `"DejaVu Sans Bold"`, `"DejaVu Serif Italic"`, or a generic family such as `"monospace"`. Sizes are
/// given when drawing.
///
/// Sendable (checked by the compiler): every stored property is a `let` String set in `init` (names
/// resolved once), so threads share a font without synchronization.
public final class CGFont: Sendable, CustomStringConvertible {
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

// MARK: - Laid-out text (CATextLayer)

/// A run of text in one font, size and color, for `CGContext.drawText(_:in:style:)`.
package struct TextRun {
    package var text: String
    package var font: CGFont
    package var size: CGFloat
    package var color: CGColor

    package init(text: String, font: CGFont, size: CGFloat, color: CGColor) {
        self.text = text
        self.font = font
        self.size = size
        self.color = color
    }
}

/// How text is laid out in a rectangle: Core Animation's text-layer options, as Pango does them.
package struct TextLayoutStyle {
    package enum Alignment { case left, center, right, justified }
    package enum Truncation { case none, start, middle, end }

    package var alignment: Alignment = .left
    /// Lines break at the rectangle's width (words, then characters); otherwise only at newlines.
    package var isWrapped = false
    /// Text that does not fit is cut with an ellipsis here: each unwrapped line at the width, or the last
    /// line that fits the height when wrapped.
    package var truncation: Truncation = .none

    package init(alignment: Alignment = .left, isWrapped: Bool = false, truncation: Truncation = .none) {
        self.alignment = alignment
        self.isWrapped = isWrapped
        self.truncation = truncation
    }
}

/// What laying out text produced.
package struct TextLayoutMetrics: Equatable {
    /// The laid-out text's logical size (widest line × the lines' height), in user-space units.
    package var size: CGSize
    package var lineCount: Int
    /// Whether an ellipsis replaced text that did not fit.
    package var isEllipsized: Bool
}

extension CGContext {
    /// The largest font size drawn, in points: Pango keeps sizes as 32-bit integers of 1/1024 point.
    package static let maximumFontSize: CGFloat = 16_384

    /// Lays out `runs` in `rect` with Pango and draws them (a LayerKit addition for text layers).
    ///
    /// The first line's top is `rect.minY`; user space must be y-down (a layer-drawing context, see
    /// `flipForLayerDrawing()`), where glyphs come out upright. Lines are aligned within `rect.width`
    /// (unwrapped lines too: the block is placed as its alignment says); wrapping and truncation follow
    /// `style`. Nothing outside the context's clip is drawn; text below `rect` is not cut unless
    /// truncated. Runs of different colors are colored by Pango; otherwise the runs' color is the paint,
    /// so shadows take their own color. Empty text draws nothing.
    @discardableResult
    package func drawText(_ runs: [TextRun], in rect: CGRect, style: TextLayoutStyle) -> TextLayoutMetrics {
        let operation = "drawText(_:in:style:)"
        let empty = TextLayoutMetrics(size: .zero, lineCount: 0, isEllipsized: false)
        guard rect.isFiniteGeometry, runs.allSatisfy({ $0.size.isFinite && $0.size >= 0 }) else {
            refuse(operation, "non-finite rectangle or font size")
            return empty
        }
        let runs = runs.filter { !$0.text.isEmpty && $0.size > 0 }
        guard let first = runs.first, CairoSurface.isInvertible(userToPixels) else { return empty }
        let toPixels = userToPixels
        let oneColor = runs.allSatisfy { $0.color == first.color }
        var metrics = empty
        composite(.color(first.color)) { surface, _ in
            surface.save()
            surface.setMatrix(toPixels)
            let (layout, placed) = PangoText.makeLayout(on: surface.cairoContext, runs: runs, in: rect, style: style, colored: !oneColor)
            metrics = placed.metrics
            surface.move(to: CGPoint(x: rect.minX + placed.offsetX, y: rect.minY))
            pango_cairo_show_layout(surface.cairoContext, layout)
            g_object_unref(UnsafeMutableRawPointer(layout))
            surface.restore()
        }
        didDraw(operation)
        return metrics
    }

    /// What `drawText(_:in:style:)` would lay out, without drawing.
    package static func measureText(_ runs: [TextRun], in rect: CGRect, style: TextLayoutStyle) -> TextLayoutMetrics {
        let runs = runs.filter { !$0.text.isEmpty && $0.size > 0 && $0.size.isFinite }
        guard !runs.isEmpty, rect.isFiniteGeometry, let scratch = CairoSurface(width: 1, height: 1) else {
            return TextLayoutMetrics(size: .zero, lineCount: 0, isEllipsized: false)
        }
        let (layout, placed) = PangoText.makeLayout(on: scratch.cairoContext, runs: runs, in: rect, style: style, colored: false)
        g_object_unref(UnsafeMutableRawPointer(layout))
        return placed.metrics
    }
}

/// Pango layouts for CGContext text.
private enum PangoText {
    /// A layout of `string` in `font` at absolute `size`, unhinted, for drawing on `cr` (a `cairo_t`).
    /// The caller unrefs it.
    /// `size` in Pango units, within what Pango accepts (0…`maximumFontSize` points; not finite: 0).
    private static func pangoSize(_ size: CGFloat) -> Double {
        guard size.isFinite else { return 0 }
        return Double(min(max(size, 0), CGContext.maximumFontSize)) * Double(PANGO_SCALE)
    }

    static func makeLayout(on cr: OpaquePointer, string: String, font: CGFont, size: CGFloat) -> OpaquePointer {
        let layout = pango_cairo_create_layout(cr)!
        let context = pango_layout_get_context(layout)
        CairoSurface.withUnhintedFontOptions { options in
            pango_cairo_context_set_font_options(context, options)
        }
        pango_context_set_round_glyph_positions(context, 0)
        pango_layout_context_changed(layout)
        let description = pango_font_description_from_string(font.pangoDescription)
        pango_font_description_set_absolute_size(description, pangoSize(size))
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        pango_layout_set_text(layout, string, -1)
        return layout
    }

    /// A layout of `runs` (each its own font and size, and with `colored` its own color) in `rect` as
    /// `style` says, and where it goes: `offsetX` from `rect.minX` (alignment of unwrapped text, which
    /// Pango aligns only against its own widest line). The caller unrefs it.
    static func makeLayout(on cr: OpaquePointer, runs: [TextRun], in rect: CGRect, style: TextLayoutStyle,
                           colored: Bool) -> (OpaquePointer, (offsetX: CGFloat, metrics: TextLayoutMetrics)) {
        let text = runs.map(\.text).joined()
        let layout = makeLayout(on: cr, string: text, font: runs[0].font, size: runs[0].size)
        let attributes = pango_attr_list_new()
        var start = 0
        for run in runs {
            let end = start + run.text.utf8.count
            func insert(_ attribute: UnsafeMutablePointer<PangoAttribute>?) {
                guard let attribute else { return }
                attribute.pointee.start_index = UInt32(start)
                attribute.pointee.end_index = UInt32(end)
                pango_attr_list_insert(attributes, attribute)
            }
            let description = pango_font_description_from_string(run.font.pangoDescription)
            pango_font_description_set_absolute_size(description, pangoSize(run.size))
            insert(pango_attr_font_desc_new(description))
            pango_font_description_free(description)
            if colored {
                let c = run.color.rgba
                func channel(_ v: CGFloat) -> UInt16 { UInt16((min(max(v, 0), 1) * 65535).rounded()) }
                insert(pango_attr_foreground_new(channel(c.r), channel(c.g), channel(c.b)))
                insert(pango_attr_foreground_alpha_new(channel(c.a)))
            }
            start = end
        }
        pango_layout_set_attributes(layout, attributes)
        pango_attr_list_unref(attributes)

        let width = max(rect.width, 0)
        let bounded = style.isWrapped || style.truncation != .none
        if bounded {
            pango_layout_set_width(layout, Int32(min(width * CGFloat(PANGO_SCALE), CGFloat(Int32.max))))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
        }
        switch style.truncation {
        case .none: break
        case .start: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_START)
        case .middle: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_MIDDLE)
        case .end: pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
        }
        if style.truncation != .none && style.isWrapped {
            // A positive height: as many lines as fit, the last one ellipsized.
            pango_layout_set_height(layout, Int32(min(max(rect.height, 0) * CGFloat(PANGO_SCALE), CGFloat(Int32.max))))
        }
        switch style.alignment {
        case .left: pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
        case .center: pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        case .right: pango_layout_set_alignment(layout, PANGO_ALIGN_RIGHT)
        case .justified:
            pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)
            pango_layout_set_justify(layout, 1)
        }
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        let scale = CGFloat(PANGO_SCALE)
        let size = CGSize(width: CGFloat(logical.width) / scale, height: CGFloat(logical.height) / scale)
        var offsetX: CGFloat = 0
        if !bounded {
            switch style.alignment {
            case .center: offsetX = (width - size.width) / 2
            case .right: offsetX = width - size.width
            default: break
            }
        }
        let metrics = TextLayoutMetrics(size: size, lineCount: Int(pango_layout_get_line_count(layout)),
                                        isEllipsized: pango_layout_is_ellipsized(layout) != 0)
        return (layout, (offsetX, metrics))
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
