import Foundation

/// The bounded pool of background workers that draw tiles for every `CATiledLayer`.
///
/// Input: per layer, the tiles it wants drawn, most important first (`replacePending(for:with:)`; each
/// call replaces that layer's queued requests, so a tile that scrolled out of view before a worker took
/// it is never drawn). Output: each drawn tile handed to `deliver` (on the worker's thread), which
/// queues it for the next commit. A tile is *outstanding* from the moment a worker takes it until the
/// commit that takes its result calls `acknowledge`; requests for outstanding tiles are ignored, so no
/// tile is drawn twice however the commits and the workers interleave.
/// Workers: at most `maximumWorkers` drawings run at once, each on a thread of Dispatch's global pool;
/// requests wait in one list, taken in order. A drawing already running is never interrupted.
/// Threads: any thread may call in; everything is behind one lock. Cost: O(requests of the layer) per
/// replacement; no work and no thread while nothing is queued.
package final class TileDrawingQueue: @unchecked Sendable {
    /// One tile to draw: which layer and tile, the invalidation epoch it was requested in, and the
    /// drawing itself (run on a worker). Sendable: `draw` closes over a copy of the layer made for that
    /// tile alone (`init(layer:)`), which only the worker running the job touches.
    package struct Job: @unchecked Sendable {
        package var layer: LayerID
        package var key: TileKey
        /// The tile's rect in the grid it was cut from.
        package var rect: CGRect
        package var epoch: Int
        package var draw: () -> CGImage?

        package init(layer: LayerID, key: TileKey, rect: CGRect, epoch: Int, draw: @escaping () -> CGImage?) {
            self.layer = layer
            self.key = key
            self.rect = rect
            self.epoch = epoch
            self.draw = draw
        }
    }

    package let maximumWorkers: Int
    private let lock = NSLock()
    private var pending: [Job] = []
    private var outstanding: [LayerID: [TileKey]] = [:]
    private var workers = 0
    private let group = DispatchGroup()
    private let deliver: @Sendable (Job, CGImage?) -> Void

    package init(maximumWorkers: Int, deliver: @escaping @Sendable (Job, CGImage?) -> Void) {
        self.maximumWorkers = max(1, maximumWorkers)
        self.deliver = deliver
    }

    /// Replaces `layer`'s queued (not yet taken) requests with `jobs`, in that order, leaving out
    /// outstanding tiles, and starts workers as needed.
    package func replacePending(for layer: LayerID, with jobs: [Job]) {
        lock.lock()
        pending.removeAll { $0.layer == layer }
        let taken = outstanding[layer] ?? []
        pending.append(contentsOf: taken.isEmpty ? jobs : jobs.filter { !taken.contains($0.key) })
        var start = 0
        while workers < maximumWorkers && start < pending.count {
            workers += 1
            start += 1
            group.enter()
        }
        lock.unlock()
        for _ in 0..<start {
            DispatchQueue.global(qos: .userInitiated).async { [self] in work() }
        }
    }

    /// Drops every queued request of `layer` (it went away).
    package func cancel(_ layer: LayerID) {
        lock.lock()
        pending.removeAll { $0.layer == layer }
        outstanding[layer] = nil
        lock.unlock()
    }

    /// The tiles of `layer` taken by a worker whose results no commit has taken yet.
    package func outstanding(for layer: LayerID) -> [TileKey] {
        lock.lock()
        defer { lock.unlock() }
        return outstanding[layer] ?? []
    }

    /// A commit took the result of `job`: its tile is no longer outstanding.
    package func acknowledge(_ job: Job) {
        lock.lock()
        if var keys = outstanding[job.layer], let index = keys.firstIndex(of: job.key) {
            keys.remove(at: index)
            outstanding[job.layer] = keys.isEmpty ? nil : keys
        }
        lock.unlock()
    }

    /// The layers with tiles queued, being drawn, or drawn and waiting for a commit.
    package var busyLayers: Set<LayerID> {
        lock.lock()
        defer { lock.unlock() }
        return Set(pending.map(\.layer)).union(outstanding.keys)
    }

    /// Blocks until the queue is empty and no drawing runs.
    package func waitUntilIdle() {
        group.wait()
    }

    private func work() {
        while true {
            lock.lock()
            guard !pending.isEmpty else {
                workers -= 1
                lock.unlock()
                group.leave()
                return
            }
            let job = pending.removeFirst()
            outstanding[job.layer, default: []].append(job.key)
            lock.unlock()
            deliver(job, job.draw())
        }
    }
}
