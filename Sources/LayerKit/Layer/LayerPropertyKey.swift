import Foundation

/// Every built-in `CALayer` property, with its Core Animation key, its value kind and whether it animates.
///
/// This table is the one place that knows the keys: key-value coding, change recording, defaults and
/// (later) the commit packet all go through it. Subclass properties declared through key-value coding
/// use their string key instead (see `CALayer+KeyValueCoding.swift`).
package enum LayerPropertyKey: UInt8, CaseIterable, Sendable {
    // Geometry
    case bounds, position, zPosition, anchorPoint, anchorPointZ, transform, sublayerTransform
    case isGeometryFlipped, contentsScale
    // Appearance
    case backgroundColor, cornerRadius, cornerCurve, maskedCorners, borderWidth, borderColor, opacity
    case isHidden, isOpaque, isDoubleSided, allowsGroupOpacity, allowsEdgeAntialiasing, edgeAntialiasingMask
    case masksToBounds, mask
    // Contents
    case contents, contentsGravity, contentsRect, contentsCenter, contentsFormat
    case minificationFilter, minificationFilterBias, magnificationFilter
    case needsDisplayOnBoundsChange, drawsAsynchronously
    // Shadow
    case shadowColor, shadowOpacity, shadowOffset, shadowRadius, shadowPath
    // Filters
    case filters, backgroundFilters, compositingFilter
    // Rasterization
    case shouldRasterize, rasterizationScale
    // Identity and behaviour
    case name, style, actions, delegate
    // Media timing of the layer (CAMediaTiming)
    case beginTime, timeOffset, speed, repeatCount, repeatDuration, autoreverses, duration, fillMode
    // The animations attached to the layer (not a key-value property).
    case animations
    // Structure: the sublayer list changed.
    case sublayers

    /// The Core Animation key (`"hidden"` for `isHidden`, as key-value coding spells it).
    package var key: String {
        switch self {
        case .isGeometryFlipped: "geometryFlipped"
        case .isHidden: "hidden"
        case .isOpaque: "opaque"
        case .isDoubleSided: "doubleSided"
        default: String(describing: self)
        }
    }

    /// The kind of value stored, used to check values set through key-value coding.
    package var valueKind: LayerValueKind {
        switch self {
        case .bounds, .contentsRect, .contentsCenter: .rect
        case .position, .anchorPoint: .point
        case .shadowOffset: .size
        case .zPosition, .anchorPointZ, .contentsScale, .cornerRadius, .borderWidth, .shadowRadius,
             .rasterizationScale: .float
        case .opacity, .shadowOpacity, .minificationFilterBias, .speed, .repeatCount: .float32
        case .beginTime, .timeOffset, .repeatDuration, .duration: .double
        case .transform, .sublayerTransform: .transform
        case .backgroundColor, .borderColor, .shadowColor: .color
        case .isGeometryFlipped, .isHidden, .isOpaque, .isDoubleSided, .allowsGroupOpacity, .allowsEdgeAntialiasing,
             .masksToBounds, .needsDisplayOnBoundsChange, .drawsAsynchronously, .shouldRasterize, .autoreverses: .bool
        case .mask: .layer
        case .shadowPath: .path
        case .contentsGravity, .minificationFilter, .magnificationFilter, .contentsFormat, .cornerCurve, .name, .fillMode: .string
        case .maskedCorners, .edgeAntialiasingMask: .cornerMask
        case .contents, .filters, .backgroundFilters, .compositingFilter, .style, .actions, .delegate, .sublayers, .animations: .any
        }
    }

    /// Whether Core Animation animates the property (explicitly, and implicitly through actions).
    package var isAnimatable: Bool {
        switch self {
        case .bounds, .position, .zPosition, .anchorPoint, .anchorPointZ, .transform, .sublayerTransform,
             .backgroundColor, .cornerRadius, .borderWidth, .borderColor, .opacity, .isHidden, .isDoubleSided,
             .masksToBounds, .mask, .contents, .contentsRect, .contentsCenter, .contentsScale,
             .minificationFilterBias, .shadowColor, .shadowOpacity, .shadowOffset, .shadowRadius, .shadowPath,
             .filters, .backgroundFilters, .compositingFilter, .shouldRasterize, .rasterizationScale, .sublayers,
             .maskedCorners:
            true
        default:
            false
        }
    }

    /// Whether a non-finite value must be refused (geometric properties).
    package var isGeometric: Bool {
        switch valueKind {
        case .rect, .point, .size, .float, .float32, .double, .transform: true
        default: false
        }
    }

    private static let byKey: [String: LayerPropertyKey] = {
        var table: [String: LayerPropertyKey] = [:]
        for property in allCases where property != .animations { table[property.key] = property }
        // Swift spellings accepted as aliases.
        table["isGeometryFlipped"] = .isGeometryFlipped
        table["isHidden"] = .isHidden
        table["isOpaque"] = .isOpaque
        table["isDoubleSided"] = .isDoubleSided
        return table
    }()

    /// The property for a Core Animation key, or nil for keys LayerKit does not define.
    package init?(key: String) {
        guard let property = Self.byKey[key] else { return nil }
        self = property
    }
}

/// The kinds of value a layer property holds.
package enum LayerValueKind: Sendable {
    /// `CGFloat` (most scalars) or `Float` (opacity, shadowOpacity, minificationFilterBias, as Core Animation types them).
    case float, float32
    /// `CFTimeInterval` (Double): the layer's media-timing times.
    case double
    case point, size, rect, transform, color, bool, layer, path, string, cornerMask, any
}

/// A set of built-in properties, one bit each (fits: fewer than 64 properties).
package struct LayerPropertySet: OptionSet, Sendable, Hashable {
    package let rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }
    package init(_ key: LayerPropertyKey) { self.rawValue = 1 << UInt64(key.rawValue) }

    package func contains(_ key: LayerPropertyKey) -> Bool { rawValue & (1 << UInt64(key.rawValue)) != 0 }
    package mutating func insert(_ key: LayerPropertyKey) { self.formUnion(LayerPropertySet(key)) }

    /// The keys in the set, in declaration order.
    package var keys: [LayerPropertyKey] { LayerPropertyKey.allCases.filter { contains($0) } }
}
