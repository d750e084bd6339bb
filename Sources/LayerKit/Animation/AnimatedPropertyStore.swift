import Foundation

/// Where animated values are read from and written to: a presentation copy of a layer on the main
/// thread, a render node on the render thread. Both go through the same evaluator, so what
/// `presentation()` reports is what the render thread draws.
///
/// Compiled animations (`CompiledPropertyAnimation`) read and write through the typed accessors; their
/// defaults go through `animatedBaseValue(for:)` and `setAnimatedValue(_:for:)`, so a store need only
/// implement those two. A store on a hot path (the render node) answers the typed ones from its fields.
package protocol AnimatedPropertyStore {
    /// The current value of the whole property the target names (the model value, or what earlier
    /// animations made of it); nil when unset (a nil color) or not held by this store.
    func animatedBaseValue(for target: PropertyAnimationTarget) -> AnimatableValue?
    /// Stores a new value of the whole property.
    mutating func setAnimatedValue(_ value: AnimatableValue, for target: PropertyAnimationTarget)
    /// A transition is `progress` of the way (0 old state, 1 new) — stores that draw transitions keep it.
    mutating func setTransition(_ transition: TransitionRecord, progress: Double)

    // Typed access to a whole built-in property (unsupported: not held as that kind).
    func animatedScalar(of property: LayerPropertyKey) -> AnimationChannelBase<Double>
    func animatedPoint(of property: LayerPropertyKey) -> AnimationChannelBase<CGPoint>
    func animatedRect(of property: LayerPropertyKey) -> AnimationChannelBase<CGRect>
    func animatedTransform(of property: LayerPropertyKey) -> AnimationChannelBase<CATransform3D>
    func animatedColor(of property: LayerPropertyKey) -> AnimationChannelBase<SIMD4<Double>>
    mutating func setAnimatedScalar(_ value: Double, of property: LayerPropertyKey)
    mutating func setAnimatedPoint(_ value: CGPoint, of property: LayerPropertyKey)
    mutating func setAnimatedRect(_ value: CGRect, of property: LayerPropertyKey)
    mutating func setAnimatedTransform(_ value: CATransform3D, of property: LayerPropertyKey)
    mutating func setAnimatedColor(_ value: SIMD4<Double>, of property: LayerPropertyKey)

    // Typed access to a scalar part of a built-in point or transform property (`position.y`,
    // `transform.rotation.z`), so a store that holds the whole value reads and writes the part in place
    // instead of handing the whole value (a transform: 128 bytes) out and back.
    func animatedPointPart(_ part: AnimationKeyPath.ScalarPart, of property: LayerPropertyKey) -> AnimationChannelBase<Double>
    func animatedTransformPart(_ part: AnimationKeyPath.ScalarPart, of property: LayerPropertyKey) -> AnimationChannelBase<Double>
    mutating func setAnimatedPointPart(_ value: Double, _ part: AnimationKeyPath.ScalarPart, of property: LayerPropertyKey)
    mutating func setAnimatedTransformPart(_ value: Double, _ part: AnimationKeyPath.ScalarPart, of property: LayerPropertyKey)

    /// Whether an animation whose value does not depend on the value beneath it (from and to given, not
    /// additive) may be written without reading that value first: true only for a store whose typed reads
    /// never answer `.unset`, and which changes nothing when a channel it answers `.unsupported` for is
    /// written (what the general evaluation, which would run instead, writes then too). Default false.
    static var writesIndependentValuesUnread: Bool { get }
}

extension AnimatedPropertyStore {
    package static var writesIndependentValuesUnread: Bool { false }

    /// Stores that do not draw (presentation copies) show the new state, as Core Animation's do.
    package mutating func setTransition(_ transition: TransitionRecord, progress: Double) {}

    package func animatedScalar(of property: LayerPropertyKey) -> AnimationChannelBase<Double> {
        AnimationChannelBase(animatedBaseValue(for: .whole(of: property)))
    }
    package func animatedPoint(of property: LayerPropertyKey) -> AnimationChannelBase<CGPoint> {
        AnimationChannelBase(animatedBaseValue(for: .whole(of: property)))
    }
    package func animatedRect(of property: LayerPropertyKey) -> AnimationChannelBase<CGRect> {
        AnimationChannelBase(animatedBaseValue(for: .whole(of: property)))
    }
    package func animatedTransform(of property: LayerPropertyKey) -> AnimationChannelBase<CATransform3D> {
        AnimationChannelBase(animatedBaseValue(for: .whole(of: property)))
    }
    package func animatedColor(of property: LayerPropertyKey) -> AnimationChannelBase<SIMD4<Double>> {
        AnimationChannelBase(animatedBaseValue(for: .whole(of: property)))
    }
    package mutating func setAnimatedScalar(_ value: Double, of property: LayerPropertyKey) {
        setAnimatedValue(.scalar(value), for: .whole(of: property))
    }
    package mutating func setAnimatedPoint(_ value: CGPoint, of property: LayerPropertyKey) {
        setAnimatedValue(.point(value), for: .whole(of: property))
    }
    package mutating func setAnimatedRect(_ value: CGRect, of property: LayerPropertyKey) {
        setAnimatedValue(.rect(value), for: .whole(of: property))
    }
    package mutating func setAnimatedTransform(_ value: CATransform3D, of property: LayerPropertyKey) {
        setAnimatedValue(.transform(value), for: .whole(of: property))
    }
    package mutating func setAnimatedColor(_ value: SIMD4<Double>, of property: LayerPropertyKey) {
        setAnimatedValue(.color(value), for: .whole(of: property))
    }
    package func animatedPointPart(_ part: AnimationKeyPath.ScalarPart, of property: LayerPropertyKey) -> AnimationChannelBase<Double> {
        animatedPoint(of: property).part { $0.animatedPart(part) }
    }
    package func animatedTransformPart(_ part: AnimationKeyPath.ScalarPart, of property: LayerPropertyKey) -> AnimationChannelBase<Double> {
        animatedTransform(of: property).part { $0.animatedPart(part) }
    }
    package mutating func setAnimatedPointPart(_ value: Double, _ part: AnimationKeyPath.ScalarPart, of property: LayerPropertyKey) {
        guard let whole = animatedPoint(of: property).value?.replacingAnimatedPart(part, with: value) else { return }
        setAnimatedPoint(whole, of: property)
    }
    package mutating func setAnimatedTransformPart(_ value: Double, _ part: AnimationKeyPath.ScalarPart, of property: LayerPropertyKey) {
        guard let whole = animatedTransform(of: property).value?.replacingAnimatedPart(part, with: value) else { return }
        setAnimatedTransform(whole, of: property)
    }
}
