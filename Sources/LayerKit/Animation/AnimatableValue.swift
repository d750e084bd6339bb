import Foundation

/// A value an animation interpolates, in a form the render thread can hold (`Sendable`) and both the
/// render thread and `presentation()` evaluate the same way.
///
/// Conversions from and to the model's `Any` values live here too, so an animation's `fromValue` of any
/// numeric type (Double, Float, CGFloat, Int, NSNumber) animates a `CGFloat` property.
package enum AnimatableValue: Sendable, Equatable {
    case scalar(Double)
    case point(CGPoint)
    case size(CGSize)
    case rect(CGRect)
    /// Boxed: a 128-byte matrix inline would make every value that size, and most animations are scalars.
    indirect case transform(CATransform3D)
    /// Straight sRGB RGBA; interpolated per component, as Core Animation interpolates colors.
    case color(SIMD4<Double>)
    /// Number arrays (`locations`, `lineDashPattern`): element-wise when the counts match.
    case numbers([Double])
    /// Color arrays (`colors` of a gradient): element-wise when the counts match.
    case colors([SIMD4<Double>])
    /// Paths: point by point when both have the same elements (path morphing), else discrete.
    case path(CGPath)
    /// A filter list (`filters`): parameters interpolate filter by filter when the lists match.
    case filters([FilterValue])
    /// Anything else (booleans, images, layers): changes discretely at the halfway point.
    case discrete(DiscreteValue)
    /// Two images part-way through a cross-fade (`contents` changes): `to` shows with opacity `fraction`
    /// over `from`.
    case crossfade(from: DiscreteValue, to: DiscreteValue, fraction: Double)

    /// The value of a model property or key-path component, or nil when it cannot animate.
    package init?(_ value: Any?) {
        guard let value else { return nil }
        switch value {
        case let v as CGPoint: self = .point(v)
        case let v as CGSize: self = .size(v)
        case let v as CGRect: self = .rect(v)
        case let v as CATransform3D: self = .transform(v)
        case let v as CGColor:
            let c = v.rgba
            self = .color(SIMD4(Double(c.r), Double(c.g), Double(c.b), Double(c.a)))
        case is Bool: self = .discrete(DiscreteValue(value))
        case let v as CGPath: self = .path(v)
        case let v as [CIFilter]: self = .filters(v.map(FilterValue.init))
        case let v as CIVector: self = .numbers(v.values.map(Double.init))
        case let v as [CGColor]:
            self = .colors(v.map { let c = $0.rgba; return SIMD4(Double(c.r), Double(c.g), Double(c.b), Double(c.a)) })
        case let v as [Any] where !v.isEmpty && v.allSatisfy({ scalarValue($0) != nil }):
            self = .numbers(v.map { Double(scalarValue($0)!) })
        default:
            if let scalar = scalarValue(value) { self = .scalar(Double(scalar)) } else { self = .discrete(DiscreteValue(value)) }
        }
    }

    /// Back to a model value of the same type as `template` (e.g. `Float` for opacity).
    package func modelValue(like template: Any?) -> Any? {
        switch self {
        case .scalar(let v):
            switch template {
            case is Float: return Float(v)
            case is Double: return v
            case is Int: return Int(v.rounded())
            default: return CGFloat(v)
            }
        case .point(let v): return v
        case .size(let v): return v
        case .rect(let v): return v
        case .transform(let v): return v
        case .color(let c): return CGColor(red: CGFloat(c.x), green: CGFloat(c.y), blue: CGFloat(c.z), alpha: CGFloat(c.w))
        case .numbers(let values):
            switch template {
            case is [NSNumber]: return values.map { NSNumber(value: $0) }
            case is [Double]: return values
            case is [Float]: return values.map { Float($0) }
            case is CIVector: return CIVector(values: values.map { CGFloat($0) })
            default: return values.map { CGFloat($0) }
            }
        case .colors(let colors):
            return colors.map { CGColor(red: CGFloat($0.x), green: CGFloat($0.y), blue: CGFloat($0.z), alpha: CGFloat($0.w)) }
        case .path(let path): return path
        case .filters(let filters): return filters.compactMap { $0.makeFilter() }
        case .discrete(let d): return d.value
        case let .crossfade(from, to, fraction): return fraction < 0.5 ? from.value : to.value
        }
    }

    /// `a + (b − a)·f`: component-wise; transforms through decomposition; discrete values switch at 0.5.
    package static func interpolate(_ a: AnimatableValue, _ b: AnimatableValue, _ f: Double) -> AnimatableValue {
        switch (a, b) {
        case let (.scalar(x), .scalar(y)): return .scalar(.interpolate(x, y, f))
        case let (.point(x), .point(y)): return .point(.interpolate(x, y, f))
        case let (.size(x), .size(y)): return .size(.interpolate(x, y, f))
        case let (.rect(x), .rect(y)): return .rect(.interpolate(x, y, f))
        case let (.transform(x), .transform(y)): return .transform(.interpolate(x, y, f))
        case let (.color(x), .color(y)): return .color(.interpolate(x, y, f))
        case let (.numbers(x), .numbers(y)) where x.count == y.count: return .numbers(zip(x, y).map { $0 + ($1 - $0) * f })
        case let (.colors(x), .colors(y)) where x.count == y.count: return .colors(zip(x, y).map { $0 + ($1 - $0) * f })
        case let (.path(x), .path(y)): return x.interpolated(to: y, fraction: f).map(AnimatableValue.path) ?? (f < 0.5 ? a : b)
        case let (.filters(x), .filters(y)) where x.count == y.count && zip(x, y).allSatisfy({ $0.filterName == $1.filterName }):
            return .filters(zip(x, y).map { from, to in
                var parameters: [String: AnimatableValue] = [:]
                for (key, start) in from.parameters {
                    parameters[key] = to.parameters[key].map { interpolate(start, $0, f) } ?? start
                }
                return FilterValue(filterName: from.filterName, name: from.name, parameters: parameters, kernel: from.kernel)
            })
        case let (.discrete(x), .discrete(y)) where x.value is CGImage && y.value is CGImage:
            // Images cross-fade, as Core Animation animates `contents`.
            if f <= 0 { return a }
            if f >= 1 { return b }
            return .crossfade(from: x, to: y, fraction: f)
        default: return f < 0.5 ? a : b
        }
    }

    /// `a + b`, for `byValue`, additive and cumulative animations (transforms concatenate: b then a, as
    /// Core Animation adds transforms). Nil when the kinds do not add.
    package static func add(_ a: AnimatableValue, _ b: AnimatableValue) -> AnimatableValue? {
        switch (a, b) {
        case let (.scalar(x), .scalar(y)): return .scalar(.add(x, y))
        case let (.point(x), .point(y)): return .point(.add(x, y))
        case let (.size(x), .size(y)): return .size(.add(x, y))
        case let (.rect(x), .rect(y)): return .rect(.add(x, y))
        case let (.transform(x), .transform(y)): return .transform(.add(x, y))
        case let (.color(x), .color(y)): return .color(.add(x, y))
        case let (.numbers(x), .numbers(y)) where x.count == y.count: return .numbers(zip(x, y).map(+))
        case let (.colors(x), .colors(y)) where x.count == y.count: return .colors(zip(x, y).map(+))
        default: return nil
        }
    }

    /// `a − b` (the inverse of `add`). Nil when the kinds do not subtract.
    package static func subtract(_ a: AnimatableValue, _ b: AnimatableValue) -> AnimatableValue? {
        switch (a, b) {
        case let (.scalar(x), .scalar(y)): return .scalar(.subtract(x, y))
        case let (.point(x), .point(y)): return .point(.subtract(x, y))
        case let (.size(x), .size(y)): return .size(.subtract(x, y))
        case let (.rect(x), .rect(y)): return .rect(.subtract(x, y))
        case let (.transform(x), .transform(y)): return .transform(.subtract(x, y))
        case let (.color(x), .color(y)): return .color(.subtract(x, y))
        case let (.numbers(x), .numbers(y)) where x.count == y.count: return .numbers(zip(x, y).map(-))
        case let (.colors(x), .colors(y)) where x.count == y.count: return .colors(zip(x, y).map(-))
        default: return nil
        }
    }

    /// `a · k` (cumulative repeats multiply the per-iteration change). Nil for kinds that do not scale.
    package static func scale(_ a: AnimatableValue, by k: Double) -> AnimatableValue? {
        switch a {
        case .scalar(let x): return .scalar(.scale(x, by: k))
        case .point(let p): return .point(.scale(p, by: k))
        case .size(let s): return .size(.scale(s, by: k))
        case .rect(let r): return .rect(.scale(r, by: k))
        case .color(let c): return .color(.scale(c, by: k))
        case .transform(let t): return .transform(.scale(t, by: k))
        case .numbers(let values): return .numbers(values.map { $0 * k })
        case .colors(let colors): return .colors(colors.map { $0 * k })
        case .discrete, .crossfade, .path, .filters: return nil
        }
    }

    /// Euclidean distance, for paced keyframes.
    package static func distance(_ a: AnimatableValue, _ b: AnimatableValue) -> Double {
        switch (a, b) {
        case let (.scalar(x), .scalar(y)): return abs(y - x)
        case let (.point(x), .point(y)): return hypot(Double(y.x - x.x), Double(y.y - x.y))
        case let (.size(x), .size(y)): return hypot(Double(y.width - x.width), Double(y.height - x.height))
        case let (.rect(x), .rect(y)):
            let d = [y.minX - x.minX, y.minY - x.minY, y.width - x.width, y.height - x.height].map(Double.init)
            return d.map { $0 * $0 }.reduce(0, +).squareRoot()
        case let (.color(x), .color(y)): return ((y - x) * (y - x)).sum().squareRoot()
        default: return 0
        }
    }

    /// Whether every component is finite (NaN and infinities never reach a frame).
    package var isFinite: Bool {
        switch self {
        case .scalar(let v): return v.isFiniteValue
        case .point(let p): return p.isFiniteValue
        case .size(let s): return s.isFiniteValue
        case .rect(let r): return r.isFiniteValue
        case .transform(let t): return t.isFiniteValue
        case .color(let c): return c.isFiniteValue
        case .numbers(let values): return values.allSatisfy(\.isFinite)
        case .colors(let colors): return colors.allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite && $0.w.isFinite }
        case .filters(let filters): return filters.allSatisfy { $0.parameters.values.allSatisfy(\.isFinite) }
        case .path, .discrete, .crossfade: return true
        }
    }
}

/// A non-interpolable value carried through the render thread unchanged (an image for a contents
/// cross-fade, a boolean). Its payload is immutable once wrapped.
package struct DiscreteValue: @unchecked Sendable, Equatable {
    package let value: Any

    package init(_ value: Any) { self.value = value }

    package static func == (lhs: DiscreteValue, rhs: DiscreteValue) -> Bool {
        if let l = lhs.value as? AnyHashable, let r = rhs.value as? AnyHashable { return l == r }
        return (lhs.value as AnyObject) === (rhs.value as AnyObject)
    }
}
