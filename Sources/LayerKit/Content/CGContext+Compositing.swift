import Foundation

// How every CGContext drawing call reaches the pixels: blend mode, global alpha, shadow, clip.
//
// Contract
//   Input:  a paint (a color, or a pattern placed in pixel space) and a mark — a closure that puts down
//           coverage (fill, stroke, glyphs, an image's rectangle) with whatever source and operator are set.
//   Output: the destination becomes, per pixel, `clip·M·B(S, D) + (1 − clip·M)·D`, where M is the mark's
//           coverage, S the paint with the global alpha applied and B the blend mode. That is Core
//           Graphics' model: every blend mode is bounded by the shape drawn, so `.copy` fills a rect
//           without touching the pixels around it.
//   Algorithm: for modes Cairo also bounds by the shape (all but sourceIn, sourceOut, destinationIn,
//           destinationAtop) the mark is drawn directly with the mode as Cairo's operator. For those four,
//           Cairo would also change pixels outside the shape, so the mark is drawn into a coverage group M,
//           B(S, D) is computed over the clip into a second group T (a copy of D with S composited by the
//           mode), and T replaces D through M with Cairo's SOURCE operator, which Cairo bounds by the mask.
//           A shadow, when set, is drawn first (CGContext+Shadow.swift).
//   Cost:   direct: one Cairo call. Unbounded modes: two clip-sized groups. Shadows: see their file.

/// How drawing combines with the pixels already there, as Core Graphics names the modes.
///
/// Separable and non-separable modes (`multiply` … `luminosity`) use the PDF formulas, which Core Graphics
/// and Cairo share; Porter–Duff modes (`clear` … `xor`) act on premultiplied colors; `plusLighter` is
/// `min(1, S + D)`. `plusDarker` (`max(0, 1 − ((1 − D) + (1 − S)))`) has no Cairo operator: LayerKit draws
/// it as `.normal` and emits `unsupportedBlendMode`.
public enum CGBlendMode: Int32, Sendable, CaseIterable {
    case normal = 0
    case multiply = 1
    case screen = 2
    case overlay = 3
    case darken = 4
    case lighten = 5
    case colorDodge = 6
    case colorBurn = 7
    case softLight = 8
    case hardLight = 9
    case difference = 10
    case exclusion = 11
    case hue = 12
    case saturation = 13
    case color = 14
    case luminosity = 15
    case clear = 16
    case copy = 17
    case sourceIn = 18
    case sourceOut = 19
    case sourceAtop = 20
    case destinationOver = 21
    case destinationIn = 22
    case destinationOut = 23
    case destinationAtop = 24
    case xor = 25
    case plusDarker = 26
    case plusLighter = 27
}

extension CGContext {
    /// The blend mode for everything drawn afterwards; part of the graphics state. `.plusDarker` is not
    /// supported: it is replaced by `.normal` with an `unsupportedBlendMode` diagnostic.
    public func setBlendMode(_ mode: CGBlendMode) {
        if mode == .plusDarker {
            LayerKitDiagnostics.emit(.unsupportedBlendMode(mode: "plusDarker", fallback: "normal"))
            state.blendMode = .normal
            return
        }
        state.blendMode = mode
    }

    /// Draws `mark` with `paint` through the graphics state: shadow first (when set and `shadowed`), then
    /// the mark with the blend mode, the global alpha and the clip.
    ///
    /// `mark(surface, alpha)` must put down its coverage with the surface's current source and operator.
    /// Marks that paint a pattern apply `alpha` themselves (`paint(alpha:)`); for a color paint `alpha` is
    /// already folded into the color and the mark is handed 1.
    func composite(_ paint: DrawingPaint, shadowed: Bool = true, mark: (CairoSurface, Double) -> Void) {
        if shadowed, let shadow = state.shadow, shadow.color.alpha > 0 {
            drawShadow(shadow, paint: paint, mark: mark)
        }
        let (source, markAlpha) = paint.cairoPaint(alpha: state.alpha)
        surface.save()
        surface.setAntialias(state.shouldAntialias)
        surface.setMatrix(.identity)
        if !CairoSurface.isUnbounded(state.blendMode) {
            surface.setBlendMode(state.blendMode)
            surface.setPaint(source)
            mark(surface, markAlpha)
        } else {
            // M: the mark's coverage alone.
            surface.pushGroup()
            surface.setBlendMode(.normal)
            surface.setPaint(.color(red: 1, green: 1, blue: 1, alpha: 1))
            mark(surface, 1)
            let coverage = surface.popGroup()
            // T: B(S, D) everywhere in the clip.
            surface.pushGroup()
            surface.setMatrix(.identity)
            surface.setBlendMode(.copy)
            surface.setSourceToOwnPixels()
            surface.paint()
            surface.setBlendMode(state.blendMode)
            surface.setPaint(source)
            surface.paint(alpha: markAlpha)
            let blended = surface.popGroup()
            // D ← lerp(D, T, M), bounded by the clip.
            surface.setMatrix(.identity)
            surface.setBlendMode(.copy)
            surface.setPaint(.pattern(blended))
            surface.mask(coverage)
        }
        surface.restore()
    }
}

/// What a drawing call paints with.
enum DrawingPaint {
    /// A solid color; the global alpha multiplies its alpha.
    case color(CGColor)
    /// A pattern whose matrix maps Cairo pixel space to the pattern; the mark applies the global alpha.
    case pattern(CairoPattern)

    /// The Cairo paint and the alpha the mark must apply.
    func cairoPaint(alpha: CGFloat) -> (CairoPaint, Double) {
        switch self {
        case let .color(color): (CairoPaint(color, alpha: alpha), 1)
        case let .pattern(pattern): (.pattern(pattern), Double(alpha))
        }
    }
}
