import Foundation
import LayerKit

/// The live particles of a `CAEmitterLayer` at one time, worked out in closed form.
///
/// Input: a (presented) emitter node's committed cells (`EmitterCells`) and properties (multipliers,
/// shape, mode, render mode, seed), and the layer's local time t (particles are born from t = 0).
/// Output: every live particle of every enabled cell with an image, grouped by cell (`Group`: one image,
/// one batch), in the order drawn (`renderMode`).
/// Algorithm: a source emits a cell from its emission window [start, end): the layer emits its cells
/// from 0 on; each particle of a cell with sub-cells emits them while it lives, from where it is. With
/// rate r = cell.birthRate × layer.birthRate, particle k of a source is born at start + k / r; it lives
/// L_k = max(0, lifetime + lifetimeRange·u) × layer.lifetime and is alive while its age a lies in
/// [0, L_k). Each spread u ∈ [−1, 1] is a hash of (seed, the particle's lineage, which spread), so a
/// particle never changes its spreads and a frame depends only on the time. Birth point: the emitter's
/// shape at the hash (see `CAEmitterLayer`), or the parent particle's position at that time; direction
/// emissionLongitude + emissionRange·u (0 is +x, y grows down); position p0 + v·a + ½·acc·a²; angle
/// (spin + spinRange·u)·layer.spin·a; scale (scale + scaleRange·u + scaleSpeed·a)·layer.scale; colour
/// clamped (color + range·u + speed·a). A spread whose range is 0 costs no hash.
/// Records: what a particle's spreads decide (birth point, velocity, life, spin, scale and colour
/// spreads) is a `Record`, worked out once in its life when an `EmitterParticleCache` keeps the emitter's
/// records across frames (the emitter's own cells, and up to 64 sub-particles per parent in slots beside
/// it); a frame then only moves each particle along its path. A frame from records is the closed form's
/// bit for bit. Without a cache, or for sub-cells of sub-cells, every particle is worked out afresh.
/// Cost: O(particles born within the longest lifetime of a cell and its sub-cells) per frame: about
/// 25 ns each from records (2.8 ms for the `particles` scene's 100,000 live), about twice that worked out
/// afresh. Memory: a record is 56 bytes, and a parent keeps a sub-cell's slots for its whole longest
/// life (the `particles` scene: about 130 bytes of records per live particle, plus the 44-byte drawn
/// particle and its 256-byte instance). At most `maximumParticles` per emitter are worked out (the
/// oldest are left out beyond).
package struct EmitterParticles {
    /// One drawn particle, in the layer's space (44 bytes).
    package struct Particle {
        package var center: SIMD2<Float>
        /// Its z in the layer's space (drawn only when the layer preserves depth; `backToFront` orders by it).
        package var z: Float
        /// The particle's turn, in radians.
        package var angle: Float
        /// Half its size in the layer's points (its image's size, cropped, times its scale).
        package var halfSize: SIMD2<Float>
        /// Premultiplied.
        package var color: SIMD4<Float>
    }

    /// The particles of one cell: one image, drawn as one batch.
    package struct Group {
        package var image: CGImage
        package var contentsRect: CGRect
        package var minification: String
        package var magnification: String
        package var particles: [Particle] = []
    }

    /// The most particles one emitter works out per frame.
    package static let maximumParticles = 200_000

    package var groups: [Group] = []
    /// Whether particles blend additively (`renderMode` additive).
    package var additive = false
    /// Whether particles are drawn at their z (`preservesDepth`) rather than flattened into the layer.
    package var preservesDepth = false
    /// The order particles are drawn in across groups (group, index), farthest first, when `renderMode`
    /// is `backToFront` and their z differ; nil: group by group, each in its own order.
    package var depthOrder: [(group: Int, index: Int)]?
    /// Whether a later frame may differ: particles live, or a cell still emits.
    package var isActive = false
    /// Particles drawn, over all groups.
    package var count: Int { groups.reduce(0) { $0 + $1.particles.count } }

    /// What every cell's particles share: the layer's multipliers, its shape and seed, the time.
    fileprivate struct Emission {
        var birth = 1.0, life = 1.0, velocity = 1.0, scale = 1.0, spin = 1.0
        var position = SIMD2<Double>.zero, extent = SIMD2<Double>.zero
        /// `emitterZPosition` and `emitterDepth`.
        var zPosition = 0.0, depth = 0.0
        var shape = Shape.point
        var outline = false
        var seed: UInt64 = 0
        var time = 0.0
        /// Where the emitter was at each birth time, when animations move it.
        var history: EmitterPositionHistory?
        /// Particles still allowed this frame (`maximumParticles`, also spent on particles worked out
        /// only for their sub-particles).
        var budget = EmitterParticles.maximumParticles
        /// Whether any cell emits at this time (a later frame may differ).
        var emitted = false
    }

    /// `emitterShape`, parsed once (a string compared per particle would cost more than the particle).
    fileprivate enum Shape: Sendable {
        case point, line, rectangle, cuboid, circle, sphere

        init(_ name: String?) {
            switch name {
            case "line": self = .line
            case "rectangle": self = .rectangle
            case "cuboid": self = .cuboid
            case "circle": self = .circle
            case "sphere": self = .sphere
            default: self = .point
            }
        }
    }

    /// A cell as the loop reads it: plain values only (copying one costs no reference counting), its
    /// sub-cells by index into the plan list.
    fileprivate struct CellPlan: Equatable, Sendable {
        var rate: Double
        var lifetime: Double, lifetimeRange: Double
        /// The longest its particles and their descendants live after it emits them.
        var longest: Double
        var velocity: Double, velocityRange: Double
        var acceleration: SIMD3<Double>
        var emissionLongitude: Double, emissionRange: Double, emissionLatitude: Double
        var spin: Double, spinRange: Double
        var scale: Double, scaleRange: Double, scaleSpeed: Double
        var color: SIMD4<Double>, colorRange: SIMD4<Double>, colorSpeed: SIMD4<Double>
        /// Its group (nil: no image, it only emits), and the image's size after cropping.
        var group: Int?
        var imageSize: SIMD2<Double>
        /// Its enabled sub-cells: plan indices `children` and their positions among its sub-cells (for
        /// the hash lineage).
        var children: Range<Int>
    }

    /// Where a cell's particles are born: the emitter's shape, or a parent particle's path.
    fileprivate enum Source {
        case emitter
        case particle(origin: SIMD3<Double>, velocity: SIMD3<Double>, acceleration: SIMD3<Double>, born: Double)
    }

    /// What a particle keeps from frame to frame: everything its spreads decide, so a later frame only
    /// moves it along its path. 56 bytes: a frame walks every live particle's record, so they are kept in
    /// `Float` (the drawn particle is `Float` anyway) except the life, which decides births and deaths
    /// against times in `Double`.
    struct Record: Sendable {
        var origin: SIMD2<Float>
        var velocity: SIMD2<Float>
        var originZ: Float
        var velocityZ: Float
        var life: Double
        /// (spin + spinRange·u) × the layer's spin.
        var spinRate: Float
        /// scale + scaleRange·u: the scale at birth, before the layer's multiplier.
        var scale: Float
        /// colorRange·u, per channel.
        var colorSpread: SIMD4<Float>

        /// Where it is `age` seconds after its birth, under `acceleration` (x, y) and `accelerationZ`.
        @inline(__always)
        func position(at age: Float, acceleration: SIMD2<Float>, accelerationZ: Float) -> (xy: SIMD2<Float>, z: Float) {
            let half = 0.5 * age * age
            return (origin + velocity * age + acceleration * half, originZ + velocityZ * age + accelerationZ * half)
        }
    }

    /// The records of one of the emitter's own cells, particle numbers `first ..< first + count`, oldest
    /// first, and beside each the records of its sub-cells' particles: a block of `childCapacities[c]`
    /// slots per sub-cell c (sub-particle j in slot j, `childRecorded` of them worked out so far; a
    /// capacity of 0 leaves that sub-cell to be worked out afresh each frame).
    package struct Records: Sendable {
        /// The hash lineage of the emitter's particles of this cell (`ParticleSpreads`).
        let lineage: UInt64
        private(set) var first = 0
        /// Where particle `first` is in `storage`: forgotten records are dropped from the front in bulk.
        private var head = 0
        private var storage: [Record] = []
        /// Slots per parent particle, for each sub-cell.
        let childCapacities: [Int]
        private let childStride: Int
        /// `childStride` slots per parent record, parallel to `storage`.
        private var childStorage: [Record] = []
        /// How many slots of each sub-cell's block are worked out, `childCapacities.count` per parent record.
        private var childRecorded: [Int32] = []

        init(lineage: UInt64, childCapacities: [Int]) {
            self.lineage = lineage
            self.childCapacities = childCapacities
            childStride = childCapacities.reduce(0, +)
        }

        var count: Int { storage.count - head }

        /// Records held, sub-particles' included.
        package var recordCount: Int {
            count + childRecorded[(head * childCapacities.count)...].reduce(0) { $0 + Int($1) }
        }

        /// Forgets the particles numbered below `oldest` (and their sub-particles); all of them when time
        /// went back past the first.
        mutating func keep(from oldest: Int) {
            guard count > 0, oldest >= first, oldest - first < count else {
                storage.removeAll(keepingCapacity: true)
                childStorage.removeAll(keepingCapacity: true)
                childRecorded.removeAll(keepingCapacity: true)
                head = 0
                first = oldest
                return
            }
            head += oldest - first
            first = oldest
            if head >= 64 && head * 2 >= storage.count {
                storage.removeFirst(head)
                childStorage.removeFirst(head * childStride)
                childRecorded.removeFirst(head * childCapacities.count)
                head = 0
            }
        }

        /// Adds particle `first + count`, with empty sub-cell blocks.
        mutating func append(_ record: Record) {
            storage.append(record)
            if childStride > 0 { childStorage.append(contentsOf: repeatElement(record, count: childStride)) }
            if !childCapacities.isEmpty { childRecorded.append(contentsOf: repeatElement(0, count: childCapacities.count)) }
        }

        /// Calls `body` with each particle number in `numbers` (all recorded), its record and its sub-cell
        /// blocks (nil without sub-cells), in place.
        mutating func withRecords(_ numbers: ClosedRange<Int>, _ body: (Int, UnsafeMutablePointer<Record>, ChildSlots?) -> Void) {
            precondition(numbers.lowerBound >= first && numbers.upperBound < first + count, "particles recorded")
            let offset = head - first
            let (capacities, stride) = (childCapacities, childStride)
            storage.withUnsafeMutableBufferPointer { records in
                childStorage.withUnsafeMutableBufferPointer { children in
                    childRecorded.withUnsafeMutableBufferPointer { recorded in
                        for k in numbers {
                            let index = k + offset
                            let slots = capacities.isEmpty ? nil
                                : ChildSlots(records: children.baseAddress.map { $0 + index * stride },
                                             recorded: recorded.baseAddress! + index * capacities.count, capacities: capacities)
                            body(k, records.baseAddress! + index, slots)
                        }
                    }
                }
            }
        }
    }

    /// One parent particle's sub-cell blocks, in place (`Records`).
    struct ChildSlots {
        /// The first slot of sub-cell 0's block (nil when no sub-cell keeps records).
        let records: UnsafeMutablePointer<Record>?
        let recorded: UnsafeMutablePointer<Int32>
        let capacities: [Int]
    }

    /// The hash lineage of a cell's particles from one source, worked out only when a particle's spreads
    /// are (a recorded particle needs none).
    private struct Lineage {
        private let parent: UInt64, particle: Int, subcell: UInt64?

        /// The emitter's own cell at position `slot`.
        init(_ slot: UInt64) {
            (parent, particle, subcell) = (slot, 0, nil)
        }

        /// Sub-cell `subcell` of `particle` of a cell of lineage `parent`.
        init(parent: Lineage, particle: Int, subcell: UInt64) {
            (self.parent, self.particle, self.subcell) = (parent.value, particle, subcell)
        }

        var value: UInt64 {
            subcell.map { EmitterParticles.lineage(parent, particle: UInt64(particle), subcell: $0) } ?? parent
        }
    }

    /// Where a cell's particle records live, if anywhere.
    private enum RecordStorage {
        /// Worked out afresh.
        case none
        /// One of the emitter's own cells: records carried across frames.
        case emitted(UnsafeMutablePointer<Records>)
        /// A sub-cell of a recorded parent particle: sub-particle j in `records[j]`, j < `capacity`.
        case slots(records: UnsafeMutablePointer<Record>, recorded: UnsafeMutablePointer<Int32>, capacity: Int)
    }

    /// The slots each sub-cell of `cell` keeps per particle of `cell`.
    private static func childCapacities(of cell: CellPlan, plans: [CellPlan], childSlots: [UInt64], life: Double) -> [Int] {
        let parentLife = max(cell.lifetime + abs(cell.lifetimeRange), 0) * life
        return stride(from: cell.children.lowerBound, to: cell.children.upperBound, by: 2).map {
            childCapacity(rate: plans[Int(childSlots[$0 + 1])].rate, parentLife: parentLife)
        }
    }

    /// The slots a sub-cell keeps per parent particle: all it emits in the parent's longest life, when
    /// that is few (more are worked out afresh each frame).
    private static func childCapacity(rate: Double, parentLife: Double) -> Int {
        let most = (rate * parentLife).rounded(.up) + 1
        return most.isFinite && most >= 0 && most <= 64 ? Int(most) : 0
    }

    /// What emitters' records are made under: they carry over to a frame only when it is unchanged.
    package struct RecordKey: Equatable, Sendable {
        fileprivate var plans: [CellPlan]
        fileprivate var roots: [UInt64]
        fileprivate var seed: UInt64
        fileprivate var position: SIMD2<Double>, extent: SIMD2<Double>
        fileprivate var shape: Shape
        fileprivate var outline: Bool
        fileprivate var multipliers: SIMD8<Double>

        fileprivate init(plans: [CellPlan], roots: [UInt64], emission: Emission) {
            self.plans = plans
            self.roots = roots
            seed = emission.seed
            position = emission.position
            extent = emission.extent
            shape = emission.shape
            outline = emission.outline
            multipliers = SIMD8(emission.birth, emission.life, emission.velocity, emission.scale, emission.spin, emission.zPosition,
                                emission.depth, 0)
        }
    }

    /// The particles of `node` (presented) at its local time `time`, or nil when it is no emitter; with
    /// `committed`, particles are born where the emitter was at their birth (`EmitterPositionHistory`).
    package init?(of node: RenderNode, committed: RenderNode? = nil, at time: Double, cache: EmitterParticleCache? = nil) {
        guard node.renderKind == .emitter else { return nil }
        let properties = node.customProperties
        guard case .discrete(let held)? = properties["emitterCells"], let emitter = held.value as? EmitterCells else { return }
        func number(_ key: String, _ fallback: Double) -> Double {
            properties.number(key).flatMap { $0.isFinite ? $0 : nil } ?? fallback
        }
        var emission = Emission()
        emission.birth = max(number("birthRate", 1), 0)
        emission.life = max(number("lifetime", 1), 0)
        emission.velocity = number("velocity", 1)
        emission.scale = number("scale", 1)
        emission.spin = number("spin", 1)
        if case .point(let p)? = properties["emitterPosition"], p.x.isFinite, p.y.isFinite { emission.position = SIMD2(p.x, p.y) }
        if case .size(let s)? = properties["emitterSize"], s.width.isFinite, s.height.isFinite { emission.extent = SIMD2(s.width, s.height) }
        emission.zPosition = number("emitterZPosition", 0)
        emission.depth = number("emitterDepth", 0)
        preservesDepth = properties.bool("preservesDepth") == true
        emission.shape = Shape(properties.string("emitterShape"))
        emission.outline = properties.string("emitterMode") == "outline"
        let render = properties.string("renderMode") ?? "unordered"
        additive = render == "additive"
        emission.seed = UInt64(max(0, min(number("seed", 0), Double(UInt32.max))))
        emission.time = time
        emission.history = committed.flatMap(EmitterPositionHistory.init)
        guard time >= 0 else { return }

        var plans: [CellPlan] = []
        var childSlots: [UInt64] = []
        let roots = plan(emitter.cells, emission: emission, into: &plans, childSlots: &childSlots)
        // Room for the steady state up front, so growing the arrays copies nothing.
        reserve(roots.map(\.index), emitters: 1, plans: plans, childSlots: childSlots)
        // Records carry over from the last frame under the same key, unless an animation moves the
        // emitter (each birth is then placed by the position history, which commits may change).
        let key = RecordKey(plans: plans, roots: roots.map(\.slot), emission: emission)
        let keepsRecords = emission.history == nil
        var records = (keepsRecords ? cache?.take(node.id, key: key) : nil) ?? roots.map { root in
            Records(lineage: root.slot,
                    childCapacities: Self.childCapacities(of: plans[root.index], plans: plans, childSlots: childSlots, life: emission.life))
        }
        plans.withUnsafeBufferPointer { plans in
            childSlots.withUnsafeBufferPointer { childSlots in
                groups.withUnsafeMutableBufferPointer { groups in
                    records.withUnsafeMutableBufferPointer { records in
                        for (root, (slot, index)) in roots.enumerated() {
                            Self.emit(index, from: .emitter, window: 0..<Double.infinity, lineage: Lineage(slot), records: .emitted(records.baseAddress! + root),
                                      plans: plans, childSlots: childSlots, into: groups, emission: &emission)
                        }
                    }
                }
            }
        }
        isActive = emission.emitted
        if keepsRecords { cache?.store(records, key: key, for: node.id) }
        if render == "backToFront" { depthOrder = Self.backToFront(groups) }
        // Born in order within a group: oldest first. Oldest last draws the newest underneath.
        if render == "oldestLast" {
            groups.reverse()
            for index in groups.indices { groups[index].particles.reverse() }
        }
    }

    /// Reserves, in each group, the particles plans `indices` have alive at most in steady state when
    /// `emitters` sources emit each: rate × lifetime, times their sources' own counts.
    private mutating func reserve(_ indices: [Int], emitters: Double, plans: [CellPlan], childSlots: [UInt64]) {
        for index in indices {
            let cell = plans[index]
            let alive = min(emitters * cell.rate * max(cell.lifetime + abs(cell.lifetimeRange), 0), Double(Self.maximumParticles))
            guard alive.isFinite, alive > 0 else { continue }
            if let group = cell.group {
                groups[group].particles.reserveCapacity(min(groups[group].particles.capacity + Int(alive.rounded(.up)), Self.maximumParticles))
            }
            let children = stride(from: cell.children.lowerBound, to: cell.children.upperBound, by: 2).map { Int(childSlots[$0 + 1]) }
            reserve(children, emitters: alive, plans: plans, childSlots: childSlots)
        }
    }

    /// (cos θ, sin θ), to about 1e-7: a polynomial after reduction to [−π/2, π/2], several times cheaper
    /// than the C library's pair (particles need no more: 1e-7 of a 1,000-point flight is 1e-4 points).
    @inline(__always)
    static func unitVector(at angle: Double) -> SIMD2<Double> {
        // θ = 2πn + r, r ∈ [−π, π]; sin and cos of r from sin on [−π/2, π/2] by symmetry.
        let r = angle - (angle * (0.5 / .pi)).rounded() * (2 * .pi)
        func sine(_ x: Double) -> Double {
            // sin on [−π, π]: fold to [−π/2, π/2] (sin(π − x) = sin x), then odd Taylor terms to x¹³.
            let y = x > .pi / 2 ? .pi - x : (x < -.pi / 2 ? -.pi - x : x)
            let y2 = y * y
            return y * (1 + y2 * (-1.0 / 6 + y2 * (1.0 / 120 + y2 * (-1.0 / 5040 + y2 * (1.0 / 362_880
                + y2 * (-1.0 / 39_916_800 + y2 * (1.0 / 6_227_020_800)))))))
        }
        let shifted = r + .pi / 2
        return SIMD2(sine(shifted > .pi ? shifted - 2 * .pi : shifted), sine(r))
    }

    /// Adds the plans of the enabled `cells` (their sub-cells after them, each cell's group made as its
    /// plan is), and returns each one's position among `cells` and plan index.
    private mutating func plan(_ cells: [EmitterCellValue], emission: Emission, into plans: inout [CellPlan],
                               childSlots: inout [UInt64]) -> [(slot: UInt64, index: Int)] {
        var made: [(slot: UInt64, index: Int)] = []
        for (slot, cell) in cells.enumerated() where cell.isEnabled {
            var group: Int?
            var imageSize = SIMD2<Double>.zero
            if let image = cell.contents {
                group = groups.count
                groups.append(Group(image: image, contentsRect: cell.contentsRect, minification: cell.minificationFilter,
                                    magnification: cell.magnificationFilter))
                imageSize = SIMD2(Double(image.width) * cell.contentsRect.width, Double(image.height) * cell.contentsRect.height)
            }
            let index = plans.count
            plans.append(CellPlan(
                rate: cell.birthRate * emission.birth, lifetime: cell.lifetime, lifetimeRange: cell.lifetimeRange,
                longest: Self.longestLife(of: cell, multiplier: emission.life),
                velocity: cell.velocity, velocityRange: cell.velocityRange, acceleration: cell.acceleration,
                emissionLongitude: cell.emissionLongitude, emissionRange: cell.emissionRange, emissionLatitude: cell.emissionLatitude,
                spin: cell.spin, spinRange: cell.spinRange, scale: cell.scale, scaleRange: cell.scaleRange, scaleSpeed: cell.scaleSpeed,
                color: cell.color, colorRange: cell.colorRange, colorSpeed: cell.colorSpeed,
                group: group, imageSize: imageSize, children: 0..<0))
            made.append((UInt64(slot), index))
            let children = plan(cell.subcells, emission: emission, into: &plans, childSlots: &childSlots)
            // Children are listed contiguously in `childSlots`/`childPlans`: slot, then plan index.
            let first = childSlots.count
            for child in children { childSlots += [child.slot, UInt64(child.index)] }
            plans[index].children = first..<childSlots.count
        }
        return made
    }

    /// Emits plan `index` from `source` over `window` (emitter time): adds the live particles to the
    /// cell's group and recurses into its sub-cells for every particle whose descendants may still live.
    /// With `records` (the emitter's own cells), the particles' records are kept across frames: those
    /// born since the last frame are added, those past their descendants' longest life forgotten.
    /// Without (sub-cells, whose particles are few per parent), each is worked out afresh.
    private static func emit(_ index: Int, from source: Source, window: Range<Double>, lineage: Lineage, records: RecordStorage,
                             plans: UnsafeBufferPointer<CellPlan>, childSlots: UnsafeBufferPointer<UInt64>,
                             into groups: UnsafeMutableBufferPointer<Group>, emission: inout Emission) {
        // Read in place: a plan is a few hundred bytes, and sub-cells come here once per parent particle.
        let cell = plans.baseAddress! + index
        let rate = cell.pointee.rate
        let t = emission.time
        guard rate > 0, cell.pointee.longest > 0, rate.isFinite, cell.pointee.longest.isFinite, window.lowerBound <= t, emission.budget > 0 else { return }
        emission.emitted = true
        // Particle numbers in Double first: hostile rates and times must not overflow an Int.
        let lastBorn = min(t, window.upperBound)
        var newestNumber = ((lastBorn - window.lowerBound) * rate).rounded(.down)
        if window.lowerBound + newestNumber / rate >= window.upperBound { newestNumber -= 1 }
        newestNumber = min(newestNumber, 1e15)
        let oldestNumber = max(0, ((t - window.lowerBound - cell.pointee.longest) * rate).rounded(.up))
        guard newestNumber.isFinite, oldestNumber.isFinite, newestNumber >= oldestNumber else { return }
        let newest = Int(newestNumber)
        let oldest = max(Int(oldestNumber), newest - emission.budget + 1)
        guard oldest <= newest else { return }
        emission.budget -= newest - oldest + 1

        let hasChildren = !cell.pointee.children.isEmpty
        // What every particle of the cell shares, in the `Float` the drawn particle takes.
        let acceleration = SIMD2<Float>(Float(cell.pointee.acceleration.x), Float(cell.pointee.acceleration.y))
        let accelerationZ = Float(cell.pointee.acceleration.z)
        let (baseColor, colorSpeed) = (SIMD4<Float>(cell.pointee.color), SIMD4<Float>(cell.pointee.colorSpeed))
        let spreadsColor = cell.pointee.colorRange != .zero
        let (scaleSpeed, layerScale) = (Float(cell.pointee.scaleSpeed), Float(emission.scale))
        let halfImage = SIMD2<Float>(cell.pointee.imageSize) / 2
        func draw(_ k: Int, _ record: Record, children: ChildSlots?, emission: inout Emission) {
            let birth = window.lowerBound + Double(k) / rate
            let age = t - birth
            let alive = age >= 0 && age < record.life
            guard alive || hasChildren else { return }
            if hasChildren {
                let sub = Source.particle(origin: SIMD3(Double(record.origin.x), Double(record.origin.y), Double(record.originZ)),
                                          velocity: SIMD3(Double(record.velocity.x), Double(record.velocity.y), Double(record.velocityZ)),
                                          acceleration: cell.pointee.acceleration, born: birth)
                var offset = 0
                for (child, slot) in stride(from: cell.pointee.children.lowerBound, to: cell.pointee.children.upperBound, by: 2).enumerated() {
                    var storage = RecordStorage.none
                    if let children, let first = children.records, children.capacities[child] > 0 {
                        storage = .slots(records: first + offset, recorded: children.recorded + child, capacity: children.capacities[child])
                        offset += children.capacities[child]
                    }
                    emit(Int(childSlots[slot + 1]), from: sub, window: birth..<(birth + record.life),
                         lineage: Lineage(parent: lineage, particle: k, subcell: childSlots[slot]), records: storage,
                         plans: plans, childSlots: childSlots, into: groups, emission: &emission)
                }
            }
            guard alive, let group = cell.pointee.group else { return }
            let a = Float(age)
            let scale = (record.scale + scaleSpeed * a) * layerScale
            var color = baseColor + colorSpeed * a
            if spreadsColor { color += record.colorSpread }
            color = simd_clamp01(color)
            guard scale > 0, color.w > 0 else { return }
            let position = record.position(at: a, acceleration: acceleration, accelerationZ: accelerationZ)
            let half = halfImage * scale
            // One test for all five: a NaN or infinity in any makes the sum non-finite (so does a sum past
            // Float's range, whose particle could not be drawn either).
            guard (position.xy.x + position.xy.y + position.z + half.x + half.y).isFinite else { return }
            groups[group].particles.append(Particle(
                center: position.xy, z: position.z, angle: record.spinRate * a, halfSize: half,
                color: SIMD4(color.x * color.w, color.y * color.w, color.z * color.w, color.w)))
        }

        switch records {
        case .emitted(let records):
            records.pointee.keep(from: oldest)
            let unrecorded = max(records.pointee.first + records.pointee.count, oldest)
            if unrecorded <= newest {
                for k in unrecorded...newest {
                    records.pointee.append(Self.record(k, of: cell.pointee, from: source, window: window, lineage: lineage.value, emission: emission))
                }
            }
            records.pointee.withRecords(oldest...newest) { k, record, children in draw(k, record.pointee, children: children, emission: &emission) }
        case let .slots(records, recorded, capacity) where newest < capacity:
            var count = Int(recorded.pointee)
            while count <= newest {
                records[count] = Self.record(count, of: cell.pointee, from: source, window: window, lineage: lineage.value, emission: emission)
                count += 1
            }
            recorded.pointee = Int32(count)
            for k in oldest...newest { draw(k, records[k], children: nil, emission: &emission) }
        case .slots, .none:
            for k in oldest...newest {
                draw(k, Self.record(k, of: cell.pointee, from: source, window: window, lineage: lineage.value, emission: emission), children: nil,
                     emission: &emission)
            }
        }
    }

    /// Particle `k` of `cell` from `source`: everything its spreads decide, worked out once in its life.
    @inline(__always)
    private static func record(_ k: Int, of cell: CellPlan, from source: Source, window: Range<Double>, lineage: UInt64,
                               emission: borrowing Emission) -> Record {
        let spreads = ParticleSpreads(seed: emission.seed, lineage: lineage, particle: UInt64(k))
        let birth = window.lowerBound + Double(k) / cell.rate
        let life = max(0, cell.lifetime + cell.lifetimeRange * spreads.value(0, if: cell.lifetimeRange)) * emission.life
        let origin: SIMD3<Double>
        switch source {
        case .emitter:
            origin = birthPoint(emission, center: emission.history?.position(at: birth) ?? emission.position, spreads)
        case let .particle(parentOrigin, parentVelocity, parentAcceleration, parentBorn):
            let s = birth - parentBorn
            origin = parentOrigin + parentVelocity * s + parentAcceleration * (0.5 * s * s)
        }
        let speed = (cell.velocity + cell.velocityRange * spreads.value(3, if: cell.velocityRange)) * emission.velocity
        let direction = cell.emissionLongitude + cell.emissionRange * spreads.value(4, if: cell.emissionRange)
        var colorSpread = SIMD4<Double>.zero
        if cell.colorRange != .zero {
            colorSpread = cell.colorRange * SIMD4(spreads.value(7), spreads.value(8), spreads.value(9), spreads.value(10))
        }
        // Latitude lifts the direction out of the xy plane (exactly flat at 0).
        let flat = unitVector(at: direction)
        let velocity = cell.emissionLatitude == 0 ? SIMD3(flat * speed, 0)
            : { let lifted = unitVector(at: cell.emissionLatitude); return SIMD3(flat * (speed * lifted.x), speed * lifted.y) }()
        return Record(origin: SIMD2<Float>(Float(origin.x), Float(origin.y)), velocity: SIMD2<Float>(Float(velocity.x), Float(velocity.y)),
                      originZ: Float(origin.z), velocityZ: Float(velocity.z), life: life,
                      spinRate: Float((cell.spin + cell.spinRange * spreads.value(6, if: cell.spinRange)) * emission.spin),
                      scale: Float(cell.scale + cell.scaleRange * spreads.value(5, if: cell.scaleRange)),
                      colorSpread: SIMD4<Float>(colorSpread))
    }

    /// The longest a particle of `cell` and its descendants (sub-particles, to any depth) live after it
    /// is emitted.
    private static func longestLife(of cell: EmitterCellValue, multiplier: Double) -> Double {
        max(cell.lifetime + abs(cell.lifetimeRange), 0) * multiplier + longestDescendantLife(of: cell, multiplier: multiplier)
    }

    /// The longest any particle of `cell`'s sub-cells (to any depth) lives after its parent emitted it.
    private static func longestDescendantLife(of cell: EmitterCellValue, multiplier: Double) -> Double {
        cell.subcells.reduce(0) { longest, subcell in
            max(longest, max(subcell.lifetime + abs(subcell.lifetimeRange), 0) * multiplier + longestDescendantLife(of: subcell, multiplier: multiplier))
        }
    }

    /// The hash lineage of sub-cell `subcell`'s particles emitted by `particle` of `parent`.
    private static func lineage(_ parent: UInt64, particle: UInt64, subcell: UInt64) -> UInt64 {
        ParticleSpreads.mix(parent &* 0x9E37_79B9_7F4A_7C15 ^ particle &* 0xD6E8_FEB8_6659_FD93 ^ (subcell &+ 1) &* 0xBF58_476D_1CE4_E5B9)
    }

    /// Where a particle is born: in (or, for `outline`, on the edge of) the emitter's shape, centred on
    /// (`center`, `emitterZPosition`).
    @inline(__always)
    private static func birthPoint(_ emission: borrowing Emission, center: SIMD2<Double>, _ spreads: ParticleSpreads) -> SIMD3<Double> {
        let w = emission.extent.x
        let z = emission.zPosition
        switch emission.shape {
        case .line:
            return SIMD3(center + SIMD2(spreads.value(1) * w / 2, 0), z)
        case .rectangle:
            return SIMD3(rectanglePoint(emission, center: center, spreads), z)
        case .cuboid:
            return SIMD3(rectanglePoint(emission, center: center, spreads), z + spreads.value(11) * emission.depth / 2)
        case .circle:
            let a = spreads.value(1), b = spreads.value(2)
            let radius = w / 2
            let angle = (a + 1) * .pi
            let r = emission.outline ? radius : radius * ((b + 1) / 2).squareRoot()
            return SIMD3(center + unitVector(at: angle) * r, z)
        case .sphere:
            // Uniform in the ball (on the sphere for `outline`): a uniform cosine of the polar angle, a
            // uniform azimuth, and a radius by the cube root of a uniform fraction of the volume.
            let a = spreads.value(1), b = spreads.value(2), c = spreads.value(11)
            let radius = w / 2
            let r = emission.outline ? radius : radius * Foundation.cbrt((b + 1) / 2)
            let around = unitVector(at: (a + 1) * .pi) * (max(0, 1 - c * c).squareRoot() * r)
            return SIMD3(center + around, z + c * r)
        case .point:
            return SIMD3(center, z)
        }
    }

    /// A point in (or, for `outline`, on the perimeter of) the `emitterSize` rectangle about `center`.
    @inline(__always)
    private static func rectanglePoint(_ emission: borrowing Emission, center: SIMD2<Double>, _ spreads: ParticleSpreads) -> SIMD2<Double> {
        let (w, h) = (emission.extent.x, emission.extent.y)
        let a = spreads.value(1), b = spreads.value(2)
        guard emission.outline else { return center + SIMD2(a * w / 2, b * h / 2) }
        // A point on the perimeter, edges in proportion to their length.
        let perimeter = 2 * (w + h)
        guard perimeter > 0 else { return center }
        var s = (a + 1) / 2 * perimeter
        if s < w { return center + SIMD2(-w / 2 + s, -h / 2) }
        s -= w
        if s < h { return center + SIMD2(w / 2, -h / 2 + s) }
        s -= h
        if s < w { return center + SIMD2(w / 2 - s, h / 2) }
        return center + SIMD2(-w / 2, h / 2 - (s - w))
    }

    /// The draw order of `groups`' particles by z, farthest (least z) first, ties in group and birth
    /// order (the stable sort sublayers are drawn in); nil when every particle has the same z (the groups'
    /// own order is then back to front).
    private static func backToFront(_ groups: [Group]) -> [(group: Int, index: Int)]? {
        guard let firstZ = groups.lazy.compactMap(\.particles.first?.z).first,
              groups.contains(where: { $0.particles.contains { $0.z != firstZ } }) else { return nil }
        var order: [(group: Int, index: Int, z: Float)] = []
        order.reserveCapacity(groups.reduce(0) { $0 + $1.particles.count })
        for (group, cell) in groups.enumerated() {
            for (index, particle) in cell.particles.enumerated() { order.append((group, index, particle.z)) }
        }
        return RenderGraphBuilder.backToFront(order, zPosition: { CGFloat($0.z) }).map { ($0.group, $0.index) }
    }
}

/// `value` clamped to 0…1 per component (`SIMD.clamped` is slower here, unspecialised).
@inline(__always)
private func simd_clamp01(_ value: SIMD4<Float>) -> SIMD4<Float> {
    SIMD4(min(max(value.x, 0), 1), min(max(value.y, 0), 1), min(max(value.z, 0), 1), min(max(value.w, 0), 1))
}

/// A particle's spreads: value i ∈ [−1, 1] is SplitMix64's output i of a stream keyed by (seed, lineage,
/// particle), computed on its own, so a spread whose range is 0 need not be drawn and the others keep
/// their values.
struct ParticleSpreads {
    private let base: UInt64

    @inline(__always)
    init(seed: UInt64, lineage: UInt64, particle: UInt64) {
        base = seed &* 0x9E37_79B9_7F4A_7C15 ^ lineage &* 0xBF58_476D_1CE4_E5B9 ^ particle &* 0x94D0_49BB_1331_11EB
    }

    /// Spread `index`.
    @inline(__always)
    func value(_ index: UInt64) -> Double {
        let z = Self.mix(base &+ (index &+ 1) &* 0x9E37_79B9_7F4A_7C15)
        return Double(z >> 11) * (2.0 / Double(1 << 53)) - 1
    }

    /// Spread `index` where `range` scales it, else 0 without hashing.
    @inline(__always)
    func value(_ index: UInt64, if range: Double) -> Double {
        range == 0 ? 0 : value(index)
    }

    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
