import Foundation

/// What the render thread reports about an animation.
package enum AnimationEvent: Sendable, Equatable {
    case started(AnimationID)
    /// The active duration ended (`finished` true) — the layer removes it if `isRemovedOnCompletion`.
    case stopped(AnimationID)
}

/// Carries animation events from the render thread to the main thread and acts on them there: calls
/// the delegate, removes finished animations from their layers, and completes transaction groups.
///
/// The render thread only `post`s; hosts call `deliverPending()` on the main thread (each frame of a
/// `CARenderer`, each event-loop iteration of a window, and `CATransaction.flush()`).
///
/// Process-wide: an animation is registered when it is added to a layer, before any host is known to
/// show it (a layer may move between hosts' trees, or be shown by none yet), and `flush()` delivers
/// without a host at hand; so one table serves every render thread. Ownership: `registrations`,
/// `pending` and `pendingDetached` are behind `lock` (render threads post, the delivering thread
/// takes); delegates and completion blocks run outside it, on the delivering thread. Hence
/// `@unchecked Sendable` (the registrations hold non-Sendable animations and weak layers, touched only
/// under the lock and, once taken out, only by the delivering thread). Checked by
/// `SendableInvariantTests` and `AnimationCallbackTests`.
package final class AnimationCallbacks: @unchecked Sendable {
    /// The table every host and render server uses (see the type's comment for why it is one).
    package static let shared = AnimationCallbacks()

    private struct Registration {
        weak var weakLayer: CALayer?
        let animation: CAAnimation
        let groups: [TransactionContext.CompletionGroup]
        var started = false
    }

    private let lock = NSLock()
    private var registrations: [AnimationID: Registration] = [:]
    private var pending: [AnimationEvent] = []
    private var pendingDetached: [(AnimationID, Bool)] = []

    /// Remembers `entry` so its events can reach its delegate and layer.
    package func register(_ entry: AttachedAnimation, on layer: CALayer) {
        lock.lock()
        registrations[entry.id] = Registration(weakLayer: layer, animation: entry.animation, groups: entry.completionGroups)
        lock.unlock()
    }

    /// Render thread: queue events for the main thread.
    package func post(_ events: [AnimationEvent]) {
        guard !events.isEmpty else { return }
        lock.lock()
        pending.append(contentsOf: events)
        lock.unlock()
    }

    /// Main thread: an animation left its layer (removed by the app, replaced, or dropped as invalid).
    package func detached(_ id: AnimationID, finished: Bool) {
        lock.lock()
        pendingDetached.append((id, finished))
        lock.unlock()
    }

    /// Main thread: delivers everything queued.
    package func deliverPending() {
        lock.lock()
        let events = pending
        let detachedNow = pendingDetached
        pending.removeAll()
        pendingDetached.removeAll()
        lock.unlock()
        for event in events {
            switch event {
            case .started(let id):
                lock.lock()
                let registration = registrations[id]
                let first = registration.map { !$0.started } ?? false
                if first { registrations[id]?.started = true }
                lock.unlock()
                if first, let registration { registration.animation.delegate?.animationDidStart(registration.animation) }
            case .stopped(let id):
                guard let registration = unregister(id) else { continue }
                if registration.animation.isRemovedOnCompletion {
                    registration.weakLayer?.removeFinishedAnimation(id)
                }
                registration.animation.delegate?.animationDidStop(registration.animation, finished: true)
                TransactionContext.animationEnded(in: registration.groups)
            }
        }
        for (id, finished) in detachedNow {
            guard let registration = unregister(id) else { continue }
            registration.animation.delegate?.animationDidStop(registration.animation, finished: finished)
            TransactionContext.animationEnded(in: registration.groups)
        }
    }

    private func unregister(_ id: AnimationID) -> Registration? {
        lock.lock()
        defer { lock.unlock() }
        return registrations.removeValue(forKey: id)
    }
}
