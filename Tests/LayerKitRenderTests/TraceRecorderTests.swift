import Foundation
import LayerKit
@testable import LayerKitRender
import LayerKitTestSupport
import XCTest

/// An executor that draws nothing and signals each frame it is handed.
private final class SignallingExecutor: RenderGraphExecutor, Sendable {
    let executed = DispatchSemaphore(value: 0)

    func execute(_ graph: RenderGraph) throws {
        executed.signal()
    }
}

/// `TraceRecorder` without a GPU: frames and commits made up with known times, the trace read back with
/// `JSONSerialization` (`TraceFormatCheck`); and a `RenderServer` (what a `LayerWindow` runs) traced.
final class TraceRecorderTests: XCTestCase {
    private let thread = TraceThread(key: 7, name: "render \"thread\"\n")

    /// A frame whose brackets are 1 ms apart, begun `at` nanoseconds after the origin.
    private func timeline(at start: UInt64) -> FrameTimeline {
        FrameTimeline(began: start, produceStarted: start + 1_000_000, executeStarted: start + 2_000_000,
                      executeEnded: start + 3_000_000, thread: thread)
    }

    private func statistics(drawCalls: Int, passes: Int, offscreen: [OffscreenReason] = [], gpu: TimeInterval? = nil) -> FrameStatistics {
        var statistics = FrameStatistics(drawCalls: drawCalls, passes: passes, offscreenReasons: offscreen)
        statistics.cpuTime.commitApply = 0.0002
        statistics.cpuTime.animation = 0.0001
        statistics.cpuTime.graphBuild = 0.0003
        statistics.cpuTime.cullAndBatch = 0.0004
        statistics.cpuTime.record = 0.0005
        statistics.gpuTime = gpu
        return statistics
    }

    func testStagesAreLaidOutInTheirBracketsInPipelineOrder() throws {
        let recorder = TraceRecorder(destination: nil, origin: 0)
        recorder.recordFrame(statistics(drawCalls: 3, passes: 2, offscreen: [.groupOpacity], gpu: 0.004), timeline: timeline(at: 10_000_000))
        let check = try TraceFormatCheck(Data(recorder.traceJSON().utf8))
        XCTAssertEqual(check.violations, [])
        let stages = check.slices(category: "stage")
        XCTAssertEqual(stages.map { $0["name"] as? String }, ["commit apply", "animation", "graph build", "cull and batch", "record"])
        // In microseconds from the origin: commit apply ends where produceFrame starts (11 ms), the next
        // three follow end to end, record starts where execute starts (12 ms).
        XCTAssertEqual(stages.map { ($0["ts"] as? NSNumber)?.doubleValue }, [10_800, 11_000, 11_100, 11_400, 12_000])
        XCTAssertEqual(stages.map { ($0["dur"] as? NSNumber)?.doubleValue }, [200, 100, 300, 400, 500])
        let frame = try XCTUnwrap(check.slices(category: "frame").first)
        XCTAssertEqual((frame["ts"] as? NSNumber)?.doubleValue, 10_000)
        XCTAssertEqual((frame["dur"] as? NSNumber)?.doubleValue, 3_000)
        let gpu = try XCTUnwrap(check.slices(category: "gpu").first)
        XCTAssertEqual((gpu["ts"] as? NSNumber)?.doubleValue, 12_500, "the GPU slice starts where recording ended")
        XCTAssertEqual((gpu["dur"] as? NSNumber)?.doubleValue, 4_000)
        XCTAssertEqual(check.threadNames[gpu["tid"] as? Int ?? -1], "GPU (timestamp queries)")
        XCTAssertEqual(check.threadNames[frame["tid"] as? Int ?? -1], thread.name, "a name with a quote and a newline survives")
        let counters = check.events.filter { $0["ph"] as? String == "C" }
        let passes = try XCTUnwrap(counters.first { $0["name"] as? String == "passes" }?["args"] as? [String: Any])
        XCTAssertEqual(passes["passes"] as? Int, 2)
        XCTAssertEqual(passes["offscreen"] as? Int, 1)
        let draws = try XCTUnwrap(counters.first { $0["name"] as? String == "draw calls" }?["args"] as? [String: Any])
        XCTAssertEqual(draws["drawCalls"] as? Int, 3)
    }

    func testStagesLongerThanTheirBracketAreClampedIntoTheFrame() throws {
        let recorder = TraceRecorder(destination: nil, origin: 0)
        var slow = statistics(drawCalls: 1, passes: 1)
        slow.cpuTime.commitApply = 5  // applied over several idle ticks: longer than the whole frame
        slow.cpuTime.graphBuild = 0.002
        slow.cpuTime.record = 0.003
        recorder.recordFrame(slow, timeline: timeline(at: 1_000_000))
        let check = try TraceFormatCheck(Data(recorder.traceJSON().utf8))
        XCTAssertEqual(check.violations, [])
        let stages = check.slices(category: "stage")
        XCTAssertEqual(stages.map { ($0["dur"] as? NSNumber)?.doubleValue }, [1_000, 100, 900, 0, 1_000])
    }

    func testOnlyTheLastFramesAndCommitsAreKept() throws {
        let recorder = TraceRecorder(destination: nil, frameCapacity: 3, origin: 0)
        for k in 0..<10 {
            var packet = CommitPacket(changes: [])
            packet.commitBegan = Double(k) * 0.01
            recorder.recordCommit(packet, arrived: UInt64(k) * 10_000_000 + 5_000, thread: thread)
            recorder.recordFrame(statistics(drawCalls: k, passes: 1), timeline: timeline(at: UInt64(k) * 10_000_000 + 100_000))
        }
        let check = try TraceFormatCheck(Data(recorder.traceJSON().utf8))
        XCTAssertEqual(check.violations, [])
        XCTAssertEqual(check.slices(category: "frame").map { $0["name"] as? String }, ["frame 7", "frame 8", "frame 9"])
        let commits = check.slices(category: "commit")
        XCTAssertEqual(commits.map { ($0["ts"] as? NSNumber)?.doubleValue }, [70_000, 80_000, 90_000])
        XCTAssertEqual(commits.map { ($0["dur"] as? NSNumber)?.doubleValue }, [5, 5, 5])
        let other = try XCTUnwrap(check.document["otherData"] as? [String: Any])
        XCTAssertEqual(other["framesDropped"] as? Int, 7)
        XCTAssertEqual(other["commitsDropped"] as? Int, 7)
        XCTAssertEqual(other["frameCapacity"] as? Int, 3)
    }

    func testEnvironmentNamesTheFileAndTheFramesKept() throws {
        XCTAssertNil(TraceRecorder.fromEnvironment([:]))
        XCTAssertNil(TraceRecorder.fromEnvironment(["LK_TRACE": ""]))
        let path = NSTemporaryDirectory() + "layerkit-trace-env-\(UUID().uuidString).json"
        let recorder = try XCTUnwrap(TraceRecorder.fromEnvironment(["LK_TRACE": path, "LK_TRACE_FRAMES": "12"]))
        XCTAssertEqual(recorder.destination?.path, path)
        XCTAssertEqual(recorder.frameCapacity, 12)
        XCTAssertTrue(TraceRecorder.fromEnvironment(["LK_TRACE": path]) === recorder, "hosts tracing to one path share its recorder")
        recorder.write()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let check = try TraceFormatCheck(Data(contentsOf: URL(fileURLWithPath: path)))
        XCTAssertEqual(check.violations, [])
        XCTAssertEqual(check.slices(category: "frame").count, 0)
    }

    func testARenderServerTracesFramesOnItsThreadAndCommitsOnTheCommittingThread() throws {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.position = CGPoint(x: 50, y: 50)
        let box = CALayer()
        box.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        box.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        root.addSublayer(box)
        let url = URL(fileURLWithPath: NSTemporaryDirectory() + "layerkit-server-trace-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let executor = SignallingExecutor()
        let clock = ManualClock()
        let server = RenderServer(root: root, builder: RenderGraphBuilder(targetWidth: 100, targetHeight: 100, viewport: root.bounds, scale: 1),
                                  clock: clock, executor: executor, trace: TraceRecorder(destination: url))
        server.start()
        for k in 1...3 {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            box.position.x += 5
            CATransaction.commit()
            clock.tick(at: Double(k))
            XCTAssertEqual(executor.executed.wait(timeout: .now() + 10), .success, "frame \(k) was drawn")
        }
        server.stop()  // writes the trace

        let check = try TraceFormatCheck(Data(contentsOf: url))
        XCTAssertEqual(check.violations, [], check.violations.joined(separator: "\n"))
        let frames = check.slices(category: "frame")
        XCTAssertEqual(frames.count, 3)
        XCTAssertEqual(Set(frames.compactMap { check.threadNames[$0["tid"] as? Int ?? -1] }), ["LayerKit render server"])
        let commits = check.slices(category: "commit")
        XCTAssertEqual(commits.count, 3)
        XCTAssertEqual(Set(commits.compactMap { check.threadNames[$0["tid"] as? Int ?? -1] }), ["main"])
        XCTAssertEqual(commits.map { ($0["args"] as? [String: Any])?["changes"] as? Int }, [1, 1, 1])
        let applied = frames.map { ($0["args"] as? [String: Any])?["commitsApplied"] as? Int ?? 0 }.reduce(0, +)
        XCTAssertEqual(applied, 3, "each commit applied by one frame")
    }
}
