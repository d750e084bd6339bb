import Foundation
import Synchronization

/// Identifies one added animation across threads: the render thread reports start and stop by it.
package struct AnimationID: Hashable, Sendable {
    package let rawValue: UInt64
    private static let counter = Atomic<UInt64>(0)
    package static func next() -> AnimationID {
        AnimationID(rawValue: counter.wrappingAdd(1, ordering: .relaxed).newValue)
    }
}

/// An added animation as committed: immutable and `Sendable`, evaluated identically by the render thread
/// and by `presentation()`. Its `beginTime` is resolved (in the layer's local time) and its `duration`
/// is the transaction's when the animation had none. A class: frames iterate records without copying them.
package final class AnimationRecord: Sendable {
    package let id: AnimationID
    /// The key the animation was added under.
    package let key: String
    package let timing: MediaTimingParameters
    package let removedOnCompletion: Bool
    package let content: Content
    /// The built-in properties the animation writes, when it is compiled throughout (every property
    /// animation in it a `CompiledPropertyAnimation`): resetting these to their committed values undoes
    /// what it wrote. Nil when it may write more (keyframes, transitions, subclass properties, …).
    package let writtenProperties: [LayerPropertyKey]?
    /// The compiled form of a property animation (`PropertyAnimationRecord.compiled`), kept here too so
    /// that a frame reaches it without unwrapping the content.
    package let compiled: CompiledPropertyAnimation?

    package indirect enum Content: Sendable {
        case property(PropertyAnimationRecord)
        /// A group: children run in the group's local time; the group's duration cuts them off.
        case group([AnimationRecord])
        /// A transition between the layer's previous and new states.
        case transition(TransitionRecord)
    }

    /// Whether this is a `CATransition`'s record.
    package var isTransition: Bool {
        if case .transition = content { true } else { false }
    }

    package init(id: AnimationID, key: String, timing: MediaTimingParameters, removedOnCompletion: Bool, content: Content) {
        self.id = id
        self.key = key
        self.timing = timing
        self.removedOnCompletion = removedOnCompletion
        self.content = content
        switch content {
        case .property(let animation):
            compiled = animation.compiled
            writtenProperties = animation.compiled == nil ? nil : animation.target.property.map { [$0] }
        case .group(let children):
            compiled = nil
            var properties: [LayerPropertyKey]? = []
            for child in children {
                guard let written = child.writtenProperties else {
                    properties = nil
                    break
                }
                properties?.append(contentsOf: written)
            }
            writtenProperties = properties
        case .transition:
            compiled = nil
            writtenProperties = nil
        }
    }
}

/// What a property animation drives: a built-in property or a subclass property, plus the sub-path.
package struct PropertyAnimationTarget: Sendable, Hashable {
    package let keyPath: AnimationKeyPath
    /// The built-in property, or nil for a subclass-declared key.
    package let property: LayerPropertyKey?

    /// Validates `keyPath` against `layer`; nil (with an `unknownKeyPath` diagnostic) when it names no
    /// animatable property or sub-path.
    package init?(keyPath: String?, layer: CALayer) {
        guard let keyPath, !keyPath.isEmpty else {
            LayerKitDiagnostics.emit(.unknownKeyPath(keyPath: keyPath ?? "<nil>"))
            return nil
        }
        let path = AnimationKeyPath(keyPath)
        let property = LayerPropertyKey(key: path.key)
        if let property, !property.isAnimatable {
            LayerKitDiagnostics.emit(.unknownKeyPath(keyPath: keyPath))
            return nil
        }
        // The sub-path must exist on the current value (e.g. "position.z" does not); an unset optional
        // built-in property (a nil color) can only be animated whole, and so can an unset property a
        // LayerKit layer class declares (a shape layer's nil `strokeColor`). A key that is neither built in,
        // declared, nor set on the layer names nothing.
        let current = layer.value(forKey: path.key)
        let declared = (type(of: layer) as? DeclaredLayerProperties.Type)?.declaredKeys.contains(path.key) ?? false
        guard path.component != nil,
              current.map({ path.subvalue(of: $0) != nil }) ?? ((property != nil || declared) && path.component == .whole) else {
            LayerKitDiagnostics.emit(.unknownKeyPath(keyPath: keyPath))
            return nil
        }
        self.keyPath = path
        self.property = property
    }

    /// The whole of built-in property `property` (`"position"`), as the general store accessors are asked for it.
    package static func whole(of property: LayerPropertyKey) -> PropertyAnimationTarget {
        wholeProperties[Int(property.rawValue)]
    }

    private static let wholeProperties = LayerPropertyKey.allCases.map {
        PropertyAnimationTarget(keyPath: AnimationKeyPath($0.key), property: $0)
    }

    private init(keyPath: AnimationKeyPath, property: LayerPropertyKey) {
        self.keyPath = keyPath
        self.property = property
    }

    /// Whether `values` (nil entries are absent) fit the animated value's type and are finite; a
    /// diagnostic names the key path when not.
    package func accepts(_ values: [AnimatableValue?], layer: CALayer) -> Bool {
        let current = layer.value(forKey: keyPath.key).flatMap { keyPath.subvalue(of: $0) }
        let reference = AnimatableValue(current)
        for case let value? in values {
            guard value.isFinite else {
                LayerKitDiagnostics.emit(.nonFiniteGeometry(layer: layer.diagnosticName, keyPath: keyPath.description))
                return false
            }
            if let reference, !value.hasSameKind(as: reference) {
                LayerKitDiagnostics.emit(.valueTypeMismatch(keyPath: keyPath.description, expected: reference.kindName, got: value.kindName))
                return false
            }
        }
        return true
    }
}

/// A property animation's values, committed (a class: evaluation reads it without copying).
package final class PropertyAnimationRecord: Sendable {
    package let target: PropertyAnimationTarget
    package let additive: Bool
    package let cumulative: Bool
    package let timingFunction: CAMediaTimingFunction?
    package let kind: Kind
    /// Maps interpolated numbers to the transform set (nil: values are the property's own type).
    package let valueFunction: CAValueFunction?
    /// For a path animation with a rotation mode: the transform property turned to follow the path
    /// (its tangent angle, plus π for `rotateAutoReverse`).
    package let rotationFollowsPath: (transform: PropertyAnimationTarget, reversed: Bool)?
    /// The typed evaluator the animation compiles to, or nil when it is evaluated in general.
    package let compiled: CompiledPropertyAnimation?

    package enum Kind: Sendable {
        case basic(from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?)
        case keyframes(KeyframeTrack)
        case spring(from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?, spring: SpringSolution)
    }

    package init(target: PropertyAnimationTarget, additive: Bool, cumulative: Bool, timingFunction: CAMediaTimingFunction?, kind: Kind,
                 valueFunction: CAValueFunction? = nil, rotationFollowsPath: (transform: PropertyAnimationTarget, reversed: Bool)? = nil) {
        self.target = target
        self.additive = additive
        self.cumulative = cumulative
        self.timingFunction = timingFunction
        self.kind = kind
        self.valueFunction = valueFunction
        self.rotationFollowsPath = rotationFollowsPath
        compiled = CompiledPropertyAnimation(target: target, kind: kind, additive: additive, cumulative: cumulative,
                                             timingFunction: timingFunction, valueFunction: valueFunction,
                                             followsPath: rotationFollowsPath != nil)
    }
}

extension AnimatableValue {
    /// Whether two values are of the same kind (both points, both scalars, …).
    package func hasSameKind(as other: AnimatableValue) -> Bool { kindName == other.kindName }

    package var kindName: String {
        switch self {
        case .scalar: "number"
        case .point: "CGPoint"
        case .size: "CGSize"
        case .rect: "CGRect"
        case .transform: "CATransform3D"
        case .color: "CGColor"
        case .numbers: "[number]"
        case .colors: "[CGColor]"
        case .path: "CGPath"
        case .filters: "[CIFilter]"
        case .discrete, .crossfade: "value"
        }
    }
}
