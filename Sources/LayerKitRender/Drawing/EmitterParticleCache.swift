import LayerKit

/// Emitters' particle records kept from frame to frame (`EmitterParticles.Records`), so a particle's
/// spreads, birth point and direction are worked out once in its life, not once per frame.
///
/// Input: per emitter layer, the records a frame left and the key they were made under (the cells'
/// plans and the emission's parameters, time excepted). Output: those records for the next frame of
/// the same emitter, or nil when the key changed (the emitter is worked out afresh).
/// The records are pure functions of the key and particle numbers, so a frame drawn from them is the
/// same as one worked out in closed form; going back in time only drops them.
/// Emitters not drawn for `forgetAfterFrames` frames are forgotten (checked every 64 frames).
/// Thread: the render thread's; the lock (`Locked`) makes it `Sendable` with the builder, not shared.
package final class EmitterParticleCache: Sendable {
    package struct Entry {
        var key: EmitterParticles.RecordKey
        var records: [EmitterParticles.Records]
        var lastFrame = 0
    }

    private struct State: Sendable {
        var entries: [LayerID: Entry] = [:]
        var frame = 0
    }

    private let state = Locked(State())
    package let forgetAfterFrames: Int

    package init(forgetAfterFrames: Int = 120) {
        self.forgetAfterFrames = forgetAfterFrames
    }

    /// Starts a frame: emitters not drawn for too long are forgotten.
    package func beginFrame() {
        state.withLock { state in
            state.frame += 1
            guard state.frame % 64 == 0 else { return }
            let frame = state.frame, limit = forgetAfterFrames
            state.entries = state.entries.filter { frame - $0.value.lastFrame <= limit }
        }
    }

    /// The records `layer` left under `key`, taken out (nil when there are none or the key changed).
    func take(_ layer: LayerID, key: EmitterParticles.RecordKey) -> [EmitterParticles.Records]? {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: layer), entry.key == key else { return nil }
            return entry.records
        }
    }

    /// Keeps `records`, made under `key`, for `layer`'s next frame.
    func store(_ records: [EmitterParticles.Records], key: EmitterParticles.RecordKey, for layer: LayerID) {
        state.withLock { state in
            state.entries[layer] = Entry(key: key, records: records, lastFrame: state.frame)
        }
    }

    /// Emitters with records, and the records (particles) they hold: for tests and statistics.
    package var recordCounts: [LayerID: Int] {
        state.withLock { state in state.entries.mapValues { $0.records.reduce(0) { $0 + $1.recordCount } } }
    }
}
