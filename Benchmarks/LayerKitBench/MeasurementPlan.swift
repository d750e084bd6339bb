import Foundation
import LayerKit

/// How long a scene warms up and how long it is measured: a fixed number of frames (`--frames`, quick
/// runs on software Vulkan) or SCENES.md's timed run (`--seconds 10`: warm up 2 s, then count frames
/// over 10 s).
struct MeasurementPlan {
    enum Span {
        case frames(Int)
        case seconds(Double)
    }

    var warmUp: Span
    var measure: Span

    /// Runs `frame` (given SCENES.md's `t`) for the warm-up, then for the measured span, and returns
    /// what each measured frame returned with the wall-clock seconds the measured frames took.
    func run<Sample>(_ frame: (_ t: Double) -> Sample) -> (samples: [Sample], elapsed: Double, warmUpFrames: Int) {
        var clock = SceneClock()
        let warmUpFrames = Self.loop(warmUp) { _ = frame(clock.next()) }.frames
        var samples: [Sample] = []
        let measured = Self.loop(measure) { samples.append(frame(clock.next())) }
        return (samples, measured.elapsed, warmUpFrames)
    }

    private static func loop(_ span: Span, _ body: () -> Void) -> (frames: Int, elapsed: Double) {
        let start = CACurrentMediaTime()
        var frames = 0
        switch span {
        case let .frames(count):
            while frames < count {
                body()
                frames += 1
            }
        case let .seconds(seconds):
            while frames == 0 || CACurrentMediaTime() - start < seconds {
                body()
                frames += 1
            }
        }
        return (frames, CACurrentMediaTime() - start)
    }
}

/// SCENES.md's `t`: seconds of wall clock since the first frame, sampled once per frame, growing by at
/// least 1 µs a frame.
struct SceneClock {
    private var start: Double?
    private(set) var t: Double = 0

    mutating func next() -> Double {
        let now = CACurrentMediaTime()
        guard let start else {
            self.start = now
            t = 0
            return t
        }
        t = max(now - start, t + 1e-6)
        return t
    }
}

/// The median of `values`, nil when there are none.
func median(_ values: [Double]) -> Double? {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
