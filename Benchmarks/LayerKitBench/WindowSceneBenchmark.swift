import ArgumentParser
import Foundation
import LayerKit
import LayerKitScenes
import LayerKitSDL

/// Runs one benchmark scene in a 1280×720 `LayerWindow` (`--window`), presenting with
/// `LK_PRESENT_MODE=immediate` unless the environment says otherwise.
///
/// The window's render thread evaluates the scene's animations at its own frame times and presents; the
/// event loop runs the scene's per-frame updates in `onFrame`. Both are paced by the window's display link
/// at the display's refresh rate, so this measures a frame loop capped at that rate, not SCENES.md's
/// "as fast as possible" (the headless run is). Counters come from `LayerWindow.lastFrameStatistics` after
/// each loop iteration (the last frame the render thread presented), measured once the first frame is
/// on screen (`first_frame_ms` after the loop starts; `offscreen_passes_first_frame` is that frame's).
/// The frames the render thread presented are not public yet, so a statistic read after an iteration
/// may repeat an earlier frame's: `fps` and the figures that need to know which frame they describe
/// (offscreen passes after the first frame, idle frames) are n/a, and `loop_fps` is event-loop
/// iterations per second.
///
/// The scene sits under a layer whose `beginTime` shifts time so that the first loop iteration is the
/// scene's `t = 0`, however long building the scene took.
struct WindowSceneBenchmark {
    var sceneType: any BenchmarkScene.Type
    var plan: MeasurementPlan
    /// How long to wait for the render thread's first frame (software Vulkan takes seconds on big scenes).
    static let firstFrameTimeout: Double = 60

    func run() throws -> BenchmarkResult {
        if ProcessInfo.processInfo.environment["LK_PRESENT_MODE"] == nil {
            setenv("LK_PRESENT_MODE", "immediate", 1)
        }
        let size = BenchmarkScenes.windowSize
        let window = try LayerWindow(title: "LayerKitBench · \(sceneType.name)", width: Int(size.width), height: Int(size.height))
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

        var loopError: Error?
        var firstTick: CFTimeInterval?
        window.onFrame = { tick in
            let first = firstTick ?? tick
            firstTick = first
            BenchmarkScenes.applyUpdate(scene, at: tick - first)
        }
        func iterate() -> FrameStatistics {
            do {
                try window.run(frames: 1)
            } catch {
                loopError = loopError ?? error
            }
            return window.lastFrameStatistics
        }
        // Until the render thread has presented a frame of the scene, the statistics are empty or those of
        // the window's empty root (every scene draws something): wait for the first one.
        let firstFrameStart = CACurrentMediaTime()
        var first = iterate()
        while first.instances == 0 && loopError == nil && CACurrentMediaTime() - firstFrameStart < Self.firstFrameTimeout {
            first = iterate()
        }
        let firstFrameSeconds = CACurrentMediaTime() - firstFrameStart
        let frameRun = plan.run { _ in iterate() }
        window.onFrame = nil
        if let loopError { throw loopError }
        guard first.instances > 0 else {
            throw ValidationError("\(sceneType.name): the window presented no frame within \(Int(Self.firstFrameTimeout)) s")
        }

        let statistics = frameRun.samples
        func medianOf(_ values: [Int]) -> Double? { median(values.map(Double.init)) }
        let figures: [(String, Double?)] = [
            ("layers", Double(scene.layerCount)),
            ("frames", Double(statistics.count)),
            ("warmup_frames", Double(frameRun.warmUpFrames)),
            ("draw_calls", medianOf(statistics.map(\.drawCalls))),
            ("batches", medianOf(statistics.map(\.drawCalls))),
            ("instances", medianOf(statistics.map(\.instances))),
            ("passes", medianOf(statistics.map(\.passes))),
            ("offscreen_passes", medianOf(statistics.map(\.offscreenPasses))),
            ("offscreen_passes_first_frame", Double(first.offscreenPasses)),
            ("offscreen_passes_max", statistics.map(\.offscreenPasses).max().map(Double.init)),
            ("fragments_shaded", nil),
            ("overdraw", nil),
            ("gpu_ms", nil),
            ("first_frame_ms", firstFrameSeconds * 1000),
            ("display_hz", window.framesPerSecond),
            ("loop_fps", frameRun.elapsed > 0 ? Double(statistics.count) / frameRun.elapsed : nil),
            ("fps", nil),
        ]
        return BenchmarkResult(scene: sceneType.name + " (window)", figures: figures,
                               aims: SceneAim.aims(for: sceneType.name))
    }
}
