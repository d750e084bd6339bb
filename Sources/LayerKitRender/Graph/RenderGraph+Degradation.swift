import LayerKit

/// The frame drawn without new offscreen surfaces, for when the device has no memory left for them: a
/// degraded but complete picture instead of a failed frame.
///
/// Input: a graph (built or compiled). Output: the graph without its offscreen passes except those of
/// debug views; every item that sampled one of the dropped surfaces is replaced by that surface's items
/// (their own replacements first, for nested surfaces), mapped from the surface's clip space to where
/// the composite showed them and faded by the composite's color; their stencil clips, if any, nest inside
/// the composite's (levels raised by its level). What changes: group opacity fades
/// each draw instead of the group (overlaps show through), masks are not applied (their
/// destination-in draws are dropped), and the ancestors' clips on a rasterized layer's composite are
/// lost. A composite sampling part of a shared target takes only the draws that fall in that part.
/// Copies of the target's kept pixels (`targetPixelCopies`) are surfaces too: they and the draws that
/// sample them are dropped (a backdrop then holds LayerKit's draws only).
/// Rasterization cache entries reused from earlier frames are still sampled (they need no new
/// memory). Rebuilt passes lose their compiled plan (`drawPlan` batches them in painter's order) and
/// their depth ordering. Cost: O(items of the dropped surfaces × nesting depth).
extension RenderGraph {
    /// The degraded graph (see the extension's contract).
    package func drawingSurfacesDirectly() -> RenderGraph {
        var contents: [SurfaceID: (items: [DrawItem], target: RenderTarget)] = [:]
        var result = self
        result.passes = []
        for pass in passes {
            var pass = pass
            if pass.items.contains(where: { item in
                guard let surface = item.texture?.surface else { return false }
                return contents[surface] != nil
            }) {
                var items: [DrawItem] = []
                items.reserveCapacity(pass.items.count)
                for item in pass.items {
                    guard let surface = item.texture?.surface, let content = contents[surface] else {
                        items.append(item)
                        continue
                    }
                    let toComposite = Self.surfaceClipToComposite(item, surface: content.target)
                    let sampled = Self.sampledRect(item, surface: content.target)
                    for var inner in content.items where inner.blend == .sourceOver {
                        // A shared target (packed surfaces, a cache page) holds others' draws beside this one's.
                        if let sampled, let footprint = OffscreenDecision.footprint(of: inner, targetWidth: content.target.width,
                                                                                     targetHeight: content.target.height),
                           footprint.intersection(sampled) == nil { continue }
                        inner.instance.localToClip = Self.columnMajor(CATransform3DConcat(Self.matrix(inner.instance.localToClip), toComposite))
                        // The composite's map may scale unequally: the draw's map to pixels is no longer known similar.
                        inner.instance.flags.remove(.similarityMap)
                        inner.instance.color *= item.instance.color.w
                        // The surface's stencil clips nest inside the clips in force at the composite.
                        inner.stencilLevel &+= item.stencilLevel
                        items.append(inner)
                    }
                }
                pass.items = items
                pass.drawOrder = []
                pass.batches = []
                pass.depthOrdered = false
            }
            if let surface = pass.target.surface, pass.reason != .debugVisualization {
                contents[surface] = (pass.items, pass.target)
                continue
            }
            result.passes.append(pass)
        }
        result.rasterization.rendered = [:]
        result.rasterization.uncached = []
        let copied = Set(targetPixelCopies.map(\.surface))
        result.targetPixelCopies = []
        guard !copied.isEmpty else { return result }
        func samplesACopy(_ item: DrawItem) -> Bool {
            guard let surface = item.texture?.surface else { return false }
            return copied.contains(surface)
        }
        for index in result.passes.indices where result.passes[index].items.contains(where: samplesACopy) {
            result.passes[index].items.removeAll(where: samplesACopy)
            result.passes[index].drawOrder = []
            result.passes[index].batches = []
        }
        return result
    }

    /// The pixels of `surface` that `composite` samples, when that is less than the whole surface (its
    /// uv a sub-rectangle: a packed surface or a bitmap on a cache page); nil for the whole surface.
    private static func sampledRect(_ composite: DrawItem, surface: RenderTarget) -> PixelRect? {
        let uv = composite.instance.uv
        guard uv != SIMD4(0, 0, 1, 1) else { return nil }
        let (width, height) = (Float(surface.width), Float(surface.height))
        return PixelRect(minX: Int((min(uv.x, uv.z) * width).rounded()), minY: Int((min(uv.y, uv.w) * height).rounded()),
                         maxX: Int((max(uv.x, uv.z) * width).rounded()), maxY: Int((max(uv.y, uv.w) * height).rounded()))
    }

    /// Row-vector map from `surface`'s clip space to the clip space `composite` draws in: clip → surface
    /// uv ((x + 1) / 2, (y + 1) / 2) → the composite's layer space (its uv rect onto its quad) → its
    /// `localToClip`. z is dropped (the rebuilt pass has no depth order).
    private static func surfaceClipToComposite(_ composite: DrawItem, surface: RenderTarget) -> CATransform3D {
        let quad = composite.instance.quad, uv = composite.instance.uv
        let sx = CGFloat((quad.z - quad.x) / (uv.z - uv.x)), sy = CGFloat((quad.w - quad.y) / (uv.w - uv.y))
        // local = quad.min + (clip · 0.5 + 0.5 − uv.min) · s
        var toLocal = CATransform3DIdentity
        toLocal.m11 = 0.5 * sx
        toLocal.m22 = 0.5 * sy
        toLocal.m33 = 0
        toLocal.m41 = CGFloat(quad.x) + (0.5 - CGFloat(uv.x)) * sx
        toLocal.m42 = CGFloat(quad.y) + (0.5 - CGFloat(uv.y)) * sy
        return CATransform3DConcat(toLocal, matrix(composite.instance.localToClip))
    }

    private static func matrix(_ rows: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)) -> CATransform3D {
        let (r0, r1, r2, r3) = rows
        return CATransform3D(m11: CGFloat(r0.x), m12: CGFloat(r0.y), m13: CGFloat(r0.z), m14: CGFloat(r0.w),
                             m21: CGFloat(r1.x), m22: CGFloat(r1.y), m23: CGFloat(r1.z), m24: CGFloat(r1.w),
                             m31: CGFloat(r2.x), m32: CGFloat(r2.y), m33: CGFloat(r2.z), m34: CGFloat(r2.w),
                             m41: CGFloat(r3.x), m42: CGFloat(r3.y), m43: CGFloat(r3.z), m44: CGFloat(r3.w))
    }

    private static func columnMajor(_ t: CATransform3D) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        RenderGraphBuilder.columnMajor(t)
    }
}
