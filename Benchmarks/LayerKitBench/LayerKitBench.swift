// LayerKitBench: benchmark scenes that print machine-independent counters and median times.
//
//   swift run -c release LayerKitBench [--scene NAME] [--frames N | --seconds S] [--json] [--window [--window-hz HZ]]
//   swift run -c release LayerKitBench --pacing [--frames N]     (frame pacing under FIFO, in a window)
//
// No timing is asserted anywhere; counters (bytes per layer, draw calls, passes) are what baselines keep
// (Benchmarks/Baselines.json, compared with --baselines).
import ArgumentParser
import Foundation
import LayerKitScenes
import LayerKitVulkan

@main
struct LayerKitBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Runs LayerKit's benchmark scenes and prints their counters.",
        discussion: """
            Scenes: \(BenchmarkName.allCases.map(\.rawValue).joined(separator: ", ")). Without --scene, all run.
            The render scenes (bench/SCENES.md and the render-graph issue) render headless into a 1280x720 \
            CARenderer, or with --window into a LayerWindow (LK_PRESENT_MODE=immediate unless set). \
            Figures the renderer cannot measure yet print as n/a.
            """)

    @Option(help: "The scene to run.")
    var scene: BenchmarkName?

    @Option(help: "Layers in the model-memory scene (default 100,000) or the animated-layers scene (default 10,000: fewer fit in the CPU's caches, for the cost per layer without memory latency).")
    var layers: Int?

    @Option(help: "Frames to measure (render scenes: default 30; animated-layers: default 60).")
    var frames: Int?

    @Option(help: "Measure for this many seconds instead of a frame count, after a timed warm-up (SCENES.md: 10).")
    var seconds: Double?

    @Option(help: "Warm-up frames before a frame-count measurement.")
    var warmupFrames: Int = 3

    @Option(help: "Warm-up seconds before a timed measurement (SCENES.md: 2).")
    var warmupSeconds: Double = 2

    @Flag(help: "Render into an SDL window instead of headless (render scenes only).")
    var window = false

    @Option(help: "With --window or --pacing: the rate the window's loop and render thread tick at at most (default 1000: unpaced).")
    var windowHz: Double = 1000

    @Flag(help: "Measure frame pacing in a FIFO window instead of running scenes: each frame's animation time step against the interval between its present and the last (--frames, default 600).")
    var pacing = false

    @Flag(help: "Build every frame in full instead of patching the last one (render-thread phases), for comparison.")
    var fullFrames = false

    @Flag(help: "Print machine-readable JSON lines.")
    var json = false

    @Option(help: "Write each render scene's last measured frame to DIR/<scene>.png (headless only).")
    var out: String?

    @Option(help: "Compare counters with this baselines file (e.g. Benchmarks/Baselines.json); exit 1 when one grew.")
    var baselines: String?

    func validate() throws {
        if let frames, frames < 1 { throw ValidationError("--frames must be at least 1") }
        if let seconds, !(seconds > 0) { throw ValidationError("--seconds must be positive") }
        if warmupFrames < 0 || !(warmupSeconds >= 0) { throw ValidationError("warm-up must not be negative") }
        if !(windowHz > 0) || !windowHz.isFinite { throw ValidationError("--window-hz must be positive") }
    }

    func run() throws {
        let plan = seconds.map { MeasurementPlan(warmUp: .seconds(warmupSeconds), measure: .seconds($0)) }
            ?? MeasurementPlan(warmUp: .frames(warmupFrames), measure: .frames(frames ?? 30))
        let baseline = try baselines.map { try Baselines(contentsOf: URL(fileURLWithPath: $0)) }
        // A fresh renderer for each scene: no figure depends on the scenes run before it.
        func freshRenderer() throws -> CARenderer {
            let created = try CARenderer(width: Int(BenchmarkScenes.windowSize.width), height: Int(BenchmarkScenes.windowSize.height))
            created.clearColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            return created
        }
        let outDirectory = try out.map { path -> URL in
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        if pacing {
            let result = try PacingBenchmark(frames: frames ?? 600, ticksPerSecond: windowHz).run()
            print(json ? result.json : result.text)
            return
        }
        var regressions: [String] = []
        for name in scene.map({ [$0] }) ?? BenchmarkName.allCases {
            let result: BenchmarkResult
            switch name.kind {
            case .modelMemory: result = ModelMemoryBenchmark(layerCount: layers ?? 100_000).run()
            case .animatedLayers: result = AnimatedLayersBenchmark(layerCount: layers ?? 10_000, frames: frames ?? 60, fullFrames: fullFrames).run()
            case .commitOneChange: result = CommitCostBenchmark(layerCount: 100_000, repetitions: 200).run()
            case .tiledImage:
                result = TiledImageBenchmark(frames: frames ?? 120, renderer: try freshRenderer(), snapshotDirectory: outDirectory).run()
            case let .render(sceneType):
                if window {
                    result = try WindowSceneBenchmark(sceneType: sceneType, plan: plan, ticksPerSecond: windowHz).run()
                } else {
                    result = RenderSceneBenchmark(sceneType: sceneType, plan: plan, renderer: try freshRenderer(),
                                                  snapshotDirectory: outDirectory, fullFrames: fullFrames).run()
                }
            }
            print(json ? result.json : result.text)
            if let baseline { regressions += baseline.compare(result, print: !json) }
            fflush(nil)  // every output stream: the results so far reach a pipe at once
        }
        if !regressions.isEmpty {
            FileHandle.standardError.write(Data("LayerKitBench: counters above their baselines: \(regressions.joined(separator: ", "))\n".utf8))
            throw ExitCode(1)
        }
    }
}

/// The scenes LayerKitBench runs: three model and render-thread measurements, the tiled image, then the
/// render scenes of `LayerKitScenes` by their SCENES.md names.
struct BenchmarkName: RawRepresentable, CaseIterable, ExpressibleByArgument, Hashable {
    enum Kind {
        /// Bytes per layer on the model side.
        case modelMemory
        /// Render-thread cost per frame: 10,000 layers with three running animations each.
        case animatedLayers
        /// The cost of committing one property change in a 100,000-layer tree.
        case commitOneChange
        /// A 100,000-point tiled layer flown through a zoom-and-pan tour (`TiledImageBenchmark`).
        case tiledImage
        /// A scene rendered frame by frame (`RenderSceneBenchmark`, `WindowSceneBenchmark`).
        case render(any BenchmarkScene.Type)
    }

    let rawValue: String

    init?(rawValue: String) {
        guard Self.allCases.contains(where: { $0.rawValue == rawValue }) else { return nil }
        self.rawValue = rawValue
    }

    private init(known rawValue: String) {
        self.rawValue = rawValue
    }

    static let allCases: [BenchmarkName] =
        ["model-memory", "animated-layers", "commit-one-change", "tiled-image"].map(BenchmarkName.init(known:))
        + BenchmarkScenes.all.map { BenchmarkName(known: $0.name) }

    static var allValueStrings: [String] { allCases.map(\.rawValue) }

    var kind: Kind {
        switch rawValue {
        case "model-memory": .modelMemory
        case "animated-layers": .animatedLayers
        case "commit-one-change": .commitOneChange
        case "tiled-image": .tiledImage
        default: .render(BenchmarkScenes.scene(named: rawValue)!)
        }
    }
}

/// Named figures of one scene, printed as text or JSON, with the aims that judge some of them.
///
/// A figure without a value is one LayerKit cannot measure yet: it prints as `n/a` (JSON `null`), never as
/// a made-up number.
struct BenchmarkResult {
    var scene: String
    var figures: [(name: String, value: Double?)]
    var aims: [SceneAim] = []

    init(scene: String, counters: [(name: String, value: Double)]) {
        self.scene = scene
        figures = counters.map { ($0.name, $0.value) }
    }

    init(scene: String, figures: [(String, Double?)], aims: [SceneAim]) {
        self.scene = scene
        self.figures = figures.map { (name: $0.0, value: $0.1) }
        self.aims = aims
    }

    func value(of figure: String) -> Double?? {
        figures.first { $0.name == figure }.map(\.value)
    }

    var text: String {
        let fields = figures.map { "\($0.name)=\($0.value.map(Self.format) ?? "n/a")" }.joined(separator: " ")
        var lines = ["\(scene): \(fields)"]
        for aim in aims {
            let value = value(of: aim.figure) ?? nil
            let verdict = aim.judge(value).map { $0 ? "met" : "not met" } ?? "not measurable yet"
            lines.append("  aim \(aim.condition) (\(aim.summary)): \(value.map(Self.format) ?? "n/a") — \(verdict)")
        }
        return lines.joined(separator: "\n")
    }

    var json: String {
        var fields = figures.map { "\"\($0.name)\": \($0.value.map(Self.format) ?? "null")" }
        if !aims.isEmpty {
            let entries = aims.map { aim -> String in
                let value = value(of: aim.figure) ?? nil
                let met = aim.judge(value).map { $0 ? "true" : "false" } ?? "null"
                return "{\"figure\": \"\(aim.figure)\", \"condition\": \"\(aim.condition)\", \"value\": \(value.map(Self.format) ?? "null"), \"met\": \(met)}"
            }
            fields.append("\"aims\": [\(entries.joined(separator: ", "))]")
        }
        return "{\"scene\": \"\(scene)\", \(fields.joined(separator: ", "))}"
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.3f", value)
    }
}
