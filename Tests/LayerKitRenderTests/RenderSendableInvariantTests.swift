import Foundation
import LayerKit
import LayerKitTestSupport
import XCTest
@testable import LayerKitRender

/// Each `@unchecked Sendable` type of LayerKitRender used from several threads exactly as the invariant
/// in its doc comment allows, with the outcome checked. Threads meet only at `concurrentPerform`, group
/// joins and the render server's own hand-overs, so every expectation is fixed in advance. Run under
/// ThreadSanitizer by `Tools/test --tsan`, which reports any access the stated lock or owner does not
/// cover.
final class RenderSendableInvariantTests: XCTestCase {
    private static let threads = 8

    /// Records, per executed graph, the thread it ran on, the main pass's item count and target size.
    private final class ThreadRecordingExecutor: RenderGraphExecutor, Sendable {
        struct Frame: Sendable {
            /// `pthread_self()` of the executing thread.
            var thread: UInt
            var items: Int
            var width: Int
            var height: Int
            /// Rasterized bitmaps the frame draws (cache misses).
            var rasterized: Int
        }
        let frames = CollectedValues<Frame>()
        func execute(_ graph: RenderGraph) throws {
            let main = graph.passes.last
            frames.append(Frame(thread: UInt(bitPattern: Int(bitPattern: pthread_self())), items: main?.items.count ?? 0,
                                width: main?.target.width ?? 0, height: main?.target.height ?? 0,
                                rasterized: graph.rasterization.rendered.count))
        }
    }

    // MARK: - Render-thread state

    /// `RenderServer` and what only its thread touches — the render tree's `RenderNode`s, the graph
    /// builder's `RasterizationCache`, `ShapeRasterizer` and `ImageAtlas`, the frame
    /// producer: the main thread commits and several threads resize and request frames while the server
    /// draws. Every graph is built and executed on the render thread, and the last frame shows the last
    /// commit at the last size.
    func testTheRenderServerAloneTouchesItsTreeWhileOtherThreadsCommitAndResize() {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.position = CGPoint(x: 50, y: 50)
        // A shape (drawn into an image on the render thread) and an image (placed in the atlas there).
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 0, y: 80, width: 20, height: 20)
        shape.path = CGPath(rect: CGRect(x: 0, y: 0, width: 20, height: 20), transform: nil)
        shape.fillColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        root.addSublayer(shape)
        let picture = CALayer()
        picture.frame = CGRect(x: 40, y: 80, width: 8, height: 8)
        picture.contents = CGImage(width: 2, height: 2, bytesPerRow: 8, premultipliedRGBA: [UInt8](repeating: 255, count: 16))
        root.addSublayer(picture)
        // A rasterized group (cached by the render thread's rasterization cache): one bitmap, one item.
        let group = CALayer()
        group.frame = CGRect(x: 60, y: 80, width: 20, height: 20)
        group.shouldRasterize = true
        let inner = CALayer()
        inner.frame = CGRect(x: 2, y: 2, width: 10, height: 10)
        inner.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        group.addSublayer(inner)
        let outer = CALayer()
        outer.frame = CGRect(x: 8, y: 8, width: 10, height: 10)
        outer.backgroundColor = CGColor(red: 0, green: 1, blue: 1, alpha: 0.5)
        group.addSublayer(outer)
        root.addSublayer(group)
        CATransaction.flush()
        let executor = ThreadRecordingExecutor()
        // Starts at 50 × 50; the last frame, at 100 × 100, shows everything.
        let server = RenderServer(root: root, builder: RenderGraphBuilder(targetWidth: 50, targetHeight: 50, viewport: root.bounds, scale: 1),
                                  clock: DisplayClock(framesPerSecond: 240), executor: executor, trace: nil)
        server.start()
        let boxes = 20
        let requests = DispatchGroup()
        DispatchQueue.global().async(group: requests) {
            DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
                for _ in 0..<5 {
                    // Every thread asks for the same size, so the last request is known whatever the order.
                    server.resize(width: 100, height: 100, viewport: CGRect(x: 0, y: 0, width: 100, height: 100), scale: 1)
                    server.setNeedsFrame()
                    _ = server.framesRendered
                }
            }
        }
        for index in 0..<boxes {
            let box = CALayer()
            box.frame = CGRect(x: CGFloat(index % 10) * 10, y: CGFloat(index / 10) * 10, width: 8, height: 8)
            box.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            root.addSublayer(box)
            CATransaction.commit()
            if index % 5 == 4 { XCTAssertTrue(server.drawFrameAndWait(timeout: 60)) }
        }
        requests.wait()
        XCTAssertTrue(server.drawFrameAndWait(timeout: 60))
        server.stop()
        let frames = executor.frames.all
        XCTAssertGreaterThanOrEqual(frames.count, 5)
        let mainThread = UInt(bitPattern: Int(bitPattern: pthread_self()))
        XCTAssertEqual(Set(frames.map(\.thread)).count, 1, "graphs executed on one thread")
        XCTAssertNotEqual(frames.first?.thread, mainThread, "the render thread, not the committing one")
        let last = frames.last!
        XCTAssertEqual(last.items, boxes + 3, "every box, the shape, the image and the rasterized group: one item each")
        XCTAssertGreaterThan(frames.map(\.rasterized).reduce(0, +), 0, "the group was rasterized on the render thread")
        XCTAssertEqual([last.width, last.height], [100, 100], "the size every thread asked for (the server began at 50 × 50)")
    }

    // MARK: - Lock-protected hand-overs

    /// `CommitInbox` (checked `Sendable`): committing threads receive while the render thread takes,
    /// behind its lock. Every packet is taken exactly once.
    func testCommitInboxHandsEveryPacketToTheTakingThreadOnce() {
        let wakeUps = CollectedValues<Int>()
        let inbox = CommitInbox(onReceive: { wakeUps.append(1) })
        let sent = CollectedValues<LayerID>(), taken = CollectedValues<LayerID>()
        DispatchQueue.concurrentPerform(iterations: Self.threads + 1) { thread in
            if thread == Self.threads {
                for _ in 0..<100 { taken.append(contentsOf: inbox.take().flatMap(\.released)) }
                return
            }
            for _ in 0..<100 {
                let id = LayerID.next()
                inbox.receive(CommitPacket(changes: [], released: [id]))
                sent.append(id)
            }
        }
        taken.append(contentsOf: inbox.take().flatMap(\.released))
        XCTAssertEqual(taken.all.count, Self.threads * 100)
        XCTAssertEqual(Set(taken.all), Set(sent.all))
        XCTAssertEqual(wakeUps.all.count, Self.threads * 100, "each arrival wakes the render thread")
    }

    /// `ManualClock`: ticks from one thread reach the waiting render thread in order, none lost; `stop()`
    /// from another thread ends the wait.
    func testManualClockReleasesEveryTickInOrderAcrossThreads() {
        let clock = ManualClock()
        let received = CollectedValues<Double>()
        let waiter = DispatchGroup()
        DispatchQueue.global().async(group: waiter) {
            while let time = clock.waitForNextFrame() {
                received.append(time)
                if time == 200 { break }
            }
        }
        DispatchQueue.concurrentPerform(iterations: 1) { _ in
            for time in 1...200 { clock.tick(at: Double(time)) }
        }
        waiter.wait()
        XCTAssertEqual(received.all, (1...200).map(Double.init))
        let stopped = DispatchGroup()
        let afterStop = CollectedValues<Double?>()
        DispatchQueue.global().async(group: stopped) { afterStop.append(clock.waitForNextFrame()) }
        clock.stop()
        stopped.wait()
        XCTAssertEqual(afterStop.all, [nil])
    }

    /// `DisplayClock`: its state is behind its condition; `stop()` from another thread wakes the waiting
    /// render thread, which has seen only increasing frame times.
    func testDisplayClockStoppedFromAnotherThreadEndsTheWait() {
        let clock = DisplayClock(framesPerSecond: 500)
        let times = CollectedValues<Double>()
        let threeFrames = DispatchSemaphore(value: 0)
        let waiter = DispatchGroup()
        DispatchQueue.global().async(group: waiter) {
            while let time = clock.waitForNextFrame() {
                times.append(time)
                if times.all.count == 3 { threeFrames.signal() }
            }
        }
        threeFrames.wait()
        clock.stop()
        waiter.wait()
        let seen = times.all
        XCTAssertGreaterThanOrEqual(seen.count, 3)
        XCTAssertTrue(zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 }, "\(seen)")
        XCTAssertNil(clock.waitForNextFrame(), "a stopped clock stays stopped")
    }

    /// `DisplayClock.waitForTick`: another thread (a window's event loop) follows the ticks the render
    /// thread takes, each wait ending with the count of ticks handed out, every tick seen once in order;
    /// a stopped clock ends a wait at once.
    func testDisplayClockTicksAreFollowedFromAnotherThread() {
        let clock = DisplayClock(framesPerSecond: 1000)
        XCTAssertEqual(clock.waitForTick(after: 0, timeout: 0), 0, "no tick taken yet")
        let followed = DispatchSemaphore(value: 0)
        let counts = CollectedValues<Int>()
        let threads = DispatchGroup()
        DispatchQueue.global().async(group: threads) {
            var seen = 0
            while seen < 20 {
                // A minute: the wait ends with the render thread's next tick, never by the timeout.
                seen = clock.waitForTick(after: seen, timeout: 60)
                counts.append(seen)
                followed.signal()
            }
        }
        for _ in 0..<20 {
            XCTAssertNotNil(clock.waitForNextFrame())
            followed.wait()  // one tick at a time: the follower sees each
        }
        threads.wait()
        XCTAssertEqual(counts.all, Array(1...20))
        clock.stop()
        XCTAssertEqual(clock.waitForTick(after: 20, timeout: 60), 20, "a stopped clock ends the wait at once")
    }

    /// `PresentPacedClock`: its state is behind its condition. The render thread waits for each frame while
    /// a present thread reports the presents it was handed, from its own thread; frame times never go
    /// backwards, every present completes, and a stopped clock answers nil.
    func testPresentPacedClockIsPacedByAnotherThreadsPresents() {
        let clock = PresentPacedClock(nominalFramesPerSecond: 1000)
        let handedOver = DispatchSemaphore(value: 0)
        let times = CollectedValues<Double>()
        let threads = DispatchGroup()
        DispatchQueue.global().async(group: threads) {
            for _ in 0..<50 {
                handedOver.wait()
                clock.presentCompleted(at: CACurrentMediaTime(), shown: true)
            }
        }
        DispatchQueue.global().async(group: threads) {
            for _ in 0..<50 {
                guard let time = clock.waitForNextFrame() else { return }
                times.append(time)
                clock.presentQueued()
                handedOver.signal()
            }
        }
        threads.wait()
        clock.stop()
        let seen = times.all
        XCTAssertEqual(seen.count, 50)
        XCTAssertTrue(zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 }, "\(seen)")
        XCTAssertEqual(clock.presentedFrames.count, 50)
        XCTAssertNil(clock.waitForNextFrame(), "a stopped clock stays stopped")
    }

    // MARK: - Traces and statistics

    /// `TraceRecorder`: one recorder serves several hosts' committing threads and render threads; records
    /// are appended behind its lock, so every one is counted.
    func testTraceRecorderCountsEveryRecordFromManyThreads() {
        let recorder = TraceRecorder(destination: nil, frameCapacity: 10_000)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<50 {
                if thread % 2 == 0 {
                    recorder.recordCommit(CommitPacket(changes: [], released: [LayerID.next()]))
                } else {
                    let now = StageClock.now()
                    recorder.recordFrame(FrameStatistics(), timeline: FrameTimeline(
                        began: now, produceStarted: now, executeStarted: now, executeEnded: now,
                        thread: .current(named: "render \(thread)")))
                }
                _ = index
            }
        }
        let retained = recorder.retained
        XCTAssertEqual(retained.commits.count, Self.threads / 2 * 50)
        XCTAssertEqual(retained.frames.count, Self.threads / 2 * 50)
        XCTAssertEqual(Set(retained.frames.map(\.number)), Set(0..<(Self.threads / 2 * 50)), "frame numbers unique")
        XCTAssertEqual(retained.commits.map(\.released).reduce(0, +), Self.threads / 2 * 50)
    }

    /// `TraceFiles` (process-wide, behind a lock): hosts asking from their threads for one path share
    /// one recorder; another path gets its own.
    func testTraceFilesGivesEveryThreadTheSameRecorderForOnePath() {
        let files = TraceFiles()
        let first = URL(fileURLWithPath: NSTemporaryDirectory() + "layerkit-sendable-\(UUID().uuidString).json")
        let second = URL(fileURLWithPath: NSTemporaryDirectory() + "layerkit-sendable-\(UUID().uuidString).json")
        let recorders = CollectedValues<ObjectIdentifier>()
        DispatchQueue.concurrentPerform(iterations: 32) { index in
            recorders.append(ObjectIdentifier(files.recorder(writingTo: index % 2 == 0 ? first : second, frameCapacity: 4)))
        }
        XCTAssertEqual(Set(recorders.all).count, 2, "one recorder per path")
        XCTAssertTrue(files.recorder(writingTo: first, frameCapacity: 4) !== files.recorder(writingTo: second, frameCapacity: 4))
        XCTAssertFalse(FileManager.default.fileExists(atPath: first.path), "nothing written before writeAll")
    }

    /// `StatisticsReporter`: used by the thread that renders; a render thread that hands it to its
    /// successor (joined first) keeps every frame in the count.
    func testStatisticsReporterHandedBetweenRenderThreadsCountsEveryFrame() {
        let lines = CollectedValues<String>()
        let reporter = StatisticsReporter(interval: 1, output: { lines.append($0) })
        let second: UInt64 = 1_000_000_000
        for thread in 0..<4 {
            let renderThread = DispatchGroup()
            DispatchQueue.global().async(group: renderThread) {
                for frame in 0..<10 {
                    // Ten frames a tenth of a second apart on each thread: one line per second.
                    reporter.record(FrameStatistics(), now: UInt64(thread * 10 + frame) * second / 10)
                }
            }
            renderThread.wait()
        }
        // Lines at 1 s (frames at 0 … 1 s: 11), 2 s and 3 s (10 each); the frames after 3 s wait.
        XCTAssertEqual(lines.all.map { String($0.prefix(19)) }, ["LayerKit · 11.0 fps", "LayerKit · 10.0 fps", "LayerKit · 10.0 fps"])
    }
}
