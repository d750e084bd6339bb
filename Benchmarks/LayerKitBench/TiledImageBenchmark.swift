import Foundation
import LayerKitScenes
import LayerKitVulkan

/// The tiled-image scene (`TiledImageScene`, a 100,000 × 100,000-point `CATiledLayer`) flown through its
/// 40-second tour — whole image, zoom to 4×, pan, zoom back out — headless at 1280×720, `frames` frames
/// spread evenly over the tour.
///
/// After each frame the benchmark waits for the tiles that frame requested, so the counters do not
/// depend on the machine: tiles drawn (total and the most in one frame), the most tiles shown at once,
/// and the largest tile cache seen, against the layer's limit. Times: for frames that drew tiles, the
/// median wall time from the frame's start until all its tiles were drawn (workers draw while the frame
/// renders), and for all frames the median wall time of commit plus render (lavapipe renders on the CPU).
struct TiledImageBenchmark {
    var frames: Int
    var renderer: CARenderer
    var snapshotDirectory: URL?

    func run() -> BenchmarkResult {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: renderer.pixelWidth, height: renderer.pixelHeight)
        let scene = TiledImageScene(root: root, size: root.bounds.size)
        renderer.layer = root
        let drawnBefore = TiledLayerScheduler.shared.tilesDrawn
        var mostDrawn = 0, mostShown = 0, largestCache = 0
        var frameSamples: [Double] = [], tileSamples: [Double] = []
        for frame in 0..<frames {
            let t = 40 * Double(frame) / Double(max(frames, 1))
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            scene.showTour(at: t)
            CATransaction.commit()
            let before = TiledLayerScheduler.shared.tilesDrawn
            let start = DispatchTime.now().uptimeNanoseconds
            renderer.beginFrame(atTime: t)
            renderer.render()
            renderer.endFrame()
            let rendered = DispatchTime.now().uptimeNanoseconds
            TiledLayerScheduler.waitForTiles()
            let drawn = TiledLayerScheduler.shared.tilesDrawn - before
            if drawn > 0 { tileSamples.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9) }
            frameSamples.append(Double(rendered - start) / 1e9)
            mostDrawn = max(mostDrawn, drawn)
            mostShown = max(mostShown, scene.image.tiling.committed?.tiles.count ?? 0)
            largestCache = max(largestCache, scene.image.tiling.cache.bytes)
        }
        if let snapshotDirectory {
            // A detailed view (the tour at 14 s, zoom about 1.5), once its tiles are drawn and faded in.
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            scene.showTour(at: 14)
            CATransaction.commit()
            for time in [100, 101, 102] as [CFTimeInterval] {
                renderer.beginFrame(atTime: time)
                renderer.render()
                renderer.endFrame()
                TiledLayerScheduler.waitForTiles()
            }
            try? renderer.snapshot().pngData().write(to: snapshotDirectory.appendingPathComponent("tiled-image.png"))
        }
        renderer.layer = nil
        return BenchmarkResult(scene: "tiled-image", counters: [
            ("frames", Double(frames)),
            ("image_side_points", Double(TiledImageScene.imageSide)),
            ("tiles_drawn", Double(TiledLayerScheduler.shared.tilesDrawn - drawnBefore)),
            ("most_tiles_drawn_in_a_frame", Double(mostDrawn)),
            ("most_tiles_shown", Double(mostShown)),
            ("largest_tile_cache_mib", Double(largestCache) / 1_048_576),
            ("tile_cache_limit_mib", Double(scene.image.tileCacheByteLimit) / 1_048_576),
            ("median_ms_until_tiles_drawn", medianMilliseconds(tileSamples)),
            ("median_frame_ms", medianMilliseconds(frameSamples)),
        ])
    }
}
