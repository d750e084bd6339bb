import Synchronization

/// A layer's stable identity, shared with the render tree: the model sends changes by ID and the
/// render server keys its nodes by it. Unique for the life of the process (never reused, unlike an
/// object address).
package struct LayerID: Hashable, Sendable, CustomStringConvertible {
    package let rawValue: UInt64

    private static let counter = Atomic<UInt64>(0)

    /// A fresh identity.
    package static func next() -> LayerID {
        LayerID(rawValue: counter.wrappingAdd(1, ordering: .relaxed).newValue)
    }

    package var description: String { "#\(rawValue)" }
}
