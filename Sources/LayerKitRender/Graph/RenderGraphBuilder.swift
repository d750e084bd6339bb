import CPrefetch
import LayerKit

/// Turns the render tree into a render graph.
///
/// Input: the render tree, the root layer, the target's size in pixels, and the viewport (the region of
/// the root's superlayer space shown, in points, and the pixels per point).
/// Output: a `RenderGraph` whose last pass draws every visible layer into the frame back to front: for
/// each layer its background, its contents (up to nine pieces), its sublayers ordered by `zPosition`,
/// then its border. Layers with a `mask`, and groups whose opacity cannot be folded, are drawn into
/// offscreen surfaces by earlier passes (`RenderGraphBuilder+Offscreen.swift`).
///
/// Each layer flattens its sublayers into its own plane, except a `CATransformLayer`, whose sublayers
/// join a 3D rendering context drawn depth-sorted (`RenderGraphBuilder+RenderingContext3D.swift`); so a
/// layer's map to the target is a plane homography built top-down: `world(child) = flatten(placement(child) ·
/// sublayerSpace(parent)) · world(parent)`. `masksToBounds` becomes an analytic rounded-rect clip that
/// the layer's contents and sublayers carry (the intersection when nested clips make a rounded rect, else
/// the one that lies inside the other). When a rotated or projected clip nests in another and neither
/// contains the other, the inner clip stays analytic and the outer one is drawn into the stencil around
/// the layer's contents and sublayers (`StencilClipCommand`). Opacity is group opacity
/// (`allowsGroupOpacity`, folded into the draws wherever that is exact) or, without it, multiplies down
/// the tree. Contents under an odd
/// number of `isGeometryFlipped` superlayers are laid out mirrored within the bounds (Core Animation's
/// `contentsAreFlipped()`), so the image stays upright on screen and `.top` shows at the visual top.
/// Skipped: hidden or fully transparent subtrees, layers facing away with `isDoubleSided == false`,
/// subtrees under a singular or non-finite transform; a layer with an empty or negative size draws
/// nothing of its own but still draws its sublayers. Cost: O(visible layers).
package struct RenderGraphBuilder {
    package var targetWidth: Int
    package var targetHeight: Int
    /// The region of the root's superlayer space shown in the target, in points.
    package var viewport: CGRect
    /// Target pixels per point.
    package var scale: CGFloat
    /// The largest offscreen surface side, in pixels (the device's image size limit); surfaces are also
    /// never larger than the target.
    package var maxSurfaceSize = 16_384
    /// Rasterizes shape layers' paths, caching the images across frames (render thread only).
    package var shapeRasterizer = ShapeRasterizer()
    /// When tiled layers' tiles first appeared, for their fade-in (render thread only).
    package var tileFades = TileFades()
    /// Emitters' particle records, kept across frames (render thread only).
    package var particleCache = EmitterParticleCache()
    /// Which `shouldRasterize` bitmaps the backend holds, across frames (render thread only).
    package var rasterizationCache = RasterizationCache()
    /// Whether offscreen surfaces that need no ordering between them share targets (`SurfacePacker`).
    package var packsSurfaces = true
    /// Whether group-opacity surfaces whose subtree stays the same are cached across frames
    /// (`RasterizationCache+Groups.swift`).
    package var cachesGroups = true
    /// Whether plain leaves are drawn from the draws worked out when their content last changed
    /// (`RenderGraphBuilder+PlainLeaves.swift`); false walks every layer through `visit` (tests compare
    /// the two).
    package var drawsPlainLeavesFromPlans = true
    /// Whether a group over opaque children may be drawn straight into the frame and resolved by the
    /// depth test instead of a surface (`DrawItem.depthGroup`): only when the compiler depth-orders the
    /// frame pass (`FrameProducer` keeps it so).
    package var resolvesGroupsByDepth = false
    /// The placements of leaves presented by value (render thread only): one stack, reused by every frame.
    let presentedPlacements = PresentedPlacements()
    /// What the frame's target holds before the first draw: background filters' backdrops start from the
    /// target's kept pixels where they can be copied (`RenderGraphBuilder+Backdrop.swift`).
    package var targetContents = TargetContents.cleared

    package init(targetWidth: Int, targetHeight: Int, viewport: CGRect, scale: CGFloat) {
        self.targetWidth = targetWidth
        self.targetHeight = targetHeight
        self.viewport = viewport
        self.scale = scale
    }

    /// What building a frame found out about animations, for the render server's bookkeeping.
    package struct AnimationState: Sendable {
        /// Input: animations not yet reported as started; only these are listed in `running`.
        package var awaitingStart = Set<AnimationID>()
        /// Animations of `awaitingStart` running at the frame's time (begun, not finished).
        package var running: [AnimationID] = []
        /// Animations past their active duration, with the layer they are on.
        package var finished: [(layer: LayerID, animation: AnimationID)] = []
        /// Layers whose animations were evaluated (they may look different from the last frame).
        package var animatedLayers: [LayerID] = []
        /// Time spent evaluating animations, in nanoseconds (statistics: the animation stage).
        package var evaluationNanoseconds: UInt64 = 0
        /// Time spent working out emitters' particles, in nanoseconds (part of the graph build stage).
        package var particleNanoseconds: UInt64 = 0
        /// Whether a tiled layer's tile is still fading in (the next frame will look different).
        package var tilesFading = false
        /// Whether the frame drew a 3D rendering context (its planes are sorted and split together, not
        /// drawn layer by layer: such a frame is not retained, `RetainedFrame`).
        package var drewRenderingContext3D = false
        /// Whether the frame drew a tiled layer's tiles (whose fade-in follows the frame time, not
        /// commits: such a frame is not retained, `RetainedFrame`).
        package var drewTiledContents = false
        /// Whether the frame drew an emitter's particles (they move with the frame time alone: the next
        /// frame differs, and such a frame is not retained).
        package var emitting = false
        /// Whether the frame drew a background filter's backdrop (a copy of what other subtrees drew: such
        /// a frame is not retained, `RetainedFrame`).
        package var drewBackdrop = false
        /// Whether a layer drew a shadow blurred for another layer (a surface of another subtree: such a
        /// frame is not retained, `RetainedFrame`).
        package var sharedEffectSurfaces = false
        /// Whether the frame drew something a patch of it would miss (the five above): it is not retained.
        package var drewWhatPatchesMiss: Bool {
            drewTiledContents || drewRenderingContext3D || drewBackdrop || sharedEffectSurfaces || emitting
        }
        /// What the frame asked of the rasterization cache (a frame patched from it asks the same again,
        /// `RetainedFrame`).
        package var cacheUses = RasterizationCache.Uses()
        package init() {}
    }

    /// The graph for one frame at absolute time `time` (animations evaluated at it).
    package func build(tree: RenderTree, root: LayerID, time: Double = 0, clearColor: SIMD4<Float> = .zero) -> RenderGraph {
        var state = AnimationState()
        return build(tree: tree, root: root, time: time, clearColor: clearColor, animations: &state)
    }

    /// The graph for one frame at absolute time `time`, reporting animation progress into `animations`.
    /// With a nonzero `generation`, every node visited records what it derived (`RetainedNodeRecord`)
    /// under that generation, so `patch(_:tree:time:dirty:animations:)` can redraw parts of this frame.
    package func build(tree: RenderTree, root: LayerID, time: Double, clearColor: SIMD4<Float>,
                       animations: inout AnimationState, generation: UInt64 = 0) -> RenderGraph {
        var slots: [SurfaceID: RetainedFrame.SurfaceSlot] = [:]
        return build(tree: tree, root: root, time: time, clearColor: clearColor, animations: &animations, generation: generation,
                     surfaceSlots: &slots)
    }

    /// As `build(tree:root:time:clearColor:animations:generation:)`; with a nonzero `generation`, also
    /// where each surface's pass went in the graph (`RetainedFrame.SurfaceSlot`).
    /// With `cacheFrameBegun`, the caller has begun the rasterization cache's frame already.
    package func build(tree: RenderTree, root: LayerID, time: Double, clearColor: SIMD4<Float>,
                       animations: inout AnimationState, generation: UInt64,
                       surfaceSlots: inout [SurfaceID: RetainedFrame.SurfaceSlot], cacheFrameBegun: Bool = false) -> RenderGraph {
        var items: [DrawItem] = []
        items.reserveCapacity(tree.nodes.count)
        var offscreen = OffscreenPasses()
        var rasterization = RasterizedSurfaces()
        var pageSurfaces: [Int: SurfaceID] = [:]
        if !cacheFrameBegun { rasterizationCache.beginFrame() }
        var layersVisited = 0
        var planes = (sorted: 0, split: 0)
        var counts = (replicated: 0, particles: 0)
        if let rootNode = tree[root] {
            tileFades.beginFrame()
            particleCache.beginFrame()
            var context = VisitContext(tree: tree, animations: animations, time: time, placements: presentedPlacements)
            context.generation = generation
            context.groupsResolveByDepth = resolvesGroupsByDepth
            let (presentedRoot, rootTime) = presented(rootNode, parentTime: time, context: &context)
            visitRecorded(rootNode, presented: presentedRoot, localTime: rootTime, parent: nil, parentSpace: rootToPixels, opacity: 1,
                          clip: nil, contentsFlipped: false, context: &context, into: &items)
            animations = context.animations
            offscreen = context.offscreen
            rasterization = context.rasterization
            layersVisited = context.layersVisited
            pageSurfaces = context.pageSurfaces
            planes = (context.planesSorted, context.planesSplit)
            counts = (context.replicatedInstances, context.particlesDrawn)
            animations.cacheUses = context.cacheUses
        }
        let pass = RenderPass(name: "frame", target: .frame(width: targetWidth, height: targetHeight), clearColor: clearColor, items: items)
        var graph = RenderGraph(passes: offscreen.passes + [pass])
        graph.targetPixelCopies = offscreen.targetPixelCopies
        graph.backdropsWithoutTargetPixels = offscreen.backdropsWithoutTargetPixels
        finishPages(pageSurfaces, passes: &graph.passes, rasterization: &rasterization)
        graph.statistics.layersRecomputed = layersVisited
        graph.statistics.planesSorted = planes.sorted
        graph.statistics.planesSplit = planes.split
        graph.statistics.replicatedInstances = counts.replicated
        graph.statistics.particlesDrawn = counts.particles
        rasterization.released = rasterizationCache.takeReleases()
        graph.rasterization = rasterization
        graph.statistics.rasterizeHits = rasterization.hits
        graph.statistics.rasterizeMisses = rasterization.misses
        var placements: [SurfaceID: SurfacePacker.Placement] = [:]
        if packsSurfaces {
            let packer = SurfacePacker(maxSide: min(maxSurfaceSize, SurfacePacker.defaultPageSide))
            graph = packer.pack(graph, packable: offscreen.packable, placements: &placements)
        }
        if generation != 0 {
            var passOfSurface: [SurfaceID: Int] = [:]
            for (index, pass) in graph.passes.enumerated() {
                if let surface = pass.target.surface { passOfSurface[surface] = index }
            }
            for pass in offscreen.passes {
                guard let surface = pass.target.surface else { continue }
                let placement = placements[surface]
                guard let index = passOfSurface[placement?.shared ?? surface] else { continue }
                surfaceSlots[surface] = RetainedFrame.SurfaceSlot(
                    pass: index, target: pass.target, reason: pass.reason, itemCount: pass.items.count,
                    packable: offscreen.packable.contains(surface), placement: placement)
            }
        }
        assert(graph.invariantViolations.isEmpty, "render graph invariants: \(graph.invariantViolations)\n\(graph)")
        return graph
    }

    /// The root's superlayer space → pixels.
    var rootToPixels: CATransform3D {
        CATransform3DConcat(CATransform3DMakeTranslation(-viewport.minX, -viewport.minY, 0), CATransform3DMakeScale(scale, scale, 1))
    }

    struct VisitContext {
        /// The nodes sublayer and mask IDs refer to: the render tree, or a transition's snapshot of the old
        /// state while that is drawn (`RenderGraphBuilder+Transition.swift`).
        var tree: RenderTree
        var animations: AnimationState
        /// The frame's absolute time.
        var time: Double
        var offscreen = OffscreenPasses()
        var rasterization = RasterizedSurfaces()
        /// The retained frame records are written for; 0: none.
        var generation: UInt64 = 0
        /// How many isolated layers (`visitIsolated`, `visitRasterized`) the visit is inside: their draws
        /// go to a surface or a fold, not straight into the frame pass.
        var isolationDepth = 0
        /// Where the `items` array being filled starts in the frame pass (nonzero when patching).
        var itemBase = 0
        /// Layers presented and drawn (statistics: `layersRecomputed`).
        var layersVisited = 0
        /// The surface standing for each shared cache page sampled this frame.
        var pageSurfaces: [Int: SurfaceID] = [:]
        /// Planes of 3D rendering contexts sorted, and cuts made splitting them (statistics).
        var planesSorted = 0
        var planesSplit = 0
        /// Times the visit met a layer it would draw through the rasterization cache: a `shouldRasterize`
        /// layer, or a group it asked the cache about (`cachesGroup`). A subtree that did is not patched
        /// (hits use entries, misses store them, and a group's answer changes with frames alone).
        var cacheQuestions = 0
        /// Whether this visit patches a retained frame (`patch`): the cache is then neither asked nor told
        /// anything (the patch gives up on such a subtree, and the full build asks in its place).
        var isPatching = false
        /// The cache entries hit and the groups the cache found settled or not (`RasterizationCache.Uses`).
        var cacheUses = RasterizationCache.Uses()
        /// Whether a group met now may be resolved by depth: the builder allows it and the visit is not
        /// inside a 3D rendering context (whose planes are sorted, not depth-tested).
        var groupsResolveByDepth = false
        /// The next group number resolved by depth (`DrawItem.depthGroup`).
        var nextDepthGroup = 0
        /// The bitmaps of rasterized layers this frame drew or reused, by entry: a layer visited again in the
        /// same frame (a replicator's instances) composites the same one (`visitRasterized`).
        var bitmapsThisFrame: [RasterizationEntryID: (surface: SurfaceID, entry: RasterizationCache.Entry)] = [:]
        /// Statistics: sublayer instances drawn by replicators beyond the originals, and particles drawn.
        var replicatedInstances = 0
        var particlesDrawn = 0
        /// Backdrop composites prepared for layers with background filters, waiting for their layer's own
        /// draws (`RenderGraphBuilder+Backdrop.swift`).
        var pendingBackdrops: [LayerID: PendingBackdrop] = [:]
        /// Layers whose transition is being drawn: their states are drawn as plain layers.
        var transitionsDrawing = Set<LayerID>()
        /// The placements of leaves presented by value while their parent draws them (the builder's own,
        /// reused from frame to frame).
        var placements: PresentedPlacements
        /// Blurred `shadowPath`s drawn this frame, whole, for layers that share the path, blur and scale
        /// (`RenderGraphBuilder+Effects.swift`).
        var sharedShadows: [SharedShadowKey: SharedShadow] = [:]
    }

    /// Draws `committed` (presented as `node`, or, for a leaf placed by value, at the placement at index
    /// `placed` of `context.placements` with `node` the committed node) from its plain-leaf plan or else
    /// through `visit`, and records what it derived when the context records a retained frame
    /// (`RetainedNodeRecord`).
    func visitRecorded(_ committed: RenderNode, presented node: RenderNode, placed: Int? = nil, localTime: Double, parent: RenderNode?,
                       parentSpace: CATransform3D, opacity: CGFloat, clip: Clip?, contentsFlipped: Bool,
                       context: inout VisitContext, into items: inout [DrawItem]) {
        context.layersVisited += 1
        let firstItem = items.count, firstSurface = context.offscreen.nextSurface
        // What the record needs to know whether the subtree drew a cached bitmap: read only for a record.
        let cached = context.generation == 0 ? nil : (context.rasterization.hits, context.rasterization.misses,
                                                      context.rasterization.uncached.count, context.pageSurfaces.count, context.cacheQuestions)
        let drewPlainLeaf: Bool
        if drawsPlainLeavesFromPlans, clip == nil, let drawing = plainLeafDrawing(of: committed, presented: node, contentsFlipped: contentsFlipped) {
            if let placed {
                drewPlainLeaf = visitPlainLeaf(node, placement: context.placements[placed], drawing: drawing, parentSpace: parentSpace,
                                               opacity: opacity, into: &items)
            } else {
                drewPlainLeaf = withUnsafeMutablePointer(to: &node.placement) { placement in
                    visitPlainLeaf(node, placement: placement, drawing: drawing, parentSpace: parentSpace, opacity: opacity, into: &items)
                }
            }
        } else {
            drewPlainLeaf = false
        }
        if !drewPlainLeaf {
            // A leaf placed by value is presented on its node's copy after all.
            let presented = placed.map { presentedCopy(of: committed, at: context.placements[$0]) } ?? node
            visit(presented, localTime: localTime, parentSpace: parentSpace, opacity: opacity, clip: clip, contentsFlipped: contentsFlipped,
                  context: &context, into: &items)
        }
        guard let cached else { return }
        let zPosition = placed.map { context.placements[$0].pointee.zPosition } ?? node.zPosition
        let drewNoCache = cached == (context.rasterization.hits, context.rasterization.misses, context.rasterization.uncached.count,
                                     context.pageSurfaces.count, context.cacheQuestions)
        committed.retained = RetainedNodeRecord(
            generation: context.generation, parentReference: parent.map(Unmanaged.passUnretained), patchable: context.isolationDepth == 0 && drewNoCache,
            surfaces: firstSurface..<context.offscreen.nextSurface,
            parentSpace: parentSpace, opacity: opacity, clip: clip, contentsFlipped: contentsFlipped,
            items: context.itemBase + firstItem ..< context.itemBase + items.count, zPosition: zPosition)
    }

    /// The node as it appears at its parent's time: its animations applied in its local time.
    func presented(_ node: RenderNode, parentTime: Double, context: inout VisitContext) -> (RenderNode, localTime: Double) {
        guard !node.packedAnimationEntries.isEmpty else { return (node, node.localTime(fromParentTime: parentTime)) }
        let start = StageClock.now()
        defer { context.animations.evaluationNanoseconds &+= StageClock.now() &- start }
        var report = AnimationEvaluator.Report()
        return untimedPresented(node, parentTime: parentTime, report: &report, context: &context)
    }

    /// How many places ahead the draw loop over a layer's presented sublayers fetches their nodes.
    static let drawFetchDistance = 8

    /// `nodes` (sublayers of one layer) as they appear at their parent's time `parentTime`: each committed
    /// node with its presented one and its local time. The animation stage is timed once for them all:
    /// two clock reads per layer were 4 % of a frame of 10,000 animated layers. Nodes a few places ahead
    /// are fetched into the cache while one is evaluated (`RenderNode.prefetch`; their presentation
    /// copies and packed animations, `prefetchForPresenting`, once the nodes that point to them are in):
    /// animation stage 3.45-3.59 -> 2.67-3.07 ms there.
    ///
    /// The list is read as unretained references (`nodes` holds every node for the call): taking a node
    /// out of it retained the node, a write to the very cache line its prefetch had just asked for, which
    /// then waited for it (the retains and releases of this loop were 5 % of a frame of 10,000 animated
    /// layers). Without those waits the loop runs further ahead of memory, so it fetches twelve nodes
    /// and six copies ahead, not six and three: animated-layers 5.71-5.88 -> 5.32-5.56 ms, `big` 3.39 ->
    /// 3.23 ms, city unchanged (both orders).
    ///
    /// With `placingLeavesByValue`, a leaf whose animations write nothing but its placement is presented
    /// as its placement alone (`pushPresentedPlacement`), pushed onto `context.placements`: the caller visits
    /// it with `visitRecorded(_:placed:…)` and pops the placements once done with the list.
    func presented(_ nodes: [RenderNode], parentTime: Double, placingLeavesByValue: Bool = false,
                   context: inout VisitContext) -> [PresentedSublayer] {
        let start = StageClock.now()
        defer { context.animations.evaluationNanoseconds &+= StageClock.now() &- start }
        var result: [PresentedSublayer] = []
        result.reserveCapacity(nodes.count)
        var report = AnimationEvaluator.Report()
        nodes.withUnsafeBufferPointer { strong in
            strong.withMemoryRebound(to: Unmanaged<RenderNode>.self) { nodes in
                for index in nodes.indices {
                    // Not the record, which drawing the node writes: the list is drawn once all of it is
                    // presented, by which time a thousand-layer list had its records evicted again, and
                    // fetched here they only held up the fetches this loop waits for.
                    if index + 12 < nodes.count { RenderNode.prefetch(nodes[index + 12], withRecord: false) }
                    if index + 6 < nodes.count { nodes[index + 6]._withUnsafeGuaranteedRef { $0.prefetchForPresenting(placingByValue: placingLeavesByValue) } }
                    nodes[index]._withUnsafeGuaranteedRef { committed in
                        if placingLeavesByValue && committed.isPlacedByValue {
                            let (index, zPosition, time) = pushPresentedPlacement(committed, parentTime: parentTime, report: &report,
                                                                                  context: &context)
                            result.append(PresentedSublayer(committed: committed, placement: index, zPosition: zPosition, time: time))
                        } else {
                            let (presented, time) = untimedPresented(committed, parentTime: parentTime, report: &report, context: &context)
                            result.append(PresentedSublayer(committed: committed, presented: presented, time: time))
                        }
                    }
                }
            }
        }
        return result
    }

    /// A sublayer as this frame presents it: its committed node, and the node presented at `time` (its
    /// local time) — the committed node itself or that node's reused presentation copy.
    ///
    /// Neither node is retained: both live as long as the build (the render tree holds the committed
    /// node, which holds its presentation copy and never replaces it). A list of strong references
    /// cost each layer a retain and a release per reference to fill, read and free it every frame
    /// (12 % of a frame of 10,000 animated layers).
    /// A leaf placed by value (`presented(_:parentTime:placingLeavesByValue:context:)`) has no presented
    /// node: its `placement` indexes `VisitContext.placements`.
    struct PresentedSublayer {
        private let committedNode: Unmanaged<RenderNode>
        private let presentedNode: Unmanaged<RenderNode>
        let time: Double
        /// The presented `zPosition`.
        let zPosition: CGFloat
        /// Where the presented placement lies in `VisitContext.placements`, for a leaf placed by value.
        let placement: Int?

        init(committed: RenderNode, presented: RenderNode, time: Double) {
            committedNode = .passUnretained(committed)
            presentedNode = .passUnretained(presented)
            self.time = time
            zPosition = presented.zPosition
            placement = nil
        }

        init(committed: RenderNode, placement: Int, zPosition: CGFloat, time: Double) {
            committedNode = .passUnretained(committed)
            presentedNode = .passUnretained(committed)
            self.time = time
            self.zPosition = zPosition
            self.placement = placement
        }

        /// The presented node (a strong reference, for keeping beyond the build's walk); not for a leaf
        /// placed by value.
        var presented: RenderNode {
            precondition(placement == nil, "a leaf placed by value has no presented node")
            return presentedNode.takeUnretainedValue()
        }

        /// Asks the CPU to fetch the committed node's fields a frame reads (`RenderNode.prefetch`).
        func prefetchCommitted() {
            RenderNode.prefetch(committedNode, withRecord: false)
        }

        /// Calls `body` with both nodes, neither retained for it.
        func withNodes<Result>(_ body: (_ committed: RenderNode, _ presented: RenderNode) -> Result) -> Result {
            committedNode._withUnsafeGuaranteedRef { committed in
                presentedNode._withUnsafeGuaranteedRef { presented in body(committed, presented) }
            }
        }
    }

    /// `presented(_:parentTime:context:)` without counting its time: the caller does. `report` is
    /// scratch, empty before and after.
    private func untimedPresented(_ node: RenderNode, parentTime: Double, report: inout AnimationEvaluator.Report,
                                  context: inout VisitContext) -> (RenderNode, localTime: Double) {
        let localTime = node.localTime(fromParentTime: parentTime)
        guard !node.packedAnimationEntries.isEmpty else { return (node, localTime) }
        context.animations.animatedLayers.append(node.id)
        var presented = node.presentationCopy()
        AnimationEvaluator.apply(node.packedAnimationEntries, layerTime: localTime, to: &presented,
                                 awaitingStart: context.animations.awaitingStart, reportingTo: &report)
        note(&report, of: node, context: &context)
        return (presented, localTime)
    }

    /// Presents `node`, a leaf placed by value (`RenderNode.isPlacedByValue`), by its placement alone,
    /// pushed onto `context.placements`: where it lies, its zPosition, and the node's local time.
    private func pushPresentedPlacement(_ node: RenderNode, parentTime: Double, report: inout AnimationEvaluator.Report,
                                        context: inout VisitContext) -> (index: Int, zPosition: CGFloat, localTime: Double) {
        let localTime = node.localTime(fromParentTime: parentTime)
        context.animations.animatedLayers.append(node.id)
        let index = context.placements.pushPresented(node, layerTime: localTime, awaitingStart: context.animations.awaitingStart,
                                                     reportingTo: &report)
        note(&report, of: node, context: &context)
        return (index, context.placements[index].pointee.zPosition, localTime)
    }

    /// The node to draw `committed` on when it was placed by value but is drawn through `visit` after all:
    /// its presentation copy at `placement`.
    func presentedCopy(of committed: RenderNode, at placement: UnsafePointer<LayerPlacementProperties>) -> RenderNode {
        let copy = committed.presentationCopy()
        copy.placement = placement.pointee
        return copy
    }

    /// Keeps what evaluating `node`'s animations reported for the render server, and empties `report`.
    private func note(_ report: inout AnimationEvaluator.Report, of node: RenderNode, context: inout VisitContext) {
        // Most frames start and finish nothing: appending nothing to a list still empty copies its storage.
        if !report.running.isEmpty {
            context.animations.running.append(contentsOf: report.running)
            report.running.removeAll(keepingCapacity: true)
        }
        if !report.finished.isEmpty {
            context.animations.finished.append(contentsOf: report.finished.map { (node.id, $0) })
            report.finished.removeAll(keepingCapacity: true)
        }
    }

    /// An analytic clip in force: the clipping layer's bounds, corner radii, and its map to pixels (and
    /// back).
    ///
    /// Held by reference: a clip (most often none) is handed down through every visit, where an inline
    /// optional of 250 bytes cost a copy and an outlined tag test per layer per frame.
    struct Clip {
        private final class Storage {
            let rect: CGRect
            let radii: SIMD4<Float>
            let toPixelsInverse: PlaneHomography
            let toPixels: CATransform3D

            init(rect: CGRect, radii: SIMD4<Float>, toPixelsInverse: PlaneHomography, toPixels: CATransform3D) {
                self.rect = rect
                self.radii = radii
                self.toPixelsInverse = toPixelsInverse
                self.toPixels = toPixels
            }
        }

        private let storage: Storage

        init(rect: CGRect, radii: SIMD4<Float>, toPixelsInverse: PlaneHomography, toPixels: CATransform3D) {
            storage = Storage(rect: rect, radii: radii, toPixelsInverse: toPixelsInverse, toPixels: toPixels)
        }

        var rect: CGRect { storage.rect }
        var radii: SIMD4<Float> { storage.radii }
        var toPixelsInverse: PlaneHomography { storage.toPixelsInverse }
        /// The clip's space → pixels (flattened), for drawing the clip's shape into the stencil.
        var toPixels: CATransform3D { storage.toPixels }
    }

    /// Draws `node` (already presented at `localTime`) and its subtree. `parentSpace` maps the parent's sublayer space to pixels (4×4,
    /// already including the parent's `sublayerSpaceTransform`).
    /// With `isolated`, the caller (`visitIsolated`) has taken care of the node's own opacity and mask.
    /// With `effectsDrawn`, the caller (`visitWithEffects`) draws the node's filters and general-path
    /// shadow around what this call draws.
    func visit(_ node: RenderNode, localTime: Double, parentSpace: CATransform3D, opacity inherited: CGFloat,
               clip inheritedClip: Clip?, contentsFlipped: Bool, isolated: Bool = false, effectsDrawn: Bool = false,
               context: inout VisitContext, into items: inout [DrawItem]) {
        guard inherited > 0 else { return }
        // A running transition draws the layer's old and new states (either may be hidden) in its place.
        if let (transition, progress) = node.activeTransition, let snapshot = node.transitionSnapshot,
           !context.transitionsDrawing.contains(node.id) {
            visitTransition(node, transition: transition, progress: progress, from: snapshot, localTime: localTime,
                            parentSpace: parentSpace, opacity: inherited, clip: inheritedClip, contentsFlipped: contentsFlipped,
                            context: &context, into: &items)
            return
        }
        let ownOpacity = min(max(node.opacity, 0), 1)
        guard !node.isHidden, ownOpacity > 0 else { return }
        if !isolated && !effectsDrawn && !node.backgroundFilters.isEmpty && !node.keepsSublayersIn3D && !node.shouldRasterize {
            prepareBackdrop(of: node, parentSpace: parentSpace, behind: items, context: &context)
        }
        if node.keepsSublayersIn3D {
            context.animations.drewRenderingContext3D = true
            // Reached other than as a sublayer (the root, a mask): no perspective of a superlayer to see
            // the context through, so depth is taken in the parent's space as it is.
            visitRenderingContext3D(node, localTime: localTime, parentSpace: parentSpace, depthSpace: CATransform3DIdentity,
                                    opacity: inherited, clip: inheritedClip, contentsFlipped: contentsFlipped, context: &context, into: &items)
            return
        }
        if !isolated && node.shouldRasterize && !context.isPatching {
            context.cacheQuestions += 1
            context.isolationDepth += 1
            let rasterized = visitRasterized(node, localTime: localTime, parentSpace: parentSpace, opacity: inherited, clip: inheritedClip,
                                             contentsFlipped: contentsFlipped, context: &context, into: &items)
            context.isolationDepth -= 1
            if rasterized { return }
        }
        if !isolated && node.shouldRasterize && context.isPatching { context.cacheQuestions += 1 }
        if !isolated && Self.needsIsolation(node, opacity: ownOpacity) {
            if context.generation != 0, let maskID = node.mask, let mask = context.tree[maskID] {
                // The mask is drawn inside the masked layer's isolation: a change to it redraws that layer.
                mask.retained = RetainedNodeRecord(generation: context.generation, parentReference: context.tree[node.id].map(Unmanaged.passUnretained))
            }
            context.isolationDepth += 1
            visitIsolated(node, localTime: localTime, parentSpace: parentSpace, opacity: inherited, clip: inheritedClip,
                          contentsFlipped: contentsFlipped, context: &context, into: &items)
            context.isolationDepth -= 1
            return
        }
        if !effectsDrawn && Self.needsEffectPasses(node) {
            // A settled layer's filters and shadow are drawn once into a cached bitmap and composited from
            // it while nothing in its subtree changes (as a settled group's are: `cachesGroup`).
            // (Colour filters a layer's draws can take themselves cost no surface to begin with.)
            if !isolated && context.isolationDepth == 0 && node.backgroundFilters.isEmpty && cachesGroups
                && Self.perDrawColorMatrix(of: node) == nil {
                context.cacheQuestions += 1
                let settled = !context.isPatching && cachesGroup(node, parentSpace: parentSpace, context: context)
                if settled { context.cacheUses.settledGroups.append(node.id) } else { context.cacheUses.unsettledGroups += 1 }
                context.isolationDepth += 1
                let cached = settled && visitRasterized(node, localTime: localTime, parentSpace: parentSpace, opacity: inherited,
                                                        clip: inheritedClip, contentsFlipped: contentsFlipped, cachedGroup: true,
                                                        bitmapReason: .rasterize, context: &context, into: &items)
                context.isolationDepth -= 1
                if cached { return }
            }
            context.isolationDepth += 1
            visitWithEffects(node, localTime: localTime, parentSpace: parentSpace, opacity: inherited, clip: inheritedClip,
                             contentsFlipped: contentsFlipped, isolated: isolated, context: &context, into: &items)
            context.isolationDepth -= 1
            return
        }
        let opacity = isolated ? inherited : inherited * ownOpacity

        let toPixels = CATransform3DConcat(Self.placement(of: node), parentSpace).planeMap
        let homography = PlaneHomography(toPixels)
        let determinant = homography.determinant
        guard determinant.isFinite, abs(determinant) > 1e-12, let inverse = homography.inverted() else { return }
        // Facing: the orientation of the layer's image (w > 0 where it is visible).
        if !node.isDoubleSided && determinant < 0 { return }

        let localToClip = localToClipColumns(toPixels)
        let clipToUse = inheritedClip.map { clipInstanceFields($0, localToPixels: homography) }
        let hasSize = node.bounds.width > 0 && node.bounds.height > 0
        let radii = hasSize ? Self.cornerRadii(of: node) : .zero
        // Flags of every draw of the layer: its edges, and whether its map to pixels is a similarity.
        var layerFlags: LayerInstance.Flags = node.allowsEdgeAntialiasing ? [.antialiasEdges] : []
        if Self.isSimilarity(homography) { layerFlags.insert(.similarityMap) }

        func instance(quad: CGRect, color: SIMD4<Float>, shape: CGRect, shapeRadii: SIMD4<Float>, flags: LayerInstance.Flags,
                      uv: SIMD4<Float> = SIMD4(0, 0, 1, 1), clip: (fields: ClipFields, rect: CGRect, radii: SIMD4<Float>)?) -> LayerInstance {
            var quadRect = quad
            var uvRect = uv
            if node.allowsEdgeAntialiasing, quad.width > 0, quad.height > 0 {
                // The rasterizer only shades pixels the quad covers: grow it so the outer half of the
                // antialiased edge exists too (texture coordinates extend at the same rate).
                let pad = Self.antialiasingPad(homography, at: CGPoint(x: quad.midX, y: quad.midY))
                quadRect = quad.insetBy(dx: -pad.x, dy: -pad.y)
                let du = (uv.z - uv.x) / Float(quad.width) * Float(pad.x), dv = (uv.w - uv.y) / Float(quad.height) * Float(pad.y)
                uvRect = SIMD4(uv.x - du, uv.y - dv, uv.z + du, uv.w + dv)
            }
            var result = LayerInstance(
                localToClip: localToClip, quad: Self.vector(quadRect), uv: uvRect, color: color,
                shape: Self.vector(shape), shapeRadii: shapeRadii, flags: flags.union(layerFlags))
            if let clip { Self.setClip(clip, on: &result) }
            return result
        }

        func instance(_ draw: LeafDraw, color: SIMD4<Float>, clip: (fields: ClipFields, rect: CGRect, radii: SIMD4<Float>)?) -> LayerInstance {
            instance(quad: draw.quad, color: color, shape: draw.shape, shapeRadii: draw.shapeRadii, flags: draw.flags, uv: draw.uv, clip: clip)
        }

        // The layer's own items (background, contents) are tagged with its ID once drawn.
        let firstOwnItem = items.count
        // (Asked only while a backdrop waits: returning no draw item clears 400 bytes.)
        if !effectsDrawn, !context.pendingBackdrops.isEmpty, let backdrop = takeBackdrop(of: node, context: &context) { items.append(backdrop) }
        let firstPaintedItem = items.count

        // Background.
        if hasSize, let background = Self.backgroundDraw(of: node, radii: radii) {
            items.append(DrawItem(instance: instance(background, color: background.unitColor * Float(opacity), clip: clipToUse)))
        }

        // A gradient layer's gradient: over the background, under the contents, rounded as the background is.
        if hasSize, let gradient = GradientPaint(of: node) {
            var paint = instance(quad: node.bounds, color: SIMD4(repeating: Float(opacity)), shape: node.bounds, shapeRadii: radii,
                                 flags: [], clip: clipToUse)
            gradient.configure(&paint)
            items.append(DrawItem(instance: paint, gradient: gradient))
        }

        // The clip this layer imposes on its contents and sublayers; an outer clip that cannot combine
        // with it analytically clips them by stencil instead (`StencilClipCommand`).
        var ownClip = inheritedClip
        var stencilClip: Clip?
        if node.masksToBounds {
            let clip = Clip(rect: node.bounds, radii: radii, toPixelsInverse: inverse, toPixels: toPixels)
            if let outer = inheritedClip, let both = Self.intersect(outer: outer, inner: clip, innerToPixels: homography) {
                ownClip = both
            } else {
                ownClip = clip
                stencilClip = inheritedClip
            }
        }
        let ownClipFields = ownClip.map { clipInstanceFields($0, localToPixels: homography) }

        // A rect or rounded-rect shadow, analytic, behind everything the layer draws; clipped by the
        // layer's own bounds when it masks to them, as Core Animation's is (`ShadowShape`).
        if !effectsDrawn, ShadowShape.casts(node), let shape = ShadowShape(of: node, backgroundRadii: radii) {
            let sigma = ShadowShape.sigma(forRadius: node.shadowRadius)
            let reach = 3 * sigma
            let shadowRect = shape.rect.offsetBy(dx: node.shadowOffset.width, dy: node.shadowOffset.height)
            let tint = (node.shadowColor?.premultipliedRGBA ?? .zero) * Float(node.shadowOpacity * shape.alpha * opacity)
            var shadow = instance(quad: shadowRect.insetBy(dx: -reach, dy: -reach), color: tint, shape: shadowRect,
                                  shapeRadii: shape.radii, flags: [.shadow], clip: ownClipFields)
            shadow.shadowSigma = Float(sigma)
            items.insert(DrawItem(instance: shadow, layer: node.id), at: firstPaintedItem)
        }
        let firstStencilled = items.count
        if let stencilClip { items.append(stencilClipItem(.push, stencilClip)) }

        // Contents (during a cross-fade: the old image, then the new one at the fade's opacity).
        func drawContents(_ image: CGImage, alpha: CGFloat) {
            let tint = Float(opacity * alpha)
            for piece in Self.contentsDraws(of: node, image: image, contentsFlipped: contentsFlipped) {
                items.append(DrawItem(instance: instance(piece, color: piece.unitColor * tint, clip: ownClipFields), texture: piece.texture))
            }
        }
        if hasSize {
            if let old = node.contentsCrossfadeFrom { drawContents(old, alpha: 1) }
            if let image = node.contents {
                drawContents(image, alpha: node.contentsCrossfadeFrom == nil ? 1 : node.contentsCrossfadeFraction)
            }
        }
        // A tiled layer's tiles, fading in (`TiledContentsPlan`).
        if hasSize, let tiled = node.tiledContents {
            let plan = TiledContentsPlan.draws(of: tiled, at: context.time, fades: tileFades)
            if plan.isFading { context.animations.tilesFading = true }
            context.animations.drewTiledContents = true
            let (minification, magnification) = (Self.filter(node.minificationFilter), Self.filter(node.magnificationFilter))
            for tile in plan.draws {
                items.append(DrawItem(
                    instance: instance(quad: tile.rect, color: SIMD4(repeating: Float(opacity * tile.opacity)), shape: tile.rect,
                                       shapeRadii: .zero, flags: [.textured], uv: Self.vector(tile.uv), clip: ownClipFields),
                    texture: TextureBinding(image: tile.image, minification: minification, magnification: magnification)))
            }
        }
        // A shape layer's path, rasterized at its on-screen scale, over the contents (`ShapeRasterizer`).
        if let shape = shapeRasterizer.rasterizedShape(of: node, toPixels: homography) {
            items.append(DrawItem(instance: instance(quad: shape.rect, color: SIMD4(repeating: Float(opacity)), shape: shape.rect,
                                                     shapeRadii: .zero, flags: [.textured], clip: ownClipFields),
                                  texture: TextureBinding(image: shape.image)))
        }

        // An emitter's particles, over the contents and under the sublayers (`EmitterParticles`).
        if node.renderKind == .emitter, case let simulationStart = StageClock.threadCPUNow(),
           let emitter = EmitterParticles(of: node, committed: context.tree[node.id], at: localTime, cache: particleCache) {
            context.animations.particleNanoseconds &+= StageClock.threadCPUNow() &- simulationStart
            if emitter.isActive { context.animations.emitting = true }
            context.particlesDrawn += emitter.count
            // Depth-preserving particles are not flattened into the layer's plane: their z goes through the
            // layer's whole map, the superlayer's perspective included.
            let particleSpace = emitter.preservesDepth ? CATransform3DConcat(Self.placement(of: node), parentSpace).flattened : toPixels
            appendParticles(of: emitter, opacity: Float(opacity), toPixels: particleSpace, clip: ownClip, layer: node.id, into: &items)
        }

        for index in firstOwnItem..<items.count where items[index].layer == nil { items[index].layer = node.id }

        // Sublayers, back to front by zPosition (stable); a replicator's once per instance
        // (`ReplicatorInstances`), each instance's draws tinted by its colour.
        let replicas = ReplicatorInstances(of: node)
        // A replicated subtree's draws are not one layer's: it is redrawn whole, never patched in part.
        if let replicas {
            context.isolationDepth += 1
            context.replicatedInstances += max(replicas.instances.count - 1, 0) * node.sublayers.count
        }
        defer { if replicas != nil { context.isolationDepth -= 1 } }
        // (A layer without sublayers makes no list of one instance to skip: that was an allocation per layer.)
        for replica in node.sublayers.isEmpty ? [] : replicas?.instances ?? [.original] {
            let sublayerSpace = CATransform3DConcat(CATransform3DConcat(replica.transform, Self.sublayerSpaceTransform(of: node)), toPixels)
            let firstReplicated = items.count
            defer {
                if replica.colorMultiplier != SIMD4(repeating: 1) {
                    for index in firstReplicated..<items.count { items[index].instance.color *= replica.colorMultiplier }
                }
            }
            let instanceTime = localTime - replica.delay
            let tree = context.tree
            let committedNode = context.generation != 0 ? tree[node.id] : nil
            let placementsBefore = context.placements.count
            let presentedChildren = presented(node.sublayerNodes(in: tree), parentTime: instanceTime, placingLeavesByValue: true,
                                              context: &context)
            let children = Self.backToFront(presentedChildren, zPosition: \.zPosition)
            for (position, child) in children.enumerated() {
                // The list was presented in full before this loop, which evicted the first nodes again by
                // the time it draws them: their fields are fetched a few places ahead once more.
                if position + Self.drawFetchDistance < children.count { children[position + Self.drawFetchDistance].prefetchCommitted() }
                if let placed = child.placement {
                    child.withNodes { committed, _ in
                        visitRecorded(committed, presented: committed, placed: placed, localTime: child.time, parent: committedNode,
                                      parentSpace: sublayerSpace, opacity: opacity, clip: ownClip,
                                      contentsFlipped: contentsFlipped != node.isGeometryFlipped, context: &context, into: &items)
                    }
                    continue
                }
                child.withNodes { committed, presented in
                    // A transform layer's sublayers are planes of a 3D rendering context seen through this
                    // layer's sublayer transform (RenderGraphBuilder+RenderingContext3D.swift).
                    if presented.keepsSublayersIn3D {
                        context.animations.drewRenderingContext3D = true
                        visitRenderingContext3D(presented, localTime: child.time, parentSpace: sublayerSpace,
                                                depthSpace: Self.sublayerSpaceTransform(of: node), opacity: opacity, clip: ownClip,
                                                contentsFlipped: contentsFlipped != node.isGeometryFlipped, context: &context, into: &items)
                        return
                    }
                    visitRecorded(committed, presented: presented, localTime: child.time, parent: committedNode,
                                  parentSpace: sublayerSpace, opacity: opacity, clip: ownClip,
                                  contentsFlipped: contentsFlipped != node.isGeometryFlipped, context: &context, into: &items)
                }
            }
            context.placements.pop(to: placementsBefore)
        }

        if let stencilClip {
            // Everything drawn since the push is inside it: one level deeper. Enclosing brackets raise
            // these items, the push and the pop alike, once more each.
            for index in (firstStencilled + 1)..<items.count { items[index].stencilLevel += 1 }
            items.append(stencilClipItem(.pop, stencilClip))
        }

        // Border, above the sublayers.
        if hasSize, node.borderWidth > 0, let color = node.borderColor, color.alpha > 0 {
            var border = instance(quad: node.bounds, color: color.premultipliedRGBA * Float(opacity), shape: node.bounds,
                                  shapeRadii: radii, flags: [.border], clip: clipToUse)
            border.borderWidth = Float(min(node.borderWidth, min(node.bounds.width, node.bounds.height) / 2))
            items.append(DrawItem(instance: border, layer: node.id))
        }
    }

    /// Presented sublayers back to front: by `zPosition`, stable; most layers keep their siblings at 0.
    static func backToFront(_ children: [(RenderNode, localTime: Double)]) -> [(RenderNode, localTime: Double)] {
        backToFront(children, zPosition: { $0.0.zPosition })
    }

    /// `children` back to front by the `zPosition` of each, stable.
    static func backToFront<Child>(_ children: [Child], zPosition: (Child) -> CGFloat) -> [Child] {
        guard children.contains(where: { zPosition($0) != 0 }) else { return children }
        return children.enumerated()
            .sorted { zPosition($0.element) != zPosition($1.element) ? zPosition($0.element) < zPosition($1.element) : $0.offset < $1.offset }
            .map(\.element)
    }

    // MARK: - Geometry

    /// Pixels → Vulkan clip space (x right, y down, both −1…1): a scale and an offset of x and y alone,
    /// which `localToClipColumns` applies without a product.
    @inline(__always)
    var pixelToClip: CATransform3D {
        // Scale by 2 / size, then translate by −1, written out (asked once per layer drawn).
        CATransform3D(m11: 2 / CGFloat(targetWidth), m12: 0, m13: 0, m14: 0, m21: 0, m22: 2 / CGFloat(targetHeight), m23: 0, m24: 0,
                      m31: 0, m32: 0, m33: 1, m34: 0, m41: -1, m42: -1, m43: 0, m44: 1)
    }

    /// The instance's `localToClip` columns for a draw whose map to pixels is `toPixels`:
    /// `columnMajor(CATransform3DConcat(toPixels, pixelToClip))` with `pixelToClip`'s scale and offset
    /// applied directly — what the product gives entry for entry (up to the sign of a zero: its other terms
    /// are products with zero) for a quarter of the arithmetic, asked once per layer drawn.
    @inline(__always)
    func localToClipColumns(_ toPixels: CATransform3D) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let map = pixelToClip
        let scale = SIMD2(Double(map.m11), Double(map.m22)), offset = SIMD2(Double(map.m41), Double(map.m42))
        @inline(__always) func column(_ x: CGFloat, _ y: CGFloat, _ z: CGFloat, _ w: CGFloat) -> SIMD4<Float> {
            let xy = SIMD2(Double(x), Double(y)) * scale + offset * Double(w)
            return SIMD4(Float(xy.x), Float(xy.y), Float(z), Float(w))
        }
        return (column(toPixels.m11, toPixels.m12, toPixels.m13, toPixels.m14),
                column(toPixels.m21, toPixels.m22, toPixels.m23, toPixels.m24),
                column(toPixels.m31, toPixels.m32, toPixels.m33, toPixels.m34),
                column(toPixels.m41, toPixels.m42, toPixels.m43, toPixels.m44))
    }

    /// A layer's own space → its superlayer's sublayer space (as `CALayer.transformToSuperlayer`).
    package static func placement(of node: RenderNode) -> CATransform3D {
        withUnsafeMutablePointer(to: &node.placement) { placement(of: $0, bounds: node.bounds) }
    }

    /// A layer's own space → its superlayer's, from its `placement` (read where it lies) and `bounds`.
    @inline(__always)
    static func placement(of placement: UnsafePointer<LayerPlacementProperties>, bounds: CGRect) -> CATransform3D {
        LayerPlacement.toSuperlayer(bounds: bounds, anchorPoint: placement.pointee.anchorPoint, anchorPointZ: placement.pointee.anchorPointZ,
                                    transform: placement.pointee.transform, position: placement.pointee.position,
                                    zPosition: placement.pointee.zPosition)
    }

    /// A layer's sublayer space → its own space (as `CALayer.sublayerSpaceTransform`).
    package static func sublayerSpaceTransform(of node: RenderNode) -> CATransform3D {
        LayerPlacement.sublayerSpace(bounds: node.bounds, anchorPoint: node.anchorPoint, isGeometryFlipped: node.isGeometryFlipped,
                                     sublayerTransform: node.sublayerTransform)
    }

    /// One analytic clip standing for two nested ones.
    ///
    /// When the inner clip's space maps onto the outer's by scale and translation (the usual nesting),
    /// the intersection is itself a rectangle in the outer space, and each of its corners keeps the
    /// radius of the clip it came from. When the inner clip is rotated or projected relative to the
    /// outer one, whichever clip lies wholly inside the other is exact; otherwise there is no one analytic
    /// clip (nil), and the caller clips by stencil.
    static func intersect(outer: Clip, inner: Clip, innerToPixels: PlaneHomography) -> Clip? {
        let innerToOuter = innerToPixels.concatenating(outer.toPixelsInverse)
        let (r0, r1, r2) = (innerToOuter.r0, innerToOuter.r1, innerToOuter.r2)
        let axisAligned = abs(r0.y) < 1e-9 && abs(r1.x) < 1e-9 && abs(r0.z) < 1e-9 && abs(r1.z) < 1e-9 && abs(r2.z - 1) < 1e-9
        func mapped(_ p: CGPoint) -> CGPoint {
            let h = innerToOuter.apply(p)
            return CGPoint(x: h.x / h.z, y: h.y / h.z)
        }
        let corners = [CGPoint(x: inner.rect.minX, y: inner.rect.minY), CGPoint(x: inner.rect.maxX, y: inner.rect.minY),
                       CGPoint(x: inner.rect.maxX, y: inner.rect.maxY), CGPoint(x: inner.rect.minX, y: inner.rect.maxY)].map(mapped)
        if axisAligned && r0.x > 0 && r1.y > 0 {
            let innerInOuter = CGRect(x: corners[0].x, y: corners[0].y, width: corners[2].x - corners[0].x, height: corners[2].y - corners[0].y)
            let rect = outer.rect.intersection(innerInOuter)
            guard !rect.isNull else { return Clip(rect: .zero, radii: .zero, toPixelsInverse: outer.toPixelsInverse, toPixels: outer.toPixels) }
            let innerScale = Float(min(r0.x, r1.y))
            // Corner order: top-left, top-right, bottom-right, bottom-left.
            let rectCorners = [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.maxX, rect.maxY), (rect.minX, rect.maxY)]
            let outerCorners = [(outer.rect.minX, outer.rect.minY), (outer.rect.maxX, outer.rect.minY),
                                (outer.rect.maxX, outer.rect.maxY), (outer.rect.minX, outer.rect.maxY)]
            let innerCorners = [(innerInOuter.minX, innerInOuter.minY), (innerInOuter.maxX, innerInOuter.minY),
                                (innerInOuter.maxX, innerInOuter.maxY), (innerInOuter.minX, innerInOuter.maxY)]
            var radii = SIMD4<Float>.zero
            for i in 0..<4 {
                let atOuter = rectCorners[i] == outerCorners[i] ? outer.radii[i] : 0
                let atInner = rectCorners[i] == innerCorners[i] ? inner.radii[i] * innerScale : 0
                radii[i] = max(atOuter, atInner)
            }
            return Clip(rect: rect, radii: radii, toPixelsInverse: outer.toPixelsInverse, toPixels: outer.toPixels)
        }
        // Rotated or projected nesting: keep the clip that matters.
        let inset = CGFloat(outer.radii.max())
        let safeOuter = outer.rect.insetBy(dx: inset * 0.3, dy: inset * 0.3)
        if corners.allSatisfy({ safeOuter.contains($0) }) { return inner }
        if let outerToInner = innerToOuter.inverted() {
            let outerCorners = [CGPoint(x: outer.rect.minX, y: outer.rect.minY), CGPoint(x: outer.rect.maxX, y: outer.rect.minY),
                                CGPoint(x: outer.rect.maxX, y: outer.rect.maxY), CGPoint(x: outer.rect.minX, y: outer.rect.maxY)]
            let innerInset = CGFloat(inner.radii.max()) * 0.3
            let safeInner = inner.rect.insetBy(dx: innerInset, dy: innerInset)
            let outerInInner = outerCorners.map { p -> CGPoint in
                let h = outerToInner.apply(p)
                return CGPoint(x: h.x / h.z, y: h.y / h.z)
            }
            if outerInInner.allSatisfy({ safeInner.contains($0) }) { return outer }
        }
        return nil
    }

    /// The stencil clip command `command` drawing `clip`'s rounded rect, at level 0 (`visit` raises the
    /// levels of items inside enclosing brackets).
    private func stencilClipItem(_ command: StencilClipCommand, _ clip: Clip) -> DrawItem {
        let rect = Self.vector(clip.rect)
        let shape = LayerInstance(localToClip: localToClipColumns(clip.toPixels), quad: rect,
                                  uv: SIMD4(0, 0, 1, 1), color: .zero, shape: rect, shapeRadii: clip.radii, flags: [])
        return .stencilClip(command, shape: shape, level: 0)
    }

    typealias ClipFields = (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)

    /// Makes `instance` carry an analytic clip (`clipInstanceFields`'s result): its fields and `Flags.clip`.
    static func setClip(_ clip: (fields: ClipFields, rect: CGRect, radii: SIMD4<Float>), on instance: inout LayerInstance) {
        instance.clipFromLocal = clip.fields
        instance.clipRect = vector(clip.rect)
        instance.clipRadii = clip.radii
        instance.flags.insert(.clip)
    }

    /// The instance fields for `clip` seen from a layer mapped to pixels by `localToPixels`: the rows of
    /// the column-vector homography layer → clip layer, its rect and radii.
    func clipInstanceFields(_ clip: Clip, localToPixels: PlaneHomography) -> (fields: ClipFields, rect: CGRect, radii: SIMD4<Float>) {
        let localToClip = localToPixels.concatenating(clip.toPixelsInverse)
        let (c0, c1, c2) = localToClip.columns
        let fields = (SIMD4<Float>(Float(c0.x), Float(c0.y), Float(c0.z), 0),
                      SIMD4<Float>(Float(c1.x), Float(c1.y), Float(c1.z), 0),
                      SIMD4<Float>(Float(c2.x), Float(c2.y), Float(c2.z), 0))
        return (fields, clip.rect, clip.radii)
    }

    /// The length in layer units of one target pixel near `point` (from the map's local area scale).
    /// How far to grow a quad along layer x and y so that every pixel its antialiased edges touch is
    /// rasterized: coverage ramps out to half a pixel beyond an edge (`rounded_rect_coverage.glsl`), so
    /// where the map is affine each edge moves half a pixel across (its pixel distance per layer unit is
    /// the same everywhere: |det| / the length of the other axis's image); where it projects, a pixel at
    /// `point` (`onePixelInLayerUnits`), as the distance varies over the quad.
    static func antialiasingPad(_ toPixels: PlaneHomography, at point: CGPoint) -> (x: CGFloat, y: CGFloat) {
        let (r0, r1, r2) = (toPixels.r0, toPixels.r1, toPixels.r2)
        if r0.z == 0, r1.z == 0, r2.z != 0 {
            let ex = SIMD2(r0.x, r0.y) / r2.z, ey = SIMD2(r1.x, r1.y) / r2.z
            let det = abs(ex.x * ey.y - ex.y * ey.x)
            if det.isFinite, det > 1e-12 {
                return (CGFloat(0.5 * (ey * ey).sum().squareRoot() / det), CGFloat(0.5 * (ex * ex).sum().squareRoot() / det))
            }
        }
        let pad = onePixelInLayerUnits(toPixels, at: point)
        return (pad, pad)
    }

    /// Whether `toPixels` is a similarity (affine, its axes' images orthogonal and of one length), within a
    /// relative 1e-5: the shader's similarity coverage then differs from the affine one by far less than
    /// a level (`Material.Coverage.similarShape`).
    static func isSimilarity(_ toPixels: PlaneHomography) -> Bool {
        let (r0, r1, r2) = (toPixels.r0, toPixels.r1, toPixels.r2)
        guard r0.z == 0, r1.z == 0, r2.z != 0 else { return false }
        let ex = SIMD2(r0.x, r0.y), ey = SIMD2(r1.x, r1.y)
        let xx = (ex * ex).sum(), yy = (ey * ey).sum(), xy = (ex * ey).sum()
        let tolerance = 1e-5 * max(xx, yy)
        return abs(xx - yy) <= tolerance && abs(xy) <= tolerance
    }

    static func onePixelInLayerUnits(_ toPixels: PlaneHomography, at point: CGPoint) -> CGFloat {
        func project(_ p: CGPoint) -> SIMD2<Double>? {
            let h = toPixels.apply(p)
            return h.z > 0 ? SIMD2(h.x / h.z, h.y / h.z) : nil
        }
        guard let p0 = project(point), let px = project(CGPoint(x: point.x + 1, y: point.y)),
              let py = project(CGPoint(x: point.x, y: point.y + 1)) else { return 1 }
        let ex = px - p0, ey = py - p0
        let pixelsPerUnit = abs(ex.x * ey.y - ex.y * ey.x).squareRoot()
        guard pixelsPerUnit.isFinite, pixelsPerUnit > 1e-6 else { return 1 }
        return CGFloat(1 / pixelsPerUnit)
    }

    /// Corner radii (top-left, top-right, bottom-right, bottom-left), clamped to half the shorter side
    /// as Core Animation clamps them; `maskedCorners` picks which corners round (iOS y-down naming).
    static func cornerRadii(of node: RenderNode) -> SIMD4<Float> {
        let r = Float(max(0, min(node.cornerRadius, min(node.bounds.width, node.bounds.height) / 2)))
        let m = node.maskedCorners
        return SIMD4(m & 1 != 0 ? r : 0, m & 2 != 0 ? r : 0, m & 8 != 0 ? r : 0, m & 4 != 0 ? r : 0)
    }

    /// A row-vector matrix as the shader's four columns (the rows of the row-vector matrix).
    static func columnMajor(_ t: CATransform3D) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        (SIMD4(Float(t.m11), Float(t.m12), Float(t.m13), Float(t.m14)),
         SIMD4(Float(t.m21), Float(t.m22), Float(t.m23), Float(t.m24)),
         SIMD4(Float(t.m31), Float(t.m32), Float(t.m33), Float(t.m34)),
         SIMD4(Float(t.m41), Float(t.m42), Float(t.m43), Float(t.m44)))
    }

    static func vector(_ r: CGRect) -> SIMD4<Float> {
        SIMD4(Float(r.minX), Float(r.minY), Float(r.maxX), Float(r.maxY))
    }

    static func filter(_ name: String) -> TextureFilter {
        switch name {
        case "nearest": .nearest
        case "trilinear": .trilinear
        default: .linear
        }
    }
}
