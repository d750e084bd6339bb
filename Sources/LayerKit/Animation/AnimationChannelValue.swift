import Foundation

/// A value type a compiled animation interpolates without boxing (`TypedPropertyAnimation`): scalars,
/// points, sizes, rects, colors (straight sRGB RGBA) and transforms.
///
/// The arithmetic here is the one animation arithmetic: `AnimatableValue`'s interpolate, add, subtract
/// and scale forward to it for these kinds, so a typed evaluation and the general one give the same
/// numbers bit for bit.
package protocol AnimationChannelValue: Sendable {
    /// `a + (b − a)·f`, per component (transforms through decomposition).
    static func interpolate(_ a: Self, _ b: Self, _ f: Double) -> Self
    /// `a + b` (transforms concatenate: b then a, as Core Animation adds transforms).
    static func add(_ a: Self, _ b: Self) -> Self
    /// `a − b`, the inverse of `add`.
    static func subtract(_ a: Self, _ b: Self) -> Self
    /// `a · k`, the change of `k` completed iterations (cumulative animations).
    static func scale(_ a: Self, by k: Double) -> Self
    /// Whether every component is finite.
    var isFiniteValue: Bool { get }
    /// The value of this type an `AnimatableValue` holds, or nil when it holds another kind.
    init?(_ value: AnimatableValue)
}

extension Double: AnimationChannelValue {
    package static func interpolate(_ a: Double, _ b: Double, _ f: Double) -> Double { a + (b - a) * f }
    package static func add(_ a: Double, _ b: Double) -> Double { a + b }
    package static func subtract(_ a: Double, _ b: Double) -> Double { a - b }
    package static func scale(_ a: Double, by k: Double) -> Double { a * k }
    package var isFiniteValue: Bool { isFinite }
    package init?(_ value: AnimatableValue) {
        guard case .scalar(let v) = value else { return nil }
        self = v
    }
}

extension CGPoint: AnimationChannelValue {
    package static func interpolate(_ a: CGPoint, _ b: CGPoint, _ f: Double) -> CGPoint {
        CGPoint(x: lerp(a.x, b.x, f), y: lerp(a.y, b.y, f))
    }
    package static func add(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: a.x + b.x, y: a.y + b.y) }
    package static func subtract(_ a: CGPoint, _ b: CGPoint) -> CGPoint { CGPoint(x: a.x - b.x, y: a.y - b.y) }
    package static func scale(_ a: CGPoint, by k: Double) -> CGPoint { CGPoint(x: a.x * k, y: a.y * k) }
    package var isFiniteValue: Bool { isFiniteGeometry }
    package init?(_ value: AnimatableValue) {
        guard case .point(let v) = value else { return nil }
        self = v
    }
}

extension CGSize: AnimationChannelValue {
    package static func interpolate(_ a: CGSize, _ b: CGSize, _ f: Double) -> CGSize {
        CGSize(width: lerp(a.width, b.width, f), height: lerp(a.height, b.height, f))
    }
    package static func add(_ a: CGSize, _ b: CGSize) -> CGSize { CGSize(width: a.width + b.width, height: a.height + b.height) }
    package static func subtract(_ a: CGSize, _ b: CGSize) -> CGSize { CGSize(width: a.width - b.width, height: a.height - b.height) }
    package static func scale(_ a: CGSize, by k: Double) -> CGSize { CGSize(width: a.width * k, height: a.height * k) }
    package var isFiniteValue: Bool { isFiniteGeometry }
    package init?(_ value: AnimatableValue) {
        guard case .size(let v) = value else { return nil }
        self = v
    }
}

extension CGRect: AnimationChannelValue {
    package static func interpolate(_ a: CGRect, _ b: CGRect, _ f: Double) -> CGRect {
        CGRect(x: lerp(a.minX, b.minX, f), y: lerp(a.minY, b.minY, f), width: lerp(a.width, b.width, f), height: lerp(a.height, b.height, f))
    }
    package static func add(_ a: CGRect, _ b: CGRect) -> CGRect {
        CGRect(x: a.minX + b.minX, y: a.minY + b.minY, width: a.width + b.width, height: a.height + b.height)
    }
    package static func subtract(_ a: CGRect, _ b: CGRect) -> CGRect {
        CGRect(x: a.minX - b.minX, y: a.minY - b.minY, width: a.width - b.width, height: a.height - b.height)
    }
    package static func scale(_ a: CGRect, by k: Double) -> CGRect {
        CGRect(x: a.minX * k, y: a.minY * k, width: a.width * k, height: a.height * k)
    }
    package var isFiniteValue: Bool { isFiniteGeometry }
    package init?(_ value: AnimatableValue) {
        guard case .rect(let v) = value else { return nil }
        self = v
    }
}

/// Colors animate as straight sRGB RGBA, per component, as Core Animation interpolates them.
extension SIMD4: AnimationChannelValue where Scalar == Double {
    package static func interpolate(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ f: Double) -> SIMD4<Double> { a + (b - a) * f }
    package static func add(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> { a + b }
    package static func subtract(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> { a - b }
    package static func scale(_ a: SIMD4<Double>, by k: Double) -> SIMD4<Double> { a * k }
    package var isFiniteValue: Bool { x.isFinite && y.isFinite && z.isFinite && w.isFinite }
    package init?(_ value: AnimatableValue) {
        guard case .color(let v) = value else { return nil }
        self = v
    }
}

extension CATransform3D: AnimationChannelValue {
    package static func interpolate(_ a: CATransform3D, _ b: CATransform3D, _ f: Double) -> CATransform3D {
        a.interpolated(to: b, fraction: f)
    }
    package static func add(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D { CATransform3DConcat(b, a) }
    package static func subtract(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D {
        CATransform3DConcat(CATransform3DInvert(b), a)
    }
    /// `k` repeats of `a` (`k` a whole number of completed iterations).
    package static func scale(_ a: CATransform3D, by k: Double) -> CATransform3D {
        let count = max(0, Int(k.rounded()))
        return (0..<count).reduce(CATransform3DIdentity) { acc, _ in CATransform3DConcat(acc, a) }
    }
    package var isFiniteValue: Bool { isFiniteGeometry }
    package init?(_ value: AnimatableValue) {
        guard case .transform(let v) = value else { return nil }
        self = v
    }
}

private func lerp(_ a: CGFloat, _ b: CGFloat, _ f: Double) -> CGFloat { a + (b - a) * CGFloat(f) }
