import XCTest
@testable import LayerKitRender

/// Records, per executed frame, the clip-space x of the first item's layer origin.
private final class RecordingExecutor: RenderGraphExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var xs: [Float] = []

    func execute(_ graph: RenderGraph) throws {
        guard let item = graph.passes.last?.items.first else { return }
        // Column 3 of localToClip is the image of the layer-space origin (w = 1 without perspective).
        condition.lock()
        xs.append(item.instance.localToClip.3.x)
        condition.broadcast()
        condition.unlock()
    }

    var recorded: [Float] {
        condition.lock()
        defer { condition.unlock() }
        return xs
    }

    /// Blocks until `count` frames were recorded; false if `timeout` (a guard against a hung server, not a
    /// pace) passed first.
    func waitUntilRecorded(_ count: Int, timeout: TimeInterval = 30) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while xs.count < count {
            if !condition.wait(until: deadline) { return xs.count >= count }
        }
        return true
    }
}

final class RenderServerTests: XCTestCase {
    private func makeTree() -> (root: CALayer, box: CALayer) {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.position = CGPoint(x: 50, y: 50)
        let box = CALayer()
        box.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        box.anchorPoint = .zero
        box.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        root.addSublayer(box)
        return (root, box)
    }

    func testAnimationsAdvanceOnTheRenderThreadWhileTheMainThreadIsBlocked() {
        let (root, box) = makeTree()
        let executor = RecordingExecutor()
        let clock = ManualClock()
        let server = RenderServer(root: root, builder: RenderGraphBuilder(targetWidth: 100, targetHeight: 100, viewport: root.bounds, scale: 1),
                                  clock: clock, executor: executor)
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.fromValue = 0
        slide.toValue = 90
        slide.duration = 10
        slide.beginTime = 1000
        box.add(slide, forKey: "slide")
        CATransaction.flush()
        server.start()
        // One second of 60 Hz ticks, released at once; the main thread then blocks on the executor (it runs
        // no loop and commits nothing) while the render thread draws every tick on its own.
        let frames = 60
        for frame in 0..<frames { clock.tick(at: 1000 + Double(frame) / 60) }
        XCTAssertTrue(executor.waitUntilRecorded(frames), "every tick drawn while the main thread was blocked")
        server.stop()
        // Linear over 10 s from 0 to 90 points: frame k shows x = 90 · (k/60) / 10 = 0.15 k points, which the
        // 100-point viewport maps to clip x = 0.15 k / 50 − 1.
        let xs = executor.recorded
        XCTAssertEqual(xs.count, frames)
        for (frame, x) in xs.enumerated() {
            XCTAssertEqual(x, Float(0.15 * Double(frame) / 50 - 1), accuracy: 1e-5, "frame \(frame)")
        }
    }

    func testAnIdleServerTakesNoTicksAndRendersNothing() {
        let (root, box) = makeTree()
        let executor = RecordingExecutor()
        let clock = ManualClock()
        let server = RenderServer(root: root, builder: RenderGraphBuilder(targetWidth: 100, targetHeight: 100, viewport: root.bounds, scale: 1),
                                  clock: clock, executor: executor)
        server.start()
        clock.tick(at: 1)
        // The first frame draws the initial tree.
        XCTAssertTrue(executor.waitUntilRecorded(1))
        // With nothing committed or animating the server sleeps instead of taking ticks: 19 more stay queued.
        for time in 2...20 { clock.tick(at: Double(time)) }
        // A commit wakes it for exactly one frame, which takes the next tick (time 2) and leaves 18.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        box.position.x = 25
        CATransaction.commit()
        XCTAssertTrue(executor.waitUntilRecorded(2))
        server.stop()
        XCTAssertEqual(server.framesRendered, 2)
        XCTAssertEqual(clock.queuedTicks, 18, "ticks taken while idle")
        XCTAssertEqual(executor.recorded, [-1, -0.5], "the initial tree, then the box moved to x = 25 of 100 points")
    }
}
