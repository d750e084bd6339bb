/// Drawing part of a layer: a draw restricted to a convex piece of its plane, as a plane split in a 3D
/// rendering context needs (`RenderGraphBuilder+RenderingContext3D.swift`).
///
/// Input: a draw and a convex polygon in the draw's layer space. Output: draws with the same instance —
/// same map to clip space, texture, colour, shape, radii and clip — whose geometry is the polygon cut to
/// what the draw rasterized (its quad, or its own piece), fanned into strips of at most four corners
/// (`LayerInstance.Flags.pieceCorners`). The coverage the shader computes is the original draw's, so a
/// layer drawn as pieces looks like the layer drawn whole wherever the pieces cover it; edges shared by
/// two pieces are the same floats in both, so the rasterizer's fill rule leaves neither a gap nor a seam.
/// A gradient's pieces keep its geometry (in layer space, so each piece paints what the whole layer
/// paints there) and carry its header where a piece has room (`LayerInstance.gradientKind`); each piece
/// writes its own copy of the stops.
/// Cost: O(polygon corners) per draw.
extension DrawItem {
    /// This draw restricted to `polygon` (layer space, convex, either winding); empty when they do not meet.
    package func restricted(to polygon: [SIMD2<Double>]) -> [DrawItem] {
        let instance = self.instance
        let shape = SIMD4<Double>(instance.shape)
        guard shape.z > shape.x, shape.w > shape.y, polygon.count >= 3 else { return [] }
        var region: [SIMD2<Double>]
        var uvAtShape = SIMD4<Double>(instance.uv)
        if instance.flags.contains(.pieceCorners) {
            let (a, b, c, d) = instance.pieceCorners
            region = [a, b, d, c].map(SIMD2<Double>.init)
            region = region.enumerated().filter { $0.offset == 0 || $0.element != region[$0.offset - 1] }.map(\.element)
        } else {
            let quad = SIMD4<Double>(instance.quad)
            guard quad.z > quad.x, quad.w > quad.y else { return [] }
            region = [SIMD2(quad.x, quad.y), SIMD2(quad.z, quad.y), SIMD2(quad.z, quad.w), SIMD2(quad.x, quad.w)]
            // The texture coordinates at the shape's corners, from those at the quad's (linear in x and y).
            let uv = SIMD4<Double>(instance.uv)
            func u(_ x: Double) -> Double { uv.x + (x - quad.x) / (quad.z - quad.x) * (uv.z - uv.x) }
            func v(_ y: Double) -> Double { uv.y + (y - quad.y) / (quad.w - quad.y) * (uv.w - uv.y) }
            uvAtShape = SIMD4(u(shape.x), v(shape.y), u(shape.z), v(shape.w))
        }
        let piece = ConvexPolygonClipping.clip(polygon, to: region)
        guard piece.count >= 3 else { return [] }
        // A piece that only touches the region (a shared corner or edge) has no area to draw.
        var twiceArea = 0.0
        for i in piece.indices {
            let a = piece[i], b = piece[(i + 1) % piece.count]
            twiceArea += a.x * b.y - b.x * a.y
        }
        let size = (shape.z - shape.x) * (shape.w - shape.y)
        guard abs(twiceArea) > 1e-9 * size else { return [] }
        var result: [DrawItem] = []
        var base = self
        if instance.flags.contains(.gradient) {
            // The header leaves uvClamp (the corners' slot) for the rows' w; uv stays the gradient's geometry.
            let header = (instance.gradientKind, instance.gradientStopCount, instance.gradientStopWord)
            base.instance.flags.insert(.pieceCorners)
            (base.instance.gradientKind, base.instance.gradientStopCount, base.instance.gradientStopWord) = header
        } else {
            base.instance.flags.insert(.pieceCorners)
            base.instance.uv = SIMD4<Float>(uvAtShape)
        }
        base.instance.flags.remove(.clampUV)
        // Fan from the first corner, two triangles (one strip of four) at a time.
        var i = 1
        while i + 1 < piece.count {
            let third = i + 2 < piece.count ? piece[i + 2] : piece[i + 1]
            var item = base
            // Strip order: the quad (p0, pi, pi+1, pi+2) as p0, pi, pi+2, pi+1.
            item.instance.pieceCorners = (SIMD2<Float>(piece[0]), SIMD2<Float>(piece[i]), SIMD2<Float>(third), SIMD2<Float>(piece[i + 1]))
            result.append(item)
            i += 2
        }
        return result
    }
}
