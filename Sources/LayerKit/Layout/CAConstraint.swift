import Foundation

/// The geometry attribute of a layer's frame that a `CAConstraint` sets or reads.
///
/// Attributes are of the frame in the superlayer's coordinate space. The Y attributes are by
/// coordinate, so with LayerKit's y-down geometry `minY` is the top edge (on macOS, where y grows up,
/// Core Animation's `minY` is the bottom edge).
public enum CAConstraintAttribute: Int32, Sendable, CaseIterable {
    case minX, midX, maxX, width
    case minY, midY, maxY, height

    /// Whether the attribute is on the vertical axis.
    package var isVertical: Bool { rawValue >= CAConstraintAttribute.minY.rawValue }

    /// Where the attribute lies along its axis.
    package var role: CAConstraintAxisRole {
        CAConstraintAxisRole(rawValue: rawValue % 4)!
    }

    /// The attribute's value in `rect`.
    package func value(in rect: CGRect) -> CGFloat {
        switch self {
        case .minX: rect.minX
        case .midX: rect.midX
        case .maxX: rect.maxX
        case .width: rect.width
        case .minY: rect.minY
        case .midY: rect.midY
        case .maxY: rect.maxY
        case .height: rect.height
        }
    }
}

/// An attribute's place on its axis: an edge, the middle, or the extent.
package enum CAConstraintAxisRole: Int32, Sendable {
    case min, mid, max, size
}

/// One relationship between a geometry attribute of a layer and an attribute of its superlayer or a
/// sibling: `attribute = scale × source.sourceAttribute + offset`. Core Animation's `CAConstraint`.
///
/// Constraints are carried by the layer they place (`CALayer.constraints`) and applied by the
/// superlayer's `CAConstraintLayoutManager`. The source is a sibling named `sourceName` (its `name`),
/// or the superlayer's bounds when `sourceName` is `"superlayer"`. A constraint is an immutable value.
public final class CAConstraint: Sendable, CustomStringConvertible {
    /// The name that refers to the superlayer of the constrained layer.
    public static let superlayerName = "superlayer"

    /// The attribute of the constrained layer that this constraint sets.
    public let attribute: CAConstraintAttribute
    /// The name of the source layer: a sibling's `name`, or `"superlayer"`.
    public let sourceName: String
    /// The attribute of the source layer that this constraint reads.
    public let sourceAttribute: CAConstraintAttribute
    /// The factor applied to the source attribute.
    public let scale: CGFloat
    /// The amount added after scaling.
    public let offset: CGFloat

    /// A constraint `attr = m × srcId.srcAttr + c`.
    public init(attribute attr: CAConstraintAttribute, relativeTo srcId: String, attribute srcAttr: CAConstraintAttribute,
                scale m: CGFloat, offset c: CGFloat) {
        attribute = attr
        sourceName = srcId
        sourceAttribute = srcAttr
        scale = m
        offset = c
    }

    /// A constraint `attr = srcId.srcAttr + c`.
    public convenience init(attribute attr: CAConstraintAttribute, relativeTo srcId: String, attribute srcAttr: CAConstraintAttribute,
                            offset c: CGFloat) {
        self.init(attribute: attr, relativeTo: srcId, attribute: srcAttr, scale: 1, offset: c)
    }

    /// A constraint `attr = srcId.srcAttr`.
    public convenience init(attribute attr: CAConstraintAttribute, relativeTo srcId: String, attribute srcAttr: CAConstraintAttribute) {
        self.init(attribute: attr, relativeTo: srcId, attribute: srcAttr, scale: 1, offset: 0)
    }

    /// Whether the source is the superlayer rather than a sibling.
    package var isRelativeToSuperlayer: Bool { sourceName == Self.superlayerName }

    /// The constrained value for a source attribute value `v`.
    package func apply(to v: CGFloat) -> CGFloat { scale * v + offset }

    public var description: String {
        "\(attribute) = \(scale == 1 ? "" : "\(scale) × ")\(sourceName).\(sourceAttribute)\(offset == 0 ? "" : offset > 0 ? " + \(offset)" : " - \(-offset)")"
    }
}
