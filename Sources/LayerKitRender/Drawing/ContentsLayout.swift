import LayerKit

/// Where a layer's contents image lands in its bounds: `contentsGravity`, `contentsRect`,
/// `contentsScale` and the nine-part `contentsCenter`, as Core Animation places them.
///
/// Input: the layer's committed contents properties and image size. Output: quads in layer space with
/// the texture coordinates each shows. Cost: at most nine quads.
package enum ContentsLayout {
    /// One piece of the image: a rectangle of the layer and the texture rectangle (0…1) it shows.
    package struct Piece: Equatable {
        package var rect: CGRect
        package var uv: CGRect
    }

    /// The rectangle the (cropped) image occupies in the layer's space.
    ///
    /// `imageSize` is the cropped image's natural size in points (pixels × contentsRect ÷ contentsScale).
    /// Vertical gravities follow Core Animation's y-up naming (see `CALayerContentsGravity`): `top` means
    /// the bounds' maximum y unless `contentsAreFlipped`.
    package static func placement(gravity: String, bounds: CGRect, imageSize: CGSize, contentsAreFlipped: Bool) -> CGRect {
        let (w, h) = (imageSize.width, imageSize.height)
        switch gravity {
        case "resize":
            return bounds
        case "resizeAspect", "resizeAspectFill":
            guard w > 0, h > 0 else { return bounds }
            let sx = bounds.width / w, sy = bounds.height / h
            let s = gravity == "resizeAspect" ? min(sx, sy) : max(sx, sy)
            let size = CGSize(width: w * s, height: h * s)
            return CGRect(x: bounds.midX - size.width / 2, y: bounds.midY - size.height / 2, width: size.width, height: size.height)
        default:
            var x = bounds.midX - w / 2
            var y = bounds.midY - h / 2
            if gravity.hasSuffix("Left") || gravity == "left" { x = bounds.minX }
            if gravity.hasSuffix("Right") || gravity == "right" { x = bounds.maxX - w }
            // y-up naming: "top" is the maximum y, unless the contents are flipped.
            let maxYEdge = bounds.maxY - h, minYEdge = bounds.minY
            if gravity.hasPrefix("top") { y = contentsAreFlipped ? minYEdge : maxYEdge }
            if gravity.hasPrefix("bottom") { y = contentsAreFlipped ? maxYEdge : minYEdge }
            return CGRect(x: x, y: y, width: w, height: h)
        }
    }

    /// The pieces that draw the image into `destination`: one piece, or up to nine when `center` (the
    /// stretchable part, unit coordinates of the cropped image) is not the whole image. Fixed edges keep
    /// their natural size (`imageSize` in points), shrinking proportionally when the destination is
    /// smaller than the two edges together, as Core Animation does.
    package static func pieces(destination: CGRect, imageSize: CGSize, contentsRect: CGRect, center: CGRect) -> [Piece] {
        let crop = contentsRect
        func uvRect(_ unit: CGRect) -> CGRect {
            CGRect(x: crop.minX + unit.minX * crop.width, y: crop.minY + unit.minY * crop.height,
                   width: unit.width * crop.width, height: unit.height * crop.height)
        }
        let unit = CGRect(x: 0, y: 0, width: 1, height: 1)
        let c = center.standardized.intersection(unit)
        if c.isNull || c == unit {
            return [Piece(rect: destination, uv: uvRect(unit))]
        }
        // Splits along one axis: destination edges and unit-texture edges.
        func split(start: CGFloat, length: CGFloat, natural: CGFloat, c0: CGFloat, c1: CGFloat) -> ([CGFloat], [CGFloat]) {
            var lead = c0 * natural, trail = (1 - c1) * natural
            if lead + trail > length, lead + trail > 0 {
                let s = length / (lead + trail)
                lead *= s; trail *= s
            }
            return ([start, start + lead, start + length - trail, start + length], [0, c0, c1, 1])
        }
        let (xs, us) = split(start: destination.minX, length: destination.width, natural: imageSize.width, c0: c.minX, c1: c.maxX)
        let (ys, vs) = split(start: destination.minY, length: destination.height, natural: imageSize.height, c0: c.minY, c1: c.maxY)
        var result: [Piece] = []
        for j in 0..<3 {
            for i in 0..<3 {
                let rect = CGRect(x: xs[i], y: ys[j], width: xs[i + 1] - xs[i], height: ys[j + 1] - ys[j])
                guard rect.width > 0, rect.height > 0 else { continue }
                let uv = uvRect(CGRect(x: us[i], y: vs[j], width: us[i + 1] - us[i], height: vs[j + 1] - vs[j]))
                result.append(Piece(rect: rect, uv: uv))
            }
        }
        return result
    }
}
