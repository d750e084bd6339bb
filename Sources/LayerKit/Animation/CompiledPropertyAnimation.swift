import Foundation

/// A property animation compiled once, when its record is made, into a typed evaluator for its channel
/// (`TypedPropertyAnimation`), so that frames evaluate it without boxing values.
///
/// Compiled: basic and spring animations of a built-in property whose values are of the property's own
/// kind — scalars, points, rects, colors and transforms, whole or by a scalar, point or size sub-path
/// (`position.y`, `bounds.origin`, `transform.rotation.z`, `transform.translation`). Left to the general
/// evaluator: keyframes, value functions, rotation along a path, subclass properties, filter
/// parameters and values that only switch (booleans, images). A compiled record writes only its
/// target's property, which is how the render thread knows what to reset between frames
/// (`AnimationRecord.writtenProperties`).
///
/// Every kind is boxed, so that the enum is one word: a layer's `PackedAnimations` entry holds it beside
/// a scalar's core (`PackedAnimations.Entry.scalar`), which is what a frame reads for scalars, by far
/// the most common.
package enum CompiledPropertyAnimation: Sendable {
    indirect case scalar(TypedPropertyAnimation<ScalarChannel>)
    indirect case point(TypedPropertyAnimation<PointChannel>)
    indirect case size(TypedPropertyAnimation<SizeChannel>)
    indirect case rect(TypedPropertyAnimation<RectChannel>)
    indirect case color(TypedPropertyAnimation<ColorChannel>)
    indirect case transform(TypedPropertyAnimation<TransformChannel>)

    /// The compiled form of an animation of `target`, or nil when it is left to the general evaluator.
    package init?(target: PropertyAnimationTarget, kind: PropertyAnimationRecord.Kind, additive: Bool, cumulative: Bool,
                  timingFunction: CAMediaTimingFunction?, valueFunction: CAValueFunction?, followsPath: Bool) {
        guard valueFunction == nil, !followsPath, let property = target.property, let component = target.keyPath.component else { return nil }
        let from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?, spring: SpringSolution?
        switch kind {
        case let .basic(f, t, b): (from, to, by, spring) = (f, t, b, nil)
        case let .spring(f, t, b, solution): (from, to, by, spring) = (f, t, b, solution)
        case .keyframes: return nil
        }

        /// The animation over `channel`, when every value given is a `Channel.Value`.
        func typed<Channel: AnimationChannel>(_ channel: Channel) -> TypedPropertyAnimation<Channel>? {
            func unboxed(_ value: AnimatableValue?) -> Channel.Value?? {
                guard let value else { return .some(nil) }
                return Channel.Value(value).map { .some($0) }
            }
            guard let from = unboxed(from), let to = unboxed(to), let by = unboxed(by) else { return nil }
            return TypedPropertyAnimation(channel: channel, from: from, to: to, by: by, additive: additive, cumulative: cumulative,
                                          timingFunction: timingFunction, spring: spring)
        }

        let compiled: CompiledPropertyAnimation?
        switch (property.valueKind, component) {
        case (.float, .whole), (.float32, .whole), (.double, .whole):
            compiled = typed(ScalarChannel(property: property, place: .property)).map(Self.scalar)
        case (.point, .whole):
            compiled = typed(PointChannel(property: property, isRectOrigin: false)).map(Self.point)
        case (.point, .x), (.point, .y):
            compiled = component.scalarPart.flatMap { typed(ScalarChannel(property: property, place: .pointPart($0))) }.map(Self.scalar)
        case (.rect, .whole):
            compiled = typed(RectChannel(property: property)).map(Self.rect)
        case (.rect, .origin):
            compiled = typed(PointChannel(property: property, isRectOrigin: true)).map(Self.point)
        case (.rect, .size):
            compiled = typed(SizeChannel(property: property, place: .rectSize)).map(Self.size)
        case (.rect, .originX), (.rect, .originY), (.rect, .sizeWidth), (.rect, .sizeHeight):
            compiled = component.scalarPart.flatMap { typed(ScalarChannel(property: property, place: .rectPart($0))) }.map(Self.scalar)
        case (.color, .whole):
            compiled = typed(ColorChannel(property: property)).map(Self.color)
        case (.transform, .whole):
            compiled = typed(TransformChannel(property: property)).map(Self.transform)
        case (.transform, .translation(nil)):
            compiled = typed(SizeChannel(property: property, place: .transformTranslation)).map(Self.size)
        case (.transform, .rotation), (.transform, .scale), (.transform, .translation):
            compiled = component.scalarPart.flatMap { typed(ScalarChannel(property: property, place: .transformPart($0))) }.map(Self.scalar)
        default:
            compiled = nil
        }
        guard let compiled else { return nil }
        self = compiled
    }

    /// Applies the animation at `progress` to `store`; false when the store does not hold the property
    /// as the compiled kind (evaluate the record in general instead).
    package func apply<Store: AnimatedPropertyStore>(progress: Double, iteration: Int, duration: Double, to store: inout Store) -> Bool {
        switch self {
        case .scalar(let a): a.apply(progress: progress, iteration: iteration, duration: duration, to: &store)
        case .point(let a): a.apply(progress: progress, iteration: iteration, duration: duration, to: &store)
        case .size(let a): a.apply(progress: progress, iteration: iteration, duration: duration, to: &store)
        case .rect(let a): a.apply(progress: progress, iteration: iteration, duration: duration, to: &store)
        case .color(let a): a.apply(progress: progress, iteration: iteration, duration: duration, to: &store)
        case .transform(let a): a.apply(progress: progress, iteration: iteration, duration: duration, to: &store)
        }
    }
}
