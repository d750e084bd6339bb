/// Turns the graph the builder made into the graph a backend records: culled, ordered and batched draw
/// lists (DESIGN.md §4, "within a pass").
///
/// Input: a `RenderGraph` straight from `RenderGraphBuilder` (items in painter's order), the debug
/// options, and for `flashUpdates` the layers that changed this frame.
/// Output: the same passes, minus offscreen passes nothing samples any more, each with
/// - items: the builder's in painter's order, minus those culled — off-target (`TargetCuller`) and
///   hidden under later opaque items (`OcclusionCuller`) — images larger than `maxTextureSize` split
///   into tiles (`ImageTiling`), small images moved into the atlas when there is one (`ImageAtlas`),
///   and the debug views' quads (`DebugVisualization`);
/// - `drawOrder` and `batches` (`Batcher`): for the frame pass with `depthTesting` and an opaque item, opaque items first,
///   front to back, with depth writes, then the rest back to front with a depth test, every item carrying
///   its depth (item i of n at (n − i) / (n + 1), so later items are nearer);
/// - in a depth-ordered frame pass compiled in full (`FrameProducer` switches it off where the next frame
///   could patch this one), opaque draws shrunk to what nearer opaque draws leave in view, and dropped
///   where nothing is (`OcclusionTrimmer`);
/// - `culled` counts; and the graph's `statistics` (layers, quads, batches, passes) and the atlas
///   placements it samples.
/// With culling on and no debug view, the frame pass's first drawn item that is an opaque flat colour
/// covering the whole target (a root's background) becomes the pass's clear colour instead of a draw
/// (`quadsDrawnAsClear`), so it costs no fragment.
/// Stencil clip commands (`StencilClipCommand`) stay in the frame pass with `stencilClipping` and in
/// offscreen passes with `surfaceStencilClipping`; other passes lose them (their items drop to level 0,
/// clipped by their analytic clip alone). Commands are
/// never culled, nothing is batched across one (`Batcher`), and stencil-clipped items are never opaque
/// (occluders or depth-phase draws): they paint only part of their shape.
/// A culled composite of an offscreen surface takes the surface's pass (and the passes only it
/// sampled) with it, and a copy of the target's pixels nothing kept samples (`targetPixelCopies`). `disableCulling` keeps every item and draws the frame without a depth test;
/// `disableBatching` gives every item its own draw call in painter's order and leaves the atlas unused.
/// Neither changes a pixel; the views do (that is what they are for) and turn the depth test off.
/// Cost: O(n) per pass plus the culler's and batcher's costs; no GPU.
package struct DrawListCompiler: Sendable {
    package var options: DebugOptions = []
    /// Whether the frame's pass may be drawn with a depth attachment (the backend's frame target has one).
    package var depthTesting = false
    /// Whether the frame's pass may keep stencil clip commands (the backend's frame target has a stencil).
    package var stencilClipping = false
    /// Whether offscreen passes may keep stencil clip commands (the backend gives a surface a stencil when
    /// its pass has any).
    package var surfaceStencilClipping = false
    /// The largest texture side the backend samples; larger images are tiled.
    package var maxTextureSize = 16_384
    /// Whether the frame's first draw may become its clear (`drawsAsClear`): not when the frame draws
    /// over pixels it keeps (an app's image), which a clear would not touch.
    package var promotesClears = true
    /// Where small images are packed; nil: every image is a texture of its own.
    package var atlas: ImageAtlas?
    package var occlusion = OcclusionCuller()
    /// Shrinks opaque draws of the depth-ordered frame pass to what nearer ones leave in view; nil: off
    /// (`FrameProducer` keeps it for backends whose rasterizer pays for hidden fragments).
    package var trimmer: OcclusionTrimmer? = OcclusionTrimmer()
    package var batcher = Batcher()

    package init() {}

    /// The compiled graph (see the type's contract). Pass the graph with `consume` where it is not used
    /// afterwards: its draw lists are then edited in place instead of copied.
    package func compile(_ graph: consuming RenderGraph, updatedLayers: Set<LayerID> = []) -> RenderGraph {
        var unused: CompileIndex?
        return compile(graph, updatedLayers: updatedLayers, recording: &unused, recordingIndex: false)
    }

    /// The compiled graph, and in `index` what `patch` needs to update it later (nil where the graph
    /// cannot be patched: see `CompileIndex`).
    package func compile(_ graph: consuming RenderGraph, updatedLayers: Set<LayerID> = [], index: inout CompileIndex?) -> RenderGraph {
        compile(graph, updatedLayers: updatedLayers, recording: &index, recordingIndex: true)
    }

    private func compile(_ graph: consuming RenderGraph, updatedLayers: Set<LayerID>, recording compileIndex: inout CompileIndex?,
                         recordingIndex: Bool) -> RenderGraph {
        var result = consume graph
        // Only a graph compiled without debug options, its frame pass last, can be patched.
        let frameIndex = result.passes.lastIndex { if case .frame = $0.target { true } else { false } }
        compileIndex = recordingIndex && options.isEmpty && frameIndex != nil && frameIndex == result.passes.count - 1
            ? CompileIndex(result.passes[result.passes.count - 1], occlusion: occlusion) : nil
        compileIndex?.compiledPass = Array(repeating: nil, count: result.passes.count)
        compileIndex?.culledDraws = Array(repeating: [], count: result.passes.count)
        var statistics = result.statistics
        let culling = !options.contains(.disableCulling)
        let batching = !options.contains(.disableBatching)
        let views = options.intersection(DebugOptions.views)
        var batcher = self.batcher
        batcher.merge = batching
        let atlas = batching ? self.atlas : nil
        atlas?.beginFrame()

        let frameTarget = frameIndex.map { result.passes[$0].target }
        let nextSurface = (result.passes.compactMap { $0.target.surface?.rawValue }
            + result.rasterization.reused.keys.map(\.rawValue) + result.targetPixelCopies.map(\.surface.rawValue)).max().map { $0 + 1 } ?? 0
        var passes: [RenderPass?] = result.passes.map(Optional.init)
        result.passes = []
        // Why each surface's composite was culled, so the passes it takes along count the same way.
        var droppedSurfaceReason: [SurfaceID: CullReason] = [:]
        var sampled = Set<SurfaceID>()
        var visibleLayers = LayerIDSet()
        var culledLayers = LayerIDSet()
        var footprintsByPass: [[PixelRect]] = Array(repeating: [], count: passes.count)

        // Culling, last pass first: a surface is kept only if a kept later pass still samples it.
        for index in passes.indices.reversed() {
            guard var pass = passes[index] else { continue }
            if let surface = pass.target.surface, !sampled.contains(surface) {
                let reason = droppedSurfaceReason[surface] ?? .occluded
                for item in pass.items {
                    if let layer = item.layer { culledLayers.insert(layer) }
                    if let inner = item.texture?.surface { droppedSurfaceReason[inner] = reason }
                }
                switch reason {
                case .offTarget: statistics.quadsCulledOffTarget += pass.items.count
                case .occluded: statistics.quadsCulledOccluded += pass.items.count
                }
                passes[index] = nil
                continue
            }
            passes[index] = nil  // `pass` holds the only reference to its items, so edits do not copy them
            if !(index == frameIndex ? stencilClipping : surfaceStencilClipping) {
                let count = pass.items.count
                Self.removeStencilClips(from: &pass)
                if pass.items.count != count { compileIndex = nil }  // builder indices no longer line up
            }
            if pass.items.contains(where: { ImageTiling.needsTiling($0, maxTextureSize: maxTextureSize) }) {
                compileIndex = nil
                var tiled: [DrawItem] = []
                tiled.reserveCapacity(pass.items.count)
                for item in pass.items { ImageTiling.split(item, maxTextureSize: maxTextureSize, into: &tiled) }
                pass.items = tiled
            }
            let (width, height) = (pass.target.width, pass.target.height)
            let footprints = TargetCuller.footprints(of: pass.items, targetWidth: width, targetHeight: height)
            let hidden = culling ? occlusion.hiddenItems(pass.items, footprints: footprints, targetWidth: width, targetHeight: height)
                : Array(repeating: false, count: pass.items.count)
            let whole = PixelRect(x: 0, y: 0, width: max(width, 1), height: max(height, 1))
            var keptFootprints: [PixelRect] = []
            keptFootprints.reserveCapacity(pass.items.count)
            var culledIndices: [Int] = []
            // The frame's first item drawn may become its clear (see `drawsAsClear`); not a surface's, whose
            // target may be shared with other surfaces.
            var mayPromoteToClear = promotesClears && culling && views.isEmpty && index == frameIndex
            for itemIndex in pass.items.indices {
                let footprint = footprints[itemIndex]
                let isCommand = pass.items[itemIndex].stencilCommand != nil
                let reason: CullReason? = !culling || isCommand ? nil : footprint == nil ? .offTarget : hidden[itemIndex] ? .occluded : nil
                let layer = pass.items[itemIndex].layer
                let sampledSurface = pass.items[itemIndex].texture?.surface
                if reason == nil && mayPromoteToClear {
                    mayPromoteToClear = false
                    if Self.drawsAsClear(pass.items[itemIndex], width: width, height: height) {
                        // Dropped like a culled item (builder indices stay lined up), counted apart.
                        pass.clearColor = pass.items[itemIndex].instance.color
                        pass.clearPaintsLayer = layer
                        statistics.quadsDrawnAsClear += 1
                        if let layer { visibleLayers.insert(layer) }
                        culledIndices.append(itemIndex)
                        continue
                    }
                }
                if let reason {
                    if let layer { culledLayers.insert(layer) }
                    if let surface = sampledSurface { droppedSurfaceReason[surface] = reason }
                    switch reason {
                    case .offTarget: pass.culled.offTarget += 1
                    case .occluded: pass.culled.occluded += 1
                    }
                    culledIndices.append(itemIndex)
                    continue
                }
                keptFootprints.append(footprint ?? whole)
                if let layer { visibleLayers.insert(layer) }
                if let surface = sampledSurface { sampled.insert(surface) }
            }
            if index == frameIndex { compileIndex?.recordCulled(culledIndices) }
            compileIndex?.culledDraws[index] = culledIndices
            if !culledIndices.isEmpty {
                // Compacted in place: moving an item by a swap costs no retain of its texture or gradient.
                var kept = 0
                var next = 0
                for itemIndex in pass.items.indices {
                    if next < culledIndices.count && culledIndices[next] == itemIndex {
                        next += 1
                        continue
                    }
                    if kept != itemIndex { pass.items.swapAt(kept, itemIndex) }
                    kept += 1
                }
                pass.items.removeLast(pass.items.count - kept)
            }
            statistics.quadsCulledOffTarget += pass.culled.offTarget
            statistics.quadsCulledOccluded += pass.culled.occluded
            statistics.layerQuads += pass.items.count
            footprintsByPass[index] = keptFootprints
            passes[index] = pass
        }

        // A rasterized bitmap whose composite was culled is not drawn, so it does not enter the cache.
        let drawnSurfaces = Set(passes.compactMap { $0?.target.surface })
        result.rasterization.rendered = result.rasterization.rendered.filter { drawnSurfaces.contains($0.key) }
        result.rasterization.uncached = result.rasterization.uncached.filter { drawnSurfaces.contains($0) }
        // A copy of the target's pixels whose readers were all culled is not made.
        result.targetPixelCopies.removeAll { !sampled.contains($0.surface) }

        // The overdraw view counts the frame pass's fragments in a surface of its own.
        var countPass: RenderPass?
        if views.contains(.overdraw), let frameIndex, var frame = passes[frameIndex], !frame.items.isEmpty {
            let surface = SurfaceID(nextSurface)
            let (width, height) = (frame.target.width, frame.target.height)
            // The count surface has no stencil: stencil commands stay out of it.
            let drawn = frame.items.indices.filter { frame.items[$0].stencilCommand == nil }
            countPass = RenderPass(name: "overdraw count", target: .offscreen(surface, width: width, height: height), clearColor: .zero,
                                   items: drawn.map { DebugVisualization.fragmentCounter(frame.items[$0]) }, reason: .debugVisualization)
            footprintsByPass.append(drawn.map { footprintsByPass[frameIndex][$0] })
            frame.items.append(DebugVisualization.heatMapQuad(sampling: surface, width: width, height: height))
            footprintsByPass[frameIndex].append(PixelRect(x: 0, y: 0, width: width, height: height))
            passes[frameIndex] = frame
        }

        // Order, atlas and batches.
        var placements: [Int: AtlasPlacement] = [:]
        var compiled: [RenderPass] = []
        // Layers all of whose frame-pass draws the occlusion trimmer dropped.
        var trimmedAwayLayers = Set<LayerID>()
        // Why each surface exists, for the offscreen view's tints.
        var reasonOfSurface: [SurfaceID: OffscreenReason] = [:]
        if views.contains(.offscreen) {
            for case let pass? in passes {
                if let surface = pass.target.surface, let reason = pass.reason { reasonOfSurface[surface] = reason }
            }
        }
        for index in passes.indices {
            guard var pass = passes[index] else { continue }
            passes[index] = nil
            var footprints = footprintsByPass[index]
            if index == frameIndex, let count = countPass {
                var counted = count
                let plan = batcher.plan(counted.items, footprints: footprintsByPass[footprintsByPass.count - 1])
                (counted.drawOrder, counted.batches) = plan
                compiled.append(counted)
            }
            if !views.subtracting(.overdraw).isEmpty {
                (pass.items, footprints) = overlaid(pass, footprints: footprints, batcher: batcher, updatedLayers: updatedLayers,
                                                    rasterization: result.rasterization, reasonOfSurface: reasonOfSurface)
            }
            var phases: [DepthPhase]?
            // Depth-ordered only where an opaque item can hide others (or a group is resolved by depth):
            // without one, the depth test would only cost each fragment a depth read, and the frame its
            // depth-stencil clear.
            if index == frameIndex && depthTesting && culling && views.isEmpty {
                let itemPhases = pass.items.indices.map { pass.items[$0].depthGroup != nil ? DepthPhase.resolvedGroup : Self.isDepthOpaque(pass.items[$0]) ? .opaque : .translucent }
                if Self.depthOrderPays(itemPhases, footprints: footprints) { phases = itemPhases }
            }
            if phases != nil {
                pass.depthOrdered = true
                for i in pass.items.indices { pass.items[i].instance.depth = Self.depth(ofDrawAt: i, among: pass.items.count) }
                if Self.drawGroupsFrontToBack(&pass.items, footprints: &footprints, phases: &phases!) {
                    compileIndex = nil  // builder indices no longer line up
                }
            }
            if let atlas {
                // Runs of items usually show one image: look each run's placement up once.
                var last: (image: CGImage, texels: AtlasPlacement.Texels?)?
                for i in pass.items.indices {
                    // Pieces of split planes keep their own textures: their corners use the clamp slot.
                    guard !pass.items[i].instance.flags.contains(.pieceCorners),
                          let texture = pass.items[i].texture, case let .image(image) = texture.source,
                          atlas.accepts(image, minification: texture.minification, magnification: texture.magnification) else { continue }
                    if last?.image !== image {
                        let placement = atlas.placement(for: image)
                        if let placement { placements[placement.serial] = placement }
                        last = (image, placement?.texels)
                    }
                    guard let texels = last?.texels else { continue }
                    ImageAtlas.remap(&pass.items[i], to: texels)
                }
            }
            if phases != nil, let trim = trimmer?.trim(&pass.items, footprints: &footprints, phases: &phases!,
                                                      targetWidth: pass.target.width, targetHeight: pass.target.height) {
                compileIndex = nil  // builder draws no longer line up with compiled ones
                statistics.quadsTrimmed += trim.itemsTrimmed
                statistics.quadsCulledOccluded += trim.itemsHidden
                statistics.layerQuads -= trim.itemsHidden
                if !trim.hiddenLayers.isEmpty {
                    // A layer none of whose draws is left was culled, not visible.
                    let drawn = Set(pass.items.compactMap(\.layer))
                    for layer in Set(trim.hiddenLayers) where !drawn.contains(layer) { trimmedAwayLayers.insert(layer) }
                }
            }
            (pass.drawOrder, pass.batches) = batcher.plan(pass.items, footprints: footprints, phases: phases)
            if index == frameIndex { compileIndex?.recordPlan(pass.drawOrder, phases: phases) }
            compileIndex?.compiledPass[index] = compiled.count
            statistics.batches += pass.batches.count
            compiled.append(pass)
        }
        if let count = compiled.first(where: { $0.reason == .debugVisualization }) { statistics.batches += count.batches.count }

        result.passes = compiled
        result.atlasPlacements = placements.values.sorted { $0.serial < $1.serial }
        result.freedAtlasPlacements = atlas?.takeFreedPlacements() ?? []
        statistics.layersVisible = visibleLayers.count - trimmedAwayLayers.count
        statistics.layersCulled = culledLayers.elements.filter { !visibleLayers.contains($0) }.count + trimmedAwayLayers.count
        statistics.passes = compiled.count
        statistics.offscreenReasons = compiled.compactMap(\.reason)
        if let frameTarget { statistics.targetPixels = frameTarget.width * frameTarget.height }
        result.statistics = statistics
        return result
    }

    private enum CullReason { case offTarget, occluded }

    /// Whether drawing a pass of items in `phases` (painter's order, with their `footprints`) in depth
    /// order is needed or spares fragments: a group resolved by depth needs it; an opaque item hides
    /// something only when an item drawn before it lies under its footprint (tested against the bounding
    /// box of the earlier footprints, so a "yes" may be a false alarm, never a missed one). Painter's order
    /// draws the same pixels either way.
    static func depthOrderPays(_ phases: [DepthPhase], footprints: [PixelRect]) -> Bool {
        var earlier: PixelRect?
        for index in phases.indices {
            switch phases[index] {
            case .resolvedGroup: return true
            case .opaque: if let earlier, earlier.intersects(footprints[index]) { return true }
            case .translucent, .none: break
            }
            earlier = earlier.map { $0.union(footprints[index]) } ?? footprints[index]
        }
        return false
    }

    /// Drops `pass`'s stencil clip commands and puts its items at level 0 (a target without stencil).
    private static func removeStencilClips(from pass: inout RenderPass) {
        guard pass.items.contains(where: { $0.stencilCommand != nil || $0.stencilLevel != 0 }) else { return }
        pass.items.removeAll { $0.stencilCommand != nil }
        for index in pass.items.indices { pass.items[index].stencilLevel = 0 }
    }

    /// Whether `item` may be drawn in the opaque phase of a depth-ordered pass: it paints every pixel it
    /// touches either completely at alpha 1 or not at all (hard straight edges, no corners, border or
    /// clip, not a piece of a split plane), so writing its depth where it paints hides only what it covers.
    /// Reverses each run of draws of one group resolved by depth (`DrawItem.depthGroup`), with their
    /// footprints and phases, after their depths were given in painter's order: the front-most child
    /// then writes its depth first. Returns whether anything moved.
    private static func drawGroupsFrontToBack(_ items: inout [DrawItem], footprints: inout [PixelRect], phases: inout [DepthPhase]) -> Bool {
        var moved = false
        var start = 0
        while start < items.count {
            guard let group = items[start].depthGroup else {
                start += 1
                continue
            }
            var end = start + 1
            while end < items.count && items[end].depthGroup == group { end += 1 }
            if end - start > 1 {
                items[start..<end].reverse()
                footprints[start..<end].reverse()
                phases[start..<end].reverse()
                moved = true
            }
            start = end
        }
        return moved
    }

    /// Whether `item`, drawn first in a `width`×`height` pass, is an opaque flat colour covering every
    /// pixel: the pass's clear can paint it instead, at no fragment cost (WebRender promotes such a
    /// backdrop the same way). Its colour is premultiplied with alpha 1, as a clear colour is.
    static func drawsAsClear(_ item: DrawItem, width: Int, height: Int) -> Bool {
        guard isDepthOpaque(item), item.texture == nil, !item.instance.flags.contains(.gradient),
              let rect = OcclusionCuller.occluderRect(of: item, targetWidth: width, targetHeight: height) else { return false }
        return rect == PixelRect(x: 0, y: 0, width: width, height: height)
    }

    /// The depth of draw `index` of `count` in a depth-ordered pass: (n − i)/(n + 1), so later draws are
    /// nearer, all strictly inside 0…1, and 32-bit floats near 1 no finer apart than a 24-bit depth
    /// buffer resolves (for fewer than 2²⁴ draws).
    static func depth(ofDrawAt index: Int, among count: Int) -> Float {
        Float(count - index) / Float(count + 1)
    }

    package static func isDepthOpaque(_ item: DrawItem) -> Bool {
        let instance = item.instance
        return OcclusionCuller.isOpaque(item) && instance.flags.isDisjoint(with: [.antialiasEdges, .border, .clip, .pieceCorners])
            && instance.shapeRadii == .zero
    }

    /// The pass's items with the tint quads of the active views after the items they tint (see
    /// `DebugVisualization`), and their footprints.
    private func overlaid(_ pass: RenderPass, footprints: [PixelRect], batcher: Batcher, updatedLayers: Set<LayerID>,
                          rasterization: RasterizedSurfaces, reasonOfSurface: [SurfaceID: OffscreenReason]) -> ([DrawItem], [PixelRect]) {
        var batchOfItem: [Int] = []
        if options.contains(.batches) {
            let plan = batcher.plan(pass.items, footprints: footprints)
            batchOfItem = Array(repeating: 0, count: pass.items.count)
            for (batchIndex, batch) in plan.batches.enumerated() {
                for position in batch.range { batchOfItem[plan.order[position]] = batchIndex }
            }
        }
        var items: [DrawItem] = []
        var rects: [PixelRect] = []
        items.reserveCapacity(pass.items.count * 2)
        rects.reserveCapacity(pass.items.count * 2)
        for (index, item) in pass.items.enumerated() {
            items.append(item)
            rects.append(footprints[index])
            // Heat-map composites are not tinted: they are the view itself; stencil commands paint nothing.
            guard !item.instance.flags.contains(.overdrawHeatMap), item.stencilCommand == nil else { continue }
            var tints: [(SIMD3<Float>, Float)] = []
            if options.contains(.blended) {
                tints.append((OcclusionCuller.isOpaque(item) ? DebugVisualization.opaqueTint : DebugVisualization.blendedTint, 0.5))
            }
            if options.contains(.offscreen), let surface = item.texture?.surface {
                tints.append((DebugVisualization.offscreenTint(for: reasonOfSurface[surface]), 0.5))
            }
            if options.contains(.batches) {
                let palette = DebugVisualization.batchPalette
                tints.append((palette[batchOfItem[index] % palette.count], 0.5))
            }
            if options.contains(.rasterizeCache), let surface = item.texture?.surface {
                if rasterization.reused[surface] != nil {
                    tints.append((DebugVisualization.rasterizeHitTint, 0.5))
                } else if rasterization.isMiss(surface) {
                    tints.append((DebugVisualization.rasterizeMissTint, 0.5))
                }
            }
            if options.contains(.flashUpdates), let layer = item.layer, updatedLayers.contains(layer) {
                tints.append((DebugVisualization.flashTint, 0.25))
            }
            for (tint, strength) in tints {
                items.append(DebugVisualization.overlay(on: item, tint: tint, strength: strength))
                rects.append(footprints[index])
            }
        }
        return (items, rects)
    }
}
