import LayerKit

/// The render server's work for one frame, independent of threads and GPUs: apply commits, evaluate
/// animations at the frame time, build the render graph, cull and batch its draw lists, and keep
/// animation bookkeeping.
///
/// Input: commit packets (`apply(_:)`), then `produceFrame(at:)` with the frame's absolute time.
/// Output: the frame's compiled `RenderGraph` (`DrawListCompiler`; its `statistics` hold the counts and
/// the CPU time of commit apply, animation, graph build and cull-and-batch), the animation events for the
/// main thread (started, stopped), and whether anything still animates (`isAnimating`: animations, or
/// tiles of a tiled layer fading in) — a host with
/// nothing committed and nothing animating renders nothing. Commits are addressed to the hosts whose
/// trees they touch (`CommitDistributor`); a tree may still hold layers that left it (or a producer may
/// be fed every commit, as tests do), so only packets that touch a layer of this producer's tree, and
/// animations of its own layers, ask for frames: one host's work never makes another render. Finished animations that are removed on
/// completion leave the render tree here, without waiting for the model. Debug options start from
/// `LK_DEBUG`.
/// Frames are retained (`RetainedFrame`): a frame after a retained one (no cached bitmap drawn, no group
/// settling, no tiles or 3D rendering context), with the same root, settings and tree structure, and no
/// layer of the tree nor cache entry released or lost since, redraws only the subtrees of
/// layers committed to or animating (`RenderGraphBuilder.patch`, into the frame pass and into the
/// surfaces they draw) and patches the compiled lists (`DrawListCompiler.patch` for the frame pass,
/// `recompile` for each offscreen pass whose draws changed); anything those cannot patch falls back to a
/// full build or compile. A patched frame keeps the rasterization cache's books as a full build would:
/// it begins the cache's frame (aging entries) and uses again the entries and settled groups the
/// retained frame composited (`RasterizationCache.reuse`); subtrees with cached bitmaps are never patch
/// roots, so their bitmaps are composited, not redrawn. A frame whose animated layers are already too
/// many for the next frame to patch is not kept at all (its draws would be shared, and compiling them
/// would copy them). `retainsFrames = false` builds every frame in full. Cost: commit O(changes);
/// full frame O(visible layers + animations); patched frame O(changed subtrees + animations + draws of
/// the offscreen passes they changed).
package struct FrameProducer: Sendable {
    package private(set) var tree = RenderTree()
    package var root: LayerID? {
        didSet { if root != oldValue { members = nil } }
    }
    package var builder: RenderGraphBuilder
    package var clearColor: SIMD4<Float> = .zero
    /// Culling, ordering, batching and the debug views, applied to every graph built.
    package var compiler = DrawListCompiler()
    /// Whether frames patch the last one where they can (see the type's contract); false builds every
    /// frame in full.
    package var retainsFrames = true
    /// Whether groups over opaque children are resolved by depth in the frame where the compiler
    /// depth-orders it (`RenderGraphBuilder.resolvesGroupsByDepth`); tests of the surface path turn it off.
    package var resolvesGroupsByDepth = true

    /// The last frame, when the next may patch it.
    private var retained: RetainedFrame?
    /// The last generation handed to a full build (`RetainedNodeRecord`).
    private var generation: UInt64 = 0
    /// The last lineage of compiled draw lists handed out (`DrawListRevision`).
    private var lineage: UInt64 = 0
    /// How many draws the last full build made; nil before the first.
    private var lastBuiltDraws: Int?

    /// The debug views and switches in force (`DebugOptions`).
    package var debugOptions: DebugOptions {
        get { compiler.options }
        set { compiler.options = newValue }
    }

    /// Commit-apply time since the last frame, in nanoseconds, and the packets applied.
    private var commitApplyNanoseconds: UInt64 = 0
    private var commitsApplied = 0
    /// Layers committed since the last frame (kept only while `flashUpdates` is on).
    private var updatedLayers = Set<LayerID>()

    /// Animations committed but not yet reported as started; animations already reported as stopped.
    private var awaitingStart = Set<AnimationID>()
    private var stopped = Set<AnimationID>()
    /// The layers reachable from `root` (sublayers and masks) when the last frame was built; nil until
    /// then: which packets concern this producer's tree.
    private var members: Set<LayerID>?
    /// Whether the last frame had running animations (or animations waiting to begin).
    package private(set) var isAnimating = false
    /// Whether commits arrived since the last frame.
    package private(set) var hasPendingChanges = true

    /// A producer for a backend with `capabilities` (depth-stencil target, stencil in surfaces, atlas,
    /// texture and surface limits), which set the builder's and the compiler's backend-dependent switches;
    /// limits already lower on `builder` stay.
    package init(builder: RenderGraphBuilder, capabilities: BackendCapabilities = BackendCapabilities(),
                 debugOptions: DebugOptions = DebugOptions.fromEnvironment()) {
        self.builder = builder
        self.builder.maxSurfaceSize = min(builder.maxSurfaceSize, capabilities.maxSurfaceSize)
        compiler.options = debugOptions
        compiler.maxTextureSize = min(capabilities.maxTextureSize, self.builder.maxSurfaceSize)
        adoptSwitches(of: capabilities)
    }

    /// Sets the compiler's backend-dependent switches from `capabilities`: depth and stencil, the atlas
    /// (a new one, empty), and the trimmer. The texture limit is the caller's (it only ever lowers).
    private mutating func adoptSwitches(of capabilities: BackendCapabilities) {
        compiler.depthTesting = capabilities.frameDepth
        compiler.stencilClipping = capabilities.frameStencil
        compiler.surfaceStencilClipping = capabilities.surfaceStencil
        compiler.atlas = capabilities.imageAtlas ? ImageAtlas() : nil
        compiler.trimmer = capabilities.rasterizerPaysForHiddenFragments ? OcclusionTrimmer() : nil
    }

    /// Applies a commit packet to the render tree.
    package mutating func apply(_ packet: CommitPacket) {
        let start = StageClock.now()
        tree.apply(packet)
        // Another host's layers are not ours to redraw: a packet that touches none of this tree's layers
        // asks for no frame. (A layer joins the tree only through an edit of a member's sublayers or
        // mask, which does ask for one.)
        if !hasPendingChanges {
            hasPendingChanges = members.map { members in packet.changes.contains { members.contains($0.layer) } } ?? true
        }
        if debugOptions.contains(.flashUpdates) {
            for change in packet.changes { updatedLayers.insert(change.layer) }
        }
        // A layer of the tree released (as the root can be, with no edit of a superlayer) ends the
        // retained frame: its records refer to their parents unowned (`RetainedNodeRecord.parent`).
        if !packet.released.isEmpty, members.map({ members in packet.released.contains(where: members.contains) }) ?? true {
            retained = nil
        }
        commitApplyNanoseconds &+= StageClock.now() &- start
        commitsApplied += 1
    }

    /// Replaces the tree with a snapshot (a new root).
    package mutating func reset(root: LayerID?, snapshot: CommitPacket?) {
        tree = RenderTree()
        members = nil
        // A new tree counts changes from zero again: bitmaps stamped by the old one cannot be trusted.
        builder.rasterizationCache.removeAll()
        retained = nil
        lastBuiltDraws = nil
        if let snapshot { tree.apply(snapshot) }
        self.root = root
        hasPendingChanges = true
    }

    /// The backend made a new device (the old one was lost): everything the old device held is gone —
    /// cached bitmaps, the retained frame's instance data, atlas placements — so the next frame is built
    /// and uploaded in full from the render tree, which keeps every layer as committed. The new device's
    /// limits apply from now on, and its frame target's depth and stencil (an app's render pass may offer
    /// other ones than the last target's).
    package mutating func deviceReplaced(capabilities: BackendCapabilities) {
        builder.rasterizationCache.removeAll()
        retained = nil
        compiler.maxTextureSize = min(compiler.maxTextureSize, capabilities.maxTextureSize)
        adoptSwitches(of: capabilities)
        hasPendingChanges = true
    }

    /// Forgets the bitmaps `graph` drew for the rasterization cache: its frame failed before the GPU held
    /// them, so a later frame draws them again.
    package func forgetBitmaps(drawnBy graph: RenderGraph) {
        builder.rasterizationCache.forget(graph.rasterization.rendered.values.map(\.entry))
    }

    /// Whether a frame at this point would differ from the last one.
    package var needsFrame: Bool { hasPendingChanges || isAnimating }

    /// The layers of `layers` in this producer's tree (other hosts' layers are theirs to redraw).
    private func ownLayers(of layers: Set<LayerID>) -> Set<LayerID> {
        guard let members else { return layers }
        return layers.filter(members.contains)
    }

    /// Whether a patch may take `dirty` and `animated` once they are cut to this tree's layers, as far
    /// as their counts tell: false when, even without every layer the tree holds besides its members,
    /// they are too many.
    private func mayPatch(dirty: Set<LayerID> = [], animated: Set<LayerID>, drawsLastFrame: Int) -> Bool {
        let strangers = members.map { tree.nodes.count - $0.count } ?? 0
        return RenderGraphBuilder.patchMayTake(dirty: max(dirty.count - strangers, 0), animated: max(animated.count - strangers, 0),
                                               draws: drawsLastFrame)
    }

    /// `dirty` and `animated` for a patch, as few as the patch needs; nil when they are too many to patch.
    /// The patch itself passes over layers the last frame did not draw (other hosts' among them), so the
    /// sets are cut to this tree's layers (a lookup per layer in a set of every member) only when their
    /// sizes alone would make it give up, and not even then when the tree holds too few other layers
    /// for the cut to bring them under the limit.
    private func patchCandidates(dirty: Set<LayerID>, animated: Set<LayerID>, drawsLastFrame: Int) -> (dirty: Set<LayerID>, animated: Set<LayerID>)? {
        let draws = drawsLastFrame
        if RenderGraphBuilder.patchMayTake(dirty: dirty.count, animated: animated.count, draws: draws) { return (dirty, animated) }
        guard members != nil, mayPatch(dirty: dirty, animated: animated, drawsLastFrame: draws) else { return nil }
        let own = (dirty: ownLayers(of: dirty), animated: ownLayers(of: animated))
        return RenderGraphBuilder.patchMayTake(dirty: own.dirty.count, animated: own.animated.count, draws: draws) ? own : nil
    }

    /// Begins the rasterization cache's frame before a patch (a patched frame ages and uses the cache as
    /// a full build would); false when that released entries, whose releases a full build then carries.
    private func beginCacheFrame(_ begun: inout Bool) -> Bool {
        builder.rasterizationCache.beginFrame()
        begun = true
        return !builder.rasterizationCache.hasPendingReleases
    }

    /// Compiles what `patch` changed into `frame.graph` — the frame pass's replaced draws patched, each
    /// changed offscreen pass compiled again — and returns the compiled draws rewritten; nil when the
    /// graph must be compiled in full (`frame.graph` may then be partly updated).
    private func patchCompiled(_ frame: inout RetainedFrame, _ patch: RenderGraphBuilder.Patch) -> [DrawListRevision.ChangedDraw]? {
        guard var rewritten = compiler.patch(&frame.graph, index: frame.index, items: frame.items, replaced: patch.replaced) else { return nil }
        for pass in patch.changedPasses {
            guard let recompiled = compiler.recompile(frame.offscreen[pass], builderIndex: pass, in: &frame.graph, index: frame.index)
            else { return nil }
            rewritten += recompiled
        }
        return rewritten
    }

    /// Builds the frame at absolute time `time` and the animation events it produced.
    package mutating func produceFrame(at time: Double) -> (graph: RenderGraph, events: [AnimationEvent]) {
        let target = RenderTarget.frame(width: builder.targetWidth, height: builder.targetHeight)
        guard let root else {
            hasPendingChanges = false
            isAnimating = false
            return (RenderGraph(passes: [RenderPass(name: "frame", target: target, clearColor: clearColor, items: [])]), [])
        }
        awaitingStart.formUnion(tree.newAnimations)
        tree.newAnimations.removeAll()
        // Groups are resolved by depth only where the compiler will depth-order the frame pass.
        builder.resolvesGroupsByDepth = resolvesGroupsByDepth && compiler.depthTesting
            && compiler.options.isDisjoint(with: DebugOptions.views.union(.disableCulling))
        let changes = tree.takeChanges()
        // Only an edit of one of this tree's layers can add a layer to it or take one away.
        let structureChanged = members.map { !$0.isDisjoint(with: changes.structureEdits) } ?? true
        if structureChanged { members = tree.layers(reachableFrom: root) }
        var state = RenderGraphBuilder.AnimationState()
        state.awaitingStart = awaitingStart
        let buildStart = StageClock.now()
        let settings = RetainedFrame.Settings(builder: builder, compiler: compiler, clearColor: clearColor)
        var frame = retained
        retained = nil  // the patch edits the frame's arrays in place only when nothing else holds them
        var graph: RenderGraph
        var compileStart: UInt64
        var cacheFrameBegun = false
        if retainsFrames, !structureChanged, var patching = frame.take(),
           patching.root == root, patching.settings == settings,
           beginCacheFrame(&cacheFrameBegun),
           let candidates = patchCandidates(dirty: changes.dirty, animated: tree.animatedLayers, drawsLastFrame: patching.drawCount),
           let patch = builder.patch(&patching, tree: tree, time: time, dirty: candidates.dirty,
                                     animated: candidates.animated, animations: &state),
           builder.rasterizationCache.reuse(patching.cacheUses) {
            compileStart = StageClock.now()
            if let rewritten = patchCompiled(&patching, patch) {
                patching.graph.revision?.advance(changed: rewritten)
                patching.graph.statistics.quadsRecompiled = patch.replaced.count
                    + patch.changedPasses.reduce(0) { $0 + patching.offscreen[$1].items.count }
            } else {
                var index: CompileIndex?
                let frameTarget = RenderTarget.frame(width: builder.targetWidth, height: builder.targetHeight)
                var rebuilt = patching.builderGraph(frameTarget: frameTarget, clearColor: clearColor)
                // What the build found besides draws: the cached bitmaps composited, and their counts.
                rebuilt.rasterization = patching.graph.rasterization
                rebuilt.statistics.rasterizeHits = patching.graph.statistics.rasterizeHits
                rebuilt.statistics.rasterizeMisses = patching.graph.statistics.rasterizeMisses
                patching.graph = compiler.compile(rebuilt, index: &index)
                patching.graph.statistics.quadsRecompiled = patching.offscreen.reduce(patching.items.count) { $0 + $1.items.count }
                if let index { patching.index = index }
                lineage &+= 1
                patching.graph.revision = DrawListRevision(lineage: lineage)
            }
            patching.graph.statistics.layersRecomputed = patch.layersVisited
            patching.graph.rasterization.released = builder.rasterizationCache.takeReleases()
            graph = patching.graph
            retained = patching
        } else {
            // A full build (a patch that gave up may have evaluated some animations: start again).
            state = RenderGraphBuilder.AnimationState()
            state.awaitingStart = awaitingStart
            generation &+= 1
            // Records for a later patch are written only when this frame may be kept: not when its
            // animated layers already outnumber what a patch of as many draws as the last build made may
            // take (writing them cost 6 % of a frame of 10,000 animated layers, for nothing).
            let records = retainsFrames && lastBuiltDraws.map { mayPatch(animated: tree.animatedLayers, drawsLastFrame: $0) } != false
            var slots: [SurfaceID: RetainedFrame.SurfaceSlot] = [:]
            let built = builder.build(tree: tree, root: root, time: time, clearColor: clearColor, animations: &state,
                                      generation: records ? generation : 0, surfaceSlots: &slots, cacheFrameBegun: cacheFrameBegun)
            compileStart = StageClock.now()
            var updated = Set<LayerID>()
            if debugOptions.contains(.flashUpdates) {
                updated = updatedLayers.union(state.animatedLayers)
                updatedLayers.removeAll()
            }
            // A frame that drew cached bitmaps (or surfaces for rasterized layers) is not patched: the next
            // one composites them from the cache instead. Nor is one with a group still settling.
            // Nor one whose animated layers are too many for the next frame to patch: keeping its draws
            // would only make compiling them copy them all (city: 6,000 draws, 1 ms a frame).
            let builtDraws = built.passes.reduce(0) { $0 + $1.items.count }
            lastBuiltDraws = builtDraws
            let patchable = built.rasterization.rendered.isEmpty && built.rasterization.uncached.isEmpty
                && state.cacheUses.unsettledGroups == 0 && built.passes.last.map { if case .frame = $0.target { true } else { false } } == true
                && mayPatch(animated: tree.animatedLayers, drawsLastFrame: builtDraws)
            // Known before compiling: a frame kept for patching shares the builder's draws with the compiled
            // ones, and the compiler's first edit of them then copies them all (38 MB for `particles`).
            let retainable = records && patchable && !state.drewWhatPatchesMiss
            let builderPasses = retainable ? built.passes : []
            let rendered = built.rasterization.rendered
            var index: CompileIndex?
            // Trimming hidden parts (`OcclusionTrimmer`) is for frames the next one could not patch anyway:
            // trimmed draws no longer line up with the builder's. (Decided alike whether frames are
            // retained or not, so the two draw the same lists.)
            var compiler = self.compiler
            if patchable { compiler.trimmer = nil }
            // What a later patch needs of the compiled lists is recorded only for a frame that is kept.
            graph = retainable ? compiler.compile(consume built, updatedLayers: updated, index: &index)
                : compiler.compile(consume built, updatedLayers: updated)
            // Bitmaps whose pass culling dropped were never drawn: the cache must not count on them.
            builder.rasterizationCache.forget(rendered.filter { graph.rasterization.rendered[$0.key] == nil }.map(\.value.entry))
            graph.statistics.quadsRecompiled = builtDraws
            if retainable, let index, let frame = builderPasses.last {
                lineage &+= 1
                graph.revision = DrawListRevision(lineage: lineage)
                retained = RetainedFrame(generation: generation, root: root, items: frame.items, offscreen: Array(builderPasses.dropLast()),
                                         surfaceSlots: slots, cacheUses: state.cacheUses, graph: graph, index: index, settings: settings)
            }
        }
        // Tiles fade in by the frame time (and are remembered only while drawn), and a 3D context's
        // planes are sorted and split together: patching layer by layer would miss both.
        if state.drewWhatPatchesMiss { retained = nil }
        let compileEnd = StageClock.now()
        graph.statistics.cpuTime.commitApply = StageClock.seconds(commitApplyNanoseconds)
        graph.statistics.commitsApplied = commitsApplied
        commitsApplied = 0
        graph.statistics.cpuTime.animation = StageClock.seconds(state.evaluationNanoseconds)
        graph.statistics.cpuTime.graphBuild = StageClock.seconds((compileStart &- buildStart) &- min(state.evaluationNanoseconds, compileStart &- buildStart))
        graph.statistics.cpuTime.cullAndBatch = StageClock.seconds(compileEnd &- compileStart)
        graph.statistics.cpuTime.particleSimulation = StageClock.seconds(state.particleNanoseconds)
        commitApplyNanoseconds = 0
        var events: [AnimationEvent] = []
        for id in state.running where awaitingStart.remove(id) != nil {
            events.append(.started(id))
        }
        var finishedByLayer: [LayerID: Set<AnimationID>] = [:]
        for (layer, id) in state.finished where !stopped.contains(id) {
            stopped.insert(id)
            if awaitingStart.remove(id) != nil { events.append(.started(id)) }
            events.append(.stopped(id))
            finishedByLayer[layer, default: []].insert(id)
        }
        for (layer, ids) in finishedByLayer {
            tree.removeAnimations(ids, from: layer, onlyIfRemovedOnCompletion: true)
        }
        hasPendingChanges = false
        isAnimating = state.tilesFading || state.emitting || tree.hasAnimations(excludingFinished: stopped, among: members)
        return (graph, events)
    }
}
