import Foundation

/// How keyframe values between keyframes are computed.
public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Straight-line interpolation between keyframes (the default).
    public static let linear = Self(rawValue: "linear")
    /// Each value holds until the next key time; no interpolation.
    public static let discrete = Self(rawValue: "discrete")
    /// Even speed along the whole animation; `keyTimes` and `timingFunctions` are ignored.
    public static let paced = Self(rawValue: "paced")
    /// A smooth Catmull–Rom (Kochanek–Bartels) spline through the values.
    public static let cubic = Self(rawValue: "cubic")
    /// The cubic spline at even speed.
    public static let cubicPaced = Self(rawValue: "cubicPaced")
}

/// Whether a layer moving along a path turns to follow it.
public struct CAAnimationRotationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let rotateAuto = Self(rawValue: "auto")
    public static let rotateAutoReverse = Self(rawValue: "autoReverse")
}

/// Animates a property through a sequence of values, or a point along a path: `CAKeyframeAnimation`.
///
/// `keyTimes` (0…1, one per value; one more than the values in `.discrete` mode) place the values in
/// time; when their count does not match they are ignored and the values are spaced evenly, as Core
/// Animation ignores them. `timingFunctions` (one per segment) pace each segment. A `path` (for a
/// `CGPoint` property) overrides `values`: each line or curve of the path is one keyframe segment.
open class CAKeyframeAnimation: CAPropertyAnimation {
    public var values: [Any]?
    public var path: CGPath?
    public var keyTimes: [NSNumber]?
    public var timingFunctions: [CAMediaTimingFunction]?
    public var calculationMode: CAAnimationCalculationMode = .linear
    public var tensionValues: [NSNumber]?
    public var continuityValues: [NSNumber]?
    public var biasValues: [NSNumber]?
    /// With a `path`: turn the layer to follow the path's tangent (`rotateAuto`), or the opposite way
    /// (`rotateAutoReverse`), on top of its transform.
    public var rotationMode: CAAnimationRotationMode?

    public override init() { super.init() }

    public required init(copying other: CAAnimation) {
        super.init(copying: other)
        guard let other = other as? CAKeyframeAnimation else { return }
        values = other.values
        path = other.path
        keyTimes = other.keyTimes
        timingFunctions = other.timingFunctions
        calculationMode = other.calculationMode
        tensionValues = other.tensionValues
        continuityValues = other.continuityValues
        biasValues = other.biasValues
        rotationMode = other.rotationMode
    }

    override package func makeRecord(id: AnimationID, layer: CALayer) -> AnimationRecord.Content? {
        guard let target = PropertyAnimationTarget(keyPath: keyPath, layer: layer) else { return nil }
        let track: KeyframeTrack
        if let path, !path.isEmpty {
            track = KeyframeTrack(path: path, keyTimes: keyTimes?.map(\.doubleValue), timingFunctions: timingFunctions,
                                  mode: calculationMode)
        } else {
            let converted = (values ?? []).map { AnimatableValue($0) }
            guard !converted.isEmpty, converted.allSatisfy({ $0 != nil }) else {
                LayerKitDiagnostics.emit(.valueTypeMismatch(keyPath: keyPath ?? "", expected: "animatable values", got: "\(values ?? [])"))
                return nil
            }
            guard target.accepts(converted, layer: layer) else { return nil }
            track = KeyframeTrack(values: converted.map { $0! }, keyTimes: keyTimes?.map(\.doubleValue), timingFunctions: timingFunctions,
                                  mode: calculationMode, tension: tensionValues?.map(\.doubleValue),
                                  continuity: continuityValues?.map(\.doubleValue), bias: biasValues?.map(\.doubleValue))
        }
        var rotation: (transform: PropertyAnimationTarget, reversed: Bool)?
        if let rotationMode, path != nil, let transform = PropertyAnimationTarget(keyPath: "transform", layer: layer) {
            rotation = (transform, rotationMode == .rotateAutoReverse)
        }
        return .property(PropertyAnimationRecord(target: target, additive: isAdditive, cumulative: isCumulative,
                                                 timingFunction: timingFunction, kind: .keyframes(track),
                                                 valueFunction: valueFunction, rotationFollowsPath: rotation))
    }
}

/// Committed keyframes: values (or path segments) with their times, evaluated at a progress 0…1.
package struct KeyframeTrack: Sendable {
    /// A piece of motion between two key times.
    package enum Segment: Sendable {
        /// Between `values[i]` and `values[i + 1]`; cubic modes carry Hermite tangents.
        case values(AnimatableValue, AnimatableValue, tangents: (AnimatableValue, AnimatableValue)?)
        /// A path element: line (2 points), quadratic (3) or cubic (4) Bézier.
        case curve([CGPoint])
    }

    package let segments: [Segment]
    /// `segments.count + 1` times from 0 to 1.
    package let times: [Double]
    package let timingFunctions: [CAMediaTimingFunction]?
    package let discrete: Bool
    /// For discrete tracks: the values in order (each holds from its key time to the next).
    package let discreteValues: [AnimatableValue]

    init(values: [AnimatableValue], keyTimes: [Double]?, timingFunctions: [CAMediaTimingFunction]?, mode: CAAnimationCalculationMode,
         tension: [Double]?, continuity: [Double]?, bias: [Double]?) {
        discreteValues = values
        discrete = mode == .discrete
        let n = values.count
        let cubic = mode == .cubic || mode == .cubicPaced
        var segments: [Segment] = []
        if n > 1 {
            for i in 0..<(n - 1) {
                var tangents: (AnimatableValue, AnimatableValue)?
                if cubic {
                    tangents = (Self.tangent(values, at: i, outgoing: true, tension: tension, continuity: continuity, bias: bias),
                                Self.tangent(values, at: i + 1, outgoing: false, tension: tension, continuity: continuity, bias: bias))
                }
                segments.append(.values(values[i], values[i + 1], tangents: tangents))
            }
        } else if n == 1 {
            segments.append(.values(values[0], values[0], tangents: nil))
        }
        self.segments = segments
        let paced = mode == .paced || mode == .cubicPaced
        // Discrete tracks take n + 1 key times (each value holds up to the next) as Core Animation
        // documents, or n (the last value holds to the end), as apps often pass; the others one per
        // segment end (a lone value is one segment from itself to itself). Other counts are ignored.
        let acceptedCounts: Set<Int> = discrete ? [n + 1, n] : [segments.count + 1]
        if paced {
            times = Self.pacedTimes(lengths: segments.map { segment in
                if case let .values(a, b, _) = segment { return AnimatableValue.distance(a, b) }
                return 0
            })
        } else if let keyTimes, acceptedCounts.contains(keyTimes.count), Self.isValid(keyTimes) {
            times = discrete && keyTimes.count == n ? keyTimes + [1] : keyTimes
        } else {
            let count = discrete ? n : max(segments.count, 1)
            times = (0...count).map { Double($0) / Double(count) }
        }
        self.timingFunctions = paced ? nil : (timingFunctions?.count == segments.count ? timingFunctions : nil)
    }

    init(path: CGPath, keyTimes: [Double]?, timingFunctions: [CAMediaTimingFunction]?, mode: CAAnimationCalculationMode) {
        var segments: [Segment] = []
        var current = CGPoint.zero
        var subpathStart = CGPoint.zero
        for element in path.elements {
            switch element.type {
            case .moveToPoint:
                current = element.points[0]
                subpathStart = current
            case .addLineToPoint:
                segments.append(.curve([current, element.points[0]]))
                current = element.points[0]
            case .addQuadCurveToPoint:
                segments.append(.curve([current] + element.points))
                current = element.points[1]
            case .addCurveToPoint:
                segments.append(.curve([current] + element.points))
                current = element.points[2]
            case .closeSubpath:
                if current != subpathStart { segments.append(.curve([current, subpathStart])) }
                current = subpathStart
            }
        }
        self.segments = segments
        discrete = mode == .discrete
        discreteValues = segments.compactMap { segment in
            if case let .curve(points) = segment { return .point(points.last!) }
            return nil
        }
        if mode == .paced || mode == .cubicPaced {
            times = Self.pacedTimes(lengths: segments.map { segment in
                if case let .curve(points) = segment { return Self.arcLength(points) }
                return 0
            })
        } else if let keyTimes, keyTimes.count == segments.count + 1, Self.isValid(keyTimes) {
            times = keyTimes
        } else {
            let count = max(segments.count, 1)
            times = (0...count).map { Double($0) / Double(count) }
        }
        self.timingFunctions = timingFunctions?.count == segments.count ? timingFunctions : nil
    }

    /// The value at overall progress `p` (0…1, after the animation's own timing function).
    package func value(at p: Double) -> AnimatableValue? {
        if discrete {
            guard !discreteValues.isEmpty else { return nil }
            // Value i holds on [times[i], times[i+1]); the last one from its key time on.
            var index = 0
            for i in 0..<discreteValues.count where p >= times[i] { index = i }
            return discreteValues[index]
        }
        guard !segments.isEmpty else { return nil }
        var index = segments.count - 1
        for i in 0..<segments.count where p < times[i + 1] {
            index = i
            break
        }
        let start = times[index], end = times[index + 1]
        var local = end > start ? (p - start) / (end - start) : 1
        // Before the first key time the first value holds, after the last the last (no extrapolation).
        local = min(max(local, 0), 1)
        if p <= 0 { local = 0 }
        if let functions = timingFunctions { local = functions[index].value(at: min(max(local, 0), 1)) }
        switch segments[index] {
        case let .values(a, b, tangents):
            guard let (m0, m1) = tangents else { return AnimatableValue.interpolate(a, b, local) }
            return Self.hermite(a, b, m0, m1, local) ?? AnimatableValue.interpolate(a, b, local)
        case let .curve(points):
            return .point(Self.point(on: points, at: local))
        }
    }

    /// The direction of motion at progress `p` along a path track (radians, from +x toward +y), or nil
    /// for value tracks.
    package func tangentAngle(at p: Double) -> Double? {
        guard !segments.isEmpty else { return nil }
        let epsilon = 1e-4
        let lo = max(0, p - epsilon), hi = min(1, p + epsilon)
        guard case let .point(a)? = value(at: lo), case let .point(b)? = value(at: hi), a != b else { return nil }
        return atan2(Double(b.y - a.y), Double(b.x - a.x))
    }

    // MARK: - Helpers

    private static func isValid(_ times: [Double]) -> Bool {
        guard let first = times.first, let last = times.last, first >= 0, last <= 1 else { return false }
        return zip(times, times.dropFirst()).allSatisfy { $0 <= $1 } && times.allSatisfy(\.isFinite)
    }

    /// Key times proportional to cumulative length (even speed).
    private static func pacedTimes(lengths: [Double]) -> [Double] {
        let total = lengths.reduce(0, +)
        guard total > 0 else {
            let count = max(lengths.count, 1)
            return (0...count).map { Double($0) / Double(count) }
        }
        var times = [0.0]
        var sum = 0.0
        for length in lengths {
            sum += length
            times.append(sum / total)
        }
        times[times.count - 1] = 1
        return times
    }

    /// Kochanek–Bartels tangent at keyframe `i` (Catmull–Rom when tension, continuity and bias are 0).
    private static func tangent(_ values: [AnimatableValue], at i: Int, outgoing: Bool,
                                tension: [Double]?, continuity: [Double]?, bias: [Double]?) -> AnimatableValue {
        let n = values.count
        let previous = values[max(i - 1, 0)], current = values[i], next = values[min(i + 1, n - 1)]
        let t = tension?.count == n ? tension![i] : 0
        let c = continuity?.count == n ? continuity![i] : 0
        let b = bias?.count == n ? bias![i] : 0
        let incoming = AnimatableValue.subtract(current, previous) ?? current
        let outgoingDelta = AnimatableValue.subtract(next, current) ?? current
        let (wa, wb): (Double, Double) = outgoing
            ? ((1 - t) * (1 + b) * (1 - c) / 2, (1 - t) * (1 - b) * (1 + c) / 2)
            : ((1 - t) * (1 + b) * (1 + c) / 2, (1 - t) * (1 - b) * (1 - c) / 2)
        guard let a = AnimatableValue.scale(incoming, by: wa), let bb = AnimatableValue.scale(outgoingDelta, by: wb),
              let sum = AnimatableValue.add(a, bb) else { return AnimatableValue.scale(current, by: 0) ?? current }
        return sum
    }

    /// Cubic Hermite interpolation between `a` and `b` with tangents `m0`, `m1`.
    private static func hermite(_ a: AnimatableValue, _ b: AnimatableValue, _ m0: AnimatableValue, _ m1: AnimatableValue, _ s: Double) -> AnimatableValue? {
        let s2 = s * s, s3 = s2 * s
        let h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2
        guard let t0 = AnimatableValue.scale(a, by: h00), let t1 = AnimatableValue.scale(m0, by: h10),
              let t2 = AnimatableValue.scale(b, by: h01), let t3 = AnimatableValue.scale(m1, by: h11),
              let s01 = AnimatableValue.add(t0, t1), let s23 = AnimatableValue.add(t2, t3) else { return nil }
        return AnimatableValue.add(s01, s23)
    }

    /// The point at parameter `t` on a line, quadratic or cubic Bézier.
    private static func point(on p: [CGPoint], at t: Double) -> CGPoint {
        let t = CGFloat(t), u = 1 - t
        switch p.count {
        case 2: return CGPoint(x: u * p[0].x + t * p[1].x, y: u * p[0].y + t * p[1].y)
        case 3:
            return CGPoint(x: u * u * p[0].x + 2 * u * t * p[1].x + t * t * p[2].x,
                           y: u * u * p[0].y + 2 * u * t * p[1].y + t * t * p[2].y)
        default:
            let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
            return CGPoint(x: a * p[0].x + b * p[1].x + c * p[2].x + d * p[3].x,
                           y: a * p[0].y + b * p[1].y + c * p[2].y + d * p[3].y)
        }
    }

    /// Arc length of a segment, by 64-step polyline.
    private static func arcLength(_ points: [CGPoint]) -> Double {
        var length = 0.0
        var previous = points[0]
        for step in 1...64 {
            let next = point(on: points, at: Double(step) / 64)
            length += hypot(Double(next.x - previous.x), Double(next.y - previous.y))
            previous = next
        }
        return length
    }
}
