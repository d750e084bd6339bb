/// Sparse storage for layer properties that differ from their defaults.
///
/// Core Animation layers are light because most properties keep their defaults; storing every property
/// inline would cost over a kilobyte per layer (two 128-byte transforms alone). The hot four (bounds,
/// position, backgroundColor, contents) live inline in `CALayer`; everything else lives here as a short
/// array searched linearly: layers rarely set more than a handful of other properties. Empty costs one
/// pointer and no allocation.
package struct LayerPropertyStorage {
    package enum Key: Hashable {
        case builtin(LayerPropertyKey)
        /// A property declared by a subclass through key-value coding.
        case custom(String)
        /// The layer this layer masks (a back pointer, not a property).
        case maskOwner
        /// On a presentation copy: the model layer it was made from.
        case modelLayer
        /// The layer's drawing state: whether it needs display, and the backing store it drew
        /// (`CALayer+Display.swift`).
        case display
        /// A layout property (`layoutManager`, `constraints`, `autoresizingMask`): neither animated nor
        /// sent to the renderer, so not recorded for the commit.
        case layout(LayoutStorageKey)
    }

    private var slots: [(key: Key, value: Any)] = []

    package init() {}

    package subscript(key: Key) -> Any? {
        get {
            for slot in slots where slot.key == key { return slot.value }
            return nil
        }
        set {
            if let index = slots.firstIndex(where: { $0.key == key }) {
                if let newValue { slots[index].value = newValue } else { slots.remove(at: index) }
            } else if let newValue {
                slots.append((key, newValue))
            }
        }
    }

    /// Keys with a stored value, in the order they were first set.
    package var keys: [Key] { slots.map(\.key) }
}

/// Lets code holding an `Any` ask whether it is an empty optional (a property set to nil).
package protocol OptionalValue {
    var isNone: Bool { get }
}

extension Optional: OptionalValue {
    package var isNone: Bool { self == nil }
}

/// True when `value` is an optional holding nothing.
package func isNilValue(_ value: Any) -> Bool {
    (value as? OptionalValue)?.isNone ?? false
}
