import LayerKit

/// A layer's shadow when it is a blurred rect or rounded rect, drawn analytically in the layer shader
/// with no offscreen pass (`LayerInstance.Flags.shadow`, `Shaders/include/blurred_rounded_rect.glsl`).
///
/// Input: a presented render node that casts a shadow (`casts(_:)`), and its background's corner radii.
/// Output: the shape (layer space, before the offset), its corner radii, and the alpha the shape has
/// (the shadow is the layer's alpha, blurred, tinted and offset); nil when the shadow needs the general
/// path (`RenderGraphBuilder+Effects.swift`): the layer's alpha drawn offscreen and blurred.
/// Rules, as Core Animation's shadow follows the layer's alpha:
/// - A `shadowPath` made as a rect, a rounded rect with circular corners, or a circle (`CGPath.roundedRectShape`)
///   is that shape at alpha 1.
/// - Without one, a layer whose alpha is its background alone: a background colour, no contents, no
///   gradient, shape or tiles, no transition, no sublayers unless `masksToBounds` keeps them inside an
///   opaque background, and no border unless the background is opaque (then the border adds no alpha).
///   The shape is the bounds with the background's corners, at the background colour's alpha.
package struct ShadowShape: Equatable {
    package var rect: CGRect
    package var radii: SIMD4<Float>
    package var alpha: CGFloat

    /// Whether `node` casts a visible shadow at all.
    package static func casts(_ node: RenderNode) -> Bool {
        guard node.shadowOpacity > 0, let color = node.shadowColor, color.alpha > 0,
              node.shadowOffset.width.isFinite, node.shadowOffset.height.isFinite, node.shadowRadius.isFinite else { return false }
        return node.shadowPath.map { !$0.isEmpty } ?? true
    }

    package init?(of node: RenderNode, backgroundRadii: SIMD4<Float>) {
        if let path = node.shadowPath {
            guard let (rect, radius) = path.roundedRectShape else { return nil }
            self.rect = rect
            radii = SIMD4(repeating: Float(radius))
            alpha = 1
            return
        }
        guard node.bounds.width > 0, node.bounds.height > 0, let background = node.backgroundColor, background.alpha > 0,
              node.contents == nil, node.tiledContents == nil, node.renderKind != .gradient, node.renderKind != .shape,
              node.activeTransition == nil else { return nil }
        let opaque = background.alpha >= 1
        guard node.sublayers.isEmpty || (node.masksToBounds && opaque) else { return nil }
        let borderAddsAlpha = node.borderWidth > 0 && (node.borderColor?.alpha ?? 0) > 0
        guard !borderAddsAlpha || opaque else { return nil }
        rect = node.bounds
        radii = backgroundRadii
        alpha = background.alpha
    }

    /// The Gaussian standard deviation Core Animation blurs a shadow by, for a `shadowRadius`: the radius
    /// itself. WebKit hands a CSS drop-shadow's standard deviation straight to `shadowRadius`, and the
    /// design tools' conversions (`shadowRadius = blur / 2`, CSS blur = 2σ) agree.
    package static func sigma(forRadius radius: CGFloat) -> CGFloat {
        radius.isNaN ? 0 : min(max(radius, 0), maximumSigma)
    }

    /// The widest blur a shadow takes, in layer units (a hostile radius is cut to it).
    package static let maximumSigma: CGFloat = 10_000
}
