import Foundation

// Presentation: what is on screen now — the model with every animation applied at the current time,
// evaluated by the same `AnimationEvaluator` the render thread uses.

extension CALayer {
    /// A copy of the layer as it appears on screen now: every committed animation applied at the current
    /// time. Its superlayer, sublayers and mask are presentation copies too, so
    /// `presentation()?.hitTest(_:)` finds what is on screen. Nil for a layer that was never committed.
    /// Cost: a copy of the whole tree the layer is in.
    public func presentation() -> Self? {
        if isPresentationCopy { return self }
        guard hasBeenCommitted else { return nil }
        var root: CALayer = self
        while let parent = root.storedSuperlayer ?? root.maskOwner { root = parent }
        var found: CALayer?
        _ = root.makePresentationCopy(parentTime: root.parentTimeOfRoot, target: self, found: &found)
        return found as? Self
    }

    /// The model layer of a presentation copy; the layer itself otherwise.
    public func model() -> Self {
        (storage[.modelLayer] as? CALayer) as? Self ?? self
    }

    /// The on-screen value of one property of this layer (cheaper than `presentation()`: only this layer's
    /// animations are evaluated). What implicit animations start from.
    package func presentationValue(forKey key: String) -> Any? {
        let records = animationList.entries.compactMap(\.record)
        guard !records.isEmpty else { return value(forKey: key) }
        var store = PropertyOverlayStore(layer: self)
        _ = AnimationEvaluator.apply(records, layerTime: convertTime(CACurrentMediaTime(), from: nil), to: &store)
        return store.overrides[key] ?? value(forKey: key)
    }

    /// The absolute time as the root's parent sees it.
    private var parentTimeOfRoot: Double { CACurrentMediaTime() }

    private func makePresentationCopy(parentTime: Double, target: CALayer, found: inout CALayer?) -> CALayer {
        let copy = type(of: self).init(layer: self)
        copy.pendingChanges = [.isPresentationCopy, .hasBeenCommitted]
        copy.storage[.modelLayer] = self
        let localTime = layerTimingParameters.localTime(fromParentTime: parentTime)
        let records = animationList.entries.compactMap(\.record)
        if !records.isEmpty {
            var store = PresentationCopyStore(layer: copy)
            _ = AnimationEvaluator.apply(records, layerTime: localTime, to: &store)
        }
        if self === target { found = copy }
        copy.storedSublayers = storedSublayers.map { sublayer in
            let child = sublayer.makePresentationCopy(parentTime: localTime, target: target, found: &found)
            child.storedSuperlayer = copy
            return child
        }
        if let mask = value(of: .mask) as CALayer? {
            let maskCopy = mask.makePresentationCopy(parentTime: localTime, target: target, found: &found)
            maskCopy.maskOwner = copy
            copy.storeValue(maskCopy as CALayer?, of: .mask)
        }
        return copy
    }
}

/// Applies animated values to a presentation copy (which records nothing and runs no actions).
private struct PresentationCopyStore: AnimatedPropertyStore {
    let layer: CALayer

    func animatedBaseValue(for target: PropertyAnimationTarget) -> AnimatableValue? {
        AnimatableValue(layer.value(forKey: target.keyPath.key))
    }

    mutating func setAnimatedValue(_ value: AnimatableValue, for target: PropertyAnimationTarget) {
        let key = target.keyPath.key
        layer.setValue(value.modelValue(like: layer.value(forKey: key)), forKey: key)
    }
}

/// Animated values over a layer's model values, without touching the layer.
private struct PropertyOverlayStore: AnimatedPropertyStore {
    let layer: CALayer
    var overrides: [String: Any] = [:]

    func animatedBaseValue(for target: PropertyAnimationTarget) -> AnimatableValue? {
        AnimatableValue(overrides[target.keyPath.key] ?? layer.value(forKey: target.keyPath.key))
    }

    mutating func setAnimatedValue(_ value: AnimatableValue, for target: PropertyAnimationTarget) {
        let key = target.keyPath.key
        overrides[key] = value.modelValue(like: layer.value(forKey: key))
    }
}
