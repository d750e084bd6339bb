import Foundation
import LayerKit

/// The live particles of a `CAEmitterLayer` at one time, worked out in closed form.
///
/// Input: a (presented) emitter node's committed cells (`EmitterCells`) and properties (multipliers,
/// shape, mode, render mode, seed), and the layer's local time t (particles are born from t = 0).
/// Output: every live particle of every enabled cell with an image: its centre, angle, size and
/// premultiplied colour, in the order drawn (`renderMode`).
/// Algorithm: with rate r = cell.birthRate × layer.birthRate, particle k of a cell is born at age 0 at
/// emitter time k / r (k = 0, 1, …); it lives L_k = max(0, lifetime + lifetimeRange·u) × layer.lifetime and
/// is alive while its age a = t − k / r lies in [0, L_k). Each u ∈ [−1, 1] is a hash of (seed, cell, k,
/// which spread), so a particle's spreads never change and a frame depends only on the time. Birth point:
/// the shape (see `CAEmitterLayer`) at the hash; direction emissionLongitude + emissionRange·u (0 is +x,
/// y grows down); position p0 + v·a + ½·acc·a²; angle (spin + spinRange·u)·layer.spin·a; scale
/// (scale + scaleRange·u + scaleSpeed·a)·layer.scale; colour clamped (color + range·u + speed·a).
/// Cost: O(live particles); at most `maximumParticles` per emitter (the oldest are left out beyond).
package struct EmitterParticles {
    package struct Particle {
        package var center: CGPoint
        package var angle: Double
        /// The particle's size in the layer's points (its image's size, cropped, times its scale).
        package var size: CGSize
        /// Premultiplied.
        package var color: SIMD4<Float>
        package var image: CGImage
        package var contentsRect: CGRect
        package var minification: String
        package var magnification: String
    }

    /// The most particles one emitter draws per frame.
    package static let maximumParticles = 50_000

    package var particles: [Particle] = []
    /// Whether particles blend additively (`renderMode` additive).
    package var additive = false
    /// Whether a later frame may differ: particles live, or a cell still emits.
    package var isActive = false

    /// The particles of `node` at its local time `time`, or nil when it is no emitter.
    package init?(of node: RenderNode, at time: Double) {
        guard node.renderKind == .emitter else { return nil }
        let properties = node.customProperties
        guard case .discrete(let held)? = properties["emitterCells"], let emitter = held.value as? EmitterCells else { return }
        func number(_ key: String, _ fallback: Double) -> Double {
            properties.number(key).flatMap { $0.isFinite ? $0 : nil } ?? fallback
        }
        func point(_ key: String) -> CGPoint {
            if case .point(let p)? = properties[key], p.x.isFinite, p.y.isFinite { return p }
            return .zero
        }
        func size(_ key: String) -> CGSize {
            if case .size(let s)? = properties[key], s.width.isFinite, s.height.isFinite { return s }
            return .zero
        }
        let multipliers = (birth: max(number("birthRate", 1), 0), life: max(number("lifetime", 1), 0), velocity: number("velocity", 1),
                           scale: number("scale", 1), spin: number("spin", 1))
        let position = point("emitterPosition"), extent = size("emitterSize")
        let shape = properties.string("emitterShape") ?? "point"
        let outline = properties.string("emitterMode") == "outline"
        let render = properties.string("renderMode") ?? "unordered"
        additive = render == "additive"
        let seed = UInt64(max(0, min(number("seed", 0), Double(UInt32.max))))
        let t = time
        guard t >= 0 else { return }

        for (cellIndex, cell) in emitter.cells.enumerated() where cell.isEnabled {
            guard let image = cell.contents else { continue }
            let rate = cell.birthRate * multipliers.birth
            let longest = max(cell.lifetime + abs(cell.lifetimeRange), 0) * multipliers.life
            guard rate > 0, longest > 0, rate.isFinite, longest.isFinite else { continue }
            isActive = true
            // Particle numbers in Double first: hostile rates and times must not overflow an Int.
            let newestNumber = min((t * rate).rounded(.down), 1e15)
            let oldestNumber = max(0, ((t - longest) * rate).rounded(.down), newestNumber - Double(Self.maximumParticles) + 1)
            guard newestNumber.isFinite, oldestNumber.isFinite, newestNumber >= oldestNumber else { continue }
            let (oldest, newest) = (Int(oldestNumber), Int(newestNumber))
            let crop = cell.contentsRect
            let imageSize = CGSize(width: CGFloat(image.width) * crop.width, height: CGFloat(image.height) * crop.height)
            for k in oldest...newest {
                var random = ParticleRandom(seed: seed, cell: UInt64(cellIndex), particle: UInt64(k))
                let age = t - Double(k) / rate
                let life = max(0, cell.lifetime + cell.lifetimeRange * random.next()) * multipliers.life
                guard age >= 0, age < life else { continue }
                let origin = Self.birthPoint(shape: shape, outline: outline, center: position, size: extent, random: &random)
                let speed = (cell.velocity + cell.velocityRange * random.next()) * multipliers.velocity
                let direction = cell.emissionLongitude + cell.emissionRange * random.next()
                let spin = (cell.spin + cell.spinRange * random.next()) * multipliers.spin
                let scale = (cell.scale + cell.scaleRange * random.next() + cell.scaleSpeed * age) * multipliers.scale
                var color = cell.color
                for channel in 0..<4 { color[channel] += cell.colorRange[channel] * random.next() + cell.colorSpeed[channel] * age }
                color = SIMD4(min(max(color.x, 0), 1), min(max(color.y, 0), 1), min(max(color.z, 0), 1), min(max(color.w, 0), 1))
                guard scale > 0, color.w > 0 else { continue }
                let x = origin.x + speed * cos(direction) * age + 0.5 * cell.acceleration.x * age * age
                let y = origin.y + speed * sin(direction) * age + 0.5 * cell.acceleration.y * age * age
                guard x.isFinite, y.isFinite, scale.isFinite else { continue }
                particles.append(Particle(
                    center: CGPoint(x: x, y: y), angle: spin * age,
                    size: CGSize(width: imageSize.width * scale, height: imageSize.height * scale),
                    color: SIMD4(Float(color.x * color.w), Float(color.y * color.w), Float(color.z * color.w), Float(color.w)),
                    image: image, contentsRect: crop, minification: cell.minificationFilter, magnification: cell.magnificationFilter))
            }
        }
        // Born in order: oldest first already, cell by cell. Oldest last draws the newest underneath.
        if render == "oldestLast" { particles.reverse() }
    }

    /// Where a particle is born: in (or, for `outline`, on the edge of) the emitter's shape.
    static func birthPoint(shape: String, outline: Bool, center: CGPoint, size: CGSize, random: inout ParticleRandom) -> (x: Double, y: Double) {
        let (cx, cy) = (Double(center.x), Double(center.y))
        let (w, h) = (Double(size.width), Double(size.height))
        let a = random.next(), b = random.next()
        switch shape {
        case "line":
            return (cx + a * w / 2, cy)
        case "rectangle", "cuboid":
            guard outline else { return (cx + a * w / 2, cy + b * h / 2) }
            // A point on the perimeter, edges in proportion to their length.
            let perimeter = 2 * (w + h)
            guard perimeter > 0 else { return (cx, cy) }
            var s = (a + 1) / 2 * perimeter
            if s < w { return (cx - w / 2 + s, cy - h / 2) }
            s -= w
            if s < h { return (cx + w / 2, cy - h / 2 + s) }
            s -= h
            if s < w { return (cx + w / 2 - s, cy + h / 2) }
            return (cx - w / 2, cy + h / 2 - (s - w))
        case "circle", "sphere":
            let radius = w / 2
            let angle = (a + 1) * .pi
            let r = outline ? radius : radius * ((b + 1) / 2).squareRoot()
            return (cx + r * cos(angle), cy + r * sin(angle))
        default:
            return (cx, cy)
        }
    }
}

/// A particle's spreads: a SplitMix64 stream seeded by (seed, cell, particle), each value in [−1, 1].
struct ParticleRandom {
    private var state: UInt64

    init(seed: UInt64, cell: UInt64, particle: UInt64) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 ^ cell &* 0xBF58_476D_1CE4_E5B9 ^ particle &* 0x94D0_49BB_1331_11EB
    }

    mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53) * 2 - 1
    }
}
