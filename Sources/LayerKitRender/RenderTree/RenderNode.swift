import CPrefetch
import LayerKit

/// The render server's copy of one layer: the properties the renderer reads, as last committed.
///
/// Updated only by `RenderTree.apply(_:)`; read by the graph builder. Sublayers and mask are referred to
/// by `LayerID`, so the render tree never touches model objects. A class, so that walking the tree each
/// frame costs no copies; only the render thread touches it (hence `@unchecked Sendable`). An animated
/// frame evaluates on a `copy()`, never on the committed node.
/// Stored properties are `@exclusivity(unchecked)`: the one thread that touches a node never overlaps an
/// access with another (the compiler still checks what it can see statically), and the run-time check on
/// every read of a class property took 13 % of the render thread building 10,000 animated layers.
package final class RenderNode: @unchecked Sendable {
    package let id: LayerID

    // Field order is layout: Swift lays a class's stored properties out in declaration order, and a frame
    // reads the first two groups below of every drawn layer (of its presentation copy, the first group
    // alone), so they come first and together, and `prefetch` fetches only them. Scattered over the
    // node's 1.2 KB, they took two fetches of the whole node per animated layer per frame, and the memory
    // traffic of those was the animation stage of `animated-layers` (the prefetches its hottest code).

    // Placement and what every visit of a layer asks first: read on presentation copies too.
    @exclusivity(unchecked) package var bounds = CGRect.zero
    /// Position, zPosition, anchor point, transform, opacity and whether hidden: one value, so that a
    /// layer whose animations write nothing else is evaluated into a copy of it alone
    /// (`RenderGraphBuilder.presented(_:parentTime:placingLeavesByValue:context:)`). Each also reads as a property of its own.
    @exclusivity(unchecked) package var placement = LayerPlacementProperties()
    @exclusivity(unchecked) package var isDoubleSided = true
    /// Subclass-declared properties (a shape layer's path and style), by key (`RenderNode+CustomProperties.swift`).
    package var customProperties: CustomPropertyValues {
        get { customPropertyStorage }
        _modify {
            yield &customPropertyStorage
            updateIsPlacedByValue()
        }
    }
    /// Where `customProperties` lie; written only through them, which keep `isPlacedByValue`. Stored in the
    /// group by name so that `RenderNodePrefetchTests` can locate it (a property with accessors cannot be).
    @exclusivity(unchecked) var customPropertyStorage = CustomPropertyValues()

    // The committed node's bookkeeping for a frame: its timing, animations, reused copy, stamps and plan.
    @exclusivity(unchecked) package var beginTime: Double = 0
    @exclusivity(unchecked) package var timeOffset: Double = 0
    @exclusivity(unchecked) package var speed: Double = 1
    /// Committed animations, in the order added.
    @exclusivity(unchecked) package var animations: [AnimationRecord] = [] {
        didSet {
            packedAnimations = PackedAnimations(animations)
            packedAnimationEntries = packedAnimations.entries.withUnsafeBufferPointer { $0 }
            animationWrites = Self.properties(writtenBy: animations)
            animationsOnlyPlace = animationWrites.map { $0 & ~RenderTree.placementKeyBits == 0 } ?? false
            updateIsPlacedByValue()
        }
    }
    /// Whether `animations` write nothing but where the layer is placed, its opacity and whether it is
    /// hidden (`RenderTree.placementKeys`): its presented copy then looks like it in its own space.
    @exclusivity(unchecked) package private(set) var animationsOnlyPlace = true
    /// Whether a frame may present the node by its placement alone (`RenderGraphBuilder+PlainLeaves.swift`):
    /// it animates, its animations write nothing but its placement, and it is a leaf of no special class.
    /// Kept, not worked out when asked: reading `sublayers` and `customProperties` retained and released
    /// their storage, twice per animated layer per frame.
    @exclusivity(unchecked) package private(set) var isPlacedByValue = false

    private func updateIsPlacedByValue() {
        isPlacedByValue = animationsOnlyPlace && !packedAnimationEntries.isEmpty && sublayers.isEmpty && customProperties.isEmpty
    }
    /// `animations` laid out for evaluating frames: the owner of `packedAnimationEntries`, which frames
    /// read instead.
    @exclusivity(unchecked) private var packedAnimations = PackedAnimations([])
    /// `packedAnimations`' entries where they lie (valid while `packedAnimations` holds them): a frame
    /// evaluates them, and fetches them ahead (`prefetchForPresenting`), without retaining their buffer,
    /// a write to an object far off per animated layer.
    @exclusivity(unchecked) package private(set) var packedAnimationEntries = UnsafeBufferPointer<PackedAnimations.Entry>(start: nil, count: 0)
    /// The properties `animations` write, one bit per `LayerPropertyKey` raw value, when they are
    /// compiled throughout; nil when they may write more (`AnimationRecord.writtenProperties`).
    @exclusivity(unchecked) private var animationWrites: UInt64? = 0
    /// The reusable node `presentationCopy()` returns, and the `changeStamp` it was last copied at.
    @exclusivity(unchecked) private var presentationScratch: RenderNode?
    @exclusivity(unchecked) private var presentationScratchStamp: UInt64?
    /// Where `presentationScratch` lies, for fetching it ahead without retaining it (`prefetch`).
    @exclusivity(unchecked) private var presentationScratchAddress: UnsafeRawPointer?
    /// When a commit last changed anything of this node, and anything other than where it is placed
    /// (`RenderTree+ChangeStamps.swift`). Render thread only; not copied to presented copies.
    @exclusivity(unchecked) package var changeStamp: UInt64 = 0
    @exclusivity(unchecked) package var contentStamp: UInt64 = 0
    /// What the graph builder worked out of this node as a plain leaf (`RenderGraphBuilder+PlainLeaves.swift`),
    /// valid while its `contentStamp` is the plan's. Render thread only; never copied to presentation copies.
    @exclusivity(unchecked) var plainLeafPlan: PlainLeafPlan?
    @exclusivity(unchecked) package var sublayers: [LayerID] = [] {
        didSet {
            resolvedSublayers = nil
            updateIsPlacedByValue()
        }
    }
    /// `sublayers`' nodes as the tree last resolved them, and the tree's membership then
    /// (`sublayerNodes(in:)`). Render thread only; not copied to presented copies.
    @exclusivity(unchecked) private var resolvedSublayers: (membership: UInt64, nodes: [RenderNode])?
    /// What the graph builder derived for this node when it last drew it (`RetainedNodeRecord`), so a
    /// later frame can redraw its subtree alone. Never copied to presentation copies.
    @exclusivity(unchecked) var retained = RetainedNodeRecord()

    // Read only when a layer draws more than a plain leaf, or when a commit changes it.
    // Geometry
    @exclusivity(unchecked) package var sublayerTransform = CATransform3DIdentity
    @exclusivity(unchecked) package var isGeometryFlipped = false
    @exclusivity(unchecked) package var contentsScale: CGFloat = 1

    // Appearance
    @exclusivity(unchecked) package var backgroundColor: CGColor?
    @exclusivity(unchecked) package var cornerRadius: CGFloat = 0
    @exclusivity(unchecked) package var maskedCorners: UInt = 0b1111
    @exclusivity(unchecked) package var borderWidth: CGFloat = 0
    @exclusivity(unchecked) package var borderColor: CGColor? = .black
    @exclusivity(unchecked) package var isOpaque = false
    @exclusivity(unchecked) package var allowsEdgeAntialiasing = false
    /// Core Animation's default: a layer below full opacity composites its subtree as one group.
    @exclusivity(unchecked) package var allowsGroupOpacity = true
    @exclusivity(unchecked) package var masksToBounds = false

    // Shadow (Core Animation's defaults; drawn by `RenderGraphBuilder+Shadow.swift`)
    @exclusivity(unchecked) package var shadowColor: CGColor? = .black
    @exclusivity(unchecked) package var shadowOpacity: CGFloat = 0
    @exclusivity(unchecked) package var shadowOffset = CGSize(width: 0, height: -3)
    @exclusivity(unchecked) package var shadowRadius: CGFloat = 3
    @exclusivity(unchecked) package var shadowPath: CGPath?

    // Filters (`RenderGraphBuilder+Effects.swift`, `RenderGraphBuilder+Backdrop.swift`)
    @exclusivity(unchecked) package var filters: [FilterValue] = []
    @exclusivity(unchecked) package var backgroundFilters: [FilterValue] = []
    /// `compositingFilter`: the blend the layer's composite is drawn with, when the GPU's blending draws it.
    @exclusivity(unchecked) package var compositingOperation: CompositingOperation?

    // Rasterization
    /// Whether the subtree is drawn from a cached bitmap (`RenderGraphBuilder+Rasterization.swift`).
    @exclusivity(unchecked) package var shouldRasterize = false
    /// The cached bitmap's pixels per layer point, relative to the layer's on-screen scale.
    @exclusivity(unchecked) package var rasterizationScale: CGFloat = 1

    // Contents
    @exclusivity(unchecked) package var contents: CGImage?
    @exclusivity(unchecked) package var contentsGravity = "resize"
    @exclusivity(unchecked) package var contentsRect = CGRect(x: 0, y: 0, width: 1, height: 1)
    @exclusivity(unchecked) package var contentsCenter = CGRect(x: 0, y: 0, width: 1, height: 1)
    @exclusivity(unchecked) package var minificationFilter = "linear"
    @exclusivity(unchecked) package var magnificationFilter = "linear"
    /// Set only on a presented copy part-way through a `contents` cross-fade: the old image, drawn under
    /// `contents` (which shows with opacity `contentsCrossfadeFraction`).
    @exclusivity(unchecked) package var contentsCrossfadeFrom: CGImage?
    @exclusivity(unchecked) package var contentsCrossfadeFraction: CGFloat = 1
    /// The layer's subtree as it was before the commit that added its running transition
    /// (`TransitionSnapshot`); nil when no transition runs.
    @exclusivity(unchecked) package var transitionSnapshot: TransitionSnapshot?
    /// Set only on a presented copy: the running transition and its progress (0 old, 1 new).
    @exclusivity(unchecked) package var activeTransition: (record: TransitionRecord, progress: Double)?

    // Structure
    @exclusivity(unchecked) package var mask: LayerID?

    package init(id: LayerID) {
        self.id = id
    }

    // The placement's properties, each as a property of the node.
    package var position: CGPoint {
        get { placement.position }
        set { placement.position = newValue }
    }
    package var zPosition: CGFloat {
        get { placement.zPosition }
        set { placement.zPosition = newValue }
    }
    package var anchorPoint: CGPoint {
        get { placement.anchorPoint }
        set { placement.anchorPoint = newValue }
    }
    package var anchorPointZ: CGFloat {
        get { placement.anchorPointZ }
        set { placement.anchorPointZ = newValue }
    }
    package var transform: CATransform3D {
        get { placement.transform }
        set { placement.transform = newValue }
    }
    package var opacity: CGFloat {
        get { placement.opacity }
        set { placement.opacity = newValue }
    }
    package var isHidden: Bool {
        get { placement.isHidden }
        set { placement.isHidden = newValue }
    }

    /// A copy of every property, for evaluating animations without touching the committed values.
    package func copy() -> RenderNode {
        let copy = RenderNode(id: id)
        copy.copyProperties(from: self)
        return copy
    }

    /// The node to evaluate this frame's animations on: a copy reused from frame to frame (its
    /// properties reset from the committed ones), so animating costs no allocation per frame. Valid until
    /// the next call; only the render thread calls it.
    ///
    /// While nothing was committed to the node since the copy was made (its `changeStamp` is the same)
    /// and its animations are compiled throughout, the copy differs from the node only in the
    /// properties those animations write (`AnimationRecord.writtenProperties`): only those are reset.
    /// Otherwise every property is copied.
    package func presentationCopy() -> RenderNode {
        if let scratch = presentationScratch, presentationScratchStamp == changeStamp, var written = animationWrites {
            while written != 0 {
                if let property = LayerPropertyKey(rawValue: UInt8(written.trailingZeroBitCount)) {
                    scratch.resetProperty(property, from: self)
                }
                written &= written - 1
            }
            return scratch
        }
        let scratch = presentationScratch ?? RenderNode(id: id)
        presentationScratch = scratch
        presentationScratchAddress = UnsafeRawPointer(Unmanaged.passUnretained(scratch).toOpaque())
        presentationScratchStamp = changeStamp
        scratch.copyProperties(from: self)
        scratch.contentsCrossfadeFrom = nil
        scratch.contentsCrossfadeFraction = 1
        scratch.activeTransition = nil
        return scratch
    }

    /// Asks the CPU to fetch what a frame reads of `node` ahead of its use: its placement and frame
    /// bookkeeping (`frameBytes`, the first two groups of fields), and its `retained` record too
    /// (`recordBytes`) when the frame reads or writes records.
    ///
    /// Ten thousand animated layers are twenty thousand nodes (each committed node and its presentation
    /// copy) of over a kilobyte, scattered over the heap: far more than a core's cache, so a frame's
    /// walk over them waited on memory for each in turn. The node comes unretained: retaining it would
    /// write to its first line, and wait for it.
    static func prefetch(_ node: Unmanaged<RenderNode>, withRecord: Bool) {
        lk_prefetch(UnsafeRawPointer(node.toOpaque()), withRecord ? recordBytes : frameBytes)
    }

    /// Asks the CPU to fetch what presenting this node reads besides the node itself, ahead of its use:
    /// the reused presentation copy's placement (`placementBytes`: animations that only place the
    /// layer touch nothing else of it), and the packed animations' buffer (its header and its entries)
    /// — separate objects, as scattered as the nodes. (Through their addresses: retaining either would
    /// write to the very memory still being fetched, and wait for it.)
    /// Placed by value (`placingByValue` and `isPlacedByValue`), the node's copy is not read.
    func prefetchForPresenting(placingByValue: Bool = false) {
        if let address = presentationScratchAddress, !(placingByValue && isPlacedByValue) { lk_prefetch(address, Self.placementBytes) }
        if let start = packedAnimationEntries.baseAddress, !packedAnimationEntries.isEmpty {
            lk_prefetch(UnsafeRawPointer(start) - Self.arrayHeaderBytes,
                        Self.arrayHeaderBytes + packedAnimationEntries.count * MemoryLayout<PackedAnimations.Entry>.stride)
        }
    }

    /// How far before its first element an array's buffer object begins (its header and count).
    private static let arrayHeaderBytes = 32

    /// Where the groups of fields end, from the object's start (its header included); a test checks each
    /// against the fields' addresses, so a field added to a group moves them.
    /// The placement group (through `customProperties`).
    static let placementBytes = 256
    /// The frame bookkeeping group (through `resolvedSublayers`).
    static let frameBytes = 448
    /// The `retained` record, which follows it.
    static let recordBytes = 672

    private static func properties(writtenBy records: [AnimationRecord]) -> UInt64? {
        var bits: UInt64 = 0
        for record in records {
            guard let written = record.writtenProperties else { return nil }
            for property in written {
                // A key past the mask's width (should the table grow) makes every frame copy in full.
                guard property.rawValue < UInt64.bitWidth else { return nil }
                bits |= 1 << UInt64(property.rawValue)
            }
        }
        return bits
    }

    /// Sets `property` to `committed`'s value: every property an animation can write through the typed
    /// accessors (`RenderNode+Animation.swift`); the node keeps no others that compiled animations reach.
    private func resetProperty(_ property: LayerPropertyKey, from committed: RenderNode) {
        if placement.reset(property, from: committed.placement) { return }
        switch property {
        case .bounds: bounds = committed.bounds
        case .sublayerTransform: sublayerTransform = committed.sublayerTransform
        case .contentsScale: contentsScale = committed.contentsScale
        case .backgroundColor: backgroundColor = committed.backgroundColor
        case .cornerRadius: cornerRadius = committed.cornerRadius
        case .borderWidth: borderWidth = committed.borderWidth
        case .borderColor: borderColor = committed.borderColor
        case .contentsRect: contentsRect = committed.contentsRect
        case .contentsCenter: contentsCenter = committed.contentsCenter
        case .rasterizationScale: rasterizationScale = committed.rasterizationScale
        case .shadowColor: shadowColor = committed.shadowColor
        case .shadowOpacity: shadowOpacity = committed.shadowOpacity
        case .shadowOffset: shadowOffset = committed.shadowOffset
        case .shadowRadius: shadowRadius = committed.shadowRadius
        case .shadowPath: shadowPath = committed.shadowPath
        case .filters: filters = committed.filters
        case .backgroundFilters: backgroundFilters = committed.backgroundFilters
        default: break
        }
    }

    private func copyProperties(from other: RenderNode) {
        bounds = other.bounds; placement = other.placement; sublayerTransform = other.sublayerTransform
        isGeometryFlipped = other.isGeometryFlipped; contentsScale = other.contentsScale
        cornerRadius = other.cornerRadius; maskedCorners = other.maskedCorners
        borderWidth = other.borderWidth; isOpaque = other.isOpaque; isDoubleSided = other.isDoubleSided
        allowsEdgeAntialiasing = other.allowsEdgeAntialiasing; masksToBounds = other.masksToBounds
        allowsGroupOpacity = other.allowsGroupOpacity
        shouldRasterize = other.shouldRasterize; rasterizationScale = other.rasterizationScale
        contentsRect = other.contentsRect; contentsCenter = other.contentsCenter; mask = other.mask
        beginTime = other.beginTime; timeOffset = other.timeOffset; speed = other.speed
        shadowOpacity = other.shadowOpacity; shadowOffset = other.shadowOffset; shadowRadius = other.shadowRadius
        if shadowColor !== other.shadowColor { shadowColor = other.shadowColor }
        if shadowPath !== other.shadowPath { shadowPath = other.shadowPath }
        if !(filters.isEmpty && other.filters.isEmpty) { filters = other.filters }
        if !(backgroundFilters.isEmpty && other.backgroundFilters.isEmpty) { backgroundFilters = other.backgroundFilters }
        compositingOperation = other.compositingOperation
        // Reference-counted values are stored only when they differ: the reused presentation copy
        // almost always holds the same ones already, and each store costs a retain, a release and an
        // exclusivity check per animated node per frame.
        if backgroundColor !== other.backgroundColor { backgroundColor = other.backgroundColor }
        if borderColor !== other.borderColor { borderColor = other.borderColor }
        if contents !== other.contents { contents = other.contents }
        if transitionSnapshot != nil || other.transitionSnapshot != nil { transitionSnapshot = other.transitionSnapshot }
        if contentsGravity != other.contentsGravity { contentsGravity = other.contentsGravity }
        if minificationFilter != other.minificationFilter { minificationFilter = other.minificationFilter }
        if magnificationFilter != other.magnificationFilter { magnificationFilter = other.magnificationFilter }
        if sublayers != other.sublayers { sublayers = other.sublayers }
        if !(customProperties.isEmpty && other.customProperties.isEmpty) { customProperties = other.customProperties }
        if !animations.elementsEqual(other.animations, by: ===) { animations = other.animations }
    }

    /// The nodes of `sublayers` that `tree` (the tree holding this node) holds, in order. Kept while
    /// neither the list nor the tree's membership changes: looking each sublayer up by ID was a hash, a
    /// probe and a cache miss per layer per frame (about 10 % of a city frame's render thread).
    package func sublayerNodes(in tree: RenderTree) -> [RenderNode] {
        if let resolved = resolvedSublayers, resolved.membership == tree.membership { return resolved.nodes }
        let nodes = sublayers.compactMap { tree[$0] }
        resolvedSublayers = (tree.membership, nodes)
        return nodes
    }

    /// Takes one committed value. Values of the wrong shape are ignored (the model already checked them).
    package func apply(_ key: LayerPropertyKey, _ value: LayerPropertyValue) {
        switch (key, value) {
        case (.bounds, .rect(let v)): bounds = v
        case (.position, .point(let v)): position = v
        case (.zPosition, .float(let v)): zPosition = v
        case (.anchorPoint, .point(let v)): anchorPoint = v
        case (.anchorPointZ, .float(let v)): anchorPointZ = v
        case (.transform, .transform(let v)): transform = v
        case (.sublayerTransform, .transform(let v)): sublayerTransform = v
        case (.isGeometryFlipped, .bool(let v)): isGeometryFlipped = v
        case (.contentsScale, .float(let v)): contentsScale = v
        case (.backgroundColor, .color(let v)): backgroundColor = v
        case (.cornerRadius, .float(let v)): cornerRadius = v
        case (.maskedCorners, .mask(let v)): maskedCorners = v
        case (.borderWidth, .float(let v)): borderWidth = v
        case (.borderColor, .color(let v)): borderColor = v
        case (.opacity, .float(let v)): opacity = v
        case (.isHidden, .bool(let v)): isHidden = v
        case (.isOpaque, .bool(let v)): isOpaque = v
        case (.isDoubleSided, .bool(let v)): isDoubleSided = v
        case (.allowsEdgeAntialiasing, .bool(let v)): allowsEdgeAntialiasing = v
        case (.allowsGroupOpacity, .bool(let v)): allowsGroupOpacity = v
        case (.masksToBounds, .bool(let v)): masksToBounds = v
        case (.shouldRasterize, .bool(let v)): shouldRasterize = v
        case (.rasterizationScale, .float(let v)): rasterizationScale = v
        case (.contents, .image(let v)): contents = v
        case (.contentsGravity, .string(let v)): contentsGravity = v
        case (.contentsRect, .rect(let v)): contentsRect = v
        case (.contentsCenter, .rect(let v)): contentsCenter = v
        case (.minificationFilter, .string(let v)): minificationFilter = v
        case (.magnificationFilter, .string(let v)): magnificationFilter = v
        case (.sublayers, .layers(let v)): sublayers = v
        case (.mask, .layer(let v)): mask = v
        case (.beginTime, .float(let v)): beginTime = Double(v)
        case (.timeOffset, .float(let v)): timeOffset = Double(v)
        case (.speed, .float(let v)): speed = Double(v)
        case (.animations, .animations(let v)): animations = v
        case (.shadowColor, .color(let v)): shadowColor = v
        case (.shadowOpacity, .float(let v)): shadowOpacity = v
        case (.shadowOffset, .size(let v)): shadowOffset = v
        case (.shadowRadius, .float(let v)): shadowRadius = v
        case (.shadowPath, .path(let v)): shadowPath = v
        case (.filters, .filters(let v)): filters = v
        case (.backgroundFilters, .filters(let v)): backgroundFilters = v
        case (.compositingFilter, .string(let v)): compositingOperation = CompositingOperation(filterName: v)
        default: break
        }
    }
}
