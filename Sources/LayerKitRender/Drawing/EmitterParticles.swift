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
/// Cost: O(particles born within the longest lifetime of a cell and its sub-cells) per frame, about
/// 30 ns each; at most `maximumParticles` per emitter are worked out (the oldest are left out beyond).
package struct EmitterParticles {
    /// One drawn particle, in the layer's space (40 bytes).
    package struct Particle {
        package var center: SIMD2<Float>
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
    /// Whether a later frame may differ: particles live, or a cell still emits.
    package var isActive = false
    /// Particles drawn, over all groups.
    package var count: Int { groups.reduce(0) { $0 + $1.particles.count } }

    /// What every cell's particles share: the layer's multipliers, its shape and seed, the time.
    private struct Emission {
        var birth = 1.0, life = 1.0, velocity = 1.0, scale = 1.0, spin = 1.0
        var position = SIMD2<Double>.zero, extent = SIMD2<Double>.zero
        var shape = Shape.point
        var outline = false
        var seed: UInt64 = 0
        var time = 0.0
        /// Where the emitter was at each birth time, when animations move it.
        var history: EmitterPositionHistory?
        /// Particles still allowed this frame (`maximumParticles`, also spent on particles worked out
        /// only for their sub-particles).
        var budget = EmitterParticles.maximumParticles
    }

    /// `emitterShape`, parsed once (a string compared per particle would cost more than the particle).
    private enum Shape {
        case point, line, rectangle, circle

        init(_ name: String?) {
            switch name {
            case "line": self = .line
            case "rectangle", "cuboid": self = .rectangle
            case "circle", "sphere": self = .circle
            default: self = .point
            }
        }
    }

    /// A cell as the loop reads it: plain values only (copying one costs no reference counting), its
    /// sub-cells by index into the plan list.
    private struct CellPlan {
        var rate: Double
        var lifetime: Double, lifetimeRange: Double
        /// The longest its particles and their descendants live after it emits them.
        var longest: Double
        var velocity: Double, velocityRange: Double
        var acceleration: SIMD2<Double>
        var emissionLongitude: Double, emissionRange: Double
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
    private enum Source {
        case emitter
        case particle(origin: SIMD2<Double>, velocity: SIMD2<Double>, acceleration: SIMD2<Double>, born: Double)
    }

    /// The particles of `node` (presented) at its local time `time`, or nil when it is no emitter; with
    /// `committed`, particles are born where the emitter was at their birth (`EmitterPositionHistory`).
    package init?(of node: RenderNode, committed: RenderNode? = nil, at time: Double) {
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
        for (slot, index) in roots {
            emit(index, lineage: slot, from: .emitter, window: 0..<Double.infinity, plans: plans, childSlots: childSlots,
                 emission: &emission)
        }
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
                emissionLongitude: cell.emissionLongitude, emissionRange: cell.emissionRange,
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

    /// Emits plan `index` from `source` over `window` (emitter time), adding live particles to its group
    /// and recursing into its sub-cells for every particle whose descendants may still live.
    private mutating func emit(_ index: Int, lineage: UInt64, from source: Source, window: Range<Double>, plans: [CellPlan],
                               childSlots: [UInt64], emission: inout Emission) {
        let cell = plans[index]
        let rate = cell.rate
        let t = emission.time
        guard rate > 0, cell.longest > 0, rate.isFinite, cell.longest.isFinite, window.lowerBound <= t, emission.budget > 0 else { return }
        isActive = true
        // Particle numbers in Double first: hostile rates and times must not overflow an Int.
        let lastBorn = min(t, window.upperBound)
        var newestNumber = ((lastBorn - window.lowerBound) * rate).rounded(.down)
        if window.lowerBound + newestNumber / rate >= window.upperBound { newestNumber -= 1 }
        newestNumber = min(newestNumber, 1e15)
        let oldestNumber = max(0, ((t - window.lowerBound - cell.longest) * rate).rounded(.up))
        guard newestNumber.isFinite, oldestNumber.isFinite, newestNumber >= oldestNumber else { return }
        let newest = Int(newestNumber)
        let oldest = max(Int(oldestNumber), newest - emission.budget + 1)
        guard oldest <= newest else { return }
        emission.budget -= newest - oldest + 1

        let hasChildren = !cell.children.isEmpty
        for k in oldest...newest {
            let spreads = ParticleSpreads(seed: emission.seed, lineage: lineage, particle: UInt64(k))
            let birth = window.lowerBound + Double(k) / rate
            let age = t - birth
            let life = max(0, cell.lifetime + cell.lifetimeRange * spreads.value(0, if: cell.lifetimeRange)) * emission.life
            let alive = age >= 0 && age < life
            guard alive || hasChildren else { continue }
            let origin: SIMD2<Double>
            switch source {
            case .emitter:
                origin = Self.birthPoint(emission, center: emission.history?.position(at: birth) ?? emission.position, spreads)
            case let .particle(parentOrigin, parentVelocity, parentAcceleration, parentBorn):
                let s = birth - parentBorn
                origin = parentOrigin + parentVelocity * s + parentAcceleration * (0.5 * s * s)
            }
            let speed = (cell.velocity + cell.velocityRange * spreads.value(3, if: cell.velocityRange)) * emission.velocity
            let direction = cell.emissionLongitude + cell.emissionRange * spreads.value(4, if: cell.emissionRange)
            let velocity = Self.unitVector(at: direction) * speed
            if hasChildren {
                let sub = Source.particle(origin: origin, velocity: velocity, acceleration: cell.acceleration, born: birth)
                for slot in stride(from: cell.children.lowerBound, to: cell.children.upperBound, by: 2) {
                    emit(Int(childSlots[slot + 1]), lineage: Self.lineage(lineage, particle: UInt64(k), subcell: childSlots[slot]),
                         from: sub, window: birth..<(birth + life), plans: plans, childSlots: childSlots, emission: &emission)
                }
            }
            guard alive, let group = cell.group else { continue }
            let scale = (cell.scale + cell.scaleRange * spreads.value(5, if: cell.scaleRange) + cell.scaleSpeed * age) * emission.scale
            var color = cell.color + cell.colorSpeed * age
            if cell.colorRange != .zero {
                color += cell.colorRange * SIMD4(spreads.value(7), spreads.value(8), spreads.value(9), spreads.value(10))
            }
            color = simd_clamp01(color)
            guard scale > 0, color.w > 0 else { continue }
            let position = origin + velocity * age + cell.acceleration * (0.5 * age * age)
            let spin = (cell.spin + cell.spinRange * spreads.value(6, if: cell.spinRange)) * emission.spin
            let half = cell.imageSize * (scale / 2)
            guard position.x.isFinite, position.y.isFinite, half.x.isFinite, half.y.isFinite else { continue }
            groups[group].particles.append(Particle(
                center: SIMD2<Float>(position), angle: Float(spin * age), halfSize: SIMD2<Float>(half),
                color: SIMD4<Float>(SIMD4(color.x * color.w, color.y * color.w, color.z * color.w, color.w))))
        }
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

    /// Where a particle is born: in (or, for `outline`, on the edge of) the emitter's shape.
    @inline(__always)
    private static func birthPoint(_ emission: borrowing Emission, center: SIMD2<Double>, _ spreads: ParticleSpreads) -> SIMD2<Double> {
        let (w, h) = (emission.extent.x, emission.extent.y)
        switch emission.shape {
        case .line:
            return center + SIMD2(spreads.value(1) * w / 2, 0)
        case .rectangle:
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
        case .circle:
            let a = spreads.value(1), b = spreads.value(2)
            let radius = w / 2
            let angle = (a + 1) * .pi
            let r = emission.outline ? radius : radius * ((b + 1) / 2).squareRoot()
            return center + unitVector(at: angle) * r
        case .point:
            return center
        }
    }
}

/// `value` clamped to 0…1 per component (`SIMD.clamped` is slower here, unspecialised).
@inline(__always)
private func simd_clamp01(_ value: SIMD4<Double>) -> SIMD4<Double> {
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
