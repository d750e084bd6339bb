/// Incremental compiles: updating last frame's compiled graph for the draws the builder replaced
/// (`RenderGraphBuilder.patch`), instead of culling, ordering and batching every draw again.
///
/// Input: the compiled graph and its `CompileIndex`, the builder's draws now, and the replaced ones
/// (frame-pass index and old draw) or the offscreen passes whose draws changed. Output: the compiled
/// draws rewritten, with the graph updated, or nil when the graph must be compiled in full.
/// Frame pass (`patch`): each replacement is written over its compiled draw, keeping that draw's depth.
/// A replacement keeps culling, order and batches valid, so it is patched, when: the old draw was kept;
/// the new one is on the target, needs no tiling and no atlas placement, and has a gradient with as many
/// stop words as the old one's, or neither has one (the backend keeps every draw's stops where they were,
/// `DrawListRevision`); neither draw is an occluder
/// and no later occluder touches the new footprint (so no draw's hidden state changes); both draws
/// have the same depth phase, batch key and material; and a non-opaque draw sits in a plan that kept painter's
/// order (a draw that moved between batches might no longer be free to).
/// Offscreen pass (`recompile`): culled, ordered and batched again on its own, in its place — when it
/// has no stencil clip, tiling or atlas draw, culls exactly the draws it culled before (so every count
/// and every surface sampled stays), and its gradients' stops take as many words as before; a pass
/// nothing samples stays dropped. Its draw count stays,
/// so the backend's slots of the other passes do too.
/// Statistics stay what the full compile counted (the same draws of the same layers are kept), but for
/// the batches of a pass compiled again. Cost: O(replaced × occluders) plus the culler's and batcher's
/// costs for each pass compiled again.
extension DrawListCompiler {
    /// Patches `graph` for `replaced` and returns the compiled draws rewritten (see the extension's contract).
    package func patch(_ graph: inout RenderGraph, index: CompileIndex, items: [DrawItem],
                       replaced: [RenderGraphBuilder.ReplacedDraw]) -> [DrawListRevision.ChangedDraw]? {
        guard let framePass = index.compiledPass.last ?? nil, framePass == graph.passes.count - 1, options.isEmpty else { return nil }
        let depthOrdered = graph.passes[framePass].depthOrdered, compiledCount = graph.passes[framePass].items.count
        // Every draw is read where it lies (the builder's, the replaced one) and written once into its
        // place: copying draws about (384 bytes each, their references retained) was most of the cost.
        return items.withUnsafeBufferPointer { items in
            replaced.withUnsafeBufferPointer { replaced in
                graph.passes[framePass].items.withUnsafeMutableBufferPointer { compiled in
                    patch(compiled, depthOrdered: depthOrdered, compiledCount: compiledCount, framePass: framePass, index: index,
                          items: items, replaced: replaced)
                }
            }
        }
    }

    /// `patch(_:index:items:replaced:)` over the frame pass's compiled draws.
    private func patch(_ compiled: UnsafeMutableBufferPointer<DrawItem>, depthOrdered: Bool, compiledCount: Int, framePass: Int,
                       index: CompileIndex, items: UnsafeBufferPointer<DrawItem>,
                       replaced: UnsafeBufferPointer<RenderGraphBuilder.ReplacedDraw>) -> [DrawListRevision.ChangedDraw]? {
        guard let builderDraws = items.baseAddress, let replacements = replaced.baseAddress else { return [] }
        var rewritten: [DrawListRevision.ChangedDraw] = []
        rewritten.reserveCapacity(replaced.count)
        for position in replaced.indices {
            // The compiled draw a few replacements ahead, to be overwritten, is fetched meanwhile: the
            // replaced draws lie scattered over a long compiled list.
            if position + RenderGraphBuilder.patchFetchDistance < replaced.count {
                let ahead = Int(index.compiledIndex[replaced[position + RenderGraphBuilder.patchFetchDistance].index])
                if ahead >= 0 { DrawItem.prefetchForWrite(compiled, at: ahead) }
            }
            let builderIndex = replacements[position].index
            let new = builderDraws + builderIndex
            // (A stored property of a struct, so its pointer always exists.)
            let old = (replacements + position).pointer(to: \.old)!
            let compiledIndex = Int(index.compiledIndex[builderIndex])
            guard compiledIndex >= 0, !ImageTiling.needsTiling(new.pointee, maxTextureSize: maxTextureSize),
                  !placedInAtlas(old.pointee), !placedInAtlas(new.pointee),
                  old.pointee.gradient?.stopWordCount == new.pointee.gradient?.stopWordCount,
                  let footprint = OffscreenDecision.footprint(of: new.pointee.instance, targetWidth: index.targetWidth,
                                                              targetHeight: index.targetHeight),
                  index.occluderRect(at: old) == nil, index.occluderRect(at: new) == nil
            else { return nil }
            for occluder in index.occluders where occluder.index > builderIndex && occluder.rect.intersects(footprint) {
                return nil
            }
            // A painter-ordered pass stays so (an opaque draw is drawn right in painter's order too; depth
            // order only spares fragments, `depthOrderPays`); a draw of a group resolved by depth needs a
            // full compile (its group is drawn front to back).
            guard new.pointee.depthGroup == nil, old.pointee.depthGroup == nil else { return nil }
            let phase = depthPhase(of: new.pointee, index: index)
            guard phase == depthPhase(of: old.pointee, index: index), BatchKey.drawsShareKey(old, new),
                  Material(at: new) == Material(at: old),  // the batch's material, the join, still covers it
                  phase == .opaque || index.translucentInPainterOrder else { return nil }
            compiled[compiledIndex] = new.pointee
            // The depth the compile gave this place, worked out rather than read from the draw replaced: that
            // lies far off in a long list, and reading it waited on memory for each draw (big: 1,000 of
            // 100,000). Builder draws have depth 0, as a pass drawn without a depth test keeps them.
            if depthOrdered {
                compiled[compiledIndex].instance.depth = Self.depth(ofDrawAt: compiledIndex, among: compiledCount)
            }
            rewritten.append(DrawListRevision.ChangedDraw(pass: framePass, item: compiledIndex))
        }
        return rewritten
    }

    /// Compiles the builder's offscreen pass `builderIndex` (`pass`, its draws rewritten by a patch) again
    /// into its place in `graph`, and returns its compiled draws (all rewritten: the order may have
    /// changed); nil when the graph must be compiled in full (see the extension's contract).
    package func recompile(_ pass: RenderPass, builderIndex: Int, in graph: inout RenderGraph,
                           index: CompileIndex) -> [DrawListRevision.ChangedDraw]? {
        guard options.isEmpty, builderIndex < index.compiledPass.count else { return nil }
        // Nothing samples the surface: the pass is not drawn, whatever it holds.
        guard let compiledIndex = index.compiledPass[builderIndex] else { return [] }
        guard pass.target.surface != nil, !pass.items.contains(where: { item in
            item.stencilCommand != nil || item.stencilLevel != 0 || placedInAtlas(item)
                || ImageTiling.needsTiling(item, maxTextureSize: maxTextureSize)
        }) else { return nil }
        let (width, height) = (pass.target.width, pass.target.height)
        let culling = !options.contains(.disableCulling)
        let footprints = TargetCuller.footprints(of: pass.items, targetWidth: width, targetHeight: height)
        let hidden = culling ? occlusion.hiddenItems(pass.items, footprints: footprints, targetWidth: width, targetHeight: height)
            : Array(repeating: false, count: pass.items.count)
        let culled = culling ? pass.items.indices.filter { footprints[$0] == nil || hidden[$0] } : []
        // The same draws culled keep every count (layers visible, quads, culled) and every sampled surface.
        guard culled == index.culledDraws[builderIndex] else { return nil }
        let whole = PixelRect(x: 0, y: 0, width: max(width, 1), height: max(height, 1))
        var compiled = graph.passes[compiledIndex]
        let culledSet = Set(culled)
        let stopWordsBefore = compiled.items.reduce(0) { $0 + ($1.gradient?.stopWordCount ?? 0) }
        compiled.items = pass.items.indices.filter { !culledSet.contains($0) }.map { pass.items[$0] }
        // The backend keeps the other passes' stops where they were: the pass's stops must take as many words.
        guard compiled.items.reduce(0, { $0 + ($1.gradient?.stopWordCount ?? 0) }) == stopWordsBefore else { return nil }
        let kept = pass.items.indices.filter { !culledSet.contains($0) }.map { footprints[$0] ?? whole }
        let batchesBefore = compiled.batches.count
        var batcher = self.batcher
        batcher.merge = !options.contains(.disableBatching)
        (compiled.drawOrder, compiled.batches) = batcher.plan(compiled.items, footprints: kept, phases: nil)
        graph.statistics.batches += compiled.batches.count - batchesBefore
        graph.passes[compiledIndex] = compiled
        return compiled.items.indices.map { DrawListRevision.ChangedDraw(pass: compiledIndex, item: $0) }
    }

    private func depthPhase(of item: DrawItem, index: CompileIndex) -> DepthPhase {
        index.depthOrdered ? (Self.isDepthOpaque(item) ? .opaque : .translucent) : .none
    }

    /// Whether a full compile would move `item` into the atlas.
    private func placedInAtlas(_ item: DrawItem) -> Bool {
        guard let atlas, let texture = item.texture, case let .image(image) = texture.source else { return false }
        return atlas.accepts(image, minification: texture.minification, magnification: texture.magnification)
    }
}
