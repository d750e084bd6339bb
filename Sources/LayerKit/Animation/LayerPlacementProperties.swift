import Foundation

/// The properties that move, fade or hide a layer without changing what it draws in its own space:
/// `position`, `zPosition`, `anchorPoint`, `anchorPointZ`, `transform`, `opacity` and `isHidden`
/// (`keys`). An animation store of its own (`AnimatedPropertyStore`), so that a layer whose animations
/// write nothing else is evaluated into a copy of these alone.
///
/// Why: most animated layers of a busy frame only move (`city`'s 6,000 tiles bob and turn,
/// `animated-layers`' 10,000 squares move, fade and turn). Evaluated on a copy of the whole render node,
/// each cost a reset of the copy's fields, a retain and release of it, and a visit to another kilobyte
/// object far off in memory; and the evaluator, generic over the store and called from another module,
/// reached every field through a witness table. Evaluated into this value, the evaluator runs
/// specialized (`AnimationEvaluator.apply(_:layerTime:toPlacement:awaitingStart:)`) on 192 bytes
/// the caller keeps where it likes.
///
/// Typed accessors answer these keys from the fields and every other key as `unsupported` (the value
/// holds no such property): evaluate animations into it only when they write these keys alone.
package struct LayerPlacementProperties: Sendable {
    package var position = CGPoint.zero
    package var zPosition: CGFloat = 0
    package var anchorPoint = CGPoint(x: 0.5, y: 0.5)
    package var anchorPointZ: CGFloat = 0
    package var transform = CATransform3DIdentity
    package var opacity: CGFloat = 1
    package var isHidden = false

    package init() {}

    /// The properties held, as `RenderTree` stamps and resets them.
    package static let keys: Set<LayerPropertyKey> = [.position, .zPosition, .anchorPoint, .anchorPointZ, .transform, .opacity, .isHidden]

    /// Sets `property` to `other`'s value; false when it is not one of `keys`.
    package mutating func reset(_ property: LayerPropertyKey, from other: LayerPlacementProperties) -> Bool {
        switch property {
        case .position: position = other.position
        case .zPosition: zPosition = other.zPosition
        case .anchorPoint: anchorPoint = other.anchorPoint
        case .anchorPointZ: anchorPointZ = other.anchorPointZ
        case .transform: transform = other.transform
        case .opacity: opacity = other.opacity
        case .isHidden: isHidden = other.isHidden
        default: return false
        }
        return true
    }
}

extension LayerPlacementProperties: AnimatedPropertyStore {
    /// Nothing it holds is optional, and a write of a key it does not hold, typed or general, changes
    /// nothing: the base of `transform.rotation.z` is not read (an identity test of the transform, a
    /// decomposition of any other) for a spin whose value does not depend on it.
    package static var writesIndependentValuesUnread: Bool { true }

    package func animatedBaseValue(for target: PropertyAnimationTarget) -> AnimatableValue? {
        switch target.property {
        case .position?: .point(position)
        case .zPosition?: .scalar(Double(zPosition))
        case .anchorPoint?: .point(anchorPoint)
        case .anchorPointZ?: .scalar(Double(anchorPointZ))
        case .transform?: .transform(transform)
        case .opacity?: .scalar(Double(opacity))
        case .isHidden?: .discrete(DiscreteValue(isHidden))
        default: nil
        }
    }

    package mutating func setAnimatedValue(_ value: AnimatableValue, for target: PropertyAnimationTarget) {
        switch (target.property, value) {
        case (.position?, .point(let v)): position = v
        case (.zPosition?, .scalar(let v)): zPosition = CGFloat(v)
        case (.anchorPoint?, .point(let v)): anchorPoint = v
        case (.anchorPointZ?, .scalar(let v)): anchorPointZ = CGFloat(v)
        case (.transform?, .transform(let v)): transform = v
        case (.opacity?, .scalar(let v)): opacity = CGFloat(v)
        case (.isHidden?, .discrete(let d)): isHidden = d.value as? Bool ?? isHidden
        default: break
        }
    }

    package func animatedScalar(of property: LayerPropertyKey) -> AnimationChannelBase<Double> {
        switch property {
        case .opacity: .value(Double(opacity))
        case .zPosition: .value(Double(zPosition))
        case .anchorPointZ: .value(Double(anchorPointZ))
        default: .unsupported
        }
    }

    package mutating func setAnimatedScalar(_ value: Double, of property: LayerPropertyKey) {
        switch property {
        case .opacity: opacity = CGFloat(value)
        case .zPosition: zPosition = CGFloat(value)
        case .anchorPointZ: anchorPointZ = CGFloat(value)
        default: break
        }
    }

    package func animatedPoint(of property: LayerPropertyKey) -> AnimationChannelBase<CGPoint> {
        switch property {
        case .position: .value(position)
        case .anchorPoint: .value(anchorPoint)
        default: .unsupported
        }
    }

    package mutating func setAnimatedPoint(_ value: CGPoint, of property: LayerPropertyKey) {
        switch property {
        case .position: position = value
        case .anchorPoint: anchorPoint = value
        default: break
        }
    }

    package func animatedRect(of property: LayerPropertyKey) -> AnimationChannelBase<CGRect> { .unsupported }
    package mutating func setAnimatedRect(_ value: CGRect, of property: LayerPropertyKey) {}
    package func animatedColor(of property: LayerPropertyKey) -> AnimationChannelBase<SIMD4<Double>> { .unsupported }
    package mutating func setAnimatedColor(_ value: SIMD4<Double>, of property: LayerPropertyKey) {}

    package func animatedTransform(of property: LayerPropertyKey) -> AnimationChannelBase<CATransform3D> {
        property == .transform ? .value(transform) : .unsupported
    }

    package mutating func setAnimatedTransform(_ value: CATransform3D, of property: LayerPropertyKey) {
        if property == .transform { transform = value }
    }

    // Parts of points and transforms, read and written in the field itself.

    package func animatedPointPart(_ part: AnimationKeyPath.ScalarPart, of property: LayerPropertyKey) -> AnimationChannelBase<Double> {
        switch property {
        case .position: position.animatedPart(part).map { .value($0) } ?? .unsupported
        case .anchorPoint: anchorPoint.animatedPart(part).map { .value($0) } ?? .unsupported
        default: .unsupported
        }
    }

    package mutating func setAnimatedPointPart(_ value: Double, _ part: AnimationKeyPath.ScalarPart, of property: LayerPropertyKey) {
        switch property {
        case .position: if let point = position.replacingAnimatedPart(part, with: value) { position = point }
        case .anchorPoint: if let point = anchorPoint.replacingAnimatedPart(part, with: value) { anchorPoint = point }
        default: break
        }
    }

    package func animatedTransformPart(_ part: AnimationKeyPath.ScalarPart, of property: LayerPropertyKey) -> AnimationChannelBase<Double> {
        guard property == .transform else { return .unsupported }
        return transform.animatedPart(part).map { .value($0) } ?? .unsupported
    }

    package mutating func setAnimatedTransformPart(_ value: Double, _ part: AnimationKeyPath.ScalarPart, of property: LayerPropertyKey) {
        if property == .transform { _ = transform.replaceAnimatedPart(part, with: value) }
    }
}

extension AnimationEvaluator {
    /// Applies `entries` at layer-local time `time` to a layer's placement, appending what they report to
    /// `report`: the evaluator specialized for `LayerPlacementProperties` here, in its own module (a caller
    /// in another module would run it generic). `entries` must write nothing but
    /// `LayerPlacementProperties.keys`.
    package static func apply(_ entries: UnsafeBufferPointer<PackedAnimations.Entry>, layerTime time: Double,
                              toPlacement placement: inout LayerPlacementProperties, awaitingStart: Set<AnimationID>?,
                              reportingTo report: inout Report) {
        apply(entries, layerTime: time, to: &placement, awaitingStart: awaitingStart, reportingTo: &report)
    }
}
