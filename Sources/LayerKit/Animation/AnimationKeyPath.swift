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
        /// A parameter of the filter named `filter` in a filter list: `filters.blur.inputRadius`.
        case filterParameter(filter: String, key: String)
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
        switch (component, value) {
        case (.whole?, _): return value
        case let (.x?, .point(p)): return .scalar(Double(p.x))
        case let (.y?, .point(p)): return .scalar(Double(p.y))
        case let (.width?, .size(s)): return .scalar(Double(s.width))
        case let (.height?, .size(s)): return .scalar(Double(s.height))
        case let (.origin?, .rect(r)): return .point(r.origin)
        case let (.size?, .rect(r)): return .size(r.size)
        case let (.originX?, .rect(r)): return .scalar(Double(r.origin.x))
        case let (.originY?, .rect(r)): return .scalar(Double(r.origin.y))
        case let (.sizeWidth?, .rect(r)): return .scalar(Double(r.size.width))
        case let (.sizeHeight?, .rect(r)): return .scalar(Double(r.size.height))
        case let (.rotation(axis)?, .transform(t)):
            return .scalar(CATransform3DIsIdentity(t) ? 0 : t.rotationAngles[axis])
        case let (.scale(axis)?, .transform(t)):
            let scale = CATransform3DIsIdentity(t) ? SIMD3<Double>(1, 1, 1) : t.scaleComponents
            return .scalar(axis.map { scale[$0] } ?? (scale.x + scale.y + scale.z) / 3)
        case let (.translation(axis)?, .transform(t)):
            let translation = SIMD3(Double(t.m41), Double(t.m42), Double(t.m43))
            if let axis { return .scalar(translation[axis]) }
            return .size(CGSize(width: translation.x, height: translation.y))
        case let (.filterParameter(name, key)?, .filters(filters)):
            return filters.first { $0.name == name }?.parameters[key]
        default: return nil
        }
    }

    /// `value` with the part the sub-path names replaced by `part`, or nil when the value has no such
    /// part or `part` has the wrong kind.
    package func replacingSubvalue(in value: AnimatableValue, with part: AnimatableValue) -> AnimatableValue? {
        if component == .whole { return part }
        switch (component, value, part) {
        case let (.x?, .point(p), .scalar(v)): return .point(CGPoint(x: v, y: p.y))
        case let (.y?, .point(p), .scalar(v)): return .point(CGPoint(x: p.x, y: v))
        case let (.width?, .size(s), .scalar(v)): return .size(CGSize(width: v, height: s.height))
        case let (.height?, .size(s), .scalar(v)): return .size(CGSize(width: s.width, height: v))
        case let (.origin?, .rect(r), .point(p)): return .rect(CGRect(origin: p, size: r.size))
        case let (.size?, .rect(r), .size(s)): return .rect(CGRect(origin: r.origin, size: s))
        case let (.originX?, .rect(r), .scalar(v)): return .rect(CGRect(x: v, y: r.minY, width: r.width, height: r.height))
        case let (.originY?, .rect(r), .scalar(v)): return .rect(CGRect(x: r.minX, y: v, width: r.width, height: r.height))
        case let (.sizeWidth?, .rect(r), .scalar(v)): return .rect(CGRect(x: r.minX, y: r.minY, width: v, height: r.height))
        case let (.sizeHeight?, .rect(r), .scalar(v)): return .rect(CGRect(x: r.minX, y: r.minY, width: r.width, height: v))
        case let (.rotation(axis)?, .transform(t), .scalar(angle)):
            if CATransform3DIsIdentity(t) {
                // The common case (a spinning layer): no decomposition needed.
                let axisVector = [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)][axis]
                return .transform(CATransform3DMakeRotation(angle, axisVector.0, axisVector.1, axisVector.2))
            }
            guard var parts = t.decomposed() else { return nil }
            var angles = parts.rotationAngles
            angles[axis] = angle
            let rotation = CATransform3DConcat(
                CATransform3DConcat(CATransform3DMakeRotation(angles.x, 1, 0, 0), CATransform3DMakeRotation(angles.y, 0, 1, 0)),
                CATransform3DMakeRotation(angles.z, 0, 0, 1))
            guard let rotationParts = rotation.decomposed() else { return nil }
            parts.quaternion = rotationParts.quaternion
            return .transform(CATransform3D(decomposition: parts))
        case let (.scale(axis)?, .transform(t), .scalar(factor)):
            guard var parts = t.decomposed() ?? (CATransform3DIsIdentity(t) ? .identity : nil) else { return nil }
            if let axis { parts.scale[axis] = factor } else { parts.scale = SIMD3(repeating: factor) }
            return .transform(CATransform3D(decomposition: parts))
        case let (.filterParameter(name, key)?, .filters(filters), _):
            guard let index = filters.firstIndex(where: { $0.name == name }), filters[index].parameters[key] != nil else { return nil }
            var parameters = filters[index].parameters
            parameters[key] = part
            var updated = filters
            updated[index] = FilterValue(filterName: filters[index].filterName, name: name, parameters: parameters)
            return .filters(updated)
        case let (.translation(axis)?, .transform(t), _):
            // Translation is exactly m41…m43 (the decomposition keeps it there), so set it directly.
            var result = t
            switch (axis, part) {
            case let (0?, .scalar(v)): result.m41 = v
            case let (1?, .scalar(v)): result.m42 = v
            case let (2?, .scalar(v)): result.m43 = v
            case let (nil, .size(s)): result.m41 = s.width; result.m42 = s.height
            default: return nil
            }
            return .transform(result)
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
