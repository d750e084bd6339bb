import Foundation

/// Counter baselines (`Benchmarks/Baselines.json`): per scene, the figures that do not depend on the
/// machine — draw calls, passes, offscreen passes, bytes uploaded, idle frames — never times
/// (STYLE.md guideline 20).
///
/// Format: `{"scenes": {"city": {"draw_calls": 6000, …}, …}}`; other top-level keys are notes. Every
/// baseline counter is a cost, so a figure above its baseline is a regression; one below it is an
/// improvement to write into the file. A figure the run prints as n/a against a numeric baseline is
/// reported too.
struct Baselines {
    var scenes: [String: [String: Double]]

    init(contentsOf url: URL) throws {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        guard let root = object as? [String: Any], let scenes = root["scenes"] as? [String: [String: Any]] else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        self.scenes = scenes.mapValues { counters in
            counters.compactMapValues { ($0 as? NSNumber)?.doubleValue }
        }
    }

    /// Compares `result` with its scene's baseline; returns the regressions (`scene.figure`), printing
    /// every difference when `print` is set.
    func compare(_ result: BenchmarkResult, print shouldPrint: Bool) -> [String] {
        guard let expected = scenes[result.scene] else { return [] }
        var regressions: [String] = []
        for (figure, baseline) in expected.sorted(by: { $0.key < $1.key }) {
            let value = result.value(of: figure) ?? nil
            let name = "\(result.scene).\(figure)"
            guard let value else {
                if shouldPrint { print("  baseline \(figure)=\(BenchmarkResult.format(baseline)): not measured in this run") }
                regressions.append(name)
                continue
            }
            if value > baseline {
                regressions.append(name)
                if shouldPrint { print("  baseline \(figure)=\(BenchmarkResult.format(baseline)): now \(BenchmarkResult.format(value)) (regression)") }
            } else if value < baseline, shouldPrint {
                print("  baseline \(figure)=\(BenchmarkResult.format(baseline)): now \(BenchmarkResult.format(value)) (better: update Baselines.json)")
            }
        }
        return regressions
    }
}
