import LayerKit

/// Incremental frames: redrawing only the subtrees that changed since the last retained frame.
///
/// Input: the last frame's builder draws (`RetainedFrame.items` of the frame pass and `offscreen`, its
/// packed offscreen passes, built by `build` with a generation, so every visited node holds a
/// `RetainedNodeRecord` and every surface a `RetainedFrame.SurfaceSlot`), the render tree now, the frame
/// time, and the layers that may look different — those committed to since (`dirty`), and those with
/// animations (`animated`, some or all of the tree's `animatedLayers`).
/// Output: the draws patched in place — the frame pass's replaced ones with their old draws (for
/// `DrawListCompiler.patch`) and the offscreen passes whose draws changed (for
/// `DrawListCompiler.recompile`) — or nil when the frame must be built in full instead.
/// Algorithm: each dirty layer that the last frame drew climbs to its nearest patchable node (itself,
/// unless it is drawn inside an isolated ancestor's surface or fold — then the isolated layer at the
/// frame pass — or its subtree draws a cached bitmap or asks the group cache); patch roots inside
/// another root's subtree are dropped. Each root is presented at its parent's local time (recomputed
/// along its ancestors, whose timing did not change) and drawn by the same `visit` as a full build, from
/// the inputs its record holds — a clean ancestor's transform, opacity and clip are what they were —
/// opening its surfaces under the numbers they had. Its new draws replace its range when they are as
/// many and belong to the same layers in the same order, its `zPosition` is unchanged (sibling order),
/// its stencil clip commands are the old ones and its levels the old ones less the same count
/// throughout (a subtree is drawn at level 0 and raised once per enclosing stencil bracket afterwards, so
/// the new draws get that raise), and it opened the surfaces it had, each with the same size, reason,
/// draw count and packability — so packing places every surface where it was, and each surface's new
/// draws (moved onto its page) are written over its old ones; otherwise nil. A change that alters a
/// surface's footprint, or whether a group needs a surface at all, is thus built in full. Nil too when
/// the changed layers exceed a quarter of the last frame's draws (`patchRootsPerDrawLimit`): then most
/// of the frame changes, and a full walk redraws it for less than patching it piece by piece.
/// Layers not drawn last frame (under a hidden or transparent ancestor) stay undrawn, as a full build
/// would leave them. Cost: O(dirty layers × depth + nodes and draws in the patched subtrees), plus
/// O(surfaces) once when a root opens surfaces.
extension RenderGraphBuilder {
    /// A patch gives up for a full build beyond one root per this many of the last frame's draws.
    static let patchRootsPerDrawLimit = 4

    /// Whether a patch may redraw `dirty` committed and `animated` layers of a frame of `draws` draws:
    /// as roots, they are at most one per `patchRootsPerDrawLimit` draws.
    package static func patchMayTake(dirty: Int, animated: Int, draws: Int) -> Bool {
        let rootLimit = draws / patchRootsPerDrawLimit
        return dirty <= rootLimit && animated <= rootLimit - dirty
    }

    /// A draw the patch replaced: its index in the frame pass and what it was.
    package struct ReplacedDraw {
        package var index: Int
        package var old: DrawItem
    }

    /// What a patch changed: the frame-pass draws it replaced, the offscreen passes (indices into
    /// `RetainedFrame.offscreen`, ascending) whose draws it rewrote, and the layers it redrew.
    package struct Patch {
        package var replaced: [ReplacedDraw] = []
        package var changedPasses: [Int] = []
        package var layersVisited = 0
    }

    /// Redraws the subtrees of `dirty` and `animated` layers in `frame` (see the extension's contract). Nil: build the frame in full
    /// (`frame` and the records may then be partly updated; the full build replaces both).
    package func patch(_ frame: inout RetainedFrame, tree: RenderTree, time: Double, dirty: Set<LayerID>,
                       animated: Set<LayerID>, animations: inout AnimationState) -> Patch? {
        let generation = frame.generation
        // Patching a subtree costs more than drawing it in a full walk (records, comparisons): when the
        // roots are a large share of last frame's draws, the full build is the cheaper frame. Every
        // changed layer might be a root of its own: give up at once when they alone are too many.
        guard Self.patchMayTake(dirty: dirty.count, animated: animated.count, draws: frame.drawCount) else { return nil }
        frame.patchSerial &+= 1
        let serial = frame.patchSerial
        // The changed layers' nodes, listed first (unretained: the tree holds them) and their records read a
        // few places behind, each node fetched ahead (`RenderNode.prefetch`): in a big tree the nodes lie
        // scattered far beyond the caches, and reading each record as it was looked up waited on memory
        // once per changed layer. The animated layers' nodes are listed once per change of which layers
        // animate (`RetainedFrame.animatedNodes`): a lookup retains the node, which waited for it too.
        assert(animated.isSubset(of: tree.animatedLayers), "a patch is asked about animated layers only")
        var changed: [Unmanaged<RenderNode>] = []
        changed.reserveCapacity(dirty.count + animated.count)
        func lookUp(_ layers: Set<LayerID>) {
            for layer in layers {
                if let node = tree[layer] { changed.append(.passUnretained(node)) }
            }
        }
        lookUp(dirty)
        // `animated` is all of the tree's animated layers when it is as many (it is never more).
        if animated.count == tree.animatedLayers.count {
            if frame.animatedNodes?.revision != tree.animatedLayersRevision {
                frame.animatedNodes = (tree.animatedLayersRevision, animated.compactMap { tree[$0] })
            }
            frame.animatedNodes?.nodes.withUnsafeBufferPointer { nodes in
                nodes.withMemoryRebound(to: Unmanaged<RenderNode>.self) { changed.append(contentsOf: $0) }
            }
        } else {
            lookUp(animated)
        }
        // Patch roots, with where their draws start (sorting on a copy of the key, not the record). Held
        // unretained, as `changed` is: the tree holds them.
        var roots: [(start: Int, node: Unmanaged<RenderNode>)] = []
        for position in changed.indices {
            if position + Self.patchFetchDistance < changed.count {
                RenderNode.prefetch(changed[position + Self.patchFetchDistance], withRecord: true)
            }
            var node = changed[position].takeUnretainedValue()
            guard node.retained.generation == generation else { continue }
            while !node.retained.patchable {
                guard let up = node.retained.parent, up.retained.generation == generation else { return nil }
                node = up
            }
            if node.retained.patchSerial != serial {
                node.retained.patchSerial = serial
                roots.append((node.retained.items.lowerBound, .passUnretained(node)))
            }
        }
        if roots.count > 1 {
            // A root inside another root's subtree is redrawn by that one.
            roots.removeAll { root in
                var ancestor = root.node._withUnsafeGuaranteedRef { $0.retained.parentReference }
                while let node = ancestor {
                    if node._withUnsafeGuaranteedRef({ $0.retained.patchSerial == serial }) { return true }
                    ancestor = node._withUnsafeGuaranteedRef { $0.retained.parentReference }
                }
                return false
            }
            roots.sort { $0.start < $1.start }
        }

        var patch = Patch()
        var changedPasses = Set<Int>()
        var scratch: [DrawItem] = []
        var context = VisitContext(tree: tree, animations: animations, time: time, placements: presentedPlacements)
        context.generation = generation
        context.isPatching = true
        context.groupsResolveByDepth = resolvesGroupsByDepth
        // Where packed surfaces went, for draws that sample them (looked up once, when a root has surfaces).
        var placements: [SurfaceID: SurfacePacker.Placement]?
        for (position, (start, node)) in roots.enumerated() {
            // The root a few places ahead, its presentation copy and its old draws are fetched meanwhile.
            if position + Self.patchFetchDistance < roots.count {
                let ahead = roots[position + Self.patchFetchDistance]
                ahead.node._withUnsafeGuaranteedRef { $0.prefetchForPresenting() }
                RenderNode.prefetch(ahead.node, withRecord: true)
                if ahead.start < frame.items.count { frame.items.withUnsafeBufferPointer { DrawItem.prefetch($0, at: ahead.start) } }
            }
            let node = node.takeUnretainedValue()
            let (presentedNode, localTime) = presented(node, parentTime: localTime(of: node.retained.parentReference, time: time),
                                                       context: &context)
            // The record is read where it lies, not copied out whole (two hundred bytes per root); the
            // visit writes it anew, so what the redraw is checked against is kept first.
            let (oldItems, oldSurfaces) = (node.retained.items, node.retained.surfaces)
            guard presentedNode.zPosition == node.retained.zPosition else { return nil }
            scratch.removeAll(keepingCapacity: true)
            context.itemBase = start
            // The subtree opens its surfaces again under the numbers it had.
            context.offscreen = OffscreenPasses()
            context.offscreen.nextSurface = oldSurfaces.lowerBound
            visitRecorded(node, presented: presentedNode, localTime: localTime, parent: node.retained.parent,
                          parentSpace: node.retained.parentSpace, opacity: node.retained.opacity, clip: node.retained.clip,
                          contentsFlipped: node.retained.contentsFlipped, context: &context, into: &scratch)
            node.retained.patchSerial = serial
            guard context.rasterization.isEmpty, context.pageSurfaces.isEmpty, context.cacheQuestions == 0,
                  scratch.count == oldItems.count, context.offscreen.nextSurface == oldSurfaces.upperBound,
                  context.offscreen.passes.count == oldSurfaces.count else { return nil }
            if !oldSurfaces.isEmpty && placements == nil { placements = frame.surfaceSlots.compactMapValues(\.placement) }
            // Each surface keeps its size, reason, draw count and packing, so the packed pages and the
            // passes stay as they were: its draws are written over its old ones (moved onto its page).
            for pass in context.offscreen.passes {
                guard let surface = pass.target.surface, let slot = frame.surfaceSlots[surface], slot.target == pass.target,
                      slot.reason == pass.reason, slot.itemCount == pass.items.count,
                      slot.packable == context.offscreen.packable.contains(surface) else { return nil }
                let first = slot.placement?.firstItem ?? 0
                for (offset, drawn) in pass.items.enumerated() {
                    var item = drawn
                    if let placement = slot.placement {
                        // Confined to its surface as packing confined it; one that cannot be now is built in full.
                        guard let confined = SurfacePacker.confined(item, to: pass.target) else { return nil }
                        item = SurfacePacker.moved(confined, from: pass.target, to: placement.rect, inWidth: placement.pageWidth,
                                                   height: placement.pageHeight)
                    }
                    if let placements { SurfacePacker.relabel(&item, placements) }
                    if frame.offscreen[slot.pass].items[first + offset] != item {
                        frame.offscreen[slot.pass].items[first + offset] = item
                        changedPasses.insert(slot.pass)
                    }
                }
            }
            // Enclosing stencil brackets raise every level of the subtree by one each after it is drawn:
            // the old draws must sit the same number of levels above the new ones throughout.
            // (Draws are large: each is adjusted where it lies and swapped in, not copied about.)
            var raise: UInt8?
            for offset in scratch.indices {
                let index = start + offset
                let oldLevel = frame.items[index].stencilLevel, newLevel = scratch[offset].stencilLevel
                guard frame.items[index].layer == scratch[offset].layer, frame.items[index].stencilCommand == scratch[offset].stencilCommand,
                      oldLevel >= newLevel else { return nil }
                let levels = oldLevel - newLevel
                guard raise == nil || raise == levels else { return nil }
                raise = levels
                scratch[offset].stencilLevel = oldLevel
                if let placements { SurfacePacker.relabel(&scratch[offset], placements) }
                if frame.items[index] != scratch[offset] {
                    swap(&frame.items[index], &scratch[offset])
                    patch.replaced.append(ReplacedDraw(index: index, old: scratch[offset]))
                }
            }
        }
        animations = context.animations
        patch.changedPasses = changedPasses.sorted()
        patch.layersVisited = context.layersVisited
        return patch
    }

    /// How many places ahead a patch fetches the nodes and draws it will read (here and in
    /// `DrawListCompiler.patch`), so that several fetches are under way while one is used.
    static let patchFetchDistance = 8

    /// The local time of `node` at absolute time `time`: its ancestors' timings applied from the root
    /// down (`time` itself for nil, the root's superlayer). Climbs without retaining (`RetainedNodeRecord.parentReference`).
    private func localTime(of node: Unmanaged<RenderNode>?, time: Double) -> Double {
        guard let node else { return time }
        return node._withUnsafeGuaranteedRef { node in
            node.localTime(fromParentTime: localTime(of: node.retained.parentReference, time: time))
        }
    }
}
