import LayerKit

/// Where an emitter was when each particle was born: its `emitterPosition` animations evaluated at the
/// birth time, so particles stay where they were emitted while the emitter moves on (a comet's tail, text
/// written on by a moving emitter), as Core Animation's stateful particles do.
///
/// Input: the emitter's committed `emitterPosition` and its animations on that key (others ignored).
/// Output: the position at any local time. Nil when nothing animates the position (every particle is
/// then born at the one presented position, at no cost).
/// Cost: one evaluation of those animations per particle born from the emitter itself.
struct EmitterPositionHistory {
    private let animations: PackedAnimations
    private let model: CGPoint

    /// The history of `committed`'s emitter position, nil when no animation drives it.
    init?(of committed: RenderNode) {
        let driving = committed.animations.filter(Self.drivesPosition)
        guard !driving.isEmpty else { return nil }
        animations = PackedAnimations(driving)
        if case .point(let p)? = committed.customProperties["emitterPosition"], p.x.isFinite, p.y.isFinite { model = p } else { model = .zero }
    }

    /// The position at layer-local time `time`.
    func position(at time: Double) -> SIMD2<Double> {
        var store = Store(position: model)
        _ = AnimationEvaluator.apply(animations, layerTime: time, to: &store)
        return SIMD2(store.position.x, store.position.y)
    }

    /// Whether `record` may write the emitter position (a group may: it is kept whole).
    private static func drivesPosition(_ record: AnimationRecord) -> Bool {
        switch record.content {
        case .property(let animation): animation.target.keyPath.key == "emitterPosition"
        case .group: true
        case .transition: false
        }
    }

    /// Holds the one property the evaluation is about.
    private struct Store: AnimatedPropertyStore {
        var position: CGPoint

        func animatedBaseValue(for target: PropertyAnimationTarget) -> AnimatableValue? {
            target.property == nil && target.keyPath.key == "emitterPosition" ? .point(position) : nil
        }

        mutating func setAnimatedValue(_ value: AnimatableValue, for target: PropertyAnimationTarget) {
            guard target.property == nil, target.keyPath.key == "emitterPosition", case .point(let p) = value,
                  p.x.isFinite, p.y.isFinite else { return }
            position = p
        }
    }
}
