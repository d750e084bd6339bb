import Foundation
import LayerKit
import LayerKitRender

/// Median of `samples` in milliseconds.
func medianMilliseconds(_ samples: [Double]) -> Double {
    let sorted = samples.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2] * 1000
}

/// Render-thread cost per frame: `layerCount` layers with three running animations each (position,
/// opacity, rotation), evaluated and turned into a render graph by the `FrameProducer` — everything the
/// render thread does before the GPU backend. Aim: under 2 ms for 10,000 layers.
struct AnimatedLayersBenchmark {
    var layerCount: Int
    var frames: Int
    /// Build every frame in full (`FrameProducer.retainsFrames` off), for comparison.
    var fullFrames = false

    func run() -> BenchmarkResult {
        let sink = CommitInbox()
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 1280, height: 720)
        root.position = CGPoint(x: 640, y: 360)
        for index in 0..<layerCount {
            let layer = CALayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
            layer.position = CGPoint(x: CGFloat(index % 100) * 12, y: CGFloat(index / 100) * 7)
            layer.backgroundColor = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
            root.addSublayer(layer)
        }
        var producer = FrameProducer(builder: RenderGraphBuilder(targetWidth: 1280, targetHeight: 720, viewport: root.bounds, scale: 1))
        CATransaction.flush()
        producer.reset(root: root.layerID, snapshot: .snapshot(of: root))
        producer.retainsFrames = !fullFrames
        _ = sink.take()
        let start = 1000.0
        for (index, layer) in (root.sublayers ?? []).enumerated() {
            let phase = Double(index % 10) / 10
            let move = CABasicAnimation(keyPath: "position.y")
            move.byValue = 20
            move.duration = 2
            move.repeatCount = .infinity
            move.autoreverses = true
            move.beginTime = start - phase
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 1
            fade.toValue = 0.3
            fade.duration = 1.5
            fade.repeatCount = .infinity
            fade.beginTime = start - phase
            let spin = CABasicAnimation(keyPath: "transform.rotation.z")
            spin.fromValue = 0
            spin.toValue = 2 * CGFloat.pi
            spin.duration = 3
            spin.repeatCount = .infinity
            spin.beginTime = start - phase
            layer.add(move, forKey: "move")
            layer.add(fade, forKey: "fade")
            layer.add(spin, forKey: "spin")
        }
        CATransaction.flush()
        for packet in sink.take() { producer.apply(packet) }
        var samples: [Double] = []
        var stages: [FrameStatistics.StageTimes] = []
        var items = 0
        for frame in 0..<frames {
            let t0 = CACurrentMediaTime()
            let (graph, _) = producer.produceFrame(at: start + Double(frame) / 60)
            samples.append(CACurrentMediaTime() - t0)
            stages.append(graph.statistics.cpuTime)
            items = graph.passes.reduce(0) { $0 + $1.items.count }
        }
        return BenchmarkResult(scene: "animated-layers", counters: [
            ("layers", Double(layerCount)),
            ("animations", Double(layerCount * 3)),
            ("draw_items", Double(items)),
            ("frames", Double(frames)),
            ("median_render_thread_ms", medianMilliseconds(samples)),
            ("median_stage_animation_ms", medianMilliseconds(stages.map(\.animation))),
            ("median_stage_graph_build_ms", medianMilliseconds(stages.map(\.graphBuild))),
            ("median_stage_cull_batch_ms", medianMilliseconds(stages.map(\.cullAndBatch))),
            ("aim_ms", 2),
        ])
    }
}

/// The cost of committing one property change in a tree of `layerCount` layers: the model-side commit
/// (`CATransaction.flush()`: pack and hand off) and the render side's apply. Aim: under 50 µs.
struct CommitCostBenchmark {
    var layerCount: Int
    var repetitions: Int

    func run() -> BenchmarkResult {
        let sink = CommitInbox()
        let root = CALayer()
        var layers: [CALayer] = []
        for index in 0..<layerCount {
            let layer = CALayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            layer.position = CGPoint(x: index % 1000, y: index / 1000)
            root.addSublayer(layer)
            layers.append(layer)
        }
        var producer = FrameProducer(builder: RenderGraphBuilder(targetWidth: 100, targetHeight: 100, viewport: CGRect(x: 0, y: 0, width: 100, height: 100), scale: 1))
        CATransaction.flush()
        producer.reset(root: root.layerID, snapshot: .snapshot(of: root))
        _ = sink.take()
        var commitSamples: [Double] = []
        var applySamples: [Double] = []
        var packetValues = 0
        for repetition in 0..<repetitions {
            let layer = layers[(repetition * 7919) % layerCount]
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            layer.position = CGPoint(x: repetition, y: repetition)
            let t0 = CACurrentMediaTime()
            CATransaction.commit()
            let t1 = CACurrentMediaTime()
            let packets = sink.take()
            for packet in packets { producer.apply(packet) }
            let t2 = CACurrentMediaTime()
            commitSamples.append(t1 - t0)
            applySamples.append(t2 - t1)
            packetValues = packets.reduce(0) { $0 + $1.changes.reduce(0) { $0 + $1.values.count } }
        }
        return BenchmarkResult(scene: "commit-one-change", counters: [
            ("layers", Double(layerCount)),
            ("values_in_packet", Double(packetValues)),
            ("median_commit_us", medianMilliseconds(commitSamples) * 1000),
            ("median_render_apply_us", medianMilliseconds(applySamples) * 1000),
            ("aim_us", 50),
        ])
    }
}
