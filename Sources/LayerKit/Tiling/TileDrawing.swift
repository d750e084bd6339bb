import Foundation

/// Draws one tile of a tiled layer: what a worker of `TileDrawingQueue` runs.
///
/// The context is the tile's pixels (its rect at its level's resolution, rounded up). Its user space is
/// the layer's bounds space as for any layer drawing (y down, one unit per point), scaled to the level's
/// resolution and translated so that the tile's rect fills the context, and clipped to that rect: so
/// `boundingBoxOfClipPath` is the tile's rect, and drawing code may draw everything and get only the
/// tile. An opaque layer's tiles are opaque (`noneSkipLast`). Returns nil when nothing visible was drawn.
/// Cost: the drawing, plus tile width × height × 4 bytes.
package enum TileDrawing {
    package static func draw(_ layer: CALayer, key: TileKey, grid: TileGrid, isOpaque: Bool) -> CGImage? {
        let rect = grid.rect(of: key)
        guard rect.width > 0, rect.height > 0 else { return nil }
        let (width, height) = grid.pixelSize(of: key)
        let alpha: CGImageAlphaInfo = isOpaque ? .noneSkipLast : .premultipliedLast
        guard let ctx = CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
                                  space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: alpha.rawValue) else { return nil }
        let density = grid.pixelsPerPoint(atLevel: key.level)
        ctx.flipForLayerDrawing()
        ctx.scaleBy(x: density, y: density)
        ctx.translateBy(x: -rect.minX, y: -rect.minY)
        ctx.clip(to: rect)
        layer.draw(in: ctx)
        guard let image = ctx.makeImage() else { return nil }
        return isOpaque || image.hasVisiblePixel ? image : nil
    }
}
