// LayerKitBench: benchmark scenes that print machine-independent counters and median times.
//
//   swift run -c release LayerKitBench [--scene NAME] [--json]
//
// No timing is asserted anywhere; counters (bytes per layer, draw calls, passes) are what baselines keep.
import ArgumentParser
import Foundation

@main
struct LayerKitBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Runs LayerKit's benchmark scenes and prints their counters.",
        discussion: "Scenes: \(BenchmarkScene.allCases.map(\.rawValue).joined(separator: ", ")). Without --scene, all run.")

    @Option(help: "The scene to run.")
    var scene: BenchmarkScene?

    @Option(help: "Layers in the model-memory scene.")
    var layers: Int = 100_000

    @Option(help: "Frames to measure in frame-based scenes.")
    var frames: Int = 60

    @Flag(help: "Print machine-readable JSON lines.")
    var json = false

    func run() throws {
        for scene in scene.map({ [$0] }) ?? BenchmarkScene.allCases {
            let result: BenchmarkResult
            switch scene {
            case .modelMemory: result = ModelMemoryBenchmark(layerCount: layers).run()
            case .animatedLayers: result = AnimatedLayersBenchmark(layerCount: 10_000, frames: frames).run()
            case .commitOneChange: result = CommitCostBenchmark(layerCount: 100_000, repetitions: 200).run()
            }
            print(json ? result.json : result.text)
        }
    }
}

enum BenchmarkScene: String, CaseIterable, ExpressibleByArgument {
    /// Bytes per layer on the model side.
    case modelMemory = "model-memory"
    /// Render-thread cost per frame: 10,000 layers with three running animations each.
    case animatedLayers = "animated-layers"
    /// The cost of committing one property change in a 100,000-layer tree.
    case commitOneChange = "commit-one-change"
}

/// Named counters of one scene, printed as text or JSON.
struct BenchmarkResult {
    var scene: String
    var counters: [(name: String, value: Double)]

    var text: String {
        let fields = counters.map { "\($0.name)=\(format($0.value))" }.joined(separator: " ")
        return "\(scene): \(fields)"
    }

    var json: String {
        let fields = counters.map { "\"\($0.name)\": \(format($0.value))" }.joined(separator: ", ")
        return "{\"scene\": \"\(scene)\", \(fields)}"
    }

    private func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.3f", value)
    }
}
