import LayerKitRender

/// The pixel area of every quad a render graph draws, in every pass, computed from the graph alone.
///
/// Input: a `RenderGraph`. Output: the summed area, in target pixels, of each draw item's quad (after
/// its layer-to-clip map, cut to its pass's target), and that sum over the frame's pixel count. This is
/// the overdraw of a renderer that shades every fragment of every quad — no culling, no early depth
/// test, analytic clips and rounded corners still shaded — which is SCENES.md's own measure ("9.6 Mpx of
/// textured quads per frame, 10.4× the window"). It is not a GPU counter: fragments actually shaded
/// come from pipeline-statistics queries, which the renderer does not report yet.
///
/// Algorithm: the quad's four corners through `localToClip`, divided by w, to pixels; the polygon cut
/// to the target rectangle (Sutherland–Hodgman); its area by the shoelace formula. A quad with a corner
/// on or behind the eye (w ≤ 0) counts as the whole target. Cost: O(items).
enum QuadCoverage {
    /// (total quad pixels over all passes, that total divided by the frame's pixel count).
    static func measure(_ graph: RenderGraph) -> (pixels: Double, perFramePixel: Double) {
        var total = 0.0
        for pass in graph.passes {
            let width = Double(pass.target.width), height = Double(pass.target.height)
            for item in pass.items {
                total += area(of: item.instance, width: width, height: height)
            }
        }
        guard let frame = graph.passes.last?.target else { return (total, 0) }
        return (total, total / Double(frame.width * frame.height))
    }

    /// The area in pixels of `instance`'s quad inside a `width`×`height` target.
    static func area(of instance: LayerInstance, width: Double, height: Double) -> Double {
        let quad = instance.quad
        let (c0, c1, _, c3) = instance.localToClip
        var polygon: [SIMD2<Double>] = []
        for (x, y) in [(quad.x, quad.y), (quad.z, quad.y), (quad.z, quad.w), (quad.x, quad.w)] {
            let clip = c0 * x + c1 * y + c3
            guard clip.w > 1e-9 else { return width * height }
            polygon.append(SIMD2((Double(clip.x / clip.w) + 1) * width / 2, (Double(clip.y / clip.w) + 1) * height / 2))
        }
        polygon = cut(polygon) { $0.x >= 0 } intersect: { a, b in a + (b - a) * (0 - a.x) / (b.x - a.x) }
        polygon = cut(polygon) { $0.x <= width } intersect: { a, b in a + (b - a) * (width - a.x) / (b.x - a.x) }
        polygon = cut(polygon) { $0.y >= 0 } intersect: { a, b in a + (b - a) * (0 - a.y) / (b.y - a.y) }
        polygon = cut(polygon) { $0.y <= height } intersect: { a, b in a + (b - a) * (height - a.y) / (b.y - a.y) }
        guard polygon.count >= 3 else { return 0 }
        var twiceArea = 0.0
        for index in polygon.indices {
            let a = polygon[index], b = polygon[(index + 1) % polygon.count]
            twiceArea += a.x * b.y - b.x * a.y
        }
        return abs(twiceArea) / 2
    }

    /// One Sutherland–Hodgman step: the part of `polygon` where `inside` holds.
    private static func cut(_ polygon: [SIMD2<Double>], inside: (SIMD2<Double>) -> Bool,
                            intersect: (SIMD2<Double>, SIMD2<Double>) -> SIMD2<Double>) -> [SIMD2<Double>] {
        guard !polygon.isEmpty else { return [] }
        var result: [SIMD2<Double>] = []
        for index in polygon.indices {
            let current = polygon[index], next = polygon[(index + 1) % polygon.count]
            switch (inside(current), inside(next)) {
            case (true, true): result.append(next)
            case (true, false): result.append(intersect(current, next))
            case (false, true): result.append(contentsOf: [intersect(current, next), next])
            case (false, false): break
            }
        }
        return result
    }
}
