import Foundation
import LayerKit
import LayerKitSDL

/// How evenly a window's frames are paced under FIFO (`--pacing`): the aim of the embedding issue is that
/// over 600 frames each frame's animation time step equals the interval between its present and the one
/// before, ± 1 %.
///
/// Setup: a 1280×720 `LayerWindow` with `LK_PRESENT_MODE=fifo`, its ticks uncapped (1,000 a second) so the
/// presents alone pace the render thread (`--window-hz` caps them, as a window's refresh rate does), one layer sliding back and forth for ever (something animates
/// every frame). Measurement: the window's presented frames (`LayerWindow.presentedFrames`: each frame's
/// animation time — its predicted display time — and when its present completed); after
/// `warmUpFrames`, over `frames` consecutive frames, for each frame k after the first: the animation
/// step `target[k] − target[k−1]` against the present interval `presented[k] − presented[k−1]`, as a
/// relative deviation `|step − interval| / interval`. Printed: its median and 99th percentile in %, the
/// present intervals' median and their own spread (the deviation of each interval from their median:
/// what a perfectly steady animation would still show against an unsteady present), and the rate.
/// Nothing is asserted: the figures depend on the machine and the window system.
struct PacingBenchmark {
    var frames: Int = 600
    /// The window's rate cap (`preferredFramesPerSecond`): 1,000 leaves the presents alone to pace.
    var ticksPerSecond: Double = 1000
    var warmUpFrames = 30
    static let timeout: Double = 120

    func run() throws -> BenchmarkResult {
        setenv("LK_PRESENT_MODE", "fifo", 1)
        let size = CGSize(width: 1280, height: 720)
        let window = try LayerWindow(title: "LayerKitBench · pacing", width: Int(size.width), height: Int(size.height),
                                     preferredFramesPerSecond: ticksPerSecond)
        let slider = CALayer()
        slider.bounds = CGRect(x: 0, y: 0, width: 120, height: 120)
        slider.position = CGPoint(x: 100, y: size.height / 2)
        slider.backgroundColor = CGColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 1)
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.fromValue = 100
        slide.toValue = size.width - 100
        slide.duration = 2
        slide.autoreverses = true
        slide.repeatCount = .infinity
        slider.add(slide, forKey: "slide")
        window.rootLayer.addSublayer(slider)

        let needed = warmUpFrames + frames + 1
        let start = CACurrentMediaTime()
        while window.presentedFrames.count < needed && CACurrentMediaTime() - start < Self.timeout {
            try window.run(frames: 1)
        }
        let presented = window.presentedFrames
        guard presented.count >= needed else {
            throw PacingError(message: "the window presented \(presented.count) frames in \(Int(Self.timeout)) s, not \(needed)")
        }
        let measured = Array(presented.suffix(frames + 1))
        var deviations: [Double] = []
        var intervals: [Double] = []
        for (previous, frame) in zip(measured, measured.dropFirst()) {
            let interval = frame.presentedAt - previous.presentedAt
            let step = frame.targetTimestamp - previous.targetTimestamp
            intervals.append(interval)
            deviations.append(abs(step - interval) / interval)
        }
        let medianInterval = median(intervals) ?? 0
        let spread = intervals.map { abs($0 - medianInterval) / medianInterval }
        let elapsed = measured.last!.presentedAt - measured.first!.presentedAt
        return BenchmarkResult(scene: "pacing (window, fifo, cap \(Int(ticksPerSecond)) Hz)", figures: [
            ("frames", Double(frames)),
            ("step_vs_present_interval_median_pct", median(deviations).map { $0 * 100 }),
            ("step_vs_present_interval_p99_pct", percentile(deviations, 0.99).map { $0 * 100 }),
            ("present_interval_median_ms", medianInterval * 1000),
            ("present_interval_spread_median_pct", median(spread).map { $0 * 100 }),
            ("present_interval_spread_p99_pct", percentile(spread, 0.99).map { $0 * 100 }),
            ("predicted_interval_ms", window.presentInterval.map { $0 * 1000 }),
            ("fps", elapsed > 0 ? Double(frames) / elapsed : nil),
        ], aims: [])
    }

    /// The value below which `fraction` of `values` lie (nearest rank); nil for no values.
    private func percentile(_ values: [Double], _ fraction: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}

struct PacingError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
