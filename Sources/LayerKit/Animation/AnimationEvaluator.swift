import Foundation

/// Evaluates committed animations at a time.
///
/// Input: a layer's animation records in the order added, the layer's local time, a property store.
/// Output: the store with every active animation applied in order (later ones on top, additive ones
/// added), and which animations are running and which have finished. Property animations that compiled
/// (`CompiledPropertyAnimation`) run typed, without boxing or allocating; the rest run through
/// `AnimatableValue`s. Cost: O(animations · key-path work); transforms pay a decomposition per evaluation.
package enum AnimationEvaluator {
    package struct Report: Sendable, Equatable {
        /// Animations whose begin time has passed and that are still within their active duration.
        package var running: [AnimationID] = []
        /// Animations whose active duration has ended.
        package var finished: [AnimationID] = []
        package init() {}
    }

    /// Applies `records` at layer-local time `time` to `store` (packing them first; see below).
    package static func apply<Store: AnimatedPropertyStore>(_ records: [AnimationRecord], layerTime time: Double, to store: inout Store,
                                                            awaitingStart: Set<AnimationID>? = nil) -> Report {
        apply(PackedAnimations(records), layerTime: time, to: &store, awaitingStart: awaitingStart)
    }

    /// Applies `animations` at layer-local time `time` to `store`. `running` lists only animations in
    /// `awaitingStart` when it is given (the render thread asks only about animations it has not yet
    /// reported as started, so a steady frame allocates nothing).
    package static func apply<Store: AnimatedPropertyStore>(_ animations: PackedAnimations, layerTime time: Double, to store: inout Store,
                                                            awaitingStart: Set<AnimationID>? = nil) -> Report {
        animations.entries.withUnsafeBufferPointer { apply($0, layerTime: time, to: &store, awaitingStart: awaitingStart) }
    }

    /// Applies packed animations' `entries` where they lie (the render thread keeps each layer's address
    /// of them: reading them through their array retained its buffer, far off, per layer per frame).
    package static func apply<Store: AnimatedPropertyStore>(_ entries: UnsafeBufferPointer<PackedAnimations.Entry>, layerTime time: Double,
                                                            to store: inout Store, awaitingStart: Set<AnimationID>? = nil) -> Report {
        var report = Report()
        apply(entries, layerTime: time, to: &store, awaitingStart: awaitingStart, reportingTo: &report)
        return report
    }

    /// `apply(_:layerTime:to:awaitingStart:)`, appending what it reports to `report`: the render thread
    /// keeps one report for a list of layers and empties it after each, where a report made and dropped
    /// per layer released its two empty lists, per animated layer per frame.
    package static func apply<Store: AnimatedPropertyStore>(_ entries: UnsafeBufferPointer<PackedAnimations.Entry>, layerTime time: Double,
                                                            to store: inout Store, awaitingStart: Set<AnimationID>?,
                                                            reportingTo report: inout Report) {
        // Steady frames await no start: no lookup per animation then. (The set is read where it lies: a
        // copy of it retained its storage per layer per frame.)
        let reportsEveryRunning = awaitingStart == nil
        for index in entries.indices {
            // The timing is read where it lies, field by field, not copied out first: a copy kept across the
            // store's calls (which might reach the entry's memory) was written to the stack in 16-byte
            // pieces, the last straddling `duration`, and reading that back stalled on every animation
            // (store forwarding fails across pieces): a third of this loop's own time.
            let state = entries[index].timing.evaluate(parentTime: time, activeDuration: entries[index].activeDuration)
            if state.isFinished {
                report.finished.append(entries[index].id)
            } else if time >= entries[index].timing.beginTime,
                      reportsEveryRunning || awaitingStart.map({ !$0.isEmpty && $0.contains(entries[index].id) }) == true {
                report.running.append(entries[index].id)
            }
            guard let progress = state.progress else { continue }
            if let scalar = entries[index].scalar,
               scalar.apply(progress: progress, iteration: state.iteration, duration: entries[index].timing.duration, to: &store) {
                continue
            }
            if let compiled = entries[index].compiled,
               compiled.apply(progress: progress, iteration: state.iteration, duration: entries[index].timing.duration, to: &store) {
                continue
            }
            apply(entries[index].record.content, progress: progress, iteration: state.iteration, timing: entries[index].timing, to: &store)
        }
    }

    private static func apply<Store: AnimatedPropertyStore>(_ content: AnimationRecord.Content, progress: Double, iteration: Int,
                                                            timing: MediaTimingParameters, to store: inout Store) {
        switch content {
        case .transition(let transition):
            store.setTransition(transition, progress: transition.progress(at: progress))
        case .group(let children):
            // Children run in the group's local time within its current iteration.
            let groupTime = progress * timing.duration
            for child in children {
                let state = child.timing.evaluate(parentTime: groupTime)
                guard let childProgress = state.progress else { continue }
                apply(child.content, progress: childProgress, iteration: state.iteration, timing: child.timing, to: &store)
            }
        case .property(let animation):
            if let compiled = animation.compiled,
               compiled.apply(progress: progress, iteration: iteration, duration: timing.duration, to: &store) {
                return
            }
            applyInGeneral(animation, progress: progress, iteration: iteration, duration: timing.duration, to: &store)
        }
    }

    /// Applies a property animation through `AnimatableValue`s: what compiled animations do typed, and
    /// keyframes, value functions and rotation along a path besides.
    private static func applyInGeneral<Store: AnimatedPropertyStore>(_ animation: PropertyAnimationRecord, progress: Double, iteration: Int,
                                                                     duration: Double, to store: inout Store) {
        let target = animation.target
        if let function = animation.valueFunction {
            // Numbers interpolated from 0 (or the values given), turned into the transform set.
            guard let numbers = animation.value(progress: progress, iteration: iteration, duration: duration,
                                                base: .scalar(0)),
                  let transform = function.transform(for: numbers), transform.isFiniteGeometry else { return }
            store.setAnimatedValue(.transform(transform), for: target)
            return
        }
        if let (transformTarget, reversed) = animation.rotationFollowsPath, case .keyframes(let track) = animation.kind,
           let angle = track.tangentAngle(at: animation.timingFunction?.value(at: progress) ?? progress),
           case .transform(let base)? = store.animatedBaseValue(for: transformTarget) {
            let turn = CATransform3DMakeRotation(CGFloat(reversed ? angle + .pi : angle), 0, 0, 1)
            store.setAnimatedValue(.transform(CATransform3DConcat(base, turn)), for: transformTarget)
        }
        let whole = store.animatedBaseValue(for: target)
        // A nil property (no background color yet) animates from its neutral value (clear).
        let currentPart = whole.flatMap { target.keyPath.subvalue(of: $0) }
        guard let base = currentPart ?? animation.neutralValue,
              let value = animation.value(progress: progress, iteration: iteration, duration: duration, base: base),
              value.isFinite else { return }
        if let whole {
            guard let updated = target.keyPath.replacingSubvalue(in: whole, with: value) else { return }
            store.setAnimatedValue(updated, for: target)
        } else if target.keyPath.component == .whole {
            store.setAnimatedValue(value, for: target)
        }
    }
}

extension PropertyAnimationRecord {
    /// The animated value at `progress` (0…1 within iteration `iteration`) over `base`, the value
    /// beneath the animation.
    package func value(progress: Double, iteration: Int, duration: Double, base: AnimatableValue) -> AnimatableValue? {
        // Additive animations interpolate offsets from zero; the others interpolate from the base.
        let underlying = additive ? (AnimatableValue.subtract(base, base) ?? base) : base
        var result: AnimatableValue?
        var ends: (AnimatableValue, AnimatableValue)?
        switch kind {
        case let .basic(from, to, by):
            let (a, b) = Self.endpoints(from: from, to: to, by: by, base: underlying)
            let f = timingFunction?.value(at: progress) ?? progress
            result = AnimatableValue.interpolate(a, b, f)
            ends = (a, b)
        case let .spring(from, to, by, spring):
            let (a, b) = Self.endpoints(from: from, to: to, by: by, base: underlying)
            result = AnimatableValue.interpolate(a, b, spring.value(at: progress * duration))
            ends = (a, b)
        case .keyframes(let track):
            let f = timingFunction?.value(at: progress) ?? progress
            result = track.value(at: f)
            if cumulative, let first = track.value(at: 0), let last = track.value(at: 1) { ends = (first, last) }
        }
        guard var value = result else { return nil }
        // Cumulative repeats start where the previous iteration ended.
        if cumulative, iteration > 0, let (a, b) = ends, let change = AnimatableValue.subtract(b, a),
           let accumulated = AnimatableValue.scale(change, by: Double(iteration)),
           let sum = AnimatableValue.add(value, accumulated) {
            value = sum
        }
        if additive { return AnimatableValue.add(base, value) ?? value }
        return value
    }

    /// The zero of the animated kind (clear for colors), standing in for a nil property value.
    package var neutralValue: AnimatableValue? {
        let sample: AnimatableValue?
        switch kind {
        case let .basic(from, to, by), let .spring(from, to, by, _): sample = from ?? to ?? by
        case .keyframes(let track): sample = track.value(at: 0)
        }
        return sample.flatMap { AnimatableValue.subtract($0, $0) }
    }

    /// From and to, as Core Animation combines fromValue, toValue and byValue.
    private static func endpoints(from: AnimatableValue?, to: AnimatableValue?, by: AnimatableValue?,
                                  base: AnimatableValue) -> (AnimatableValue, AnimatableValue) {
        switch (from, to, by) {
        case let (from?, to?, _): return (from, to)
        case let (from?, nil, by?): return (from, AnimatableValue.add(from, by) ?? from)
        case let (nil, to?, by?): return (AnimatableValue.subtract(to, by) ?? to, to)
        case let (from?, nil, nil): return (from, base)
        case let (nil, to?, nil): return (base, to)
        case let (nil, nil, by?): return (base, AnimatableValue.add(base, by) ?? base)
        case (nil, nil, nil): return (base, base)
        }
    }
}
