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
/// nothing committed and nothing animating renders nothing. Finished animations that are removed on
/// completion leave the render tree here, without waiting for the model. Debug options start from
/// `LK_DEBUG`. Cost: commit O(changes); frame O(visible layers + animations).
package struct FrameProducer: Sendable {
    package private(set) var tree = RenderTree()
    package var root: LayerID?
    package var builder: RenderGraphBuilder
    package var clearColor: SIMD4<Float> = .zero
    /// Culling, ordering, batching and the debug views, applied to every graph built.
    package var compiler = DrawListCompiler()

    /// The debug views and switches in force (`DebugOptions`).
    package var debugOptions: DebugOptions {
        get { compiler.options }
        set { compiler.options = newValue }
    }

    /// Commit-apply time since the last frame, in nanoseconds.
    private var commitApplyNanoseconds: UInt64 = 0
    /// Layers committed since the last frame (kept only while `flashUpdates` is on).
    private var updatedLayers = Set<LayerID>()

    /// Animations committed but not yet reported as started; animations already reported as stopped.
    private var awaitingStart = Set<AnimationID>()
    private var stopped = Set<AnimationID>()
    /// Whether the last frame had running animations (or animations waiting to begin).
    package private(set) var isAnimating = false
    /// Whether commits arrived since the last frame.
    package private(set) var hasPendingChanges = true

    /// A producer for a backend with `capabilities` (depth-stencil target, atlas, texture and surface
    /// limits), which set the builder's and the compiler's backend-dependent switches; limits already
    /// lower on `builder` stay.
    package init(builder: RenderGraphBuilder, capabilities: BackendCapabilities = BackendCapabilities(),
                 debugOptions: DebugOptions = DebugOptions.fromEnvironment()) {
        self.builder = builder
        self.builder.maxSurfaceSize = min(builder.maxSurfaceSize, capabilities.maxSurfaceSize)
        compiler.options = debugOptions
        compiler.depthTesting = capabilities.depthStencilAttachment
        compiler.stencilClipping = capabilities.depthStencilAttachment
        compiler.maxTextureSize = min(capabilities.maxTextureSize, self.builder.maxSurfaceSize)
        compiler.atlas = capabilities.imageAtlas ? ImageAtlas() : nil
    }

    /// Applies a commit packet to the render tree.
    package mutating func apply(_ packet: CommitPacket) {
        let start = StageClock.now()
        tree.apply(packet)
        hasPendingChanges = true
        if debugOptions.contains(.flashUpdates) {
            for change in packet.changes { updatedLayers.insert(change.layer) }
        }
        commitApplyNanoseconds &+= StageClock.now() &- start
    }

    /// Replaces the tree with a snapshot (a new root).
    package mutating func reset(root: LayerID?, snapshot: CommitPacket?) {
        tree = RenderTree()
        // A new tree counts changes from zero again: bitmaps stamped by the old one cannot be trusted.
        builder.rasterizationCache.removeAll()
        if let snapshot { tree.apply(snapshot) }
        self.root = root
        hasPendingChanges = true
    }

    /// Whether a frame at this point would differ from the last one.
    package var needsFrame: Bool { hasPendingChanges || isAnimating }

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
        var state = RenderGraphBuilder.AnimationState()
        state.awaitingStart = awaitingStart
        let buildStart = StageClock.now()
        let built = builder.build(tree: tree, root: root, time: time, clearColor: clearColor, animations: &state)
        let compileStart = StageClock.now()
        var updated = Set<LayerID>()
        if debugOptions.contains(.flashUpdates) {
            updated = updatedLayers.union(state.animatedLayers)
            updatedLayers.removeAll()
        }
        let rendered = built.rasterization.rendered
        var graph = compiler.compile(consume built, updatedLayers: updated)
        // Bitmaps whose pass culling dropped were never drawn: the cache must not count on them.
        builder.rasterizationCache.forget(rendered.filter { graph.rasterization.rendered[$0.key] == nil }.map(\.value.entry))
        let compileEnd = StageClock.now()
        graph.statistics.cpuTime.commitApply = StageClock.seconds(commitApplyNanoseconds)
        graph.statistics.cpuTime.animation = StageClock.seconds(state.evaluationNanoseconds)
        graph.statistics.cpuTime.graphBuild = StageClock.seconds((compileStart &- buildStart) &- min(state.evaluationNanoseconds, compileStart &- buildStart))
        graph.statistics.cpuTime.cullAndBatch = StageClock.seconds(compileEnd &- compileStart)
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
        isAnimating = state.tilesFading || tree.hasAnimations(excludingFinished: stopped)
        return (graph, events)
    }
}
