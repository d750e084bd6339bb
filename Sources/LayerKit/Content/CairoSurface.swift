import CCairo
import Foundation

// CairoSurface: the one place LayerKit calls Cairo (STYLE guideline 17).
//
// Contract
//   Input:  drawing requests in Swift types — CGAffineTransform matrices, CGPath elements, colors as
//           straight RGBA doubles, CGBlendMode, stroke styles — from CGContext and its extensions.
//   Output: pixels in a Cairo image surface, read back as LayerKit's premultiplied RGBA8 (top row first).
//   Pixel format: CAIRO_FORMAT_ARGB32 stores each pixel as one native-endian 32-bit word
//           `a << 24 | r << 16 | g << 8 | b`, premultiplied; on little-endian machines that is B, G, R, A in
//           memory. LayerKit's byte order is R, G, B, A. Conversion reads and writes whole words and
//           shifts, so it is right on either endianness. CAIRO_FORMAT_RGB24 (opaque contexts) has the same
//           layout with the top byte unused; it reads back with alpha 255.
//   Spaces: "pixel space" is Cairo's device space — origin top-left, y down, one unit per pixel. Every
//           matrix handed to `setMatrix(_:)` maps the caller's coordinates into pixel space.
//   Cost:   conversion is O(width × height) per read or write; everything else is Cairo's.
//
// Does NOT: know Core Graphics' y-up convention, graphics-state stacks, shadows or text (CGContext
// decides those); Pango gets the raw `cairo_t` through `cairoContext` and lives in CGContext+Text.swift.

/// A color or a pattern to paint with, as Cairo takes it.
enum CairoPaint {
    /// Straight (not premultiplied) sRGB components and alpha, each 0…1.
    case color(red: Double, green: Double, blue: Double, alpha: Double)
    case pattern(CairoPattern)

    init(_ color: CGColor, alpha: CGFloat = 1) {
        let c = color.rgba
        self = .color(red: Double(c.r), green: Double(c.g), blue: Double(c.b), alpha: Double(c.a * alpha))
    }
}

/// How a pattern samples outside its image or gradient interval.
enum CairoExtend {
    /// Transparent outside.
    case none
    /// The edge pixel or end color continues.
    case pad
    /// The image tiles the plane.
    case `repeat`
}

/// How an image pattern samples between pixels.
enum CairoFilter {
    case nearest, bilinear, good, best
}

/// Line style for `CairoSurface.stroke()`: the stroke state of a Core Graphics graphics state.
struct CairoStrokeStyle {
    var width: CGFloat = 1
    var cap: CGLineCap = .butt
    var join: CGLineJoin = .miter
    var miterLimit: CGFloat = 10
    /// Dash lengths in user space; empty for a solid line.
    var dashLengths: [CGFloat] = []
    var dashPhase: CGFloat = 0
}

/// An owned Cairo pattern (image, gradient or group), destroyed with the object.
final class CairoPattern {
    fileprivate let pointer: OpaquePointer

    fileprivate init(pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        cairo_pattern_destroy(pointer)
    }

    /// A pattern showing premultiplied RGBA8 pixels (top row first) with pixel (0, 0)'s corner at the
    /// pattern-space origin, one unit per pixel. Nil if Cairo cannot allocate the image.
    static func image(width: Int, height: Int, bytesPerRow: Int, premultipliedRGBA: [UInt8], opaque: Bool = false) -> CairoPattern? {
        guard let surface = CairoSurface(width: width, height: height, opaque: opaque) else { return nil }
        surface.writePremultipliedRGBA(premultipliedRGBA, bytesPerRow: bytesPerRow)
        return CairoPattern(pointer: cairo_pattern_create_for_surface(surface.surface))
    }

    /// A linear gradient from `start` (t = 0) to `end` (t = 1) with straight-RGBA `stops`.
    static func linearGradient(start: CGPoint, end: CGPoint, stops: [(location: Double, rgba: (Double, Double, Double, Double))]) -> CairoPattern {
        let pattern = CairoPattern(pointer: cairo_pattern_create_linear(Double(start.x), Double(start.y), Double(end.x), Double(end.y)))
        pattern.addStops(stops)
        return pattern
    }

    /// A two-circle radial gradient: t = 0 on the start circle, t = 1 on the end circle, circles in
    /// between interpolated linearly (PDF type 3 shading, as Core Graphics and Cairo both define it).
    static func radialGradient(
        startCenter: CGPoint, startRadius: CGFloat, endCenter: CGPoint, endRadius: CGFloat,
        stops: [(location: Double, rgba: (Double, Double, Double, Double))]
    ) -> CairoPattern {
        let pattern = CairoPattern(pointer: cairo_pattern_create_radial(
            Double(startCenter.x), Double(startCenter.y), Double(startRadius),
            Double(endCenter.x), Double(endCenter.y), Double(endRadius)
        ))
        pattern.addStops(stops)
        return pattern
    }

    private func addStops(_ stops: [(location: Double, rgba: (Double, Double, Double, Double))]) {
        for stop in stops {
            cairo_pattern_add_color_stop_rgba(pointer, stop.location, stop.rgba.0, stop.rgba.1, stop.rgba.2, stop.rgba.3)
        }
    }

    /// Maps user space (the space of the matrix in effect when the pattern becomes the source) to
    /// pattern space.
    /// A singular matrix is not set (Cairo would put the pattern in an error state) and false is returned.
    @discardableResult
    func setMatrix(_ userToPattern: CGAffineTransform) -> Bool {
        guard CairoSurface.isInvertible(userToPattern) else { return false }
        var m = cairo_matrix_t(userToPattern)
        cairo_pattern_set_matrix(pointer, &m)
        return true
    }

    func setExtend(_ extend: CairoExtend) {
        switch extend {
        case .none: cairo_pattern_set_extend(pointer, CAIRO_EXTEND_NONE)
        case .pad: cairo_pattern_set_extend(pointer, CAIRO_EXTEND_PAD)
        case .repeat: cairo_pattern_set_extend(pointer, CAIRO_EXTEND_REPEAT)
        }
    }

    func setFilter(_ filter: CairoFilter) {
        let f: cairo_filter_t
        switch filter {
        case .nearest: f = CAIRO_FILTER_NEAREST
        case .bilinear: f = CAIRO_FILTER_BILINEAR
        case .good: f = CAIRO_FILTER_GOOD
        case .best: f = CAIRO_FILTER_BEST
        }
        cairo_pattern_set_filter(pointer, f)
    }
}

extension cairo_matrix_t {
    /// Core Graphics' `(a, b, c, d, tx, ty)` as Cairo's `(xx, yx, xy, yy, x0, y0)`: both map
    /// `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`.
    fileprivate init(_ t: CGAffineTransform) {
        self.init(xx: Double(t.a), yx: Double(t.b), xy: Double(t.c), yy: Double(t.d), x0: Double(t.tx), y0: Double(t.ty))
    }
}

/// A Cairo image surface and its drawing context.
final class CairoSurface {
    let width: Int
    let height: Int
    /// Whether the surface is CAIRO_FORMAT_RGB24 (no alpha; reads back opaque).
    let isOpaque: Bool
    fileprivate let surface: OpaquePointer
    private let cr: OpaquePointer

    /// A transparent (or, when `opaque`, black) surface. Nil when Cairo refuses the size or memory runs out.
    init?(width: Int, height: Int, opaque: Bool = false) {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
              let surface = cairo_image_surface_create(opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
        else { return nil }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return nil
        }
        guard let cr = cairo_create(surface), cairo_status(cr) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return nil
        }
        self.width = width
        self.height = height
        self.isOpaque = opaque
        self.surface = surface
        self.cr = cr
    }

    deinit {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
    }

    /// The raw `cairo_t`, for Pango's cairo binding (CGContext+Text.swift) and nothing else.
    var cairoContext: OpaquePointer { cr }

    /// Cairo's error state, nil while healthy. Once set, Cairo ignores further drawing on this context.
    var errorDescription: String? {
        let status = cairo_status(cr)
        guard status != CAIRO_STATUS_SUCCESS else { return nil }
        return String(cString: cairo_status_to_string(status))
    }

    // MARK: State

    func save() { cairo_save(cr) }
    func restore() { cairo_restore(cr) }

    /// Sets the matrix from the caller's coordinates to pixel space. A singular or non-finite matrix is
    /// not set (Cairo would enter its error state for good) and false is returned: draw nothing then.
    @discardableResult
    func setMatrix(_ toPixels: CGAffineTransform) -> Bool {
        guard CairoSurface.isInvertible(toPixels) else { return false }
        var m = cairo_matrix_t(toPixels)
        cairo_set_matrix(cr, &m)
        return true
    }

    /// Whether Cairo accepts `t` as a matrix: finite entries and a nonzero, finite determinant.
    static func isInvertible(_ t: CGAffineTransform) -> Bool {
        let det = t.a * t.d - t.b * t.c
        return det != 0 && det.isFinite && t.tx.isFinite && t.ty.isFinite
    }

    func setPaint(_ paint: CairoPaint) {
        switch paint {
        case let .color(r, g, b, a): cairo_set_source_rgba(cr, r, g, b, a)
        case let .pattern(pattern): cairo_set_source(cr, pattern.pointer)
        }
    }

    func setAntialias(_ on: Bool) {
        cairo_set_antialias(cr, on ? CAIRO_ANTIALIAS_DEFAULT : CAIRO_ANTIALIAS_NONE)
    }

    /// Sets the compositing operator. Returns false, leaving the operator unchanged, for a mode Cairo has
    /// no operator for (`.plusDarker`).
    @discardableResult
    func setBlendMode(_ mode: CGBlendMode) -> Bool {
        guard let op = CairoSurface.cairoOperator(for: mode) else { return false }
        cairo_set_operator(cr, op)
        return true
    }

    /// Whether Cairo treats `mode` as unbounded: it changes pixels outside the drawn shape (inside the
    /// clip). Core Graphics limits every mode to the shape, so CGContext composites these through a mask.
    static func isUnbounded(_ mode: CGBlendMode) -> Bool {
        switch mode {
        case .sourceIn, .sourceOut, .destinationIn, .destinationAtop: true
        default: false
        }
    }

    /// CGBlendMode → cairo_operator_t. Cairo's separable and HSL modes follow the PDF blend-mode
    /// formulas, as Core Graphics' do; `.plusLighter` is Cairo's saturating ADD.
    private static func cairoOperator(for mode: CGBlendMode) -> cairo_operator_t? {
        switch mode {
        case .normal: CAIRO_OPERATOR_OVER
        case .multiply: CAIRO_OPERATOR_MULTIPLY
        case .screen: CAIRO_OPERATOR_SCREEN
        case .overlay: CAIRO_OPERATOR_OVERLAY
        case .darken: CAIRO_OPERATOR_DARKEN
        case .lighten: CAIRO_OPERATOR_LIGHTEN
        case .colorDodge: CAIRO_OPERATOR_COLOR_DODGE
        case .colorBurn: CAIRO_OPERATOR_COLOR_BURN
        case .softLight: CAIRO_OPERATOR_SOFT_LIGHT
        case .hardLight: CAIRO_OPERATOR_HARD_LIGHT
        case .difference: CAIRO_OPERATOR_DIFFERENCE
        case .exclusion: CAIRO_OPERATOR_EXCLUSION
        case .hue: CAIRO_OPERATOR_HSL_HUE
        case .saturation: CAIRO_OPERATOR_HSL_SATURATION
        case .color: CAIRO_OPERATOR_HSL_COLOR
        case .luminosity: CAIRO_OPERATOR_HSL_LUMINOSITY
        case .clear: CAIRO_OPERATOR_CLEAR
        case .copy: CAIRO_OPERATOR_SOURCE
        case .sourceIn: CAIRO_OPERATOR_IN
        case .sourceOut: CAIRO_OPERATOR_OUT
        case .sourceAtop: CAIRO_OPERATOR_ATOP
        case .destinationOver: CAIRO_OPERATOR_DEST_OVER
        case .destinationIn: CAIRO_OPERATOR_DEST_IN
        case .destinationOut: CAIRO_OPERATOR_DEST_OUT
        case .destinationAtop: CAIRO_OPERATOR_DEST_ATOP
        case .xor: CAIRO_OPERATOR_XOR
        case .plusLighter: CAIRO_OPERATOR_ADD
        case .plusDarker: nil
        }
    }

    /// Sets the stroke parameters, interpreted in the user space of the matrix in effect at `stroke()`.
    /// Invalid dashes (a negative length, or all zero) must be filtered by the caller; Cairo would enter
    /// its error state.
    func setStrokeStyle(_ style: CairoStrokeStyle) {
        cairo_set_line_width(cr, Double(style.width))
        switch style.cap {
        case .butt: cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        case .round: cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        case .square: cairo_set_line_cap(cr, CAIRO_LINE_CAP_SQUARE)
        }
        switch style.join {
        case .miter: cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
        case .round: cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        case .bevel: cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL)
        }
        cairo_set_miter_limit(cr, Double(style.miterLimit))
        let dashes = style.dashLengths.map(Double.init)
        dashes.withUnsafeBufferPointer { buffer in
            cairo_set_dash(cr, buffer.baseAddress, Int32(buffer.count), Double(style.dashPhase))
        }
    }

    // MARK: Paths

    func newPath() { cairo_new_path(cr) }

    /// Appends `path`'s elements, in the coordinates of the current matrix. Quadratic curves become the
    /// equivalent cubics (Cairo has none).
    func appendPath(_ path: CGPath) {
        var current = CGPoint.zero
        var subpathStart = CGPoint.zero
        path.applyWithBlock { (element: CGPathElement) in
            let p = element.points
            switch element.type {
            case .moveToPoint:
                cairo_move_to(cr, Double(p[0].x), Double(p[0].y))
                current = p[0]
                subpathStart = p[0]
            case .addLineToPoint:
                cairo_line_to(cr, Double(p[0].x), Double(p[0].y))
                current = p[0]
            case .addQuadCurveToPoint:
                let c1 = CGPoint(x: current.x + 2 / 3 * (p[0].x - current.x), y: current.y + 2 / 3 * (p[0].y - current.y))
                let c2 = CGPoint(x: p[1].x + 2 / 3 * (p[0].x - p[1].x), y: p[1].y + 2 / 3 * (p[0].y - p[1].y))
                cairo_curve_to(cr, Double(c1.x), Double(c1.y), Double(c2.x), Double(c2.y), Double(p[1].x), Double(p[1].y))
                current = p[1]
            case .addCurveToPoint:
                cairo_curve_to(cr, Double(p[0].x), Double(p[0].y), Double(p[1].x), Double(p[1].y), Double(p[2].x), Double(p[2].y))
                current = p[2]
            case .closeSubpath:
                cairo_close_path(cr)
                current = subpathStart
            }
        }
    }

    /// Sets the current point (where Pango starts a layout), in the current user space.
    func move(to point: CGPoint) {
        cairo_move_to(cr, Double(point.x), Double(point.y))
    }

    /// Calls `body` with Cairo font options for text whose metrics do not depend on the matrix: no
    /// hinting of outlines or metrics, grayscale antialiasing. The options live only during `body`.
    static func withUnhintedFontOptions(_ body: (OpaquePointer) -> Void) {
        guard let options = cairo_font_options_create() else { return }
        defer { cairo_font_options_destroy(options) }
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        body(options)
    }

    func appendRect(_ rect: CGRect) {
        cairo_rectangle(cr, Double(rect.minX), Double(rect.minY), Double(rect.width), Double(rect.height))
    }

    private func setFillRule(_ rule: CGPathFillRule) {
        cairo_set_fill_rule(cr, rule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
    }

    // MARK: Drawing (each consumes the current path)

    func fill(_ rule: CGPathFillRule) {
        setFillRule(rule)
        cairo_fill(cr)
    }

    func stroke() { cairo_stroke(cr) }

    func paint(alpha: Double = 1) {
        if alpha >= 1 { cairo_paint(cr) } else { cairo_paint_with_alpha(cr, alpha) }
    }

    /// Paints the current source through the alpha of `mask` (in the current user space).
    func mask(_ mask: CairoPattern) { cairo_mask(cr, mask.pointer) }

    // MARK: Clipping

    /// Intersects the clip with the current path, which it consumes.
    func clip(_ rule: CGPathFillRule) {
        setFillRule(rule)
        cairo_clip(cr)
    }

    func resetClip() { cairo_reset_clip(cr) }

    /// The clip's bounding box in the current user space.
    func clipExtents() -> CGRect {
        var x1 = 0.0, y1 = 0.0, x2 = 0.0, y2 = 0.0
        cairo_clip_extents(cr, &x1, &y1, &x2, &y2)
        return CGRect(x: x1, y: y1, width: x2 - x1, height: y2 - y1)
    }

    // MARK: Groups

    /// Redirects drawing to a transparent intermediate surface (clipped like this one) until `popGroup()`.
    func pushGroup() { cairo_push_group(cr) }

    /// Ends the group begun by `pushGroup()`, returning its pixels as a pattern in pixel space.
    func popGroup() -> CairoPattern { CairoPattern(pointer: cairo_pop_group(cr)) }

    /// Sets this surface's own pixels (as they are now) as the source, aligned with pixel space. Used
    /// inside a group to start from a copy of the destination.
    func setSourceToOwnPixels() {
        cairo_set_source_surface(cr, surface, 0, 0)
    }

    // MARK: Pixels

    /// The pixels as premultiplied RGBA8, top row first, `width * 4` bytes per row.
    func readPremultipliedRGBA() -> [UInt8] {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let base = cairo_image_surface_get_data(surface) else { return [] }
        let raw = UnsafeRawPointer(base)
        let opaque = isOpaque
        var out = [UInt8](repeating: 0, count: width * height * 4)
        out.withUnsafeMutableBufferPointer { dst in
            for y in 0 ..< height {
                let row = raw + y * stride
                for x in 0 ..< width {
                    let v = row.load(fromByteOffset: x * 4, as: UInt32.self)
                    let o = (y * width + x) * 4
                    dst[o] = UInt8(truncatingIfNeeded: v >> 16)
                    dst[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
                    dst[o + 2] = UInt8(truncatingIfNeeded: v)
                    dst[o + 3] = opaque ? 255 : UInt8(truncatingIfNeeded: v >> 24)
                }
            }
        }
        return out
    }

    /// Each pixel's alpha as 0…1, row-major, top row first.
    func readAlpha() -> [Float] {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let base = cairo_image_surface_get_data(surface) else { return [] }
        let raw = UnsafeRawPointer(base)
        var out = [Float](repeating: isOpaque ? 1 : 0, count: width * height)
        guard !isOpaque else { return out }
        for y in 0 ..< height {
            let row = raw + y * stride
            for x in 0 ..< width {
                out[y * width + x] = Float(row.load(fromByteOffset: x * 4, as: UInt32.self) >> 24) / 255
            }
        }
        return out
    }

    /// Replaces the pixels with premultiplied RGBA8 rows (top row first). An opaque surface ignores alpha.
    func writePremultipliedRGBA(_ pixels: [UInt8], bytesPerRow: Int) {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let base = cairo_image_surface_get_data(surface) else { return }
        let raw = UnsafeMutableRawPointer(base)
        pixels.withUnsafeBufferPointer { src in
            for y in 0 ..< height {
                let row = raw + y * stride
                for x in 0 ..< width {
                    let o = y * bytesPerRow + x * 4
                    let a = isOpaque ? UInt32(255) : UInt32(src[o + 3])
                    let v = a << 24 | UInt32(src[o]) << 16 | UInt32(src[o + 1]) << 8 | UInt32(src[o + 2])
                    row.storeBytes(of: v, toByteOffset: x * 4, as: UInt32.self)
                }
            }
        }
        cairo_surface_mark_dirty(surface)
    }
}
