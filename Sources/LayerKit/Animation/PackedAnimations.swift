import Foundation

/// A layer's committed animations laid out for evaluating frames: each one's identity, timing and
/// compiled form side by side in one contiguous buffer, in the order added.
///
/// A frame walks the buffer without visiting each record object (records are scattered over the heap,
/// and touching one per animation per frame was most of the render thread's animation time); the record
/// is reached only for what did not compile. Built once per change of a layer's animations (the render
/// tree keeps one per node), or on the spot for `presentation()`. Cost: O(animations) to build.
package struct PackedAnimations: Sendable {
    package struct Entry: Sendable {
        package let id: AnimationID
        package let timing: MediaTimingParameters
        /// `timing.activeDuration`, worked out once.
        package let activeDuration: Double
        /// A scalar animation's compiled form, as a frame evaluates it: no reference in it, so reading it
        /// out copies bytes and calls nothing (copying the enum below called its value witness, and
        /// retained and released its spring or timing function, per animation per frame). Valid while
        /// `record` holds the animation.
        package let scalar: TypedPropertyAnimation<ScalarChannel>.Core?
        /// The record's compiled form (`AnimationRecord.compiled`) when it is not a scalar's.
        package let compiled: CompiledPropertyAnimation?
        package let record: AnimationRecord

        init(_ record: AnimationRecord) {
            id = record.id
            timing = record.timing
            activeDuration = record.timing.activeDuration
            if case .scalar(let animation)? = record.compiled {
                scalar = animation.core
                compiled = nil
            } else {
                scalar = nil
                compiled = record.compiled
            }
            self.record = record
        }
    }

    package let entries: ContiguousArray<Entry>

    package init(_ records: [AnimationRecord]) {
        entries = ContiguousArray(records.lazy.map(Entry.init))
    }

    package var isEmpty: Bool { entries.isEmpty }
}
