import Foundation

// Adding, finding and removing animations.
//
// `add(_:forKey:)` stores a copy on the layer and records an `animations` change. At commit each new
// animation is resolved (a beginTime of 0 becomes the layer's current time, a duration of 0 the
// transaction's) and sent as an immutable `AnimationRecord`; the render thread evaluates it and reports
// when it starts and stops (`AnimationCallbacks`), which updates the model and calls the delegate on the
// main thread.

/// One animation attached to a layer.
package struct AttachedAnimation {
    package let key: String
    /// Added without a key: not listed by `animationKeys()`.
    package let isAnonymous: Bool
    package let animation: CAAnimation
    package let id: AnimationID
    /// The transaction's `animationDuration` when added, for animations with none.
    package let transactionDuration: CFTimeInterval
    package let completionGroups: [TransactionContext.CompletionGroup]
    /// Set at commit.
    package var record: AnimationRecord?
}

/// The animations on one layer, in the order added (later ones apply on top).
package struct LayerAnimationList {
    package var entries: [AttachedAnimation] = []
}

extension CALayer {
    /// Adds a copy of `anim` under `key` (replacing an animation with that key). A nil key adds it
    /// without a name. Invalid animations (unknown key path, wrong value types) are dropped at commit with
    /// a diagnostic.
    public func add(_ anim: CAAnimation, forKey key: String?) {
        let copy = anim.copy() as! CAAnimation
        if let key { removeAnimation(forKey: key) }
        let id = AnimationID.next()
        let entry = AttachedAnimation(
            key: key ?? "anonymous-\(id.rawValue)", isAnonymous: key == nil, animation: copy, id: id,
            transactionDuration: CATransaction.animationDuration(),
            completionGroups: TransactionContext.openCompletionGroups(), record: nil)
        var list = animationList
        list.entries.append(entry)
        animationList = list
        AnimationCallbacks.shared.register(entry, on: self)
        didChange(.animations)
    }

    /// The animation added under `key` (a copy of what was added; changing it changes nothing).
    public func animation(forKey key: String) -> CAAnimation? {
        animationList.entries.last { $0.key == key && !$0.isAnonymous }?.animation
    }

    /// The keys of the attached animations, in the order added.
    public func animationKeys() -> [String]? {
        let keys = animationList.entries.filter { !$0.isAnonymous }.map(\.key)
        return keys.isEmpty ? nil : keys
    }

    /// Removes the animation under `key`; its delegate hears `animationDidStop(_:finished: false)`.
    public func removeAnimation(forKey key: String) {
        let removed = animationList.entries.filter { $0.key == key && !$0.isAnonymous }
        guard !removed.isEmpty else { return }
        var list = animationList
        list.entries.removeAll { $0.key == key && !$0.isAnonymous }
        animationList = list
        didChange(.animations)
        for entry in removed { AnimationCallbacks.shared.detached(entry.id, finished: false) }
    }

    /// Removes every animation; each delegate hears `animationDidStop(_:finished: false)`.
    public func removeAllAnimations() {
        let removed = animationList.entries
        guard !removed.isEmpty else { return }
        animationList = LayerAnimationList()
        didChange(.animations)
        for entry in removed { AnimationCallbacks.shared.detached(entry.id, finished: false) }
    }

    package var animationList: LayerAnimationList {
        get { storage[.builtin(.animations)] as? LayerAnimationList ?? LayerAnimationList() }
        set { storage[.builtin(.animations)] = newValue.entries.isEmpty ? nil : newValue }
    }

    /// Resolves animations added since the last commit and returns every committed record. Called at
    /// commit on the model thread.
    package func commitAnimations() -> [AnimationRecord] {
        var list = animationList
        var dropped: [AnimationID] = []
        let now = convertTime(CACurrentMediaTime(), from: nil)
        for index in list.entries.indices where list.entries[index].record == nil {
            let entry = list.entries[index]
            // Resolve first: a group hands its (resolved) duration to children that have none.
            if entry.animation.beginTime == 0 { entry.animation.beginTime = now }
            if entry.animation.duration == 0 { entry.animation.duration = entry.transactionDuration }
            guard entry.animation.timingParameters.isUsable else {
                LayerKitDiagnostics.emit(.valueTypeMismatch(keyPath: "\(entry.key).timing", expected: "finite times and speed",
                                                            got: "\(entry.animation.timingParameters)"))
                dropped.append(entry.id)
                continue
            }
            guard let content = entry.animation.makeRecord(id: entry.id, layer: self) else {
                dropped.append(entry.id)
                continue
            }
            list.entries[index].record = AnimationRecord(
                id: entry.id, key: entry.key, timing: entry.animation.timingParameters,
                removedOnCompletion: entry.animation.isRemovedOnCompletion, content: content)
        }
        list.entries.removeAll { dropped.contains($0.id) }
        animationList = list
        for id in dropped { AnimationCallbacks.shared.detached(id, finished: false) }
        return list.entries.compactMap(\.record)
    }

    /// Removes a finished animation reported by the render thread (if it is still attached).
    package func removeFinishedAnimation(_ id: AnimationID) {
        var list = animationList
        guard list.entries.contains(where: { $0.id == id }) else { return }
        list.entries.removeAll { $0.id == id }
        animationList = list
        didChange(.animations)
    }
}

extension MediaTimingParameters {
    /// Whether the times can produce frames: finite begin time, offset, duration and speed, and
    /// non-negative duration and repeats (infinite repeats are allowed).
    package var isUsable: Bool {
        [beginTime, timeOffset, duration, speed].allSatisfy(\.isFinite) && duration >= 0
            && !repeatCount.isNaN && repeatCount >= 0 && !repeatDuration.isNaN && repeatDuration >= 0
    }
}
