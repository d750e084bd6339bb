import Foundation
import Logging

/// Prints a summary of frame statistics once a second (`LK_STATS`).
///
/// Input: each frame's `FrameStatistics` (`record(_:graph:)`), from the thread that renders.
/// Output: every `interval` seconds one line through swift-log (label "LayerKit.Stats", info level; the
/// default handler writes it to stdout): frames per second over the interval, then the mean of each
/// counter and time over its frames, formatted as `FrameStatistics.description` formats one frame
/// (`n/a` where the device measured nothing). With `LK_STATS=graph` the last frame's render graph
/// (`RenderGraph.description`) follows the line. Cost: O(1) per frame; one line per interval.
package final class StatisticsReporter: @unchecked Sendable {
    /// The environment variable that turns reporting on: `1` for the summary line, `graph` for the line
    /// and the render graph.
    package static let environmentVariable = "LK_STATS"

    package let interval: TimeInterval
    package let includesGraph: Bool
    private let output: (String) -> Void
    private var windowStart: UInt64?
    private var frames: [FrameStatistics] = []

    /// - Parameter output: where lines go; by default swift-log at info level.
    package init(interval: TimeInterval = 1, includesGraph: Bool = false, output: ((String) -> Void)? = nil) {
        self.interval = interval
        self.includesGraph = includesGraph
        if let output {
            self.output = output
        } else {
            let logger = Logger(label: "LayerKit.Stats")
            self.output = { logger.info("\($0)") }
        }
    }

    /// A reporter when `LK_STATS` asks for one (`1` or `graph`), else nil.
    package static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> StatisticsReporter? {
        switch environment[environmentVariable]?.lowercased() {
        case "1", "true", "yes": StatisticsReporter()
        case "graph": StatisticsReporter(includesGraph: true)
        default: nil
        }
    }

    /// Adds one frame; prints the summary when the interval has passed.
    package func record(_ statistics: FrameStatistics, graph: RenderGraph? = nil, now: UInt64 = StageClock.now()) {
        let start = windowStart ?? now
        windowStart = start
        frames.append(statistics)
        let elapsed = StageClock.seconds(now &- start)
        guard elapsed >= interval else { return }
        output(Self.summary(frames, seconds: elapsed))
        if includesGraph, let graph { output(graph.description) }
        frames.removeAll(keepingCapacity: true)
        windowStart = now
    }

    /// The summary line for `frames` rendered over `seconds`.
    package static func summary(_ frames: [FrameStatistics], seconds: TimeInterval) -> String {
        guard !frames.isEmpty else { return "LayerKit · 0 frames" }
        let fps = seconds > 0 ? Double(frames.count) / seconds : 0
        return String(format: "LayerKit · %.1f fps · ", fps) + mean(of: frames).description
    }

    /// The per-frame mean of every counter (rounded to whole counts) and time; the last frame's offscreen
    /// reasons. Fragments and GPU time average the frames that have them.
    package static func mean(of frames: [FrameStatistics]) -> FrameStatistics {
        var result = FrameStatistics()
        guard let last = frames.last else { return result }
        let n = Double(frames.count)
        func average(_ value: (FrameStatistics) -> Int) -> Int { Int((Double(frames.reduce(0) { $0 + value($1) }) / n).rounded()) }
        func averageTime(_ value: (FrameStatistics) -> TimeInterval) -> TimeInterval { frames.reduce(0) { $0 + value($1) } / n }
        result.layersVisible = average(\.layersVisible)
        result.layersCulled = average(\.layersCulled)
        result.layerQuads = average(\.layerQuads)
        result.quadsCulledOffTarget = average(\.quadsCulledOffTarget)
        result.quadsCulledOccluded = average(\.quadsCulledOccluded)
        result.quadsDrawnAsClear = average(\.quadsDrawnAsClear)
        result.commitsApplied = average(\.commitsApplied)
        result.drawCalls = average(\.drawCalls)
        result.instances = average(\.instances)
        result.batches = average(\.batches)
        result.passes = average(\.passes)
        result.planesSorted = average(\.planesSorted)
        result.planesSplit = average(\.planesSplit)
        result.offscreenReasons = last.offscreenReasons
        result.targetPixels = last.targetPixels
        let counted = frames.compactMap(\.fragmentsShaded)
        if !counted.isEmpty { result.fragmentsShaded = Int((Double(counted.reduce(0, +)) / Double(counted.count)).rounded()) }
        result.imagesUploaded = average(\.imagesUploaded)
        result.bytesUploaded = average(\.bytesUploaded)
        result.offscreenTargetBytes = average(\.offscreenTargetBytes)
        result.cpuTime.commitApply = averageTime(\.cpuTime.commitApply)
        result.cpuTime.animation = averageTime(\.cpuTime.animation)
        result.cpuTime.graphBuild = averageTime(\.cpuTime.graphBuild)
        result.cpuTime.cullAndBatch = averageTime(\.cpuTime.cullAndBatch)
        result.cpuTime.record = averageTime(\.cpuTime.record)
        result.cpuTime.recordThreadCPU = averageTime(\.cpuTime.recordThreadCPU)
        let timed = frames.compactMap(\.gpuTime)
        if !timed.isEmpty { result.gpuTime = timed.reduce(0, +) / Double(timed.count) }
        return result
    }
}
