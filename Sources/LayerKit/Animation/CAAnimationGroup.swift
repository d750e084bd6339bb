import Foundation

/// Runs several animations together in the group's time: `CAAnimationGroup`.
///
/// The children's times are relative to the group (a child with beginTime 0.5 starts half a second into
/// the group); the group's duration cuts them off; the group's `timingFunction` is not applied to the
/// children (each uses its own), as in Core Animation. Children's delegates and `isRemovedOnCompletion` are
/// ignored; the group's count.
open class CAAnimationGroup: CAAnimation {
    public var animations: [CAAnimation]?

    public override init() { super.init() }

    public required init(copying other: CAAnimation) {
        super.init(copying: other)
        guard let other = other as? CAAnimationGroup else { return }
        animations = other.animations?.map { $0.copy() as! CAAnimation }
    }

    override package func makeRecord(id: AnimationID, layer: CALayer) -> AnimationRecord.Content? {
        let children: [AnimationRecord] = (animations ?? []).compactMap { child in
            guard let content = child.makeRecord(id: id, layer: layer) else { return nil }
            var timing = child.timingParameters
            // A child without a duration takes the group's, as Core Animation does.
            if timing.duration == 0 { timing.duration = duration }
            return AnimationRecord(id: id, key: "", timing: timing, removedOnCompletion: true, content: content)
        }
        return .group(children)
    }
}
