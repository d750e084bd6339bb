import Foundation

/// A short vector of numbers, as Core Image's filters take them (`CIColorMatrix`'s `inputRVector`, a
/// centre point). Immutable, so it is safe to share between threads.
public final class CIVector: Hashable, CustomStringConvertible, Sendable {
    /// The components, in order.
    public let values: [CGFloat]

    public init(values: [CGFloat]) { self.values = values }
    public convenience init(x: CGFloat) { self.init(values: [x]) }
    public convenience init(x: CGFloat, y: CGFloat) { self.init(values: [x, y]) }
    public convenience init(x: CGFloat, y: CGFloat, z: CGFloat) { self.init(values: [x, y, z]) }
    public convenience init(x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) { self.init(values: [x, y, z, w]) }

    public var count: Int { values.count }
    /// The component at `index`, 0 past the end (as Core Image answers).
    public func value(at index: Int) -> CGFloat { values.indices.contains(index) ? values[index] : 0 }
    public var x: CGFloat { value(at: 0) }
    public var y: CGFloat { value(at: 1) }
    public var z: CGFloat { value(at: 2) }
    public var w: CGFloat { value(at: 3) }

    public static func == (lhs: CIVector, rhs: CIVector) -> Bool { lhs.values == rhs.values }
    public func hash(into hasher: inout Hasher) { hasher.combine(values) }
    public var description: String { "[" + values.map { "\($0)" }.joined(separator: " ") + "]" }
}
