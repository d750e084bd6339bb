import Foundation

/// A Core Animation key path, parsed once: the property key and the sub-path into its value
/// (`"transform.rotation.z"` → key `transform`, sub-path `rotation.z`).
///
/// Sub-paths that Core Animation defines, by value type:
/// - `CGPoint`: `x`, `y` · `CGSize`: `width`, `height`
/// - `CGRect`: `origin`, `size`, `origin.x`, `origin.y`, `size.width`, `size.height`
/// - `CATransform3D`: `rotation.x|y|z` (Euler angles; `rotation` is `rotation.z`), `scale.x|y|z` (`scale`
///   reads the mean of the three and sets all three), `translation.x|y|z` (`translation` is a `CGSize` of
///   x and y). Reading decomposes the matrix; writing replaces that component and recomposes.
package struct AnimationKeyPath: Hashable, Sendable, CustomStringConvertible {
    /// The property key: `"transform"` in `"transform.rotation.z"`.
    package let key: String
    /// The components after the key: `["rotation", "z"]`.
    package let subPath: [String]

    package init(_ keyPath: String) {
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        key = parts[0]
        subPath = Array(parts.dropFirst())
    }

    package var description: String { ([key] + subPath).joined(separator: ".") }

    /// The part of `value` the sub-path names, or nil when the value has no such part.
    package func subvalue(of value: Any) -> Any? {
        if subPath.isEmpty { return value }
        switch value {
        case let point as CGPoint: return Self.read(point, subPath)
        case let size as CGSize: return Self.read(size, subPath)
        case let rect as CGRect: return Self.read(rect, subPath)
        case let transform as CATransform3D: return Self.read(transform, subPath)
        default: return nil
        }
    }

    /// `value` with the part the sub-path names replaced by `newPart`, or nil when the value has no such
    /// part or `newPart` has the wrong type.
    package func replacingSubvalue(in value: Any, with newPart: Any) -> Any? {
        if subPath.isEmpty { return newPart }
        switch value {
        case let point as CGPoint: return Self.write(point, subPath, newPart)
        case let size as CGSize: return Self.write(size, subPath, newPart)
        case let rect as CGRect: return Self.write(rect, subPath, newPart)
        case let transform as CATransform3D: return Self.write(transform, subPath, newPart)
        default: return nil
        }
    }

    // MARK: - Points, sizes, rectangles

    private static func read(_ point: CGPoint, _ path: [String]) -> Any? {
        switch path {
        case ["x"]: point.x
        case ["y"]: point.y
        default: nil
        }
    }

    private static func write(_ point: CGPoint, _ path: [String], _ part: Any) -> Any? {
        guard let scalar = scalarValue(part) else { return nil }
        var result = point
        switch path {
        case ["x"]: result.x = scalar
        case ["y"]: result.y = scalar
        default: return nil
        }
        return result
    }

    private static func read(_ size: CGSize, _ path: [String]) -> Any? {
        switch path {
        case ["width"]: size.width
        case ["height"]: size.height
        default: nil
        }
    }

    private static func write(_ size: CGSize, _ path: [String], _ part: Any) -> Any? {
        guard let scalar = scalarValue(part) else { return nil }
        var result = size
        switch path {
        case ["width"]: result.width = scalar
        case ["height"]: result.height = scalar
        default: return nil
        }
        return result
    }

    private static func read(_ rect: CGRect, _ path: [String]) -> Any? {
        switch path.first {
        case "origin": path.count == 1 ? rect.origin : read(rect.origin, Array(path.dropFirst()))
        case "size": path.count == 1 ? rect.size : read(rect.size, Array(path.dropFirst()))
        default: nil
        }
    }

    private static func write(_ rect: CGRect, _ path: [String], _ part: Any) -> Any? {
        var result = rect
        switch path.first {
        case "origin":
            if path.count == 1 {
                guard let origin = part as? CGPoint else { return nil }
                result.origin = origin
            } else {
                guard let origin = write(rect.origin, Array(path.dropFirst()), part) as? CGPoint else { return nil }
                result.origin = origin
            }
        case "size":
            if path.count == 1 {
                guard let size = part as? CGSize else { return nil }
                result.size = size
            } else {
                guard let size = write(rect.size, Array(path.dropFirst()), part) as? CGSize else { return nil }
                result.size = size
            }
        default:
            return nil
        }
        return result
    }

    // MARK: - Transforms

    private static let axes = ["x": 0, "y": 1, "z": 2]

    private static func read(_ transform: CATransform3D, _ path: [String]) -> Any? {
        switch (path.first, path.count) {
        case ("rotation", 1): return CGFloat(transform.rotationAngles.z)
        case ("rotation", 2): return axes[path[1]].map { CGFloat(transform.rotationAngles[$0]) }
        case ("scale", 1):
            let scale = transform.scaleComponents
            return CGFloat((scale.x + scale.y + scale.z) / 3)
        case ("scale", 2): return axes[path[1]].map { CGFloat(transform.scaleComponents[$0]) }
        case ("translation", 1):
            let translation = transform.translationComponents
            return CGSize(width: translation.x, height: translation.y)
        case ("translation", 2): return axes[path[1]].map { CGFloat(transform.translationComponents[$0]) }
        default: return nil
        }
    }

    private static func write(_ transform: CATransform3D, _ path: [String], _ part: Any) -> Any? {
        guard var parts = transform.decomposed() ?? (CATransform3DIsIdentity(transform) ? .identity : nil) else {
            return nil
        }
        let axis = path.count == 2 ? axes[path[1]] : nil
        if path.count == 2 && axis == nil { return nil }
        switch (path.first, path.count) {
        case ("rotation", 1), ("rotation", 2):
            guard let angle = scalarValue(part) else { return nil }
            var angles = parts.rotationAngles
            angles[axis ?? 2] = Double(angle)
            let rotation = CATransform3DConcat(
                CATransform3DConcat(CATransform3DMakeRotation(CGFloat(angles.x), 1, 0, 0),
                                    CATransform3DMakeRotation(CGFloat(angles.y), 0, 1, 0)),
                CATransform3DMakeRotation(CGFloat(angles.z), 0, 0, 1))
            guard let rotationParts = rotation.decomposed() else { return nil }
            parts.quaternion = rotationParts.quaternion
        case ("scale", 1):
            guard let scale = scalarValue(part) else { return nil }
            parts.scale = SIMD3(repeating: Double(scale))
        case ("scale", 2):
            guard let scale = scalarValue(part) else { return nil }
            parts.scale[axis!] = Double(scale)
        case ("translation", 1):
            guard let size = part as? CGSize else { return nil }
            parts.translation.x = Double(size.width)
            parts.translation.y = Double(size.height)
        case ("translation", 2):
            guard let offset = scalarValue(part) else { return nil }
            parts.translation[axis!] = Double(offset)
        default:
            return nil
        }
        return CATransform3D(decomposition: parts)
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
