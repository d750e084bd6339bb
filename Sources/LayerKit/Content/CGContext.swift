import Foundation

// CGContext: Core Graphics' bitmap drawing context, drawn by Cairo (CairoSurface.swift) and Pango
// (CGContext+Text.swift).
//
// Contract
//   Input:  Core Graphics calls with Apple's names — graphics state (this file), paths, fills, strokes
//           and clips (CGContext+Path.swift), images (CGContext+Image.swift), gradients
//           (CGContext+Gradient.swift), shadows and blend modes (CGContext+Compositing.swift) and text
//           (CGContext+Text.swift).
//   Output: pixels, read back with `makeImage()` as a premultiplied RGBA8 `CGImage`, or written into the
//           caller's buffer when the context was made with `data:`.
//   Spaces: user space --ctm--> base space --baseToPixels--> pixel space.
//           Base space is Core Graphics' device space for a bitmap: origin at the bottom-left, y up, one
//           unit per pixel, so a rect at y 0…10 covers the *bottom* ten rows of `makeImage()` — ported
//           Core Graphics code draws where it did. Pixel space is Cairo's: origin top-left, y down;
//           `baseToPixels` is the flip `(x, y) ↦ (x, height − y)`.
//           Layer drawing (`CALayer.draw(in:)`, y-down like iOS) starts from `flipForLayerDrawing()`, which
//           concatenates that same flip onto the ctm, as UIKit's contexts arrive on iOS.
//   State:  the graphics state (ctm, colors, line style, alpha, blend mode, shadow, interpolation, font)
//           is a Swift value saved on a stack; the clip lives in Cairo's own state, saved alongside. The
//           current path is not part of the graphics state, as in Core Graphics; it is kept in base space
//           (each point mapped by the ctm in effect when it was added), so later ctm changes do not move
//           it while the line width and dashes of `strokePath()` use the ctm at stroke time.
//   Cost:   drawing is Cairo's. `makeImage()` copies and converts O(width × height); a context made on
//           caller memory (`data:` non-nil) also converts the whole bitmap back after every drawing call.
//
// Does NOT: support gray, CMYK or float bitmaps, layers (CGLayer), PDF contexts, patterns
// (`setFillPattern`), `replacePathWithStrokedPath()`, or `.plusDarker` (see CGBlendMode).

/// Style for the ends of an open subpath's stroke.
public enum CGLineCap: Int32, Sendable {
    /// Squared off exactly at the end point.
    case butt = 0
    /// A half circle of the line width's diameter beyond the end point.
    case round = 1
    /// Squared off half the line width beyond the end point.
    case square = 2
}

/// Style for the corners between stroked segments.
public enum CGLineJoin: Int32, Sendable {
    /// Sharp corners, bevelled where the miter would exceed the miter limit.
    case miter = 0
    case round = 1
    case bevel = 2
}

/// How a context samples images drawn scaled or transformed (`CGContext.interpolationQuality`).
public enum CGInterpolationQuality: Int32, Sendable {
    /// The context's default: bilinear-quality (Cairo's GOOD filter).
    case `default` = 0
    /// Nearest pixel, no interpolation.
    case none = 1
    /// Bilinear.
    case low = 2
    /// Cairo's BEST filter.
    case high = 3
    /// Cairo's GOOD filter.
    case medium = 4
}

/// Layout of a bitmap's pixels, as Core Graphics' `CGBitmapInfo`. The low five bits hold an alpha-info
/// value (`CGImageAlphaInfo.rawValue`); `byteOrderMask` bits say how 32-bit pixels lie in memory.
public struct CGBitmapInfo: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    public static let byteOrderMask = CGBitmapInfo(rawValue: 0x7000)
    /// The components in the order the alpha info names them (R, G, B, A for `premultipliedLast`).
    public static let byteOrderDefault = CGBitmapInfo([])
    /// 32-bit pixels stored big-endian: the same order as `byteOrderDefault`.
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 4 << 12)
    /// 32-bit pixels stored little-endian: the component order reversed (B, G, R, A for `premultipliedFirst`).
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 2 << 12)
}

extension CGImageAlphaInfo {
    /// Core Graphics' numeric value, for `bitmapInfo:` arguments:
    /// `CGImageAlphaInfo.premultipliedLast.rawValue` is 1, `noneSkipLast` 5.
    public var rawValue: UInt32 {
        switch self {
        case .premultipliedLast: 1
        case .noneSkipLast: 5
        }
    }
}

/// A Core Graphics drawing destination: a bitmap of 8-bit RGBA pixels in sRGB.
///
/// Made with `CGContext(data:width:height:bitsPerComponent:bytesPerRow:space:bitmapInfo:)`; read back with
/// `makeImage()`. Coordinates are Core Graphics': origin bottom-left, y up (see the file comment for how
/// layer drawing gets a y-down context). Not thread-safe: use a context from one thread at a time.
public final class CGContext {
    // MARK: Bitmap

    public let width: Int
    public let height: Int
    public var bitsPerComponent: Int { 8 }
    public var bitsPerPixel: Int { 32 }
    /// The row length given at creation (`width * 4` when 0 was passed).
    public let bytesPerRow: Int
    public let colorSpace: CGColorSpace?
    public let bitmapInfo: CGBitmapInfo
    /// `.noneSkipLast` for an opaque context (alpha info `noneSkipLast`/`noneSkipFirst`), else `.premultipliedLast`.
    public var alphaInfo: CGImageAlphaInfo { surface.isOpaque ? .noneSkipLast : .premultipliedLast }

    /// The Cairo surface pixels are drawn into.
    let surface: CairoSurface
    /// Base space → Cairo pixel space: `(x, y) ↦ (x, height − y)`.
    let baseToPixels: CGAffineTransform
    /// The caller's buffer, when made with non-nil `data`: refreshed after every drawing call.
    private let external: ExternalBitmap?

    // MARK: Graphics state

    /// The graphics state that `saveGState()` pushes: everything but the clip, which Cairo keeps.
    struct GraphicsState {
        var ctm: CGAffineTransform = .identity
        var fillColor: CGColor = .black
        var strokeColor: CGColor = .black
        var stroke = CairoStrokeStyle()
        var alpha: CGFloat = 1
        var blendMode: CGBlendMode = .normal
        var shadow: Shadow?
        var interpolationQuality: CGInterpolationQuality = .default
        var shouldAntialias = true
        var font: CGFont?
        var fontSize: CGFloat = 12
    }

    /// A shadow as `setShadow(offset:blur:color:)` set it, in base space.
    struct Shadow {
        var offset: CGSize
        var blur: CGFloat
        var color: CGColor
    }

    var state = GraphicsState()
    private var savedStates: [GraphicsState] = []
    /// The current path, in base space.
    var path = CGMutablePath()
    /// Whether base space is y-down (after `flipForLayerDrawing()`): shadow offsets follow it, as on iOS.
    var baseSpaceIsFlipped = false

    /// The text matrix: text space → user space, applied before the ctm. Not part of the graphics state,
    /// as in Core Graphics. Its translation is the text position.
    public var textMatrix: CGAffineTransform = .identity
    /// Where the next `showText(_:)` starts, in user space; drawing a string advances it.
    public var textPosition: CGPoint {
        get { CGPoint(x: textMatrix.tx, y: textMatrix.ty) }
        set { textMatrix.tx = newValue.x; textMatrix.ty = newValue.y }
    }

    // MARK: Creating

    /// A bitmap context, as Core Graphics makes one.
    ///
    /// - `data`: nil to let the context own its pixels (all transparent, or opaque black for an opaque
    ///   alpha info); otherwise the caller's `height × bytesPerRow` bytes, read at creation and written
    ///   after every drawing call.
    /// - `bitsPerComponent` must be 8 and `space` an RGB space (sRGB).
    /// - `bytesPerRow`: 0 for `width * 4`, else at least that.
    /// - `bitmapInfo`: alpha info `premultipliedLast` (1), `premultipliedFirst` (2), `noneSkipLast` (5) or
    ///   `noneSkipFirst` (6), with `byteOrderDefault`, `byteOrder32Big` or `byteOrder32Little`. Only the
    ///   byte order of the caller's `data` depends on it; `makeImage()` always returns RGBA.
    ///
    /// Returns nil (with an `invalidContextArgument` diagnostic) for any other combination, as Core
    /// Graphics returns nil for unsupported parameter combinations.
    public init?(
        data: UnsafeMutableRawPointer?,
        width: Int,
        height: Int,
        bitsPerComponent: Int,
        bytesPerRow: Int,
        space: CGColorSpace,
        bitmapInfo: UInt32
    ) {
        func refuse(_ reason: String) {
            LayerKitDiagnostics.emit(.invalidContextArgument(operation: "init(data:width:height:bitsPerComponent:bytesPerRow:space:bitmapInfo:)", reason: reason))
        }
        guard width > 0, height > 0 else { refuse("width and height must be positive, got \(width)×\(height)"); return nil }
        guard bitsPerComponent == 8 else { refuse("only 8 bits per component are supported, got \(bitsPerComponent)"); return nil }
        guard space.model == .rgb else { refuse("only RGB color spaces are supported, got \(space.name ?? "unnamed")"); return nil }
        let (rowBytes, overflow) = width.multipliedReportingOverflow(by: 4)
        guard !overflow else { refuse("width \(width) is too large"); return nil }
        let stride = bytesPerRow == 0 ? rowBytes : bytesPerRow
        guard stride >= rowBytes else { refuse("bytesPerRow \(bytesPerRow) is less than width × 4 = \(rowBytes)"); return nil }
        let info = CGBitmapInfo(rawValue: bitmapInfo)
        guard let layout = ExternalBitmap.Layout(info) else {
            refuse("unsupported bitmapInfo 0x\(String(bitmapInfo, radix: 16)): alpha info must be 1, 2, 5 or 6 with default, 32Big or 32Little byte order")
            return nil
        }
        guard let surface = CairoSurface(width: width, height: height, opaque: layout.isOpaque) else {
            refuse("Cairo could not allocate a \(width)×\(height) surface")
            return nil
        }
        self.width = width
        self.height = height
        self.bytesPerRow = stride
        self.colorSpace = space
        self.bitmapInfo = info
        self.surface = surface
        self.baseToPixels = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height))
        if let data {
            let bitmap = ExternalBitmap(pointer: data, bytesPerRow: stride, layout: layout)
            surface.writePremultipliedRGBA(bitmap.readRGBA(width: width, height: height), bytesPerRow: width * 4)
            self.external = bitmap
        } else {
            self.external = nil
        }
    }

    // MARK: Layer drawing

    /// Flips the ctm so that user space is y-down with its origin at the top-left, as the contexts iOS hands
    /// to `CALayer.draw(in:)` and UIKit drawing are, and makes shadow offsets y-down too (positive height
    /// moves a shadow down, as on iOS). Call once, before drawing; layer drawing then scales by
    /// `contentsScale` on top. Images drawn with `draw(_:in:)` and text drawn with an identity text matrix
    /// come out upside down in such a context, exactly as on iOS; flip the text matrix
    /// (`textMatrix = CGAffineTransform(scaleX: 1, y: -1)`) as iOS code does.
    package func flipForLayerDrawing() {
        concatenate(CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height)))
        baseSpaceIsFlipped = true
    }

    // MARK: Saving state

    /// Pushes a copy of the graphics state (ctm, colors, line style, alpha, blend mode, shadow,
    /// interpolation quality, font, and the clip). The current path is not saved.
    public func saveGState() {
        savedStates.append(state)
        surface.save()
    }

    /// Pops the state pushed by the matching `saveGState()`. Without one, nothing changes and an
    /// `invalidContextArgument` diagnostic is emitted (Core Graphics logs an error).
    public func restoreGState() {
        guard let saved = savedStates.popLast() else {
            refuse("restoreGState()", "no saved graphics state to restore")
            return
        }
        state = saved
        surface.restore()
    }

    // MARK: Transforms

    /// User space → base space. Identity for a new bitmap context (base space is y-up pixels).
    public var ctm: CGAffineTransform { state.ctm }

    /// Translates user space: new drawing at `(0, 0)` lands where `(tx, ty)` did.
    public func translateBy(x tx: CGFloat, y ty: CGFloat) {
        guard tx.isFinite, ty.isFinite else { return refuse("translateBy(x:y:)", "non-finite translation") }
        state.ctm = state.ctm.translatedBy(x: tx, y: ty)
    }

    /// Scales user space by `(sx, sy)`.
    public func scaleBy(x sx: CGFloat, y sy: CGFloat) {
        guard sx.isFinite, sy.isFinite else { return refuse("scaleBy(x:y:)", "non-finite scale") }
        state.ctm = state.ctm.scaledBy(x: sx, y: sy)
    }

    /// Rotates user space by `angle` radians: positive angles turn +x toward +y (counterclockwise in a
    /// y-up context).
    public func rotate(by angle: CGFloat) {
        guard angle.isFinite else { return refuse("rotate(by:)", "non-finite angle") }
        state.ctm = state.ctm.rotated(by: angle)
    }

    /// Applies `transform` to user space first, then the current ctm: `ctm = transform × ctm`.
    public func concatenate(_ transform: CGAffineTransform) {
        let entries = [transform.a, transform.b, transform.c, transform.d, transform.tx, transform.ty]
        guard entries.allSatisfy(\.isFinite) else { return refuse("concatenate(_:)", "non-finite transform") }
        state.ctm = transform.concatenating(state.ctm)
    }

    /// User space → Cairo pixel space.
    var userToPixels: CGAffineTransform { state.ctm.concatenating(baseToPixels) }

    /// Maps a point from user space to base space (`ctm`).
    public func convertToDeviceSpace(_ point: CGPoint) -> CGPoint { point.applying(state.ctm) }

    /// Maps a point from base space to user space (inverse `ctm`).
    public func convertToUserSpace(_ point: CGPoint) -> CGPoint { point.applying(state.ctm.inverted()) }

    // MARK: Colors and line style

    /// The color `fillPath()`, `fill(_:)` and text use.
    public func setFillColor(_ color: CGColor) { state.fillColor = color }

    /// The color `strokePath()` and `stroke(_:)` use.
    public func setStrokeColor(_ color: CGColor) { state.strokeColor = color }

    /// An sRGB fill color from components.
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.fillColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// An sRGB stroke color from components.
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        state.strokeColor = CGColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// A gray fill color.
    public func setFillColor(gray: CGFloat, alpha: CGFloat) { state.fillColor = CGColor(gray: gray, alpha: alpha) }

    /// A gray stroke color.
    public func setStrokeColor(gray: CGFloat, alpha: CGFloat) { state.strokeColor = CGColor(gray: gray, alpha: alpha) }

    /// Multiplies the alpha of everything drawn afterwards (0…1, clamped).
    public func setAlpha(_ alpha: CGFloat) {
        guard !alpha.isNaN else { return refuse("setAlpha(_:)", "NaN alpha") }
        state.alpha = min(max(alpha, 0), 1)
    }

    /// Stroke width in user space (at stroke time). Negative or non-finite widths are refused. A zero width
    /// strokes nothing (Core Graphics draws the thinnest visible line instead).
    public func setLineWidth(_ width: CGFloat) {
        guard width.isFinite, width >= 0 else { return refuse("setLineWidth(_:)", "line width must be finite and non-negative, got \(width)") }
        state.stroke.width = width
    }

    public func setLineCap(_ cap: CGLineCap) { state.stroke.cap = cap }

    public func setLineJoin(_ join: CGLineJoin) { state.stroke.join = join }

    /// The miter limit: a miter join longer than `limit × line width` becomes a bevel. Default 10.
    public func setMiterLimit(_ limit: CGFloat) {
        guard limit.isFinite, limit >= 0 else { return refuse("setMiterLimit(_:)", "miter limit must be finite and non-negative, got \(limit)") }
        state.stroke.miterLimit = limit
    }

    /// Dashes: alternating painted and unpainted `lengths` in user space, starting `phase` units into the
    /// pattern. An empty array strokes solid lines. Negative or non-finite lengths, or lengths that are all
    /// zero, are refused (the previous dash stays).
    public func setLineDash(phase: CGFloat, lengths: [CGFloat]) {
        let operation = "setLineDash(phase:lengths:)"
        guard phase.isFinite, lengths.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            return refuse(operation, "dash lengths must be finite and non-negative and the phase finite")
        }
        guard lengths.isEmpty || lengths.contains(where: { $0 > 0 }) else {
            return refuse(operation, "dash lengths are all zero")
        }
        state.stroke.dashLengths = lengths
        state.stroke.dashPhase = phase
    }

    /// Whether shapes get antialiased edges (default true).
    public func setShouldAntialias(_ shouldAntialias: Bool) { state.shouldAntialias = shouldAntialias }

    /// How images are sampled when drawn scaled (`draw(_:in:)`); part of the graphics state.
    public var interpolationQuality: CGInterpolationQuality {
        get { state.interpolationQuality }
        set { state.interpolationQuality = newValue }
    }

    // MARK: Output

    /// The pixels drawn so far, as an immutable premultiplied RGBA8 image (top row first): the top row of
    /// the image is the context's highest y. Nil only if Cairo has failed.
    public func makeImage() -> CGImage? {
        let pixels = surface.readPremultipliedRGBA()
        return CGImage(
            width: width, height: height, bytesPerRow: width * 4, premultipliedRGBA: pixels,
            alphaInfo: surface.isOpaque ? .noneSkipLast : .premultipliedLast
        )
    }

    /// Makes sure the caller's buffer holds everything drawn. Drawing calls already do this; kept for
    /// ported code that calls it.
    public func flush() { didDraw("flush()") }

    // MARK: Internal

    /// Ends every drawing call: copies pixels to the caller's buffer, and reports Cairo's error state.
    func didDraw(_ operation: String) {
        if let message = surface.errorDescription {
            LayerKitDiagnostics.emit(.drawingFailed(operation: operation, reason: message))
        }
        external?.write(surface.readPremultipliedRGBA(), width: width, height: height)
    }

    /// Emits an `invalidContextArgument` diagnostic for a refused call.
    func refuse(_ operation: String, _ reason: String) {
        LayerKitDiagnostics.emit(.invalidContextArgument(operation: operation, reason: reason))
    }
}

/// The caller's pixel buffer behind a context made with non-nil `data`, and its byte order.
private struct ExternalBitmap {
    struct Layout {
        /// Byte offsets of red, green, blue and alpha within a pixel.
        var r: Int, g: Int, b: Int, a: Int
        var isOpaque: Bool

        init?(_ info: CGBitmapInfo) {
            let alpha = info.rawValue & CGBitmapInfo.alphaInfoMask.rawValue
            let order = info.rawValue & CGBitmapInfo.byteOrderMask.rawValue
            guard info.rawValue & ~(CGBitmapInfo.alphaInfoMask.rawValue | CGBitmapInfo.byteOrderMask.rawValue) == 0 else { return nil }
            let little: Bool
            switch order {
            case CGBitmapInfo.byteOrderDefault.rawValue, CGBitmapInfo.byteOrder32Big.rawValue: little = false
            case CGBitmapInfo.byteOrder32Little.rawValue: little = true
            default: return nil
            }
            // Big-endian (memory) order of the components for each alpha info.
            let alphaLast: Bool
            switch alpha {
            case 1: alphaLast = true; isOpaque = false   // premultipliedLast: R G B A
            case 2: alphaLast = false; isOpaque = false  // premultipliedFirst: A R G B
            case 5: alphaLast = true; isOpaque = true    // noneSkipLast: R G B X
            case 6: alphaLast = false; isOpaque = true   // noneSkipFirst: X R G B
            default: return nil
            }
            var offsets = alphaLast ? (r: 0, g: 1, b: 2, a: 3) : (r: 1, g: 2, b: 3, a: 0)
            if little { offsets = (3 - offsets.r, 3 - offsets.g, 3 - offsets.b, 3 - offsets.a) }
            (r, g, b, a) = offsets
        }
    }

    let pointer: UnsafeMutableRawPointer
    let bytesPerRow: Int
    let layout: Layout

    /// The buffer as premultiplied RGBA8, `width * 4` bytes a row. Opaque layouts read alpha 255.
    func readRGBA(width: Int, height: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        let src = pointer.assumingMemoryBound(to: UInt8.self)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let s = y * bytesPerRow + x * 4, d = (y * width + x) * 4
                out[d] = src[s + layout.r]
                out[d + 1] = src[s + layout.g]
                out[d + 2] = src[s + layout.b]
                out[d + 3] = layout.isOpaque ? 255 : src[s + layout.a]
            }
        }
        return out
    }

    /// Writes premultiplied RGBA8 (`width * 4` bytes a row) into the buffer in its byte order.
    func write(_ rgba: [UInt8], width: Int, height: Int) {
        let dst = pointer.assumingMemoryBound(to: UInt8.self)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let d = y * bytesPerRow + x * 4, s = (y * width + x) * 4
                dst[d + layout.r] = rgba[s]
                dst[d + layout.g] = rgba[s + 1]
                dst[d + layout.b] = rgba[s + 2]
                dst[d + layout.a] = layout.isOpaque ? 255 : rgba[s + 3]
            }
        }
    }
}
