import ArgumentParser
import Foundation
import LayerKit
import LayerKitScenes
import LayerKitSDL

/// Runs one benchmark scene in a 1280×720 `LayerWindow` (`--window`), presenting with
/// `LK_PRESENT_MODE=immediate` unless the environment says otherwise.
///
/// The window's render thread evaluates the scene's animations at its own frame times and presents; the
/// event loop runs the scene's per-frame updates in `onFrame`. Both tick at `ticksPerSecond` (1,000 by
/// default: unpaced, so each frame's own work and the present mode set the rate, as SCENES.md's "as fast
/// as possible" asks; `--window-hz 60` paces them like a 60 Hz display). The window records frames as
/// headless rendering does (`FrameRecorder`: depth-stencil target, atlas, batching), so the counters
/// compare one to one with the headless run's.
///
/// Measurement: the event loop runs until the render thread has presented the warm-up's frames, then
/// the measured ones (`--frames N`: N presented frames; `--seconds S`: S seconds). A sample is taken after
/// each loop iteration in which the window presented a frame: that frame's statistics
/// (`LayerWindow.lastFrameStatistics`) and, when it changed, the latest frame the GPU finished
/// (`lastCompletedFrameStatistics`: fragments shaded, overdraw, GPU time). `fps` is frames presented
/// over the measured wall-clock time; `loop_fps` event-loop iterations over it. Counters are medians
/// over the samples; `median_*_ms` the render thread's CPU stages (commit apply, animation evaluation,
/// graph build, cull and batch, Vulkan recording). Idle: after `stopMotion()`, once no frame has been
/// presented for `settleSeconds`, `idle_frames` counts frames presented over `idleSeconds` (an idle window
/// presents nothing).
///
/// The scene sits under a layer whose `beginTime` shifts time so that the first loop iteration is the
/// scene's `t = 0`, however long building the scene took.
struct WindowSceneBenchmark {
    var sceneType: any BenchmarkScene.Type
    var plan: MeasurementPlan
    var ticksPerSecond: Double = 1000
    var idleSeconds = 0.25
    /// How long to wait for the render thread's first frame (software Vulkan takes seconds on big scenes).
    static let firstFrameTimeout: Double = 60
    /// How long without a presented frame counts as settled before the idle measurement: longer than a
    /// frame of the slowest scene on software Vulkan.
    static let settleSeconds: Double = 0.5

    func run() throws -> BenchmarkResult {
        if ProcessInfo.processInfo.environment["LK_PRESENT_MODE"] == nil {
            setenv("LK_PRESENT_MODE", "immediate", 1)
        }
        let size = BenchmarkScenes.windowSize
        let window = try LayerWindow(title: "LayerKitBench · \(sceneType.name)", width: Int(size.width), height: Int(size.height),
                                     preferredFramesPerSecond: ticksPerSecond)
        // No background on the window's root: the window clears to (0, 0, 0, 0), black on its opaque
        // swapchain, and a background would add a full-window quad to every scene's counters.
        let startTime = CACurrentMediaTime()
        let scene = sceneType.init(startTime: startTime)
        let timeBase = CALayer()
        timeBase.bounds = CGRect(origin: .zero, size: size)
        timeBase.position = CGPoint(x: size.width / 2, y: size.height / 2)
        timeBase.addSublayer(scene.root)
        // Local time = parent time − beginTime: the first iteration's time maps to startTime.
        timeBase.beginTime = CACurrentMediaTime() - startTime
        window.rootLayer.addSublayer(timeBase)

        var firstTick: CFTimeInterval?
        var moving = true
        window.onFrame = { tick in
            let first = firstTick ?? tick
            firstTick = first
            if moving { BenchmarkScenes.applyUpdate(scene, at: tick - first) }
        }
        defer { window.onFrame = nil }

        // Until the render thread has presented a frame of the scene, the statistics are empty or those
        // of the window's empty root (every scene shows a layer, if only as the clear): wait for the first one.
        let firstFrameStart = CACurrentMediaTime()
        var first = window.lastFrameStatistics
        while first.layersVisible == 0 && CACurrentMediaTime() - firstFrameStart < Self.firstFrameTimeout {
            try window.run(frames: 1)
            first = window.lastFrameStatistics
        }
        let firstFrameSeconds = CACurrentMediaTime() - firstFrameStart
        guard first.layersVisible > 0 else {
            throw ValidationError("\(sceneType.name): the window presented no frame within \(Int(Self.firstFrameTimeout)) s")
        }

        let warmUp = try measure(window, plan.warmUp)
        let measured = try measure(window, plan.measure)

        // Idle: no more motion; one frame applies that, then nothing should be presented.
        moving = false
        scene.stopMotion()
        CATransaction.flush()
        // Settled: no frame presented for `settleSeconds` (the frames already in flight, and the one that
        // applies the stop, are done).
        let settleDeadline = CACurrentMediaTime() + 5
        var lastChange = (frames: window.framesPresented, time: CACurrentMediaTime())
        while CACurrentMediaTime() - lastChange.time < Self.settleSeconds && CACurrentMediaTime() < settleDeadline {
            try window.run(frames: 1)
            if window.framesPresented != lastChange.frames { lastChange = (window.framesPresented, CACurrentMediaTime()) }
        }
        let idleStart = window.framesPresented
        let idleEnd = CACurrentMediaTime() + idleSeconds
        while CACurrentMediaTime() < idleEnd { try window.run(frames: 1) }
        let idleFrames = window.framesPresented - idleStart

        let statistics = measured.frames
        let gpu = measured.completed
        func medianOf(_ values: [Int]) -> Double? { median(values.map(Double.init)) }
        func milliseconds(_ seconds: [Double]) -> Double? { median(seconds).map { $0 * 1000 } }
        let figures: [(String, Double?)] = [
            ("layers", Double(scene.layerCount)),
            ("frames", Double(measured.presented)),
            ("warmup_frames", Double(warmUp.presented)),
            ("draw_calls", medianOf(statistics.map(\.drawCalls))),
            ("batches", medianOf(statistics.map(\.batches))),
            ("quads_culled", medianOf(statistics.map(\.quadsCulled))),
            ("quads_trimmed", medianOf(statistics.map(\.quadsTrimmed))),
            ("instances", medianOf(statistics.map(\.instances))),
            ("passes", medianOf(statistics.map(\.passes))),
            ("offscreen_passes", medianOf(statistics.map(\.offscreenPasses))),
            ("offscreen_passes_first_frame", Double(first.offscreenPasses)),
            ("offscreen_passes_after_first_frame", (warmUp.frames + statistics).map(\.offscreenPasses).max().map(Double.init)),
            ("offscreen_passes_max", statistics.map(\.offscreenPasses).max().map(Double.init)),
            ("planes_sorted", medianOf(statistics.map(\.planesSorted))),
            ("planes_split", medianOf(statistics.map(\.planesSplit))),
            ("replicated_instances", medianOf(statistics.map(\.replicatedInstances))),
            ("particles", medianOf(statistics.map(\.particlesDrawn))),
            ("transition_passes", medianOf(statistics.map { $0.offscreenReasons.filter { $0 == .transition }.count })),
            ("fragments_shaded", medianOf(gpu.compactMap(\.fragmentsShaded))),
            ("overdraw", median(gpu.compactMap(\.overdraw))),
            ("idle_frames", Double(idleFrames)),
            ("first_frame_ms", firstFrameSeconds * 1000),
            ("median_apply_ms", milliseconds(statistics.map(\.cpuTime.commitApply))),
            ("median_animation_ms", milliseconds(statistics.map(\.cpuTime.animation))),
            ("median_graph_build_ms", milliseconds(statistics.map(\.cpuTime.graphBuild))),
            ("median_cull_batch_ms", milliseconds(statistics.map(\.cpuTime.cullAndBatch))),
            ("median_record_ms", milliseconds(statistics.map(\.cpuTime.record))),
            ("median_render_thread_ms", milliseconds(statistics.map(\.cpuTime.total))),
            ("gpu_ms", milliseconds(gpu.compactMap(\.gpuTime))),
            ("tick_hz", window.framesPerSecond),
            ("loop_fps", measured.elapsed > 0 ? Double(measured.iterations) / measured.elapsed : nil),
            ("fps", measured.elapsed > 0 ? Double(measured.presented) / measured.elapsed : nil),
        ]
        return BenchmarkResult(scene: sceneType.name + " (window)", figures: figures,
                               aims: SceneAim.aims(for: sceneType.name))
    }

    /// What the window presented while the loop ran for `span` (presented frames, or seconds).
    private struct Measured {
        var frames: [FrameStatistics] = []
        var completed: [FrameStatistics] = []
        var presented = 0
        var iterations = 0
        var elapsed: Double = 0
    }

    private func measure(_ window: LayerWindow, _ span: MeasurementPlan.Span) throws -> Measured {
        var result = Measured()
        let start = CACurrentMediaTime()
        let presentedAtStart = window.framesPresented
        var lastPresented = presentedAtStart
        var lastCompleted = window.lastCompletedFrameStatistics
        func done() -> Bool {
            switch span {
            case let .frames(count): result.presented >= count
            case let .seconds(seconds): CACurrentMediaTime() - start >= seconds && result.presented > 0
            }
        }
        while !done() {
            try window.run(frames: 1)
            result.iterations += 1
            let presented = window.framesPresented
            guard presented != lastPresented else { continue }
            lastPresented = presented
            result.presented = presented - presentedAtStart
            result.frames.append(window.lastFrameStatistics)
            let completed = window.lastCompletedFrameStatistics
            if let completed, completed != lastCompleted { result.completed.append(completed) }
            lastCompleted = completed
        }
        result.elapsed = CACurrentMediaTime() - start
        return result
    }
}
