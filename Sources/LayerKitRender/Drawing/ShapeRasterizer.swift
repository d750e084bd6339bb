import Foundation
import LayerKit

/// Shape layers' paths as images, drawn on the render thread at the scale they appear on screen.
///
/// Input: a (presented) render node with a `path` custom property — a `CAShapeLayer` — and its map to
/// target pixels. Output: an image of the filled and stroked path and the rectangle of the layer's space
/// it covers, which the graph builder draws as a textured quad between the layer's contents and its
/// sublayers (`RenderGraphBuilder`), clipped and faded like contents.
/// Algorithm:
/// - The style (`ShapeStyle`) comes from the node's committed or animated custom properties, with
///   `CAShapeLayer`'s defaults for keys never committed. Nothing is drawn for an empty path, or when
///   neither a visible fill nor a visible stroke remains.
/// - The scale is the on-screen one: the larger of the lengths of the layer's unit vectors in target
///   pixels at the path's centre, rounded to a step of 2^(1/8) (exact at powers of two), so a shape
///   zoomed by a transform is redrawn crisp, yet a zoom animation makes at most eight images per octave.
/// - The image covers the path's bounds, outset by the stroke's reach (half the line width, times the
///   miter limit for miter joins, times √2 for square caps) and one pixel, rounded out to whole pixels of
///   the layer's space at that scale; drawn 1:1 where the layer's origin falls on a pixel, texels land on
///   target pixels exactly. Images are at most `maximumSide` pixels a side (the scale drops to fit).
/// - Drawing is LayerKit's CGContext (Cairo): fill by the fill rule, then the stroke of the path
///   trimmed to `strokeStart…strokeEnd` of its length (`CGPath.trimmed(from:to:)`) with width, caps,
///   joins, miter limit and dashes, all in the layer's units.
/// - Images are cached by (path, style, scale): the same path with the same style on many layers is
///   rasterized once per scale, and an unchanged shape is never redrawn. Least recently used images go
///   when the cache passes `maximumCachedBytes`. The cache holds the only strong reference the renderer
///   keeps, so an evicted image's texture is released after the frames using it.
/// Cost: a cache lookup hashes the path, O(elements); a rasterization is Cairo's fill and stroke over the
/// image's pixels plus O(elements × 64) for trimming.
///
/// Does NOT: draw outside the render thread, rasterize only the visible part of a huge zoomed shape, or
/// align the image grid to target pixels under fractional placements (those sample between texels).
package final class ShapeRasterizer: @unchecked Sendable {
    /// Counters since creation.
    package struct Statistics: Equatable, Sendable {
        /// Images drawn.
        package var rasterizations = 0
        /// Lookups answered from the cache.
        package var cacheHits = 0
        /// Images in the cache now, and their bytes.
        package var cachedImages = 0
        package var cachedBytes = 0
    }

    /// A rasterized shape: the image and the rectangle of the layer's space it covers.
    package struct RasterizedShape {
        package let image: CGImage
        package let rect: CGRect
    }

    package private(set) var statistics = Statistics()
    /// The cache's budget in image bytes (width × height × 4).
    package var maximumCachedBytes = 64 << 20
    /// The largest image side, in pixels.
    package var maximumSide = 4_096

    private struct Key: Hashable {
        let path: CGPath
        let style: ShapeStyle
        let scale: Double
    }

    private struct Entry {
        let shape: RasterizedShape
        var lastUse: UInt64
        var bytes: Int { shape.image.width * shape.image.height * 4 }
    }

    private let lock = NSLock()
    private var cache: [Key: Entry] = [:]
    private var useClock: UInt64 = 0

    package init() {}

    /// The shape of `node` rasterized for a layer-to-pixels map `toPixels`, or nil when the node is no
    /// shape layer or draws nothing.
    package func rasterizedShape(of node: RenderNode, toPixels: PlaneHomography) -> RasterizedShape? {
        let properties = node.customProperties
        guard node.renderKind == .shape, let path = properties.path("path") else { return nil }
        return rasterized(path, style: ShapeStyle(properties), toPixels: toPixels)
    }

    private func rasterized(_ path: CGPath, style: ShapeStyle, toPixels: PlaneHomography) -> RasterizedShape? {
        guard !path.isEmpty, style.drawsSomething else { return nil }
        let box = path.boundingBoxOfPath
        guard !box.isNull, box.isFiniteGeometry else { return nil }
        let reach = style.strokeReach
        let extent = box.insetBy(dx: -reach, dy: -reach)
        let onScreen = Self.pixelScale(toPixels, at: CGPoint(x: extent.midX, y: extent.midY))
        var scale = Self.quantized(onScreen)
        let largest = Double(max(extent.width, extent.height)) + 4
        if largest * scale > Double(maximumSide) { scale = Double(maximumSide) / largest }
        guard scale.isFinite, scale > 0 else { return nil }

        let key = Key(path: path, style: style, scale: scale)
        lock.lock()
        defer { lock.unlock() }
        useClock &+= 1
        if var entry = cache[key] {
            entry.lastUse = useClock
            cache[key] = entry
            statistics.cacheHits += 1
            return entry.shape
        }
        guard let shape = Self.rasterize(path, style: style, extent: extent, scale: scale) else { return nil }
        statistics.rasterizations += 1
        let entry = Entry(shape: shape, lastUse: useClock)
        cache[key] = entry
        statistics.cachedBytes += entry.bytes
        evict(keeping: key)
        statistics.cachedImages = cache.count
        return shape
    }

    /// `path` filled (non-zero winding) in opaque black for a layer-to-pixels map `toPixels`: a
    /// `shadowPath`'s alpha. Cached as shape layers' images are, so layers sharing one path share it.
    package func rasterizedFill(of path: CGPath, toPixels: PlaneHomography) -> RasterizedShape? {
        rasterized(path, style: ShapeStyle(CustomPropertyValues()), toPixels: toPixels)
    }

    /// Drops least recently used images until the cache fits its budget (never `kept`).
    private func evict(keeping kept: Key) {
        guard statistics.cachedBytes > maximumCachedBytes else { return }
        for (key, entry) in cache.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where key != kept {
            cache[key] = nil
            statistics.cachedBytes -= entry.bytes
            if statistics.cachedBytes <= maximumCachedBytes { break }
        }
    }

    /// Draws `path` in `style` covering `extent` (layer space) at `scale` pixels per unit.
    static func rasterize(_ path: CGPath, style: ShapeStyle, extent: CGRect, scale: Double) -> RasterizedShape? {
        let s = CGFloat(scale)
        let x0 = (extent.minX * s).rounded(.down) - 1, y0 = (extent.minY * s).rounded(.down) - 1
        let x1 = (extent.maxX * s).rounded(.up) + 1, y1 = (extent.maxY * s).rounded(.up) + 1
        let width = Int(x1 - x0), height = Int(y1 - y0)
        guard width > 0, height > 0,
              let ctx = CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
                                  space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
        else { return nil }
        // y-down pixels of the image, then the layer's units at `scale`.
        ctx.flipForLayerDrawing()
        ctx.translateBy(x: -x0, y: -y0)
        ctx.scaleBy(x: s, y: s)
        if let fill = style.fillColor {
            ctx.addPath(path)
            ctx.setFillColor(CGColor(red: fill.x, green: fill.y, blue: fill.z, alpha: fill.w))
            ctx.fillPath(using: style.evenOdd ? .evenOdd : .winding)
        }
        if let stroke = style.strokeColor, style.strokesSomething {
            let trimmed = path.trimmed(from: CGFloat(style.strokeStart), to: CGFloat(style.strokeEnd))
            if !trimmed.isEmpty {
                ctx.addPath(trimmed)
                ctx.setStrokeColor(CGColor(red: stroke.x, green: stroke.y, blue: stroke.z, alpha: stroke.w))
                ctx.setLineWidth(CGFloat(style.lineWidth))
                ctx.setLineCap(style.lineCap)
                ctx.setLineJoin(style.lineJoin)
                ctx.setMiterLimit(CGFloat(style.miterLimit))
                if !style.dashPattern.isEmpty {
                    ctx.setLineDash(phase: CGFloat(style.dashPhase), lengths: style.dashPattern.map { CGFloat($0) })
                }
                ctx.strokePath()
            }
        }
        guard let image = ctx.makeImage() else { return nil }
        return RasterizedShape(image: image, rect: CGRect(x: x0 / s, y: y0 / s, width: CGFloat(width) / s, height: CGFloat(height) / s))
    }

    /// Target pixels per layer unit near `point`: the longer of the two unit vectors' images.
    static func pixelScale(_ toPixels: PlaneHomography, at point: CGPoint) -> Double {
        func project(_ p: CGPoint) -> SIMD2<Double>? {
            let h = toPixels.apply(p)
            return h.z > 1e-12 ? SIMD2(h.x / h.z, h.y / h.z) : nil
        }
        guard let p0 = project(point), let px = project(CGPoint(x: point.x + 1, y: point.y)),
              let py = project(CGPoint(x: point.x, y: point.y + 1)) else { return 1 }
        let ex = px - p0, ey = py - p0
        let s = max((ex * ex).sum(), (ey * ey).sum()).squareRoot()
        return s.isFinite && s > 0 ? s : 1
    }

    /// `s` rounded to the nearest power of 2^(1/8), within 1/64…1024.
    static func quantized(_ s: Double) -> Double {
        let step = (log2(min(max(s, 1.0 / 64), 1024)) * 8).rounded()
        return exp2(step / 8)
    }
}

/// How a shape layer paints its path: its committed (or animated) properties, defaults filled in.
package struct ShapeStyle: Hashable, Sendable {
    /// Straight sRGB RGBA; nil for no (or an invisible) fill.
    package var fillColor: SIMD4<Double>?
    package var evenOdd: Bool
    /// Straight sRGB RGBA; nil for no (or an invisible) stroke.
    package var strokeColor: SIMD4<Double>?
    package var lineWidth: Double
    package var lineCap: CGLineCap
    package var lineJoin: CGLineJoin
    package var miterLimit: Double
    /// Valid dashes (finite, non-negative, not all zero), or empty for a solid stroke.
    package var dashPattern: [Double]
    package var dashPhase: Double
    /// Clamped to 0…1.
    package var strokeStart: Double
    package var strokeEnd: Double

    /// The style from a node's custom properties; `CAShapeLayer`'s defaults for keys never committed
    /// (fill opaque black, no stroke, width 1, miter limit 10, stroke 0…1).
    package init(_ p: CustomPropertyValues) {
        func visible(_ c: SIMD4<Double>?) -> SIMD4<Double>? {
            guard let c, c.w > 0, c.x.isFinite, c.y.isFinite, c.z.isFinite, c.w.isFinite else { return nil }
            return c
        }
        fillColor = visible(p.contains("fillColor") ? p.color("fillColor") : SIMD4(0, 0, 0, 1))
        evenOdd = p.string("fillRule") == "even-odd"
        strokeColor = visible(p.color("strokeColor"))
        lineWidth = max(p.number("lineWidth") ?? 1, 0)
        switch p.string("lineCap") {
        case "round": lineCap = .round
        case "square": lineCap = .square
        default: lineCap = .butt
        }
        switch p.string("lineJoin") {
        case "round": lineJoin = .round
        case "bevel": lineJoin = .bevel
        default: lineJoin = .miter
        }
        miterLimit = max(p.number("miterLimit") ?? 10, 0)
        let dashes = p.numbers("lineDashPattern")
        dashPattern = dashes.allSatisfy({ $0.isFinite && $0 >= 0 }) && dashes.contains(where: { $0 > 0 }) ? dashes : []
        dashPhase = p.number("lineDashPhase").flatMap { $0.isFinite ? $0 : nil } ?? 0
        strokeStart = min(max(p.number("strokeStart") ?? 0, 0), 1)
        strokeEnd = min(max(p.number("strokeEnd") ?? 1, 0), 1)
        if !lineWidth.isFinite { lineWidth = 0 }
        if !miterLimit.isFinite { miterLimit = 10 }
    }

    /// Whether the stroke shows: a color, a width, and some length between start and end.
    package var strokesSomething: Bool { strokeColor != nil && lineWidth > 0 && strokeEnd > strokeStart }

    package var drawsSomething: Bool { fillColor != nil || strokesSomething }

    /// How far the stroke can reach beyond the path, in layer units.
    var strokeReach: CGFloat {
        guard strokesSomething else { return 0 }
        var factor = 1.0
        if lineJoin == .miter { factor = max(factor, miterLimit) }
        if lineCap == .square { factor = max(factor, 2.0.squareRoot()) }
        return CGFloat(lineWidth / 2 * factor)
    }
}
