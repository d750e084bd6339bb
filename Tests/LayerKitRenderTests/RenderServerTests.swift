import XCTest
@testable import LayerKitRender

/// Records, per executed frame, the clip-space x of the first item's layer origin.
private final class RecordingExecutor: RenderGraphExecutor, @unchecked Sendable {
    private let lock = NSLock()
    private var xs: [Float] = []

    func execute(_ graph: RenderGraph) throws {
        guard let item = graph.passes.last?.items.first else { return }
        // Column 3 of localToClip is the image of the layer-space origin (w = 1 without perspective).
        lock.lock()
        xs.append(item.instance.localToClip.3.x)
        lock.unlock()
    }

    var recorded: [Float] {
        lock.lock()
        defer { lock.unlock() }
        return xs
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
        let server = RenderServer(root: root, builder: RenderGraphBuilder(targetWidth: 100, targetHeight: 100, viewport: root.bounds, scale: 1),
                                  clock: DisplayClock(framesPerSecond: 60), executor: executor)
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.fromValue = 0
        slide.toValue = 90
        slide.duration = 10
        box.add(slide, forKey: "slide")
        CATransaction.flush()
        server.start()
        Thread.sleep(forTimeInterval: 1.0)  // the main thread is busy; the render thread must not care
        server.stop()
        let xs = executor.recorded
        // A 60 Hz clock over one second: at least 55 frames, each later than the last.
        XCTAssertGreaterThanOrEqual(xs.count, 55, "frames rendered while the main thread was blocked")
        XCTAssertTrue(zip(xs, xs.dropFirst()).allSatisfy { $0 < $1 }, "position.x advanced every frame")
    }

    func testAnIdleServerRendersNothing() {
        let (root, _) = makeTree()
        let executor = RecordingExecutor()
        let clock = ManualClock()
        let server = RenderServer(root: root, builder: RenderGraphBuilder(targetWidth: 100, targetHeight: 100, viewport: root.bounds, scale: 1),
                                  clock: clock, executor: executor)
        server.start()
        clock.tick(at: 1)
        // The first frame draws the initial tree; with nothing committed or animating, later ticks draw nothing.
        let deadline = Date().addingTimeInterval(2)
        while server.framesRendered < 1 && Date() < deadline { usleep(1000) }
        for time in 2...20 { clock.tick(at: Double(time)) }
        usleep(200_000)
        XCTAssertEqual(server.framesRendered, 1)
        server.stop()
    }
}
