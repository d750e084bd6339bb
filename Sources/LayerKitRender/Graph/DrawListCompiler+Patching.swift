/// Incremental compiles: updating last frame's compiled frame pass for the draws the builder replaced
/// (`RenderGraphBuilder.patch`), instead of culling, ordering and batching every draw again.
///
/// Input: the compiled graph and its `CompileIndex`, the builder's draws now, and the replaced ones
/// (index and old draw). Output: the compiled draws rewritten, with the graph updated — each
/// replacement written over its compiled draw, keeping that draw's depth — or nil when the graph must
/// be compiled in full.
/// A replacement keeps culling, order and batches valid, so it is patched, when: the old draw was kept;
/// the new one is on the target, needs no tiling and no atlas placement, and has a gradient with as many
/// stop words as the old one's, or neither has one (the backend keeps every draw's stops where they were,
/// `DrawListRevision`); neither draw is an occluder
/// and no later occluder touches the new footprint (so no draw's hidden state changes); both draws
/// have the same depth phase and batch key; and a non-opaque draw sits in a plan that kept painter's
/// order (a draw that moved between batches might no longer be free to). Statistics stay what the full
/// compile counted: the same draws of the same layers are kept. Cost: O(replaced × occluders).
extension DrawListCompiler {
    /// Patches `graph` for `replaced` and returns the compiled draws rewritten (see the extension's contract).
    package func patch(_ graph: inout RenderGraph, index: CompileIndex, items: [DrawItem],
                       replaced: [RenderGraphBuilder.ReplacedDraw]) -> [DrawListRevision.ChangedDraw]? {
        guard graph.passes.count == 1, options.isEmpty else { return nil }
        var rewritten: [DrawListRevision.ChangedDraw] = []
        rewritten.reserveCapacity(replaced.count)
        for (builderIndex, old) in replaced {
            let new = items[builderIndex]
            let compiledIndex = Int(index.compiledIndex[builderIndex])
            guard compiledIndex >= 0, !ImageTiling.needsTiling(new, maxTextureSize: maxTextureSize),
                  !placedInAtlas(old), !placedInAtlas(new), old.gradient?.stopWordCount == new.gradient?.stopWordCount,
                  let footprint = OffscreenDecision.footprint(of: new, targetWidth: index.targetWidth, targetHeight: index.targetHeight),
                  index.occluderRect(of: old) == nil, index.occluderRect(of: new) == nil
            else { return nil }
            for occluder in index.occluders where occluder.index > builderIndex && occluder.rect.intersects(footprint) {
                return nil
            }
            let phase = depthPhase(of: new, index: index)
            guard phase == depthPhase(of: old, index: index), BatchKey(new, depth: phase) == BatchKey(old, depth: phase),
                  phase == .opaque || index.translucentInPainterOrder else { return nil }
            var compiled = new
            compiled.instance.depth = graph.passes[0].items[compiledIndex].instance.depth
            graph.passes[0].items[compiledIndex] = compiled
            rewritten.append(DrawListRevision.ChangedDraw(pass: 0, item: compiledIndex))
        }
        return rewritten
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
