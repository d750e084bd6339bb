import Foundation

// Axial and radial gradients in a CGContext.
//
// Contract
//   Input:  a CGGradient, its geometry in user space, and CGGradientDrawingOptions.
//   Output: the gradient painted over the clip (gradients ignore the current path), composited through
//           the graphics state like any drawing.
//   Algorithm: the shading is evaluated in Swift at the centre of every pixel of the clip's bounding box,
//           mapped back to user space by the inverse of the ctm:
//             linear  t = ((p − start) · (end − start)) / |end − start|²
//             radial  (PDF type 3, as Core Graphics): circles c(t) = c0 + t·(c1 − c0), r(t) = r0 + t·(r1 − r0);
//                     t is the largest root of |p − c(t)| = r(t) with r(t) ≥ 0, where roots below 0 count
//                     only with `.drawsBeforeStartLocation` and roots above 1 only with
//                     `.drawsAfterEndLocation`.
//           A pixel with no admissible t is not drawn at all (its coverage is 0, so even `.copy` leaves it).
//           Colors come from a 1024-entry table of `CGGradient.color(at:)` over 0…1, premultiplied after
//           interpolation. The result is an image composited through the pixels it covers. Cairo's own
//           gradients are not used: Cairo can extend only both ends or neither, and interpolates
//           premultiplied colors.
//   Cost:   O(clip-box pixels) Swift work plus one image composite per call.

extension CGContext {
    /// Paints an axial gradient along `start` → `end` (user space), filling the clip. Without options
    /// only the band between the lines through `start` and `end` perpendicular to the axis is painted.
    public func drawLinearGradient(_ gradient: CGGradient, start: CGPoint, end: CGPoint, options: CGGradientDrawingOptions) {
        let d = CGPoint(x: end.x - start.x, y: end.y - start.y)
        let length2 = d.x * d.x + d.y * d.y
        guard start.x.isFinite, start.y.isFinite, end.x.isFinite, end.y.isFinite else {
            return refuse("drawLinearGradient(_:start:end:options:)", "non-finite start or end")
        }
        guard length2 > 0 else { return }
        let before = options.contains(.drawsBeforeStartLocation), after = options.contains(.drawsAfterEndLocation)
        shade(gradient, operation: "drawLinearGradient(_:start:end:options:)") { p in
            let t = ((p.x - start.x) * d.x + (p.y - start.y) * d.y) / length2
            if t < 0 { return before ? 0 : nil }
            if t > 1 { return after ? 1 : nil }
            return t
        }
    }

    /// Paints a radial gradient between the start circle (t = 0) and the end circle (t = 1), user space.
    public func drawRadialGradient(
        _ gradient: CGGradient,
        startCenter: CGPoint, startRadius: CGFloat,
        endCenter: CGPoint, endRadius: CGFloat,
        options: CGGradientDrawingOptions
    ) {
        let operation = "drawRadialGradient(_:startCenter:startRadius:endCenter:endRadius:options:)"
        guard [startCenter.x, startCenter.y, startRadius, endCenter.x, endCenter.y, endRadius].allSatisfy(\.isFinite) else {
            return refuse(operation, "non-finite center or radius")
        }
        guard startRadius >= 0, endRadius >= 0 else { return refuse(operation, "negative radius") }
        let cd = CGPoint(x: endCenter.x - startCenter.x, y: endCenter.y - startCenter.y)
        let dr = endRadius - startRadius, r0 = startRadius
        let a = cd.x * cd.x + cd.y * cd.y - dr * dr
        let before = options.contains(.drawsBeforeStartLocation), after = options.contains(.drawsAfterEndLocation)
        func admissible(_ t: CGFloat) -> CGFloat? {
            guard t.isFinite, r0 + t * dr >= 0 else { return nil }
            if t < 0 { return before ? 0 : nil }
            if t > 1 { return after ? 1 : nil }
            return t
        }
        shade(gradient, operation: operation) { p in
            let pd = CGPoint(x: p.x - startCenter.x, y: p.y - startCenter.y)
            let b = pd.x * cd.x + pd.y * cd.y + r0 * dr
            let c = pd.x * pd.x + pd.y * pd.y - r0 * r0
            if abs(a) < 1e-9 {
                // Linear in t: −2b·t + c = 0.
                guard b != 0 else { return nil }
                return admissible(c / (2 * b))
            }
            let discriminant = b * b - a * c
            guard discriminant >= 0 else { return nil }
            let root = discriminant.squareRoot()
            let t1 = (b + root) / a, t2 = (b - root) / a
            return admissible(max(t1, t2)) ?? admissible(min(t1, t2))
        }
    }

    /// Evaluates `parameter` (user point → gradient location, nil where nothing is drawn) at each pixel
    /// centre of the clip box and composites the colored result.
    private func shade(_ gradient: CGGradient, operation: String, parameter: (CGPoint) -> CGFloat?) {
        let toPixels = userToPixels
        guard CairoSurface.isInvertible(toPixels) else { return }
        let pixelToUser = toPixels.inverted()

        // The clip's box in pixel space, clamped to the bitmap.
        surface.save()
        surface.setMatrix(.identity)
        let clip = surface.clipExtents()
        surface.restore()
        let x0 = max(0, Int(clip.minX.rounded(.down))), y0 = max(0, Int(clip.minY.rounded(.down)))
        let x1 = min(width, Int(clip.maxX.rounded(.up))), y1 = min(height, Int(clip.maxY.rounded(.up)))
        guard x1 > x0, y1 > y0 else { return }
        let w = x1 - x0, h = y1 - y0

        let table = GradientTable(gradient)
        var pixels = [UInt8](repeating: 0, count: w * h * 4)
        var covered = [UInt8](repeating: 0, count: w * h * 4)
        var coversAll = true
        for y in 0 ..< h {
            for x in 0 ..< w {
                let p = CGPoint(x: CGFloat(x0 + x) + 0.5, y: CGFloat(y0 + y) + 0.5).applying(pixelToUser)
                let i = (y * w + x) * 4
                guard let t = parameter(p) else {
                    coversAll = false
                    continue
                }
                table.write(t, into: &pixels, at: i)
                covered[i + 3] = 255
            }
        }
        guard let image = CairoPattern.image(width: w, height: h, bytesPerRow: w * 4, premultipliedRGBA: pixels) else { return }
        let offset = CGAffineTransform(translationX: -CGFloat(x0), y: -CGFloat(y0))
        image.setMatrix(offset)
        // Where some pixels get no color, those pixels are outside the drawing, not transparent paint.
        let region: CairoPattern? = coversAll ? nil : CairoPattern.image(width: w, height: h, bytesPerRow: w * 4, premultipliedRGBA: covered)
        region?.setMatrix(offset)
        composite(.pattern(image)) { surface, alpha in
            guard let region else { return surface.paint(alpha: alpha) }
            if alpha >= 1 {
                surface.mask(region)
            } else {
                surface.pushGroup()
                surface.setMatrix(.identity)
                surface.setBlendMode(.copy)
                surface.setPaint(.pattern(region))
                surface.paint(alpha: alpha)
                let faded = surface.popGroup()
                surface.mask(faded)
            }
        }
        didDraw(operation)
    }
}

/// `CGGradient.color(at:)` sampled at 1024 locations over 0…1, premultiplied to bytes.
private struct GradientTable {
    static let size = 1024
    private var entries: [UInt8]

    init(_ gradient: CGGradient) {
        entries = [UInt8](repeating: 0, count: GradientTable.size * 4)
        for i in 0 ..< GradientTable.size {
            let c = gradient.color(at: CGFloat(i) / CGFloat(GradientTable.size - 1))
            func byte(_ v: CGFloat) -> UInt8 { UInt8(min(max(v * 255, 0), 255).rounded()) }
            entries[i * 4] = byte(c.r * c.a)
            entries[i * 4 + 1] = byte(c.g * c.a)
            entries[i * 4 + 2] = byte(c.b * c.a)
            entries[i * 4 + 3] = byte(c.a)
        }
    }

    func write(_ t: CGFloat, into pixels: inout [UInt8], at offset: Int) {
        let i = Int((min(max(t, 0), 1) * CGFloat(GradientTable.size - 1)).rounded()) * 4
        pixels[offset] = entries[i]
        pixels[offset + 1] = entries[i + 1]
        pixels[offset + 2] = entries[i + 2]
        pixels[offset + 3] = entries[i + 3]
    }
}
