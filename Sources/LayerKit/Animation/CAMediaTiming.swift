import Foundation

/// A hierarchical timing system: layers and animations each map their parent's time to a local time of
/// their own, and show their content according to that local time.
///
/// The mapping has two stages, as in Core Animation:
/// 1. *Active local time*: `(parentTime − beginTime) × speed + timeOffset`. This places the object in its
///    parent's timeline and sets how fast it plays.
/// 2. *Basic local time*: the active duration is made of `duration`-long iterations, repeated
///    (`repeatCount`, `repeatDuration`) and optionally played backwards after each forward pass
///    (`autoreverses`). Outside the active duration `fillMode` decides what is shown.
///
/// A layer's local time is the time its sublayers and animations see as their parent time; the root
/// layer's parent time is `CACurrentMediaTime()`.
public protocol CAMediaTiming: AnyObject {
    /// When the object begins, in its parent's time. Default 0.
    var beginTime: CFTimeInterval { get set }
    /// Added to the active local time after the speed is applied: `(t − beginTime) × speed + timeOffset`.
    /// With `speed` 0 this alone sets the local time, which is how a paused layer is scrubbed. Default 0.
    var timeOffset: CFTimeInterval { get set }
    /// How fast local time runs relative to parent time: 2 plays twice as fast, 0 pauses, a negative
    /// speed plays backwards. Default 1.
    var speed: Float { get set }
    /// How many times the basic duration plays; may be fractional. 0 means once;
    /// `.infinity` (or `.greatestFiniteMagnitude`) means forever. Default 0.
    var repeatCount: Float { get set }
    /// For how many seconds the object repeats (its whole active duration); 0 means unused. Default 0.
    var repeatDuration: CFTimeInterval { get set }
    /// Whether each forward pass is followed by a backward one; a repeat is then forward plus backward.
    /// Default false.
    var autoreverses: Bool { get set }
    /// The basic duration, in seconds of local time, of one forward pass. Default 0.
    var duration: CFTimeInterval { get set }
    /// What is shown outside the active duration. Default `.removed`.
    var fillMode: CAMediaTimingFillMode { get set }
}

/// The eight `CAMediaTiming` values of one layer or animation as a value, with the arithmetic that maps
/// times through them. Immutable once committed, so the render thread and `presentation()` evaluate the
/// same numbers.
///
/// Contract of `evaluate(parentTime:)`:
/// - input: a time in the parent's timeline;
/// - output: whether the object contributes a value and, if so, its progress (0…1) through the current
///   iteration, with the iteration's index and whether the active duration is over;
/// - algorithm: elapsed = (t − beginTime) × |speed| places t before, inside or after the active duration
///   (fill modes apply outside it); inside, the active local time is wrapped into the active duration
///   (when `timeOffset` pushes it out) and divided into iterations of `duration` (twice that with
///   autoreverses);
/// - cost: constant, a handful of floating-point operations, no allocation.
///
/// Does not apply timing functions, interpolate values, or decide removal: the animation does those
/// with the result.
///
/// Choices where Core Animation's behavior is undocumented:
/// - **repeatCount and repeatDuration both set** (Apple: "undefined"): the active duration is the
///   shorter of the two, SMIL's rule (SMIL's timing model is the one `CAMediaTiming` follows: active and
///   simple durations, fill, speed, autoReverse).
/// - **repeatDuration with autoreverses**: `repeatDuration` is the whole active duration, not doubled
///   (Apple: "how many seconds the animation will repeat for"; SMIL's `repeatDur`); `repeatCount` counts
///   forward-plus-backward cycles, so it doubles with autoreverses.
/// - **timeOffset**: moves the starting point within the active duration, which then loops: a 1 s
///   animation with timeOffset 0.3 shows 0.3…1 and then 0…0.3, still lasting 1 s (as Core Animation is
///   observed to behave). The wrap is over the whole active duration, so for an integer repeatCount it is
///   the same as wrapping each iteration.
/// - **Negative speed** plays the active duration backwards, from its end to its start, over the same
///   span of parent time as the positive speed would (Core Animation's `speed = -1` reverses an
///   animation). This is Apple's formula modulo the active duration: `(t − beginTime) × speed +
///   timeOffset` plus one active duration.
/// - **Speed 0** freezes the active local time at `timeOffset` at every parent time: the object is always
///   active and never finishes.
/// - **Zero duration**: the active duration is 0, so at and after `beginTime` the object is finished;
///   forward fill holds progress 1 (0 with autoreverses) and backward fill holds 0.
/// - **Boundaries**: the active duration is closed at its start and open at its end (SMIL's), so at
///   exactly its end the object is finished and shows only through forward fill. Between two iterations
///   the later one's start (progress 0) is shown; at the end of the active duration it is the end of the
///   last iteration.
package struct MediaTimingParameters: Sendable, Equatable {
    package var beginTime: Double
    package var timeOffset: Double
    package var speed: Double
    package var repeatCount: Double
    package var repeatDuration: Double
    package var duration: Double
    package var autoreverses: Bool {
        get { flags.contains(.autoreverses) }
        set { flags.set(.autoreverses, newValue) }
    }
    /// What `fillMode` holds, resolved once: the render thread copies timings per animation per frame,
    /// and the mode's string made each copy retain and release it.
    package var fillsBackwards: Bool {
        get { flags.contains(.fillsBackwards) }
        set { flags.set(.fillsBackwards, newValue) }
    }
    package var fillsForwards: Bool {
        get { flags.contains(.fillsForwards) }
        set { flags.set(.fillsForwards, newValue) }
    }

    /// The three flags in one word after the six numbers, so the parameters are seven whole words (56
    /// bytes). The render thread evaluates each animation's timing where it lies in its packed entry, and
    /// where the compiler copies it out first, a size of whole words is copied in pieces no read
    /// straddles: as six numbers with three single-byte flags among them (58 bytes), the copy's last
    /// 16-byte piece overlapped `duration` at an odd offset, and its first read after the copy stalled
    /// on every animation (store forwarding fails there): nearly a third of the evaluator's own time.
    private var flags: Flags

    private struct Flags: OptionSet, Sendable, Equatable {
        let rawValue: UInt64
        static let autoreverses = Flags(rawValue: 1 << 0)
        static let fillsBackwards = Flags(rawValue: 1 << 1)
        static let fillsForwards = Flags(rawValue: 1 << 2)

        mutating func set(_ flag: Flags, _ on: Bool) {
            if on { insert(flag) } else { remove(flag) }
        }
    }

    /// The fill mode the two flags stand for (a raw value naming none of the four reads as `.removed`,
    /// which it behaves as).
    package var fillMode: CAMediaTimingFillMode {
        get {
            switch (fillsBackwards, fillsForwards) {
            case (true, true): .both
            case (true, false): .backwards
            case (false, true): .forwards
            case (false, false): .removed
            }
        }
        set {
            fillsBackwards = newValue.fillsBackwards
            fillsForwards = newValue.fillsForwards
        }
    }

    /// Core Animation's defaults: begin 0, offset 0, speed 1, one iteration, no autoreverse, duration 0,
    /// fill `.removed`.
    package init(beginTime: Double = 0, timeOffset: Double = 0, speed: Double = 1, repeatCount: Double = 0,
                 repeatDuration: Double = 0, autoreverses: Bool = false, duration: Double = 0,
                 fillMode: CAMediaTimingFillMode = .removed) {
        self.beginTime = beginTime
        self.timeOffset = timeOffset
        self.speed = speed
        self.repeatCount = repeatCount
        self.repeatDuration = repeatDuration
        self.duration = duration
        flags = []
        self.autoreverses = autoreverses
        fillsBackwards = fillMode.fillsBackwards
        fillsForwards = fillMode.fillsForwards
    }

    /// The current timing values of `object`.
    package init(_ object: some CAMediaTiming) {
        self.init(beginTime: object.beginTime, timeOffset: object.timeOffset, speed: Double(object.speed),
                  repeatCount: Double(object.repeatCount), repeatDuration: object.repeatDuration,
                  autoreverses: object.autoreverses, duration: object.duration, fillMode: object.fillMode)
    }

    // MARK: - Parent time ↔ active local time

    /// The active local time at parent time `t`: `(t − beginTime) × speed + timeOffset`, Core Animation's
    /// mapping (stage 1). With speed 0 every parent time maps to `timeOffset`: the object is paused there.
    /// This is the whole mapping for a layer, whose local time is its children's parent time.
    package func localTime(fromParentTime t: Double) -> Double {
        Self.localTime(fromParentTime: t, beginTime: beginTime, speed: speed, timeOffset: timeOffset)
    }

    /// `localTime(fromParentTime:)` of timing with these three values (a layer's, which has no other:
    /// asked once per layer per frame, so without building the whole timing).
    package static func localTime(fromParentTime t: Double, beginTime: Double, speed: Double, timeOffset: Double) -> Double {
        (t - beginTime) * speed + timeOffset
    }

    /// The parent time at which the active local time is `t`, the inverse of `localTime(fromParentTime:)`:
    /// `(t − timeOffset) / speed + beginTime`. Nil when speed is 0 (every parent time maps to one local
    /// time, so none or all of them do).
    package func parentTime(fromLocalTime t: Double) -> Double? {
        guard speed != 0 else { return nil }
        return (t - timeOffset) / speed + beginTime
    }

    /// `parentTime` mapped through each object of `chain` in turn, root first (layer, sublayer, …): the
    /// local time of the last object. Uses only stage 1 (`localTime(fromParentTime:)`), the mapping
    /// between layers. An animation group's children run in the group's *basic* local time instead,
    /// `progress × duration` from `evaluate(parentTime:)`.
    package static func localTime(_ parentTime: Double, through chain: [MediaTimingParameters]) -> Double {
        chain.reduce(parentTime) { time, timing in timing.localTime(fromParentTime: time) }
    }

    /// The inverse of `localTime(_:through:)`: the root's parent time at which the last object of `chain`
    /// (root first) has local time `localTime`. Nil when any object in the chain has speed 0.
    package static func parentTime(_ localTime: Double, through chain: [MediaTimingParameters]) -> Double? {
        var time = localTime
        for timing in chain.reversed() {
            guard let parent = timing.parentTime(fromLocalTime: time) else { return nil }
            time = parent
        }
        return time
    }

    // MARK: - Durations

    /// Whether `repeatCount` asks to repeat forever (`.infinity`, or `.greatestFiniteMagnitude` of
    /// `Float` as Apple documents).
    private var repeatsForever: Bool {
        repeatCount >= Double(Float.greatestFiniteMagnitude)
    }

    /// The length of one cycle: `duration`, doubled with autoreverses (forward then backward).
    package var cycleDuration: Double {
        autoreverses ? 2 * duration : duration
    }

    /// How many cycles the active duration holds, possibly fractional or infinite: `repeatCount`, or
    /// `repeatDuration / cycleDuration`, or the smaller when both are set, or 1 when neither is. 0 when
    /// `duration` is 0.
    package var iterationCount: Double {
        guard duration > 0 else { return 0 }
        let byCount: Double? = repeatCount > 0 ? (repeatsForever ? .infinity : repeatCount) : nil
        let byDuration: Double? = repeatDuration > 0 ? repeatDuration / cycleDuration : nil
        switch (byCount, byDuration) {
        case let (count?, cycles?): return min(count, cycles)
        case let (count?, nil): return count
        case let (nil, cycles?): return cycles
        case (nil, nil): return 1
        }
    }

    /// The active duration in local time: `duration × repeatCount` (× 2 with autoreverses), or
    /// `repeatDuration`, or the smaller when both are set, or one cycle when neither is. Infinite when
    /// repeatCount or repeatDuration is; 0 when `duration` is 0.
    package var activeDuration: Double {
        guard duration > 0 else { return 0 }
        let byCount: Double? = repeatCount > 0 ? (repeatsForever ? .infinity : repeatCount * cycleDuration) : nil
        let byDuration: Double? = repeatDuration > 0 ? repeatDuration : nil
        switch (byCount, byDuration) {
        case let (count?, span?): return min(count, span)
        case let (count?, nil): return count
        case let (nil, span?): return span
        case (nil, nil): return cycleDuration
        }
    }

    /// The parent time at which the active duration ends: `beginTime + activeDuration / |speed|`.
    /// Infinite when the active duration is, or when speed is 0 (a paused object never ends) — except a
    /// paused object of zero duration, which is finished at every parent time (−infinity).
    package var activeEndTime: Double {
        let span = activeDuration
        guard speed != 0 else { return span == 0 ? -.infinity : .infinity }
        return beginTime + span / abs(speed)
    }

    // MARK: - Evaluation

    /// Where the object is at parent time `t`: before, inside or after its active duration, the progress
    /// it shows (nil when it shows nothing) and the iteration that progress belongs to.
    ///
    /// Progress is the fraction 0…1 of the way from the start value to the end value, before any timing
    /// function: it rises through each forward pass and, with autoreverses, falls back through each
    /// backward pass.
    /// Backward fill shows the progress at the start of the active duration (0, or what `timeOffset`
    /// and a negative speed make it); forward fill the progress at its end (1; the fraction for a
    /// fractional repeatCount, 0.5 for 2.5; 0 with autoreverses and a whole repeatCount). For an
    /// animation group, the children's parent time is `progress × duration`.
    package func evaluate(parentTime t: Double) -> TimingResult {
        evaluate(parentTime: t, activeDuration: activeDuration)
    }

    /// `evaluate(parentTime:)` with the active duration worked out already (`span`: this timing's
    /// `activeDuration`). A packed animation keeps its own (`PackedAnimations.Entry`): worked out per
    /// animation per frame, from repeatCount and repeatDuration, it was a third of this function.
    package func evaluate(parentTime t: Double, activeDuration span: Double) -> TimingResult {
        let elapsed = speed == 0 ? 0 : (t - beginTime) * abs(speed)
        guard duration > 0 else {
            if elapsed < 0 {
                return TimingResult(phase: .before, progress: fillsBackwards ? 0 : nil, iteration: 0)
            }
            return TimingResult(phase: .after, progress: fillsForwards ? (autoreverses ? 0 : 1) : nil, iteration: 0)
        }
        if elapsed < 0 {
            guard fillsBackwards else { return TimingResult(phase: .before, progress: nil, iteration: 0) }
            return position(atElapsed: 0, span: span, phase: .before)
        }
        if elapsed >= span {
            guard fillsForwards else {
                return TimingResult(phase: .after, progress: nil, iteration: lastIteration)
            }
            return position(atElapsed: span, span: span, phase: .after)
        }
        return position(atElapsed: elapsed, span: span, phase: .active)
    }

    /// The index of the last iteration of a finite active duration (0 when infinite).
    private var lastIteration: Int {
        let count = iterationCount
        guard count.isFinite, count > 0 else { return 0 }
        return Self.clampedInt((count - 1e-9).rounded(.down))
    }

    /// The progress at `elapsed` (0…span) local seconds into the active duration, `duration` > 0.
    private func position(atElapsed elapsed: Double, span: Double, phase: TimingResult.Phase) -> TimingResult {
        // Active local time: Apple's (t − beginTime) × speed + timeOffset; a reversed play is measured back
        // from the end of the active duration, which equals Apple's value modulo that duration.
        let direction = speed < 0 ? -1.0 : 1.0
        var active: Double
        if span.isFinite {
            active = (speed < 0 ? span - elapsed : elapsed) + timeOffset
            if active < 0 || active > span {
                active -= span * (active / span).rounded(.down)
            }
        } else {
            active = direction * elapsed + timeOffset
        }

        // Cycles since the start of the active duration. At its very end, count from iterationCount
        // directly (exact for a Float repeatCount) and read a whole number as the end of the last cycle,
        // not the start of one more.
        let isEnd = span.isFinite && active >= span
        let cycles = isEnd ? iterationCount : active / cycleDuration
        var index = cycles.rounded(.down)
        var fraction = cycles - index
        if isEnd, fraction < 1e-9, cycles > 0 {
            index -= 1
            fraction = 1
        }
        let progress: Double
        if autoreverses {
            let doubled = 2 * fraction
            progress = doubled <= 1 ? doubled : 2 - doubled
        } else {
            progress = fraction
        }
        return TimingResult(phase: phase, progress: progress, iteration: Self.clampedInt(index))
    }

    @inline(__always)
    private static func clampedInt(_ value: Double) -> Int {
        // One comparison for every index a frame meets; past ±2^63 (or NaN, which reads as below) the
        // nearer end.
        if value.magnitude < 0x1p63 { return Int(value) }
        return value > 0 ? Int.max : Int.min
    }
}

/// Where a timed object stands at one parent time: the result of `MediaTimingParameters.evaluate(parentTime:)`.
package struct TimingResult: Sendable, Equatable, CustomStringConvertible {
    /// Where the parent time lies relative to the active duration.
    package enum Phase: Sendable, Equatable {
        /// Before `beginTime` (the elapsed local time is negative).
        case before
        /// Inside the active duration (closed at its start, open at its end).
        case active
        /// At or past the end of the active duration: the object is finished.
        case after
    }

    package var phase: Phase
    /// The fraction 0…1 through the current forward pass (autoreverse folded in), or nil when the object
    /// contributes nothing: outside the active duration without a fill mode that covers it.
    package var progress: Double?
    /// The 0-based index of the cycle `progress` lies in (a cycle is a forward pass, or a forward and a
    /// backward pass with autoreverses), for cumulative animations. Counted from the start of the active
    /// duration after `timeOffset`; negative for a paused or reversed infinite object before its start.
    package var iteration: Int

    package init(phase: Phase, progress: Double?, iteration: Int) {
        self.phase = phase
        self.progress = progress
        self.iteration = iteration
    }

    /// Whether the active duration is over: the owner of the object fires `animationDidStop` and, unless
    /// it fills forwards (then `progress` is the final one) or is kept, removes it.
    package var isFinished: Bool { phase == .after }

    package var description: String {
        "\(phase) progress \(progress.map { "\($0)" } ?? "none") iteration \(iteration)"
    }
}
