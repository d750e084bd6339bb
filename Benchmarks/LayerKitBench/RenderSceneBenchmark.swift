import Foundation
import LayerKit
import LayerKitRender
import LayerKitScenes
import LayerKitVulkan

/// Runs one benchmark scene headless and reports its counters, median stage times and fps.
///
/// Input: a scene type (`LayerKitScenes`), a measurement plan, and a fresh 1280×720 `CARenderer` cleared
/// to opaque black (a new one per scene, so no figure depends on the scenes run before). Output: a
/// `BenchmarkResult` with the aims. Three phases on one scene:
/// 1. *Graph alone*: the scene's commits go to a `FrameProducer` of this process built for the renderer's
///    capabilities (depth, stencil, atlas), which builds each frame's render graph at the frame's time —
///    the render server's work before the GPU backend (main-thread commit, apply, graph build).
/// 2. *Whole frames*: the same scene through `CARenderer` (`beginFrame(atTime:)`, `render()`,
///    `endFrame()`), as an app that keeps the GPU busy renders: no read-back, statistics read without
///    waiting for the GPU (`lastRecordedFrameStatistics`). Counters, stage times and the render thread's
///    CPU come from these frames; fps is frames over elapsed time. Then `gpuMeasuredFrames` more frames,
///    each waited for, give what the GPU measured (fragments, overdraw, GPU time).
/// 3. *Idle*: `stopMotion()`, one frame to apply it, then a host's loop that renders only when
///    `nextFrameTime()` says a frame is due, for `idleSeconds`; the frames it renders are `idle_frames`.
/// Figures: counters are medians over the measured frames unless named otherwise (`_first_frame`, `_max`,
/// `_after_first_frame`: the largest value after the first frame, warm-up included). `layers_recomputed`
/// (phase 1) counts the layers the producer redrew per frame, `instance_bytes_written` (phase 2) the
/// instance data the backend wrote. `draw_calls` and
/// `batches` are the renderer's counts; `quad_area_x_window` is `QuadCoverage`'s;
/// `fragments_shaded`, `overdraw` and `gpu_ms` come from the renderer's pipeline-statistics and timestamp
/// queries; they print n/a on a device without them (and lavapipe counts fragments in 4×4 blocks, so
/// they are upper bounds there). Times: `median_commit_ms` (per-frame model updates and `CATransaction.flush()`),
/// `median_apply_ms` (commit packets into the render tree), `median_graph_build_ms` (animation evaluation
/// and render graph) — phase 1; the renderer's own stages per frame, `median_stage_apply_ms`,
/// `median_stage_animation_ms`, `median_stage_graph_build_ms`, `median_stage_cull_batch_ms`,
/// `median_stage_record_ms` (the backend's recording and uploads, wall clock), `median_stage_record_cpu_ms`
/// (the same, the recording thread's own CPU time: on lavapipe the wall clock also counts the cores its
/// rasterizer threads take while drawing the previous frame), `median_begin_frame_ms`,
/// `median_render_ms` (`CARenderer.render()`: graph build, Vulkan recording, submission) and
/// `median_frame_ms` — phase 2; `median_render_thread_ms`: per phase-2 frame, its apply, animation, graph
/// build, cull-and-batch and record CPU, all on the thread that rendered it; `fps` = measured frames /
/// their elapsed wall-clock time in phase 2.
/// With `snapshotDirectory`, the last measured frame is written there as `<scene>.png` (read back after
/// the timed frames). Frame `t` is SCENES.md's (wall clock since the phase's first frame, at least +1 µs
/// a frame); the scene is rendered at absolute time `startTime + t`, when its animations began at
/// `startTime`.
struct RenderSceneBenchmark {
    var sceneType: any BenchmarkScene.Type
    var plan: MeasurementPlan
    var renderer: CARenderer
    /// Where to write the last measured frame as `<scene>.png`, if anywhere.
    var snapshotDirectory: URL?
    var idleSeconds = 0.25
    /// Frames after the timed ones whose GPU results (fragments, GPU time) are waited for.
    static let gpuMeasuredFrames = 5
    /// Phase 1 builds every frame in full (`FrameProducer.retainsFrames` off), for comparison.
    var fullFrames = false

    private struct GraphSample {
        var commit: Double
        var apply: Double
        var build: Double
        /// `build`'s thread CPU time (`StageClock.threadCPUNow`).
        var buildCPU: Double
        /// Layers the producer redrew for the frame (`FrameStatistics.layersRecomputed`).
        var layersRecomputed: Int
    }

    private struct FrameSample {
        var commit: Double
        var render: Double
        var frame: Double
        var statistics: FrameStatistics
    }

    func run() -> BenchmarkResult {
        let sink = CommitInbox()
        CATransaction.flush()
        _ = sink.take()  // changes made before this scene belong to no tree of ours

        let startTime = CACurrentMediaTime()
        let buildStart = CACurrentMediaTime()
        let scene = sceneType.init(startTime: startTime)
        let buildSeconds = CACurrentMediaTime() - buildStart
        let commitStart = CACurrentMediaTime()
        CATransaction.flush()
        let initialCommitSeconds = CACurrentMediaTime() - commitStart

        // Phase 1: the render thread's work per frame, without the GPU backend.
        var producer = FrameProducer(builder: RenderGraphBuilder(
            targetWidth: renderer.pixelWidth, targetHeight: renderer.pixelHeight, viewport: renderer.bounds, scale: renderer.scale),
            capabilities: renderer.capabilities)
        producer.clearColor = SIMD4(0, 0, 0, 1)
        producer.retainsFrames = !fullFrames
        producer.reset(root: scene.root.layerID, snapshot: nil)
        for packet in sink.take() { producer.apply(packet) }
        var lastGraph: RenderGraph?
        let graphRun = plan.run { t -> GraphSample in
            let t0 = CACurrentMediaTime()
            BenchmarkScenes.applyUpdate(scene, at: t)
            CATransaction.flush()
            let t1 = CACurrentMediaTime()
            for packet in sink.take() { producer.apply(packet) }
            let t2 = CACurrentMediaTime()
            lastGraph = nil  // as a host drops a frame's graph once drawn; the producer then patches it in place
            let cpu2 = StageClock.threadCPUNow()
            let (graph, _) = producer.produceFrame(at: startTime + t)
            let cpu3 = StageClock.threadCPUNow()
            let t3 = CACurrentMediaTime()
            lastGraph = graph
            return GraphSample(commit: t1 - t0, apply: t2 - t1, build: t3 - t2, buildCPU: StageClock.seconds(cpu3 &- cpu2),
                               layersRecomputed: graph.statistics.layersRecomputed)
        }
        let coverage = lastGraph.map(QuadCoverage.measure)
        let drawItems = lastGraph.map { $0.passes.reduce(0) { $0 + $1.items.count } }
        lastGraph = nil
        producer.reset(root: nil, snapshot: nil)

        // Phase 2: whole frames through CARenderer, as an app that keeps the GPU busy renders them: no
        // read-back, and statistics read without waiting for the GPU.
        renderer.layer = scene.root
        _ = sink.take()
        renderer.readsBack = false
        var offscreenPassesPerFrame: [Int] = []
        var bytesUploadedPerFrame: [Int] = []
        var sceneTime = 0.0
        func renderFrame(at t: Double) -> (commit: Double, render: Double, frame: Double) {
            sceneTime = t
            let t0 = CACurrentMediaTime()
            BenchmarkScenes.applyUpdate(scene, at: t)
            renderer.beginFrame(atTime: startTime + t)
            let t1 = CACurrentMediaTime()
            renderer.render()
            let t2 = CACurrentMediaTime()
            renderer.endFrame()
            return (t1 - t0, t2 - t1, CACurrentMediaTime() - t0)
        }
        let frameRun = plan.run { t -> FrameSample in
            let times = renderFrame(at: t)
            let statistics = renderer.lastRecordedFrameStatistics
            offscreenPassesPerFrame.append(statistics.offscreenPasses)
            bytesUploadedPerFrame.append(statistics.bytesUploaded)
            return FrameSample(commit: times.commit, render: times.render, frame: times.frame, statistics: statistics)
        }
        // What the GPU measured (fragments, GPU time): frames after the timed ones, each waited for.
        var measuredByGPU: [FrameStatistics] = []
        for k in 1...Self.gpuMeasuredFrames {
            _ = renderFrame(at: sceneTime + 1e-3 * Double(k))
            measuredByGPU.append(renderer.lastFrameStatistics)
        }
        renderer.readsBack = true
        _ = sink.take()
        if let snapshotDirectory {
            _ = renderFrame(at: sceneTime + 0.1)
            do {
                let url = snapshotDirectory.appendingPathComponent("\(sceneType.name).png")
                try renderer.snapshot().pngData().write(to: url)
            } catch {
                FileHandle.standardError.write(Data("LayerKitBench: could not write the \(sceneType.name) snapshot: \(error)\n".utf8))
            }
        }

        // Phase 3: idle.
        scene.stopMotion()
        renderer.beginFrame(atTime: CACurrentMediaTime())
        renderer.render()
        renderer.endFrame()
        var idleFrames = 0
        let idleEnd = CACurrentMediaTime() + idleSeconds
        while CACurrentMediaTime() < idleEnd {
            if renderer.nextFrameTime() <= CACurrentMediaTime() {
                renderer.beginFrame(atTime: CACurrentMediaTime())
                renderer.render()
                renderer.endFrame()
                idleFrames += 1
            } else {
                usleep(2_000)
            }
        }
        renderer.layer = nil
        withExtendedLifetime(sink) {}

        let frames = frameRun.samples
        let statistics = frames.map(\.statistics)
        func medianOf(_ values: [Int]) -> Double? { median(values.map(Double.init)) }
        func milliseconds(_ seconds: [Double]) -> Double? { median(seconds).map { $0 * 1000 } }
        // Render-thread CPU per frame, measured on the thread that rendered each frame (phase 2): apply,
        // animation, graph build, cull and batch, and recording's thread CPU time (its wall clock also
        // counts the cores lavapipe's rasterizer threads take while drawing the previous frame).
        let renderThread = statistics.map { frame in
            let stages = frame.cpuTime
            return stages.commitApply + stages.animation + stages.graphBuild + stages.cullAndBatch + stages.recordThreadCPU
        }

        let figures: [(String, Double?)] = [
            ("layers", Double(scene.layerCount)),
            ("frames", Double(frames.count)),
            ("warmup_frames", Double(frameRun.warmUpFrames)),
            ("draw_items", drawItems.map(Double.init)),
            ("draw_calls", medianOf(statistics.map(\.drawCalls))),
            ("batches", medianOf(statistics.map(\.batches))),
            ("quads_culled", medianOf(statistics.map(\.quadsCulled))),
            ("quads_trimmed", medianOf(statistics.map(\.quadsTrimmed))),
            ("instances", medianOf(statistics.map(\.instances))),
            ("passes", medianOf(statistics.map(\.passes))),
            ("offscreen_passes", medianOf(statistics.map(\.offscreenPasses))),
            ("offscreen_passes_first_frame", offscreenPassesPerFrame.first.map(Double.init)),
            ("offscreen_passes_after_first_frame", offscreenPassesPerFrame.dropFirst().max().map(Double.init)),
            ("offscreen_passes_max", statistics.map(\.offscreenPasses).max().map(Double.init)),
            ("planes_sorted", medianOf(statistics.map(\.planesSorted))),
            ("planes_split", medianOf(statistics.map(\.planesSplit))),
            ("replicated_instances", medianOf(statistics.map(\.replicatedInstances))),
            ("particles", medianOf(statistics.map(\.particlesDrawn))),
            ("transition_passes", medianOf(statistics.map { $0.offscreenReasons.filter { $0 == .transition }.count })),
            ("bytes_uploaded_first_frame", bytesUploadedPerFrame.first.map(Double.init)),
            ("bytes_uploaded_after_first_frame", Double(bytesUploadedPerFrame.dropFirst().reduce(0, +))),
            ("instance_bytes_written", medianOf(statistics.map(\.instanceBytesWritten))),
            ("layers_recomputed", medianOf(graphRun.samples.map(\.layersRecomputed))),
            ("fragments_shaded", medianOf(measuredByGPU.compactMap(\.fragmentsShaded))),
            ("overdraw", median(measuredByGPU.compactMap(\.overdraw))),
            ("quad_area_x_window", coverage?.perFramePixel),
            ("idle_frames", Double(idleFrames)),
            ("scene_build_ms", buildSeconds * 1000),
            ("initial_commit_ms", initialCommitSeconds * 1000),
            ("median_commit_ms", milliseconds(graphRun.samples.map(\.commit))),
            ("median_apply_ms", milliseconds(graphRun.samples.map(\.apply))),
            ("median_graph_build_ms", milliseconds(graphRun.samples.map(\.build))),
            ("median_graph_build_cpu_ms", milliseconds(graphRun.samples.map(\.buildCPU))),
            ("median_render_thread_ms", milliseconds(renderThread)),
            ("median_stage_apply_ms", milliseconds(statistics.map(\.cpuTime.commitApply))),
            ("median_stage_animation_ms", milliseconds(statistics.map(\.cpuTime.animation))),
            ("median_stage_graph_build_ms", milliseconds(statistics.map(\.cpuTime.graphBuild))),
            ("median_particle_simulation_ms", milliseconds(statistics.map(\.cpuTime.particleSimulation))),
            ("median_stage_cull_batch_ms", milliseconds(statistics.map(\.cpuTime.cullAndBatch))),
            ("median_stage_record_ms", milliseconds(statistics.map(\.cpuTime.record))),
            ("median_stage_record_cpu_ms", milliseconds(statistics.map(\.cpuTime.recordThreadCPU))),
            ("median_begin_frame_ms", milliseconds(frames.map(\.commit))),
            ("median_render_ms", milliseconds(frames.map(\.render))),
            ("median_frame_ms", milliseconds(frames.map(\.frame))),
            ("gpu_ms", milliseconds(measuredByGPU.compactMap(\.gpuTime))),
            ("fps", frameRun.elapsed > 0 ? Double(frames.count) / frameRun.elapsed : nil),
        ]
        return BenchmarkResult(scene: sceneType.name, figures: figures, aims: SceneAim.aims(for: sceneType.name))
    }
}
