import LayerKit

/// A render node's subclass-declared properties (a shape layer's `path`, `strokeEnd`, …), by key, as the
/// commit sends them (`CommittedCustomValues`) and as animations of them evaluate.
///
/// A key is either absent (never committed: the class's default applies, which the reader knows) or set
/// — to a value or to nil (a `fillColor` set to nil). Values are `AnimatableValue`s, so the evaluator
/// reads and writes them like built-in properties; strings and enumerations arrive as discrete strings.
/// Copying is copy-on-write: presentation copies cost nothing until an animation writes.
package struct CustomPropertyValues: Sendable {
    private var values: [String: AnimatableValue?] = [:]

    package init() {}

    /// The value of `key`: nil when absent or set to nil (see `contains(_:)`). Setting nil records
    /// "set to nil", not absence.
    package subscript(key: String) -> AnimatableValue? {
        // Most layers hold none: asked of every layer each frame (tiled contents, shapes), an empty table
        // answers without hashing the key.
        get { values.isEmpty ? nil : values[key] ?? nil }
        set { values.updateValue(newValue, forKey: key) }
    }

    /// Whether `key` was committed (to a value or to nil).
    package func contains(_ key: String) -> Bool { values[key] != nil }

    /// Whether no key was ever committed.
    package var isEmpty: Bool { values.isEmpty }

    /// An animated value of `key`.
    package mutating func setAnimated(_ value: AnimatableValue, for key: String) {
        values.updateValue(value, forKey: key)
    }

    /// The value of `key` as a number.
    package func number(_ key: String) -> Double? {
        if case .scalar(let v)? = self[key] { return v }
        return nil
    }

    /// The value of `key` as a straight sRGB RGBA color; nil when nil or not a color.
    package func color(_ key: String) -> SIMD4<Double>? {
        if case .color(let c)? = self[key] { return c }
        return nil
    }

    /// The value of `key` as a string (committed strings and string-valued enumerations).
    package func string(_ key: String) -> String? {
        if case .discrete(let d)? = self[key] { return d.value as? String }
        return nil
    }

    /// The value of `key` as a Bool; nil when unset or not a Bool.
    package func bool(_ key: String) -> Bool? {
        if case .discrete(let d)? = self[key] { return d.value as? Bool }
        return nil
    }

    /// The value of `key` as a path.
    package func path(_ key: String) -> CGPath? {
        if case .path(let p)? = self[key] { return p }
        return nil
    }

    /// The value of `key` as numbers (an empty array for nil).
    package func numbers(_ key: String) -> [Double] {
        switch self[key] {
        case .numbers(let values)?: values
        case .scalar(let v)?: [v]
        default: []
        }
    }
}
