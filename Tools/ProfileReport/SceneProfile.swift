import Foundation
import LayerKit
import LayerKitRender
import LayerKitScenes
import LayerKitVulkan

/// One benchmark scene run headless for a number of frames, with everything a report shows: each frame's
/// statistics (GPU results included), the trace, and pictures of the median and the worst frame in
/// LayerKit's debug views.
///
/// Input: a scene name LayerKitBench accepts (`BenchmarkScenes`), a frame count, a target size.
/// Algorithm: the scene is built, then frame k is rendered at scene time k/60 s into a `CARenderer`
/// tracing into its own `TraceRecorder` (what `LK_TRACE` would write); the frames' statistics are the
/// recorder's, so the report and the trace agree. Then the median and the worst frame (by `ProfiledFrame.cost`)
/// are rendered again at their scene times in each `PictureView`, read back.
/// Cost: the run itself, plus one GPU wait per frame for its results (as `LK_STATS` waits), plus
/// 2 × 4 pictures.
public struct SceneProfile {
    /// What a run is asked to do.
    public struct Options: Sendable {
        /// A render scene's name (`BenchmarkScenes.all`: city, stack, translucent, groups, effects, ui, …).
        public var scene: String
        public var frames: Int
        /// The target in pixels; the scene is always 1280×720 points, so a smaller target renders it at a
        /// smaller scale (tests use that to stay quick).
        public var pixelWidth: Int
        public var pixelHeight: Int

        public init(scene: String, frames: Int = 120, pixelWidth: Int = 1280, pixelHeight: Int = 720) {
            self.scene = scene
            self.frames = frames
            self.pixelWidth = pixelWidth
            self.pixelHeight = pixelHeight
        }
    }

    /// What can go wrong before anything renders.
    public enum Failure: Error, CustomStringConvertible {
        case unknownScene(String)
        case badOptions(String)

        public var description: String {
            switch self {
            case .unknownScene(let name):
                "no render scene named \(name); scenes: \(BenchmarkScenes.all.map { $0.name }.joined(separator: ", "))"
            case .badOptions(let reason): reason
            }
        }
    }

    public let options: Options
    /// Every frame, in order.
    public let frames: [ProfiledFrame]
    /// The median and the worst frame in each view.
    public let pictures: [ProfilePicture]
    /// The run's trace (`LK_TRACE`'s format).
    public let traceJSON: String
    /// Seconds spent rendering the frames, and then the pictures.
    public let runSeconds: Double
    public let pictureSeconds: Double
    /// Validation-layer messages the renderer saw (with `LK_VALIDATION=1`).
    public let validationMessages: [String]

    /// Scene time of frame k, in seconds: a fixed 60 Hz step, so a frame can be drawn again exactly.
    public static func sceneTime(ofFrame k: Int) -> Double { Double(k) / 60 }

    /// Seconds to render the run's frames with nothing else — no trace, no GPU results waited for, no
    /// pictures — as an app renders: what a report's cost is compared with.
    public static func timeSceneAlone(_ options: Options) throws -> Double {
        guard let sceneType = BenchmarkScenes.scene(named: options.scene) else { throw Failure.unknownScene(options.scene) }
        let renderer = try CARenderer(width: options.pixelWidth, height: options.pixelHeight,
                                      scale: CGFloat(options.pixelWidth) / BenchmarkScenes.windowSize.width, trace: nil)
        renderer.bounds = CGRect(origin: .zero, size: BenchmarkScenes.windowSize)
        renderer.clearColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        renderer.readsBack = false
        let startTime = CACurrentMediaTime()
        let scene = sceneType.init(startTime: startTime)
        CATransaction.flush()
        renderer.layer = scene.root
        let runStart = CACurrentMediaTime()
        for k in 0..<options.frames {
            let t = sceneTime(ofFrame: k)
            BenchmarkScenes.applyUpdate(scene, at: t)
            renderer.beginFrame(atTime: startTime + t)
            renderer.render()
            renderer.endFrame()
        }
        _ = renderer.lastFrameStatistics  // waits for the last frame's GPU work, as the profile's run does
        let seconds = CACurrentMediaTime() - runStart
        renderer.layer = nil
        return seconds
    }

    /// Runs the scene and takes the pictures.
    public init(_ options: Options) throws {
        guard let sceneType = BenchmarkScenes.scene(named: options.scene) else { throw Failure.unknownScene(options.scene) }
        guard options.frames > 0 else { throw Failure.badOptions("--frames must be at least 1") }
        guard options.pixelWidth > 0, options.pixelHeight > 0 else { throw Failure.badOptions("the target must have pixels") }
        self.options = options
        let scale = CGFloat(options.pixelWidth) / BenchmarkScenes.windowSize.width
        let recorder = TraceRecorder(destination: nil, frameCapacity: options.frames)
        let renderer = try CARenderer(width: options.pixelWidth, height: options.pixelHeight, scale: scale, trace: recorder)
        renderer.bounds = CGRect(origin: .zero, size: BenchmarkScenes.windowSize)
        renderer.clearColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)

        let startTime = CACurrentMediaTime()
        let scene = sceneType.init(startTime: startTime)
        CATransaction.flush()
        renderer.layer = scene.root
        func draw(frame k: Int) {
            let t = Self.sceneTime(ofFrame: k)
            BenchmarkScenes.applyUpdate(scene, at: t)
            renderer.beginFrame(atTime: startTime + t)
            renderer.render()
            renderer.endFrame()
        }

        let runStart = CACurrentMediaTime()
        renderer.readsBack = false
        for k in 0..<options.frames { draw(frame: k) }
        renderer.trace = nil  // records the last frame, GPU results included; the pictures are not traced
        runSeconds = CACurrentMediaTime() - runStart
        traceJSON = recorder.traceJSON()
        frames = recorder.retained.frames.enumerated().map { k, record in
            ProfiledFrame(number: k, sceneTime: Self.sceneTime(ofFrame: k), statistics: record.statistics)
        }

        let picturesStart = CACurrentMediaTime()
        renderer.readsBack = true
        var pictures: [ProfilePicture] = []
        for (role, frame) in ProfiledFrame.picked(from: frames) {
            for view in PictureView.allCases {
                renderer.debugOptions = view.debugOptions
                draw(frame: frame.number)
                pictures.append(ProfilePicture(role: role, frame: frame.number, view: view, image: try renderer.snapshot()))
            }
        }
        renderer.debugOptions = []
        self.pictures = pictures
        pictureSeconds = CACurrentMediaTime() - picturesStart
        validationMessages = renderer.validationMessages
        renderer.layer = nil
    }
}
