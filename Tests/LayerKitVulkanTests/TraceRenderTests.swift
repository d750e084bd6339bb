import Foundation
import LayerKit
import LayerKitRender
@testable import LayerKitVulkan
import LayerKitTestSupport
import XCTest

/// `LK_TRACE` on a `CARenderer`: a few frames of a small scene traced, the file read back with
/// `JSONSerialization` and checked against the trace event format (`TraceFormatCheck`), and its counts
/// against what the renderer reported. Validation on.
final class TraceRenderTests: CARendererTestCase {
    private var traceURL: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        traceURL = URL(fileURLWithPath: NSTemporaryDirectory() + "layerkit-trace-\(UUID().uuidString).json")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: traceURL)
        try super.tearDownWithError()
    }

    /// A root with two overlapping translucent children under group opacity (one offscreen pass: the
    /// depth test cannot resolve translucent children) and a layer whose colour each frame sets.
    private func makeScene() -> (root: CALayer, changing: CALayer) {
        let root = makeRoot()
        let group = makeLayer(CGRect(x: 4, y: 4, width: 40, height: 40), nil, in: root)
        group.opacity = 0.5
        makeLayer(CGRect(x: 0, y: 0, width: 24, height: 24), CGColor(red: 1, green: 0, blue: 0, alpha: 0.75), in: group)
        makeLayer(CGRect(x: 12, y: 12, width: 24, height: 24), CGColor(red: 0, green: 0, blue: 1, alpha: 0.75), in: group)
        let changing = makeLayer(CGRect(x: 48, y: 48, width: 8, height: 8), .testRed, in: root)
        return (root, changing)
    }

    /// Renders `frames` frames, committing a change to `changing` before each; returns each frame's
    /// statistics as the renderer reported them.
    private func renderFrames(_ frames: Int, of scene: (root: CALayer, changing: CALayer), with renderer: CARenderer) -> [FrameStatistics] {
        renderer.layer = scene.root
        var reported: [FrameStatistics] = []
        for k in 0..<frames {
            withoutAnimation {
                scene.changing.backgroundColor = CGColor(red: CGFloat(k % 2), green: 0, blue: 1, alpha: 1)
                (scene.root.sublayers![0]).sublayers![0].position.x += 1  // the group changes: drawn again each frame
            }
            renderer.beginFrame(atTime: Double(k) / 60)
            renderer.render()
            renderer.endFrame()
            reported.append(renderer.lastFrameStatistics)
        }
        return reported
    }

    func testTraceOfACARendererRunFollowsTheTraceEventFormat() throws {
        let recorder = TraceRecorder(destination: traceURL)
        var renderer: CARenderer? = try CARenderer(width: 64, height: 64, trace: recorder)
        let reported = renderFrames(4, of: makeScene(), with: renderer!)
        XCTAssertEqual(renderer!.validationMessages, [])
        renderer = nil  // the host goes away: the last frame is recorded and the file written

        let check = try TraceFormatCheck(Data(contentsOf: traceURL))
        XCTAssertEqual(check.violations, [], check.violations.joined(separator: "\n"))
        let frames = check.slices(category: "frame")
        XCTAssertEqual(frames.map { $0["name"] as? String }, ["frame 0", "frame 1", "frame 2", "frame 3"])
        XCTAssertEqual(check.slices(category: "stage").count, 4 * 5, "five stages per frame")
        // The frames' arguments are the statistics the renderer reported.
        for (frame, statistics) in zip(frames, reported) {
            let args = try XCTUnwrap(frame["args"] as? [String: Any])
            XCTAssertEqual(args["drawCalls"] as? Int, statistics.drawCalls)
            XCTAssertEqual(args["passes"] as? Int, statistics.passes)
            XCTAssertEqual(args["offscreenPasses"] as? Int, statistics.offscreenPasses)
            XCTAssertEqual(args["fragmentsShaded"] as? Int, statistics.fragmentsShaded)
        }
        XCTAssertEqual(reported.map(\.offscreenPasses), [1, 1, 1, 1], "the changing group is drawn through a surface")
        let passCounters = check.events.filter { $0["ph"] as? String == "C" && $0["name"] as? String == "passes" }
        XCTAssertEqual(passCounters.map { ($0["args"] as? [String: Any])?["offscreen"] as? Int }, [1, 1, 1, 1])
        // Frames and commits are on the thread that made them: this one, the main thread.
        let frameThread = try XCTUnwrap(frames.first?["tid"] as? Int)
        XCTAssertEqual(check.threadNames[frameThread], "main")
        let commits = check.slices(category: "commit")
        XCTAssertGreaterThanOrEqual(commits.count, 4, "one commit per frame at least")
        XCTAssertTrue(commits.allSatisfy { $0["tid"] as? Int == frameThread })
        // GPU slices on their own track, one per frame the GPU timed.
        let timed = reported.filter { $0.gpuTime != nil }.count
        XCTAssertEqual(check.slices(category: "gpu").count, timed)
        if timed > 0 { XCTAssertTrue(check.threadNames.values.contains("GPU (timestamp queries)")) }
    }

    func testLKTRACEInTheEnvironmentTracesAnUnchangedApp() throws {
        setenv("LK_TRACE", traceURL.path, 1)
        var renderer: CARenderer? = try CARenderer(width: 64, height: 64)  // the public initializer, as an app calls it
        unsetenv("LK_TRACE")
        _ = renderFrames(2, of: makeScene(), with: renderer!)
        XCTAssertEqual(renderer!.validationMessages, [])
        renderer = nil
        let check = try TraceFormatCheck(Data(contentsOf: traceURL))
        XCTAssertEqual(check.violations, [])
        XCTAssertEqual(check.slices(category: "frame").count, 2)
    }

    func testSettingTheTraceToNilRecordsTheLastFrameAndStopsTracing() throws {
        let recorder = TraceRecorder(destination: traceURL)
        let renderer = try makeRenderer()
        renderer.trace = recorder
        let scene = makeScene()
        _ = renderFrames(3, of: scene, with: renderer)
        renderer.trace = nil
        _ = renderFrames(2, of: scene, with: renderer)
        XCTAssertEqual(recorder.retained.frames.count, 3)
        let check = try TraceFormatCheck(Data(contentsOf: traceURL))
        XCTAssertEqual(check.slices(category: "frame").count, 3)
    }
}
