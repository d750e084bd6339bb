import ArgumentParser
import Foundation
import LayerKit
import LayerKitScenes
import LayerKitVulkan

/// Renders random layer trees with hostile values (`HostileTrees`) headless and checks each frame: no
/// crash, no validation message, every pixel a valid premultiplied value, every layer's presentation
/// geometry finite. Seeded: `--seed S --trees N` renders the trees of seeds S…S+N−1; a failure names its
/// seed, and `--seed` of that seed with `--trees 1` reproduces it. Exits 1 when a check failed.
///
///     swift run -c release LayerKitFuzz --trees 10000
///     swift run -c release LayerKitFuzz --soak-frames 100000
@main
struct LayerKitFuzz: ParsableCommand {
    @Option(help: "The first seed.") var seed: UInt64 = 1
    @Option(help: "How many trees (seeds) to render.") var trees: UInt64 = 1_000
    @Option(help: "Frames rendered per tree, at the tree's own random times.") var frames = 3
    @Option(help: "Instead of trees, run the soak for this many frames (`Soak`).") var soakFrames: Int?

    func run() throws {
        setenv("LK_VALIDATION", "1", 1)
        if let soakFrames {
            guard try Soak(frames: soakFrames).run() else { throw ExitCode(1) }
            return
        }
        let renderer = try CARenderer(width: 128, height: 128)
        var failures: [String] = []
        let start = Date()
        for seed in seed..<(seed + trees) {
            let root = HostileTrees.tree(seed: seed)
            renderer.layer = root
            for t in HostileTrees.frameTimes(seed: seed, count: frames) {
                renderer.beginFrame(atTime: t)
                renderer.render()
                renderer.endFrame()
                do {
                    let image = try renderer.snapshot()
                    failures += HostileTrees.problems(in: image, of: root).map { "seed \(seed) at t = \(t): \($0)" }
                } catch {
                    // A frame that did not render (logged by the renderer) fails the tree; the run goes on.
                    failures.append("seed \(seed) at t = \(t): no frame: \(error)")
                }
            }
            renderer.layer = nil
        }
        let messages = renderer.validationMessages
        print("LayerKitFuzz: \(trees) trees from seed \(seed), \(frames) frames each, \(String(format: "%.1f", Date().timeIntervalSince(start))) s: "
              + "\(failures.count) failed checks, \(messages.count) validation messages")
        for line in (failures + messages).prefix(20) { print("  \(line)") }
        if !failures.isEmpty || !messages.isEmpty { throw ExitCode(1) }
    }
}
