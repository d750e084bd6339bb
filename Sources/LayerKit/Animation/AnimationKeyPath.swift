import CSinCos
import Foundation

/// A Core Animation key path, parsed once: the property key and the sub-path into its value
/// (`"transform.rotation.z"` → key `transform`, component `.rotation(z)`).
///
/// Sub-paths that Core Animation defines, by value type:
/// - `CGPoint`: `x`, `y` · `CGSize`: `width`, `height`
/// - `CGRect`: `origin`, `size`, `origin.x`, `origin.y`, `size.width`, `size.height`
/// - `CATransform3D`: `rotation.x|y|z` (Euler angles; `rotation` is `rotation.z`), `scale.x|y|z` (`scale`
///   reads the mean of the three and sets all three), `translation.x|y|z` (`translation` is a `CGSize` of
///   x and y). Reading decomposes the matrix; writing replaces that component and recomposes.
///
/// The same code serves key-value coding (`value(forKeyPath:)`) and animation evaluation, on typed
/// `AnimatableValue`s, so a sub-path reads and writes identically everywhere.
package struct AnimationKeyPath: Hashable, Sendable, CustomStringConvertible {
    /// The property key: `"transform"` in `"transform.rotation.z"`.
    package let key: String
    /// The components after the key: `["rotation", "z"]`.
    package let subPath: [String]
    /// The sub-path, parsed; nil when it names nothing LayerKit knows.
    package let component: Component?

    /// A part of a value.
    package enum Component: Hashable, Sendable {
        case whole
        case x, y, width, height
        case origin, size, originX, originY, sizeWidth, sizeHeight
        /// Transform parts; an axis index 0…2, or nil for the combined form.
        case rotation(Int), scale(Int?), translation(Int?)
        /// A parameter of the element named `filter` in a named list: a filter's (`filters.blur.inputRadius`)
        /// or an emitter cell's (`emitterCells.fire.birthRate`).
        case filterParameter(filter: String, key: String)

        /// The component as a scalar part of a value; nil for the components that are not.
        package var scalarPart: ScalarPart? {
            switch self {
            case .x: .x
            case .y: .y
            case .width: .width
            case .height: .height
            case .originX: .originX
            case .originY: .originY
            case .sizeWidth: .sizeWidth
            case .sizeHeight: .sizeHeight
            case .rotation(let axis): .rotation(axis)
            case .scale(let axis): .scale(axis)
            case .translation(let axis): .translation(axis)
            case .whole, .origin, .size, .filterParameter: nil
            }
        }
    }

    /// A scalar part of a value, as `Component` names it but without its cases that hold strings, so it
    /// copies as plain bytes: the render thread reads and writes one per animated part per frame, and a
    /// `Component` made for each checked its string cases and released what they held.
    package enum ScalarPart: Hashable, Sendable {
        case x, y, width, height
        case originX, originY, sizeWidth, sizeHeight
        /// Transform parts; an axis index 0…2, or nil for the combined form.
        case rotation(Int), scale(Int?), translation(Int?)
    }

    package init(_ keyPath: String) {
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        key = parts[0]
        subPath = Array(parts.dropFirst())
        component = Self.parse(subPath)
    }

    package var description: String { ([key] + subPath).joined(separator: ".") }

    private static func parse(_ path: [String]) -> Component? {
        let axes = ["x": 0, "y": 1, "z": 2]
        switch path.count {
        case 0: return .whole
        case 1:
            switch path[0] {
            case "x": return .x
            case "y": return .y
            case "width": return .width
            case "height": return .height
            case "origin": return .origin
            case "size": return .size
            case "rotation": return .rotation(2)
            case "scale": return .scale(nil)
            case "translation": return .translation(nil)
            default: return nil
            }
        case 2 where !["origin", "size", "rotation", "scale", "translation"].contains(path[0]):
            return .filterParameter(filter: path[0], key: path[1])
        case 2:
            switch (path[0], path[1]) {
            case ("origin", "x"): return .originX
            case ("origin", "y"): return .originY
            case ("size", "width"): return .sizeWidth
            case ("size", "height"): return .sizeHeight
            case ("rotation", let axis): return axes[axis].map { .rotation($0) }
            case ("scale", let axis): return axes[axis].map { .scale($0) }
            case ("translation", let axis): return axes[axis].map { .translation($0) }
            default: return nil
            }
        default: return nil
        }
    }

    // MARK: - Typed access (animation)

    /// The part of `value` the sub-path names, or nil when the value has no such part.
    package func subvalue(of value: AnimatableValue) -> AnimatableValue? {
        guard let component else { return nil }
        switch (component, value) {
        case (.whole, _): return value
        case let (_, .point(p)): return component.scalarPart.flatMap(p.animatedPart).map(AnimatableValue.scalar)
        case let (_, .size(s)): return component.scalarPart.flatMap(s.animatedPart).map(AnimatableValue.scalar)
        case let (.origin, .rect(r)): return .point(r.origin)
        case let (.size, .rect(r)): return .size(r.size)
        case let (_, .rect(r)): return component.scalarPart.flatMap(r.animatedPart).map(AnimatableValue.scalar)
        case let (.translation(nil), .transform(t)): return .size(CGSize(width: t.m41, height: t.m42))
        case let (_, .transform(t)): return component.scalarPart.flatMap(t.animatedPart).map(AnimatableValue.scalar)
        case let (.filterParameter(name, key), .filters(filters)):
            return filters.first { $0.name == name }?.parameters[key]
        case let (.filterParameter(name, key), .discrete(held)):
            return (held.value as? EmitterCells)?.parameter(key, ofCellNamed: name)
        default: return nil
        }
    }

    /// `value` with the part the sub-path names replaced by `part`, or nil when the value has no such
    /// part or `part` has the wrong kind.
    package func replacingSubvalue(in value: AnimatableValue, with part: AnimatableValue) -> AnimatableValue? {
        guard let component else { return nil }
        switch (component, value, part) {
        case (.whole, _, _): return part
        case let (_, .point(p), .scalar(v)): return component.scalarPart.flatMap { p.replacingAnimatedPart($0, with: v) }.map(AnimatableValue.point)
        case let (_, .size(s), .scalar(v)): return component.scalarPart.flatMap { s.replacingAnimatedPart($0, with: v) }.map(AnimatableValue.size)
        case let (.origin, .rect(r), .point(p)): return .rect(CGRect(origin: p, size: r.size))
        case let (.size, .rect(r), .size(s)): return .rect(CGRect(origin: r.origin, size: s))
        case let (_, .rect(r), .scalar(v)): return component.scalarPart.flatMap { r.replacingAnimatedPart($0, with: v) }.map(AnimatableValue.rect)
        case let (.translation(nil), .transform(t), .size(s)):
            var result = t
            result.m41 = s.width
            result.m42 = s.height
            return .transform(result)
        case let (_, .transform(t), .scalar(v)): return component.scalarPart.flatMap { t.replacingAnimatedPart($0, with: v) }.map(AnimatableValue.transform)
        case let (.filterParameter(name, key), .filters(filters), _):
            guard let index = filters.firstIndex(where: { $0.name == name }), filters[index].parameters[key] != nil else { return nil }
            var parameters = filters[index].parameters
            parameters[key] = part
            var updated = filters
            updated[index] = FilterValue(filterName: filters[index].filterName, name: name, parameters: parameters, kernel: filters[index].kernel)
            return .filters(updated)
        case let (.filterParameter(name, key), .discrete(held), _):
            return (held.value as? EmitterCells)?.setting(key, ofCellNamed: name, to: part).map { .discrete(DiscreteValue($0)) }
        default: return nil
        }
    }

    // MARK: - Model values (key-value coding)

    /// The part of a model value the sub-path names (a `CGFloat` for scalar parts), or nil.
    package func subvalue(of value: Any) -> Any? {
        if component == .whole { return value }
        guard let typed = AnimatableValue(value), let part = subvalue(of: typed) else { return nil }
        return part.modelValue(like: nil)
    }

    /// A model value with the named part replaced, or nil when it has no such part or `newPart` has
    /// the wrong type.
    package func replacingSubvalue(in value: Any, with newPart: Any) -> Any? {
        if component == .whole { return newPart }
        guard let typed = AnimatableValue(value), let part = AnimatableValue(newPart),
              let updated = replacingSubvalue(in: typed, with: part) else { return nil }
        return updated.modelValue(like: value)
    }
}

/// A number of any of the types Swift code passes through key-value coding, as `CGFloat`.
package func scalarValue(_ value: Any) -> CGFloat? {
    switch value {
    case let v as CGFloat: v
    case let v as Double: CGFloat(v)
    case let v as Float: CGFloat(v)
    case let v as Int: CGFloat(v)
    case let v as NSNumber: CGFloat(v.doubleValue)
    default: nil
    }
}

// MARK: - Scalar parts of typed values

// What a scalar sub-path reads and writes in each value type: one definition for key-value coding,
// the general evaluator (`AnimatableValue`) and compiled animations (`AnimationChannel`).

extension CGPoint {
    /// `x` or `y`; nil for other parts.
    package func animatedPart(_ part: AnimationKeyPath.ScalarPart) -> Double? {
        switch part {
        case .x: Double(x)
        case .y: Double(y)
        default: nil
        }
    }

    package func replacingAnimatedPart(_ part: AnimationKeyPath.ScalarPart, with v: Double) -> CGPoint? {
        switch part {
        case .x: CGPoint(x: v, y: y)
        case .y: CGPoint(x: x, y: v)
        default: nil
        }
    }
}

extension CGSize {
    /// `width` or `height`; nil for other parts.
    package func animatedPart(_ part: AnimationKeyPath.ScalarPart) -> Double? {
        switch part {
        case .width: Double(width)
        case .height: Double(height)
        default: nil
        }
    }

    package func replacingAnimatedPart(_ part: AnimationKeyPath.ScalarPart, with v: Double) -> CGSize? {
        switch part {
        case .width: CGSize(width: v, height: height)
        case .height: CGSize(width: width, height: v)
        default: nil
        }
    }
}

extension CGRect {
    /// `origin.x`, `origin.y`, `size.width` or `size.height`; nil for other parts.
    package func animatedPart(_ part: AnimationKeyPath.ScalarPart) -> Double? {
        switch part {
        case .originX: Double(origin.x)
        case .originY: Double(origin.y)
        case .sizeWidth: Double(size.width)
        case .sizeHeight: Double(size.height)
        default: nil
        }
    }

    package func replacingAnimatedPart(_ part: AnimationKeyPath.ScalarPart, with v: Double) -> CGRect? {
        switch part {
        case .originX: CGRect(x: v, y: minY, width: width, height: height)
        case .originY: CGRect(x: minX, y: v, width: width, height: height)
        case .sizeWidth: CGRect(x: minX, y: minY, width: v, height: height)
        case .sizeHeight: CGRect(x: minX, y: minY, width: width, height: v)
        default: nil
        }
    }
}

extension CATransform3D {
    /// `rotation.x|y|z` (Euler angles), `scale.x|y|z` or `scale` (the mean of the three),
    /// `translation.x|y|z`; nil for other parts. Reading decomposes the matrix (not the identity).
    package func animatedPart(_ part: AnimationKeyPath.ScalarPart) -> Double? {
        switch part {
        case .rotation(let axis):
            return CATransform3DIsIdentity(self) ? 0 : rotationAngles[axis]
        case .scale(let axis):
            let scale = CATransform3DIsIdentity(self) ? SIMD3<Double>(1, 1, 1) : scaleComponents
            return axis.map { scale[$0] } ?? (scale.x + scale.y + scale.z) / 3
        case .translation(let axis?):
            return SIMD3(Double(m41), Double(m42), Double(m43))[axis]
        default:
            return nil
        }
    }

    /// The transform with that part replaced and the rest kept (decomposed and recomposed); nil when
    /// the matrix cannot be decomposed or the part is not one of a transform's.
    package func replacingAnimatedPart(_ part: AnimationKeyPath.ScalarPart, with v: Double) -> CATransform3D? {
        var result = self
        return result.replaceAnimatedPart(part, with: v) ? result : nil
    }

    /// Replaces that part in place (as `replacingAnimatedPart`, without handing 128 bytes out and back:
    /// the render thread writes a spinning layer's rotation this way every frame); false, the transform
    /// unchanged, where that gives nil.
    package mutating func replaceAnimatedPart(_ part: AnimationKeyPath.ScalarPart, with v: Double) -> Bool {
        switch part {
        case .rotation(let axis):
            if CATransform3DIsIdentity(self) {
                // The common case (a spinning layer): no decomposition needed. For a finite angle five
                // entries change, to exactly what `CATransform3DMakeRotation` about that unit axis gives
                // them (its formula adds its zero terms: 0 ± s, and the axis' diagonal entry c + (1 − c)),
                // without normalizing an axis or multiplying by its zeros. (Any other angle makes every
                // entry of the rotation NaN there, through 1 − c.)
                guard v.isFinite else {
                    self = CATransform3DMakeRotation(v, axis == 0 ? 1 : 0, axis == 1 ? 1 : 0, axis == 2 ? 1 : 0)
                    return true
                }
                // Both from one call (`lk_sincos`, the same bits as `sin` and `cos`): a fifth less time.
                var sine = 0.0, c = 0.0
                lk_sincos(v, &sine, &c)
                let s = 0 + sine, minusS = 0 - sine, diagonal = c + (1 - c)
                switch axis {
                case 0: (m11, m22, m23, m32, m33) = (diagonal, c, s, minusS, c)
                case 1: (m11, m13, m22, m31, m33) = (c, minusS, diagonal, s, c)
                case 2: (m11, m12, m21, m22, m33) = (c, s, minusS, c, diagonal)
                default: break  // no axis: the identity, as a rotation about a zero vector is
                }
                return true
            }
            guard var parts = decomposed() else { return false }
            var angles = parts.rotationAngles
            angles[axis] = v
            let rotation = CATransform3DConcat(
                CATransform3DConcat(CATransform3DMakeRotation(angles.x, 1, 0, 0), CATransform3DMakeRotation(angles.y, 0, 1, 0)),
                CATransform3DMakeRotation(angles.z, 0, 0, 1))
            guard let rotationParts = rotation.decomposed() else { return false }
            parts.quaternion = rotationParts.quaternion
            self = CATransform3D(decomposition: parts)
            return true
        case .scale(let axis):
            guard var parts = decomposed() ?? (CATransform3DIsIdentity(self) ? .identity : nil) else { return false }
            if let axis { parts.scale[axis] = v } else { parts.scale = SIMD3(repeating: v) }
            self = CATransform3D(decomposition: parts)
            return true
        case .translation(let axis?):
            // Translation is exactly m41…m43 (the decomposition keeps it there), so set it directly.
            switch axis {
            case 0: m41 = v
            case 1: m42 = v
            default: m43 = v
            }
            return true
        default:
            return false
        }
    }
}
