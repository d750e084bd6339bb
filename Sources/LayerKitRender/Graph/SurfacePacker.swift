/// Packs offscreen surfaces that need no ordering between them into shared targets, so one pass draws
/// them all (DESIGN.md §4, rule 3; WebRender's render task graph).
///
/// Input: a built graph (passes in a valid order, items in each target's clip space) and the surfaces
/// that may be packed (small ones drawn whole, `RenderGraphBuilder.OffscreenPasses.packable`).
/// Output: the same picture with fewer passes: packable passes of one level and reason, with the same
/// clear color, become one pass into a shared target; each surface's items are moved into its
/// sub-rectangle, and every item sampling it samples the shared target at that sub-rectangle's uv.
/// Algorithm: a pass's level is 0 when it samples no surface of this graph, else one more than the
/// highest level of the passes drawing what it samples — so passes of one level never read one
/// another. Passes are emitted level by level (stable within a level, the frame's passes last); each
/// level's packable passes are placed with a shelf allocator (`AtlasAllocator`) on pages of at most
/// `maxSide` pixels a side, one pixel of gutter around each, and each page is cut to what it holds.
/// A page holding a single surface stays that surface's own pass.
/// A surface's own pass clips its items to the surface; a page does not clip them to their
/// sub-rectangle, so each item is confined to its surface first (`confined`: a draw reaching past it,
/// such as a wide background behind a backdrop, is cut to it), and a surface with an item that cannot be
/// cut so (turned or projected past its surface) keeps its own pass. Uncut, a later member's background
/// painted over the members before it on the page.
/// Cost: O(items) to confine and relabel; O(surfaces × shelves) to place.
package struct SurfacePacker: Sendable {
    /// The side of a shared target's page unless the device allows less.
    package static let defaultPageSide = 2_048
    /// Pixels left empty to the right of and below each packed surface.
    package static let gutter = 1

    package var maxSide: Int

    package init(maxSide: Int) {
        self.maxSide = maxSide
    }

    /// Where a packed surface went: the shared target and the sub-rectangle's uv (min x, min y, max x,
    /// max y), its pixels there, the page's size, and where its items start in the shared pass.
    package struct Placement: Sendable {
        package var shared: SurfaceID
        package var uv: SIMD4<Float>
        package var rect: PixelRect
        package var pageWidth: Int
        package var pageHeight: Int
        package var firstItem: Int
    }

    private struct Page {
        var members: [(pass: Int, rect: PixelRect)] = []
        var allocator: AtlasAllocator
    }

    /// The packed graph (see the type's contract).
    package func pack(_ graph: RenderGraph, packable: Set<SurfaceID>) -> RenderGraph {
        var placements: [SurfaceID: Placement] = [:]
        return pack(graph, packable: packable, placements: &placements)
    }

    /// The packed graph, and in `placements` where each packed surface went (for patching a surface's
    /// items in place later: `RenderGraphBuilder.patch`).
    package func pack(_ graph: RenderGraph, packable: Set<SurfaceID>, placements: inout [SurfaceID: Placement]) -> RenderGraph {
        guard packable.count > 1 else { return graph }
        let passes = graph.passes
        var levelOfSurface: [SurfaceID: Int] = [:]
        var levels: [Int] = []
        levels.reserveCapacity(passes.count)
        for pass in passes {
            var level = 0
            for case let surface? in pass.items.lazy.map({ $0.texture?.surface }) {
                if let sampled = levelOfSurface[surface] { level = max(level, sampled + 1) }
            }
            levels.append(level)
            if let surface = pass.target.surface { levelOfSurface[surface] = level }
        }

        // Pages per (level, reason, clear color), in pass order.
        struct GroupKey: Hashable {
            var level: Int
            var reason: OffscreenReason?
            var clear: SIMD4<Float>
        }
        var open: [GroupKey: Page] = [:]
        var pages: [Page] = []
        // Each candidate's items confined to its surface; a surface whose items cannot all be stays unpacked.
        var confinedItems: [Int: [DrawItem]] = [:]
        for (index, pass) in passes.enumerated() {
            guard let surface = pass.target.surface, packable.contains(surface) else { continue }
            let key = GroupKey(level: levels[index], reason: pass.reason, clear: pass.clearColor)
            let (width, height) = (pass.target.width + Self.gutter, pass.target.height + Self.gutter)
            guard width <= maxSide, height <= maxSide else { continue }
            var confined: [DrawItem] = []
            confined.reserveCapacity(pass.items.count)
            for item in pass.items {
                guard let kept = Self.confined(item, to: pass.target) else { break }
                confined.append(kept)
            }
            guard confined.count == pass.items.count else { continue }
            confinedItems[index] = confined
            var page = open[key] ?? Page(allocator: AtlasAllocator(width: maxSide, height: maxSide))
            var allocation = page.allocator.allocate(width: width, height: height)
            if allocation == nil {
                pages.append(page)
                page = Page(allocator: AtlasAllocator(width: maxSide, height: maxSide))
                allocation = page.allocator.allocate(width: width, height: height)
            }
            guard let allocation else { continue }
            page.members.append((index, PixelRect(x: allocation.rect.minX, y: allocation.rect.minY,
                                                  width: pass.target.width, height: pass.target.height)))
            open[key] = page
        }
        pages.append(contentsOf: open.values)
        pages = pages.filter { $0.members.count > 1 }.sorted { $0.members[0].pass < $1.members[0].pass }
        guard !pages.isEmpty else { return graph }

        // The shared passes, and where each member surface went.
        var nextSurface = (passes.compactMap { $0.target.surface?.rawValue } + graph.rasterization.reused.keys.map(\.rawValue)
            + graph.targetPixelCopies.map(\.surface.rawValue)).max().map { $0 + 1 } ?? 0
        var pageOfPass: [Int: Int] = [:]
        var sharedPasses: [RenderPass] = []
        for (pageIndex, page) in pages.enumerated() {
            let width = page.members.map { $0.rect.maxX }.max()!, height = page.members.map { $0.rect.maxY }.max()!
            let shared = SurfaceID(nextSurface)
            nextSurface += 1
            var items: [DrawItem] = []
            items.reserveCapacity(page.members.reduce(0) { $0 + passes[$1.pass].items.count })
            for (passIndex, rect) in page.members {
                let pass = passes[passIndex]
                pageOfPass[passIndex] = pageIndex
                placements[pass.target.surface!] = Placement(
                    shared: shared,
                    uv: SIMD4(Float(rect.minX) / Float(width), Float(rect.minY) / Float(height),
                              Float(rect.maxX) / Float(width), Float(rect.maxY) / Float(height)),
                    rect: rect, pageWidth: width, pageHeight: height, firstItem: items.count)
                for item in confinedItems[passIndex] ?? [] {
                    items.append(Self.moved(item, from: pass.target, to: rect, inWidth: width, height: height))
                }
            }
            let first = passes[page.members[0].pass]
            sharedPasses.append(RenderPass(
                name: "packed \(page.members.count) surfaces · \(first.reason.map(String.init(describing:)) ?? "")",
                target: .offscreen(shared, width: width, height: height), clearColor: first.clearColor, items: items,
                reason: first.reason))
        }

        // Level by level, the frame's passes last; a page where its first member was.
        let frameLevel = (levels.max() ?? 0) + 1
        let order = passes.indices.sorted {
            let a = passes[$0].target.surface == nil ? frameLevel : levels[$0]
            let b = passes[$1].target.surface == nil ? frameLevel : levels[$1]
            return a != b ? a < b : $0 < $1
        }
        var result = graph
        // Uncached rasterized bitmaps share pages only with one another (the reason is in the page key).
        for (surface, placement) in placements where result.rasterization.uncached.remove(surface) != nil {
            result.rasterization.uncached.insert(placement.shared)
        }
        result.passes = []
        result.passes.reserveCapacity(passes.count - pageOfPass.count + pages.count)
        var emittedPages = Set<Int>()
        for index in order {
            if let page = pageOfPass[index] {
                if emittedPages.insert(page).inserted { result.passes.append(relabeled(sharedPasses[page], placements)) }
            } else {
                result.passes.append(relabeled(passes[index], placements))
            }
        }
        return result
    }

    /// `pass` with every item that samples a packed surface sampling its shared target instead.
    private func relabeled(_ pass: RenderPass, _ placements: [SurfaceID: Placement]) -> RenderPass {
        guard pass.items.contains(where: { item in
            guard let surface = item.texture?.surface else { return false }
            return placements[surface] != nil
        }) else { return pass }
        var pass = pass
        for index in pass.items.indices { Self.relabel(&pass.items[index], placements) }
        return pass
    }

    /// `item`, when it samples a packed surface, sampling the shared target at that surface's uv instead.
    static func relabel(_ item: inout DrawItem, _ placements: [SurfaceID: Placement]) {
        guard let texture = item.texture, let surface = texture.surface, let placement = placements[surface] else { return }
        item.texture = TextureBinding(source: .surface(placement.shared), minification: texture.minification,
                                      magnification: texture.magnification)
        let uv = item.instance.uv, sub = placement.uv
        let size = SIMD2(sub.z - sub.x, sub.w - sub.y)
        item.instance.uv = SIMD4(sub.x + uv.x * size.x, sub.y + uv.y * size.y, sub.x + uv.z * size.x, sub.y + uv.w * size.y)
    }

    /// `item`, drawn into `target`, confined to the target's pixels: itself when all it may touch lies
    /// inside them (or it touches nothing); else, where it maps to pixels by scaling and translating
    /// alone (flips and quarter turns included), with its quad cut to the target and its texture
    /// coordinates cut alike (as `OcclusionTrimmer` cuts a quad; a quad left with no area draws nothing);
    /// nil where it cannot be cut so: turned or projected, drawn in corner pieces, a stencil command, or
    /// reading a filter's source surface (whose coordinates are handed on flat).
    /// Pixels: inside the target, the same; the cut sides lie 1/64 pixel inside the target's edges.
    static func confined(_ item: DrawItem, to target: RenderTarget) -> DrawItem? {
        let (width, height) = (target.width, target.height)
        let whole = PixelRect(x: 0, y: 0, width: width, height: height)
        guard let footprint = OffscreenDecision.footprint(of: item, targetWidth: width, targetHeight: height, clippedToTarget: false),
              footprint.intersection(whole) != footprint else { return item }
        let instance = item.instance
        guard item.stencilCommand == nil, let map = AffinePixelMap(instance, targetWidth: width, targetHeight: height) else { return nil }
        // The footprint is whole pixels grown outwards: a draw made to fill its surface exactly (a filter's
        // step) reaches past it by rounding alone. What it may touch, exactly:
        let touched = map.parallelogram(OffscreenDecision.coveredRegion(of: instance)).bounds
        let slack = 1.0 / 256
        if touched.minX >= -slack, touched.minY >= -slack, touched.maxX <= Double(width) + slack, touched.maxY <= Double(height) + slack {
            return item
        }
        guard instance.flags.isDisjoint(with: [.pieceCorners, .filterKernel, .colorMatrix]) else { return nil }
        // The layer-space range along one quad axis whose pixels lie within `inset`…extent − `inset` along
        // the pixel axis it maps to. Every pixel centre of the surface lies half a pixel inside its edges,
        // so cutting 1/64 pixel inside them keeps each one, and keeps the cut quad's whole-pixel footprint
        // inside the surface whatever the rounding (so batching, which tests footprints for overlap, sees
        // members side by side on every frame, not touching on some).
        let inset = 1.0 / 64
        func range(_ low: Float, _ high: Float, step: Double, origin: Double, extent: Int) -> (Double, Double) {
            let (a, b) = ((inset - origin) / step, (Double(extent) - inset - origin) / step)
            return (max(Double(low), min(a, b)), min(Double(high), max(a, b)))
        }
        let quad = instance.quad
        let x: (Double, Double), y: (Double, Double)
        if map.xAxis.y == 0 && map.yAxis.x == 0 {
            x = range(quad.x, quad.z, step: map.xAxis.x, origin: map.origin.x, extent: width)
            y = range(quad.y, quad.w, step: map.yAxis.y, origin: map.origin.y, extent: height)
        } else if map.xAxis.x == 0 && map.yAxis.y == 0 {
            x = range(quad.x, quad.z, step: map.xAxis.y, origin: map.origin.y, extent: height)
            y = range(quad.y, quad.w, step: map.yAxis.x, origin: map.origin.x, extent: width)
        } else {
            return nil
        }
        var kept = item
        // An empty range leaves a quad of no area.
        let cut = SIMD4(Float(x.0), Float(y.0), Float(max(x.0, x.1)), Float(max(y.0, y.1)))
        kept.instance.quad = cut
        if instance.flags.contains(.textured) && !instance.flags.contains(.gradient) {
            kept.instance.uv = OcclusionTrimmer.textureCoordinates(of: cut, in: quad, uv: instance.uv)
        }
        return kept
    }

    /// `item`, drawn in the clip space of `target` (w×h pixels), redrawn in the clip space of a
    /// `width`×`height` page with the target's pixels at `rect`.
    ///
    /// Surface pixel p = (x + 1) w / 2 lands at page pixel p + rect.minX, whose page clip coordinate is
    /// 2 (p + minX) / W − 1 = (w / W) x + (w + 2 minX − W) / W; homogeneously the constant scales w.
    static func moved(_ item: DrawItem, from target: RenderTarget, to rect: PixelRect, inWidth width: Int, height: Int) -> DrawItem {
        let (w, h) = (Float(target.width), Float(target.height))
        let (pageWidth, pageHeight) = (Float(width), Float(height))
        let scale = SIMD2<Float>(w / pageWidth, h / pageHeight)
        let offset = SIMD2<Float>((w + 2 * Float(rect.minX) - pageWidth) / pageWidth, (h + 2 * Float(rect.minY) - pageHeight) / pageHeight)
        func reexpress(_ column: SIMD4<Float>) -> SIMD4<Float> {
            SIMD4(scale.x * column.x + offset.x * column.w, scale.y * column.y + offset.y * column.w, column.z, column.w)
        }
        var item = item
        let (c0, c1, c2, c3) = item.instance.localToClip
        item.instance.localToClip = (reexpress(c0), reexpress(c1), reexpress(c2), reexpress(c3))
        return item
    }
}
