import Foundation

// Drawing CGImages into a CGContext.
//
// Contract
//   Input:  a CGImage (premultiplied RGBA8, top row first) and a rectangle in user space.
//   Output: the image scaled to fill the rectangle, composited through the graphics state (blend mode,
//           alpha, shadow, clip). As in Core Graphics the image's top row goes to the rectangle's maxY
//           side in user space, so it appears upright in a y-up context and upside down in a flipped
//           (layer-drawing) one, exactly as `CGContextDrawImage` does on iOS.
//   Sampling: `interpolationQuality` picks the filter: `.none` nearest pixel, `.low` bilinear,
//           `.default`/`.medium` Cairo's GOOD, `.high` Cairo's BEST. Edge pixels extend to the rectangle's
//           border (no fade to transparent), and the rectangle's edges are antialiased like a fill.
//   Cost:   one conversion of the image to Cairo's pixel format per call, O(image pixels).

extension CGContext {
    /// Draws `image` scaled to fill `rect` (user space). Nothing is drawn for an empty or non-finite rect
    /// or a singular ctm.
    public func draw(_ image: CGImage, in rect: CGRect) {
        draw(image, in: rect, byTiling: false)
    }

    /// Draws `image` scaled to `rect`, then, when `byTiling`, repeats it across the whole clip (Core
    /// Graphics' `CGContextDrawTiledImage`).
    public func draw(_ image: CGImage, in rect: CGRect, byTiling: Bool) {
        let r = rect.standardized
        guard !r.isNull, r.width > 0, r.height > 0, r.origin.x.isFinite, r.origin.y.isFinite,
              r.width.isFinite, r.height.isFinite, CairoSurface.isInvertible(userToPixels),
              let pattern = CairoPattern.image(
                  width: image.width, height: image.height, bytesPerRow: image.bytesPerRow, premultipliedRGBA: image.pixelData
              )
        else { return }
        // User space → image pixels: x from minX…maxX to 0…W, y from maxY…minY to 0…H (top row first).
        let sx = CGFloat(image.width) / r.width, sy = CGFloat(image.height) / r.height
        let userToImage = CGAffineTransform(a: sx, b: 0, c: 0, d: -sy, tx: -r.minX * sx, ty: r.maxY * sy)
        pattern.setMatrix(userToPixels.inverted().concatenating(userToImage))
        pattern.setFilter(CGContext.filter(for: state.interpolationQuality))
        pattern.setExtend(byTiling ? .repeat : .pad)

        let bounds = CGMutablePath()
        bounds.addRect(r, transform: state.ctm)
        let toPixels = baseToPixels
        composite(.pattern(pattern)) { surface, alpha in
            surface.save()
            if !byTiling {
                surface.setMatrix(toPixels)
                surface.newPath()
                surface.appendPath(bounds)
                surface.clip(.winding)
            }
            surface.paint(alpha: alpha)
            surface.restore()
        }
        didDraw(byTiling ? "draw(_:in:byTiling:)" : "draw(_:in:)")
    }

    static func filter(for quality: CGInterpolationQuality) -> CairoFilter {
        switch quality {
        case .none: .nearest
        case .low: .bilinear
        case .default, .medium: .good
        case .high: .best
        }
    }
}
