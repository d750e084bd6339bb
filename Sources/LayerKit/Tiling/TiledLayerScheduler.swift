import Foundation
import Synchronization

/// Every live `CATiledLayer`, the shared worker queue that draws their tiles, and the drawn tiles
/// waiting for the next commit.
///
/// Contract: `commitPass()` runs in the commit's display pass (`LayerDisplay.displayPendingLayers()`,
/// after marked layers displayed, before the packet is built) on the model thread. It hands each drawn
/// tile to its layer (`TiledLayerState.accept`), then lets every live tiled layer decide what to draw
/// and show (`TiledLayerState.update`). Workers deliver drawn tiles here from their threads; a host
/// that sees pending work on its tree (`layersWithPendingWork`) commits again, so finished tiles reach the screen at the next commit and
/// the layer's needs are recomputed then. Layers register when created and leave when deallocated (their
/// queued requests are dropped; a drawing already running is discarded when it arrives).
/// Cost: O(finished tiles + tiled layers × their update) per commit; nothing without tiled layers.
///
/// Process-wide: the worker pool is bounded for the process (2 to 4 drawings at once, whatever the
/// number of tiled layers and hosts), and a tiled layer registers when created, before any host shows
/// it. Ownership: `layers`, `finished`, `tick` and the drawn count are behind `lock` (workers deliver,
/// the committing thread takes); the layers themselves are touched only by the committing thread, after
/// the lock is released. Hence `@unchecked Sendable` (the table holds weak non-Sendable layers).
/// Checked by `CATiledLayerTests` and `SendableInvariantTests` (the queue).
package final class TiledLayerScheduler: @unchecked Sendable {
    /// The scheduler of every tiled layer (see the type's comment for why there is one).
    package static let shared = TiledLayerScheduler()

    private struct WeakLayer {
        weak var layer: CATiledLayer?
    }

    /// A drawn tile waiting for the next commit; moved between threads only behind `lock` (the image is
    /// immutable, the job's drawing has run).
    private struct Finished: @unchecked Sendable {
        var job: TileDrawingQueue.Job
        var image: CGImage?
    }

    private let lock = NSLock()
    private var layers: [LayerID: WeakLayer] = [:]
    private var finished: [Finished] = []
    private var tick = 0
    private let serials = Atomic<UInt64>(0)
    /// Draws tiles: as many workers as cores, from 2 to 4. Finished tiles come back to the shared
    /// scheduler (the only one).
    package let queue = TileDrawingQueue(maximumWorkers: min(4, max(2, ProcessInfo.processInfo.activeProcessorCount))) { job, image in
        TiledLayerScheduler.shared.deliver(job, image)
    }

    private init() {}

    /// Tiles drawn since the process started (statistics, tests).
    package var tilesDrawn: Int {
        lock.lock()
        defer { lock.unlock() }
        return drawnCount
    }
    private var drawnCount = 0

    func register(_ layer: CATiledLayer) {
        lock.lock()
        layers[layer.layerID] = WeakLayer(layer: layer)
        lock.unlock()
    }

    func unregister(_ id: LayerID) {
        lock.lock()
        layers[id] = nil
        lock.unlock()
        queue.cancel(id)
    }

    private func deliver(_ job: TileDrawingQueue.Job, _ image: CGImage?) {
        lock.lock()
        finished.append(Finished(job: job, image: image))
        drawnCount += 1
        lock.unlock()
    }

    /// The tiled layers with tiles queued, being drawn, or drawn and waiting for a commit.
    package var layersWithPendingWork: [CALayer] {
        let busy = queue.busyLayers
        guard !busy.isEmpty else { return [] }
        lock.lock()
        defer { lock.unlock() }
        return busy.compactMap { layers[$0]?.layer }
    }

    /// Blocks until no tile is queued or being drawn (their results apply at the next commit).
    package static func waitForTiles() { shared.queue.waitUntilIdle() }

    /// The commit's tiling pass (see the type's contract).
    package static func commitPass() { shared.commitPass() }

    private func commitPass() {
        lock.lock()
        // Taken out and released after unlocking: a job's last reference may hold a layer copy.
        let arrived = finished
        finished = []
        guard !layers.isEmpty else { return lock.unlock() }
        tick += 1
        let tick = self.tick
        let live = layers.values.compactMap(\.layer)
        lock.unlock()
        var byID: [LayerID: CATiledLayer] = [:]
        for layer in live { byID[layer.layerID] = layer }
        for result in arrived {
            queue.acknowledge(result.job)
            guard let layer = byID[result.job.layer] else { continue }
            let serial = serials.wrappingAdd(1, ordering: .relaxed).newValue
            layer.tiling.accept(result.job.key, image: result.image, rect: result.job.rect, requestEpoch: result.job.epoch,
                                serial: serial, tick: tick)
        }
        for layer in live {
            layer.tiling.update(layer, tick: tick, queue: queue, inProgress: Set(queue.outstanding(for: layer.layerID)))
        }
    }
}
