import Foundation

// Shadows for CGContext. Cairo has none, so LayerKit draws them itself.
//
// Contract
//   Input:  the paint and mark of a drawing call (CGContext+Compositing.swift) and the shadow set by
//           `setShadow(offset:blur:color:)`.
//   Output: before the mark itself is drawn, the shadow is composited with the graphics state's blend
//           mode, global alpha and clip.
//   Algorithm: the mark is drawn alone (no clip, normal blending, full alpha) into a scratch surface the
//           size of the context; its alpha channel is blurred by a separable Gaussian with σ = blur / 2
//           pixels (Apple documents `blur` only as "the amount of blur"; a Gaussian of half that σ matches
//           Core Graphics' and CSS's box-shadow blur radius closely); the result, colored with the shadow
//           color, is shifted by the offset and composited as an image.
//           Offset and blur are in base space, unaffected by the ctm, as in Core Graphics: in a raw
//           (y-up) context a positive `offset.height` moves the shadow up; after `flipForLayerDrawing()`
//           base space is y-down and it moves down, as on iOS.
//   Cost:   a full-size scratch surface per shadowed drawing call; the blur is O(b × (w + h) × k) for the
//           mark's bounding box b grown by the kernel, with k = 2·⌈3σ⌉ + 1 taps.
//   Does NOT: cast a shadow from content outside the context's bounds.

extension CGContext {
    /// Enables a shadow for everything drawn afterwards: `offset` and `blur` in base space (see the file
    /// comment), `color` nil or fully transparent to disable. Part of the graphics state.
    public func setShadow(offset: CGSize, blur: CGFloat, color: CGColor?) {
        let operation = "setShadow(offset:blur:color:)"
        guard offset.width.isFinite, offset.height.isFinite, blur.isFinite else {
            return refuse(operation, "non-finite offset or blur")
        }
        guard let color, color.alpha > 0 else {
            state.shadow = nil
            return
        }
        state.shadow = Shadow(offset: offset, blur: max(blur, 0), color: color)
    }

    /// Enables a shadow in black at one-third alpha, Core Graphics' default shadow color.
    public func setShadow(offset: CGSize, blur: CGFloat) {
        setShadow(offset: offset, blur: blur, color: CGColor(gray: 0, alpha: 1.0 / 3.0))
    }

    /// Draws the shadow of `mark` painted with `paint` (see the file comment).
    func drawShadow(_ shadow: Shadow, paint: DrawingPaint, mark: (CairoSurface, Double) -> Void) {
        guard let scratch = CairoSurface(width: width, height: height) else { return }
        let (source, markAlpha) = paint.cairoPaint(alpha: 1)
        scratch.setAntialias(state.shouldAntialias)
        scratch.setMatrix(.identity)
        scratch.setPaint(source)
        mark(scratch, markAlpha)

        var alpha = scratch.readAlpha()
        ShadowBlur.gaussian(&alpha, width: width, height: height, sigma: Float(shadow.blur / 2))

        let c = shadow.color.rgba
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0 ..< width * height where alpha[i] > 0 {
            let a = alpha[i] * Float(c.a)
            pixels[i * 4] = ShadowBlur.byte(Float(c.r) * a)
            pixels[i * 4 + 1] = ShadowBlur.byte(Float(c.g) * a)
            pixels[i * 4 + 2] = ShadowBlur.byte(Float(c.b) * a)
            pixels[i * 4 + 3] = ShadowBlur.byte(a)
        }
        guard let pattern = CairoPattern.image(width: width, height: height, bytesPerRow: width * 4, premultipliedRGBA: pixels) else { return }
        // Base-space offset → pixel-space offset; the pattern matrix maps pixel space back into the image.
        let dx = shadow.offset.width
        let dy = baseSpaceIsFlipped ? shadow.offset.height : -shadow.offset.height
        pattern.setMatrix(CGAffineTransform(translationX: -dx, y: -dy))
        composite(.pattern(pattern), shadowed: false) { surface, alpha in
            surface.paint(alpha: alpha)
        }
    }
}

/// The Gaussian blur of a shadow's alpha.
enum ShadowBlur {
    /// A normalized Gaussian kernel of standard deviation `sigma`, radius ⌈3σ⌉ (99.7 % of the weight).
    static func kernel(sigma: Float) -> [Float] {
        let radius = Int((3 * sigma).rounded(.up))
        var weights = (-radius ... radius).map { i -> Float in
            let x = Float(i)
            return exp(-x * x / (2 * sigma * sigma))
        }
        let sum = weights.reduce(0, +)
        for i in weights.indices { weights[i] /= sum }
        return weights
    }

    /// Blurs a row-major `width × height` plane in place; values outside the plane count as 0. Only the
    /// bounding box of the nonzero values, grown by the kernel radius, is touched. σ ≤ 0 leaves it as is.
    static func gaussian(_ plane: inout [Float], width: Int, height: Int, sigma: Float) {
        guard sigma > 0 else { return }
        var minX = width, maxX = -1, minY = height, maxY = -1
        for y in 0 ..< height {
            for x in 0 ..< width where plane[y * width + x] > 0 {
                minX = min(minX, x); maxX = max(maxX, x)
                minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return }
        let k = kernel(sigma: sigma)
        let r = k.count / 2
        let x0 = max(minX - r, 0), x1 = min(maxX + r, width - 1)
        let y0 = max(minY - r, 0), y1 = min(maxY + r, height - 1)

        // Horizontal pass on the rows that hold content.
        var line = [Float](repeating: 0, count: width)
        for y in minY ... maxY {
            let row = y * width
            for x in x0 ... x1 {
                var sum: Float = 0
                for t in max(-r, -x) ... min(r, width - 1 - x) {
                    sum += k[t + r] * plane[row + x + t]
                }
                line[x] = sum
            }
            for x in x0 ... x1 { plane[row + x] = line[x] }
        }
        // Vertical pass on the grown columns.
        var column = [Float](repeating: 0, count: height)
        for x in x0 ... x1 {
            for y in y0 ... y1 {
                var sum: Float = 0
                for t in max(-r, -y) ... min(r, height - 1 - y) {
                    sum += k[t + r] * plane[(y + t) * width + x]
                }
                column[y] = sum
            }
            for y in y0 ... y1 { plane[y * width + x] = column[y] }
        }
    }

    /// 0…1 → 0…255, rounded and clamped.
    static func byte(_ value: Float) -> UInt8 {
        UInt8(min(max(value * 255, 0), 255).rounded())
    }
}
