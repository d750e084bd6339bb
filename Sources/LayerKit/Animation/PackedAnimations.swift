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
        /// The record's compiled form (`AnimationRecord.compiled`).
        package let compiled: CompiledPropertyAnimation?
        package let record: AnimationRecord
    }

    package let entries: ContiguousArray<Entry>

    package init(_ records: [AnimationRecord]) {
        entries = ContiguousArray(records.lazy.map { Entry(id: $0.id, timing: $0.timing, compiled: $0.compiled, record: $0) })
    }

    package var isEmpty: Bool { entries.isEmpty }
}
