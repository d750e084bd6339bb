import CMallocStats
import Foundation
import LayerKit

/// Bytes per layer on the model side: `layerCount` layers that each set bounds, position,
/// backgroundColor (a color of its own) and contents (one shared image), added to one root.
///
/// Measured as malloc's allocated bytes after building the tree and committing the changes, minus before,
/// over the layer count. Core Animation reports about 100 bytes; LayerKit's aim is at most 256.
struct ModelMemoryBenchmark {
    var layerCount: Int

    func run() -> BenchmarkResult {
        let image = CGImage(width: 4, height: 4, bytesPerRow: 16, premultipliedRGBA: [UInt8](repeating: 255, count: 64), alphaInfo: .noneSkipLast)!
        _ = LayerChangeLog.current.drain()
        let root = CALayer()
        root.sublayers = nil
        let before = lk_allocated_bytes()
        for index in 0..<layerCount {
            let layer = CALayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
            layer.position = CGPoint(x: CGFloat(index % 100) * 12, y: CGFloat(index / 100) * 11)
            layer.backgroundColor = CGColor(red: CGFloat(index % 256) / 255, green: 0.5, blue: 0.25, alpha: 1)
            layer.contents = image
            root.addSublayer(layer)
        }
        let pending = LayerChangeLog.current.pendingLayerCount
        let beforeCommit = lk_allocated_bytes()
        _ = LayerChangeLog.current.drain()
        let after = lk_allocated_bytes()
        let bytesPerLayer = Double(after - before) / Double(layerCount)
        let withPendingLog = Double(beforeCommit - before) / Double(layerCount)
        withExtendedLifetime(root) {}
        let probe = CALayer()
        let probeColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        return BenchmarkResult(scene: "model-memory", counters: [
            ("layers", Double(layerCount)),
            ("bytes_per_layer", bytesPerLayer),
            ("bytes_per_layer_before_commit", withPendingLog),
            ("layers_pending_commit", Double(pending)),
            ("layer_object_block_bytes", Double(lk_block_size(Unmanaged.passUnretained(probe).toOpaque()))),
            ("color_object_block_bytes", Double(lk_block_size(Unmanaged.passUnretained(probeColor).toOpaque()))),
            ("aim_bytes_per_layer", 256),
        ])
    }
}

