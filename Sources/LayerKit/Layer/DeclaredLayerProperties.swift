import Foundation

/// The subclass properties one of LayerKit's own layer classes declares through key-value coding
/// (`CAShapeLayer`'s `path`, `strokeEnd`, …), with what Core Animation gives them beyond an app's
/// custom properties: implicit animations, and a commit that always carries them together.
///
/// Why together: the render server reads them as one description (a shape's path and style), but knows
/// nothing of the layer's class and so nothing of its defaults. Whenever one of them changes — and in a
/// snapshot — the commit sends the current value of every one (`CommittedCustomValues`), defaults
/// included, so the render node always holds the complete set.
package protocol DeclaredLayerProperties: CALayer {
    /// Every declared key.
    static var declaredKeys: [String] { get }
    /// The declared keys that animate implicitly when set, as Core Animation's built-in properties do.
    static var implicitlyAnimatedKeys: Set<String> { get }
    /// The render server's drawing for the class, committed with the declared keys (nil: none).
    static var renderKind: LayerRenderKind? { get }
}

/// Subclass-declared property values as a commit carries them: `Sendable` `AnimatableValue`s by key.
///
/// Input: a layer and the keys that changed (`LayerChange.customKeys`). Output: the class's
/// `LayerRenderKind` first (with the declared keys), then each key's current value
/// (`value(forKey:)`, so defaults count): numbers, points, colors, number and color arrays and paths
/// (a mutable path is copied) as themselves; a tiled layer's `TiledContents` as a discrete value; strings,
/// booleans and string-valued enums (`fillRule`) as discrete strings and booleans; nil as nil. Other values (arbitrary objects an app stores) stay on
/// the model side: the render server has no use for them and they may not be safe to share.
/// Cost: O(changed keys), or O(declared keys) for a layer of a declaring class.
package enum CommittedCustomValues {
    package static func values(of layer: CALayer, changedKeys: [String], complete: Bool) -> [(key: String, value: AnimatableValue?)] {
        var keys = changedKeys
        var result: [(key: String, value: AnimatableValue?)] = []
        if let declaring = type(of: layer) as? DeclaredLayerProperties.Type,
           complete || changedKeys.contains(where: { $0 == LayerRenderKind.propertyKey || declaring.declaredKeys.contains($0) }) {
            for key in declaring.declaredKeys where !keys.contains(key) { keys.append(key) }
            keys.removeAll { $0 == LayerRenderKind.propertyKey }
            if let kind = declaring.renderKind {
                result.append((LayerRenderKind.propertyKey, .discrete(DiscreteValue(kind.rawValue))))
            }
        }
        for key in keys {
            guard let value = committedValue(layer.value(forKey: key)) else { continue }
            result.append((key, value))
        }
        return result
    }

    /// `.some(nil)` for nil, `.some(value)` for what the render server can hold, nil for what it cannot.
    static func committedValue(_ value: Any?) -> AnimatableValue?? {
        guard let value else { return .some(nil) }
        switch value {
        case let path as CGMutablePath: return .some(path.copy().map(AnimatableValue.path))
        // A tiled layer's drawn tiles: an immutable value made for the render server.
        case let tiles as TiledContents: return .some(.discrete(DiscreteValue(tiles)))
        // An emitter's cells: immutable values made when they were set.
        case let cells as EmitterCells: return .some(.discrete(DiscreteValue(cells)))
        case let flag as Bool: return .some(.discrete(DiscreteValue(flag)))
        case let string as String: return .some(.discrete(DiscreteValue(string)))
        case let enumeration as any RawRepresentable:
            guard let raw = enumeration.rawValue as? String else { return nil }
            return .some(.discrete(DiscreteValue(raw)))
        default:
            guard let animatable = AnimatableValue(value) else { return nil }
            if case .discrete = animatable { return nil }
            return .some(animatable)
        }
    }
}
