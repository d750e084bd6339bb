import Foundation

/// A basic or spring animation compiled for its channel's value type: its from, to and by values
/// unboxed, evaluated without `AnimatableValue`s and without allocating.
///
/// Input: progress (0…1 within the current iteration, before the timing function), the iteration, the
/// animation's duration, and a store. Output: the channel's value in the store, computed exactly as
/// `PropertyAnimationRecord.value(progress:iteration:duration:base:)` computes it (the same arithmetic,
/// `AnimationChannelValue`, in the same order), so compiled and general evaluation agree bit for bit.
/// Cost: one store read and one write of the channel, a timing-function solve or a spring evaluation;
/// transforms pay a decomposition per interpolation and per part written. A scalar animation's `Core`
/// lies inline in its layer's `PackedAnimations`, so a frame reads it without visiting another object.
package struct TypedPropertyAnimation<Channel: AnimationChannel>: Sendable {
    package typealias Value = Channel.Value

    /// What a frame evaluates: everything but the ownership of the pace's object.
    package let core: Core
    /// Keeps the object `core.pace` refers to unretained (a timing function or a spring) alive as long as
    /// the animation.
    private let paceOwner: (any AnyObject & Sendable)?

    package var channel: Channel { core.channel }
    package var from: Value? { core.from }
    package var to: Value? { core.to }
    package var by: Value? { core.by }
    package var additive: Bool { core.additive }
    package var cumulative: Bool { core.cumulative }

    package var timingFunction: CAMediaTimingFunction? {
        if case .timing(let function) = core.pace { function.takeUnretainedValue() } else { nil }
    }

    /// Set for a spring animation: its fraction of the way at each time replaces the timing function.
    package var spring: SpringSolution? {
        if case .spring(let box) = core.pace { box.takeUnretainedValue().solution } else { nil }
    }

    package init(channel: Channel, from: Value?, to: Value?, by: Value?, additive: Bool, cumulative: Bool,
                 timingFunction: CAMediaTimingFunction?, spring: SpringSolution?) {
        let pace: Pace
        if let spring {
            let box = SpringBox(spring)
            pace = .spring(.passUnretained(box))
            paceOwner = box
        } else if let timingFunction {
            pace = .timing(.passUnretained(timingFunction))
            paceOwner = timingFunction
        } else {
            pace = .linear
            paceOwner = nil
        }
        core = Core(channel: channel, from: from, to: to, by: by, additive: additive, cumulative: cumulative, pace: pace)
    }

    /// Applies the animation at `progress` to `store` (`Core.apply`).
    @inline(__always)
    package func apply<Store: AnimatedPropertyStore>(progress: Double, iteration: Int, duration: Double, to store: inout Store) -> Bool {
        core.apply(progress: progress, iteration: iteration, duration: duration, to: &store)
    }

    /// The animated value at `progress` over `base` (`Core.value`).
    package func value(progress: Double, iteration: Int, duration: Double, base: Value) -> Value {
        core.value(progress: progress, iteration: iteration, duration: duration, base: base)
    }

    /// The zero of the value type (clear for colors), standing in for an unset property.
    package var neutralValue: Value? { core.neutralValue }

    /// How progress becomes the fraction of the way, its object unretained (the animation's
    /// `paceOwner` keeps it): so a core holds no reference, and copying it, as a frame does for every
    /// animation, retains and releases nothing.
    package enum Pace: Sendable {
        case linear
        case timing(Unmanaged<CAMediaTimingFunction>)
        case spring(Unmanaged<SpringBox>)
    }

    /// A spring's solution, boxed: the pace refers to it, so that an animation stays small where it lies
    /// inline in its layer's `PackedAnimations`.
    package final class SpringBox: Sendable {
        package let solution: SpringSolution
        init(_ solution: SpringSolution) { self.solution = solution }
    }

    /// The animation as a frame evaluates it: values and flags only, no reference counted, valid while
    /// the animation that made it lives (`PackedAnimations.Entry` keeps its record, which keeps it).
    package struct Core: Sendable {
        package let channel: Channel
        package let from: Value?
        package let to: Value?
        package let by: Value?
        package let additive: Bool
        package let cumulative: Bool
        package let pace: Pace

        /// Applies the animation at `progress` to `store`. False when the store does not hold the channel's
        /// property as `Value`: the caller evaluates the record in general instead. Always inlined, so that
        /// the caller, which knows the channel, runs the value arithmetic specialized for it.
        @inline(__always)
        package func apply<Store: AnimatedPropertyStore>(progress: Double, iteration: Int, duration: Double, to store: inout Store) -> Bool {
            if Store.writesIndependentValuesUnread, let anyEnd = independentOfBase {
                // The base would go unused (`value` does not read it here): it is not read.
                let value = value(progress: progress, iteration: iteration, duration: duration, base: anyEnd)
                if value.isFiniteValue { channel.write(value, to: &store) }
                return true
            }
            let base: Value
            switch channel.base(in: store) {
            case .value(let value):
                base = value
            case .unset:
                // An unset property (no background color yet) animates from its neutral value (clear); a
                // part of an unset property is not written.
                guard channel.isWholeProperty, let neutral = neutralValue else { return true }
                base = neutral
            case .unsupported:
                return false
            }
            let value = value(progress: progress, iteration: iteration, duration: duration, base: base)
            if value.isFiniteValue { channel.write(value, to: &store) }
            return true
        }

        /// The animated value at `progress` (0…1 within iteration `iteration`) over `base`, the value
        /// beneath the animation: Core Animation's from/to/by rules, additive and cumulative.
        package func value(progress: Double, iteration: Int, duration: Double, base: Value) -> Value {
            // Additive animations interpolate offsets from zero; the others interpolate from the base.
            let underlying = additive ? Value.subtract(base, base) : base
            let (a, b) = endpoints(base: underlying)
            let fraction = switch pace {
            case .linear: progress
            case .timing(let function): function._withUnsafeGuaranteedRef { $0.value(at: progress) }
            case .spring(let box): box._withUnsafeGuaranteedRef { $0.solution.value(at: progress * duration) }
            }
            var value = Value.interpolate(a, b, fraction)
            // Cumulative repeats start where the previous iteration ended.
            if cumulative, iteration > 0 {
                value = Value.add(value, Value.scale(Value.subtract(b, a), by: Double(iteration)))
            }
            return additive ? Value.add(base, value) : value
        }

        /// The zero of the value type (clear for colors), standing in for an unset property.
        package var neutralValue: Value? {
            (from ?? to ?? by).map { Value.subtract($0, $0) }
        }

        /// One of the given values when the animated value does not depend on the base (not additive, and
        /// both ends fixed by from, to and by); nil when it does.
        private var independentOfBase: Value? {
            guard !additive else { return nil }
            switch (from, to, by) {
            case let (from?, _?, _), let (from?, nil, _?): return from
            case let (nil, to?, _?): return to
            default: return nil
            }
        }

        /// From and to, as Core Animation combines fromValue, toValue and byValue.
        private func endpoints(base: Value) -> (Value, Value) {
            switch (from, to, by) {
            case let (from?, to?, _): (from, to)
            case let (from?, nil, by?): (from, Value.add(from, by))
            case let (nil, to?, by?): (Value.subtract(to, by), to)
            case let (from?, nil, nil): (from, base)
            case let (nil, to?, nil): (base, to)
            case let (nil, nil, by?): (base, Value.add(base, by))
            case (nil, nil, nil): (base, base)
            }
        }
    }
}
