/// A group's opaque, hard-edged, axis-aligned solid draws cut into disjoint pieces, each the part of one
/// draw that no later draw covers: drawn in any order they paint exactly what the draws paint in
/// painter's order, and no two pieces share a pixel, so a group opacity folds into them — no surface,
/// no depth test, no depth attachment.
///
/// Why: a faded group over overlapping opaque children was drawn straight into the frame and resolved
/// by the depth test (`DrawItem.depthGroup`). On lavapipe a depth-tested, depth-writing fragment costs
/// about twice a plain blended one, and the frame must clear and keep a depth attachment; the `groups`
/// scene spent 2–3× the GPU time its visible pixels need.
///
/// Input: the group's draws in painter's order and the target's size in pixels. Applies when every draw
/// is a plain solid quad (no flags: untextured, no gradient, no edge antialiasing, border, clip or
/// shadow; square corners; opaque, source-over, outside stencil clips — `DrawListCompiler.isDepthOpaque`)
/// mapped to pixels by scale and translation (`AxisAlignedMap`); nil otherwise, or beyond `maxDraws` draws
/// or `maxPieces` pieces.
/// Output: the pieces, in painter's order of their draws, each a copy of its draw whose quad and shape
/// are the piece's rect in pixels and whose map is the target's pixels → clip space. Every edge is
/// computed once, in pixels, and written the same into each piece that shares it, so abutting pieces
/// have bit-identical edges and the rasterizer's top-left rule gives each pixel to exactly one of them.
/// Cost: O(draws² · pieces), small for a group of a few layers.
enum DisjointOpaquePieces {
    static let maxDraws = 32
    static let maxPieces = 128

    /// A rect in target pixels (y down).
    struct Rect: Equatable {
        var minX, minY, maxX, maxY: Double

        var isEmpty: Bool { !(maxX > minX && maxY > minY) }

        func overlaps(_ other: Rect) -> Bool {
            minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
        }

        /// Appends to `parts` the parts of this rect outside `hole`: bands above and below it, and beside it
        /// between them.
        func subtracting(_ hole: Rect, into parts: inout [Rect]) {
            guard overlaps(hole) else { return parts.append(self) }
            let middleTop = max(minY, hole.minY), middleBottom = min(maxY, hole.maxY)
            func keep(_ part: Rect) { if !part.isEmpty { parts.append(part) } }
            keep(Rect(minX: minX, minY: minY, maxX: maxX, maxY: hole.minY))
            keep(Rect(minX: minX, minY: middleTop, maxX: hole.minX, maxY: middleBottom))
            keep(Rect(minX: hole.maxX, minY: middleTop, maxX: maxX, maxY: middleBottom))
            keep(Rect(minX: minX, minY: hole.maxY, maxX: maxX, maxY: maxY))
        }
    }

    /// The pieces of `draws` (see the type's contract), or nil.
    static func pieces(of draws: [DrawItem], targetWidth: Int, targetHeight: Int) -> [DrawItem]? {
        guard draws.count <= maxDraws else { return nil }
        var rects: [Rect] = []
        rects.reserveCapacity(draws.count)
        for draw in draws {
            guard let rect = pixelRect(of: draw, targetWidth: targetWidth, targetHeight: targetHeight) else { return nil }
            rects.append(rect)
        }
        // From the top down: each draw keeps what the draws above it leave (two buffers, swapped).
        var kept: [(draw: Int, rect: Rect)] = []
        var parts: [Rect] = [], next: [Rect] = []
        kept.reserveCapacity(4 * draws.count)
        parts.reserveCapacity(8)
        next.reserveCapacity(8)
        for index in draws.indices.reversed() {
            parts.removeAll(keepingCapacity: true)
            parts.append(rects[index])
            for above in (index + 1)..<rects.count where !parts.isEmpty {
                next.removeAll(keepingCapacity: true)
                for part in parts { part.subtracting(rects[above], into: &next) }
                swap(&parts, &next)
            }
            guard kept.count + parts.count <= maxPieces else { return nil }
            for part in parts { kept.append((index, part)) }
        }
        let pixelsToClip = (SIMD4<Float>(2 / Float(targetWidth), 0, 0, 0), SIMD4<Float>(0, 2 / Float(targetHeight), 0, 0))
        var pieces: [DrawItem] = []
        pieces.reserveCapacity(kept.count)
        for (index, part) in kept.reversed() {
            var piece = draws[index]
            let (_, _, c2, c3) = piece.instance.localToClip
            piece.instance.localToClip = (pixelsToClip.0, pixelsToClip.1, c2, SIMD4(-1, -1, c3.z, 1))
            let rect = SIMD4(Float(part.minX), Float(part.minY), Float(part.maxX), Float(part.maxY))
            piece.instance.quad = rect
            piece.instance.shape = rect
            pieces.append(piece)
        }
        return pieces
    }

    /// Where `draw` paints, in pixels, when it is a plain solid axis-aligned quad.
    private static func pixelRect(of draw: DrawItem, targetWidth: Int, targetHeight: Int) -> Rect? {
        let instance = draw.instance
        guard instance.flags.isEmpty, draw.texture == nil, draw.gradient == nil, draw.customKernel == nil, draw.depthGroup == nil,
              DrawListCompiler.isDepthOpaque(draw),
              let map = AxisAlignedMap(instance, targetWidth: targetWidth, targetHeight: targetHeight) else { return nil }
        let quad = instance.quad, shape = instance.shape
        let (x0, x1) = map.x(Double(max(quad.x, shape.x)), Double(min(quad.z, shape.z)))
        let (y0, y1) = map.y(Double(max(quad.y, shape.y)), Double(min(quad.w, shape.w)))
        let rect = Rect(minX: x0, minY: y0, maxX: x1, maxY: y1)
        guard !rect.isEmpty, [x0, x1, y0, y1].allSatisfy(\.isFinite) else { return nil }
        return rect
    }
}
