import XCTest
@testable import LayerKitRender

/// `LK_STATS`: one summary line per interval, means over the interval's frames. No GPU; time injected.
final class StatisticsReporterTests: XCTestCase {
    private func frame(drawCalls: Int, fragments: Int?, culled: Int) -> FrameStatistics {
        var statistics = FrameStatistics()
        statistics.drawCalls = drawCalls
        statistics.fragmentsShaded = fragments
        statistics.targetPixels = 100
        statistics.quadsCulledOccluded = culled
        statistics.cpuTime.record = 0.002
        return statistics
    }

    func testPrintsOneLinePerIntervalWithTheMeansOfItsFrames() {
        var lines: [String] = []
        let reporter = StatisticsReporter(interval: 1) { lines.append($0) }
        let second: UInt64 = 1_000_000_000
        reporter.record(frame(drawCalls: 2, fragments: 100, culled: 63), now: 0)
        reporter.record(frame(drawCalls: 4, fragments: 300, culled: 63), now: second / 2)
        XCTAssertEqual(lines, [], "not a second yet")
        reporter.record(frame(drawCalls: 6, fragments: nil, culled: 63), now: second)
        XCTAssertEqual(lines.count, 1)
        let line = lines[0]
        XCTAssertTrue(line.hasPrefix("LayerKit · 3.0 fps · "), line)
        XCTAssertTrue(line.contains("draw calls 4 ·"), line)
        XCTAssertTrue(line.contains("63 occluded"), line)
        XCTAssertTrue(line.contains("fragments 200 · overdraw 2.00"), "fragments average the frames that counted them: \(line)")
        XCTAssertTrue(line.contains("record 2.00"), line)
        reporter.record(frame(drawCalls: 1, fragments: nil, culled: 0), now: second + second / 2)
        XCTAssertEqual(lines.count, 1, "a new interval started at the last line")
    }

    func testEnvironmentTurnsReportingOn() {
        XCTAssertNil(StatisticsReporter.fromEnvironment([:]))
        XCTAssertNil(StatisticsReporter.fromEnvironment(["LK_STATS": "0"]))
        XCTAssertEqual(StatisticsReporter.fromEnvironment(["LK_STATS": "1"])?.includesGraph, false)
        XCTAssertEqual(StatisticsReporter.fromEnvironment(["LK_STATS": "graph"])?.includesGraph, true)
    }

    func testGraphFollowsTheLineWhenAsked() {
        var lines: [String] = []
        let reporter = StatisticsReporter(interval: 0, includesGraph: true) { lines.append($0) }
        let graph = RenderGraph(passes: [RenderPass(name: "frame", target: .frame(width: 8, height: 8), clearColor: .zero, items: [])])
        reporter.record(FrameStatistics(), graph: graph, now: 5)
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(lines.last, graph.description)
    }
}
