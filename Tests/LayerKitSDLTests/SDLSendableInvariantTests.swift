import Foundation
import LayerKit
import LayerKitTestSupport
@testable import LayerKitSDL
@testable import LayerKitVulkan
import XCTest

/// The cross-thread types of LayerKitSDL used from several threads exactly as their doc comments allow,
/// with the outcome checked; the window's executor read from other threads while its render
/// thread presents. Run under ThreadSanitizer by `Tools/test --tsan`.
final class SDLSendableInvariantTests: LayerWindowTestCase {
    /// Counts calls from any thread.
    private final class Counter: Sendable {
        private let value = Locked(0)
        func increment() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    private struct TestError: Error, Equatable {
        var thread: Int
    }

    /// `OpenWindows` (process-wide, behind a lock): windows register and deregister from their
    /// threads; the exit hook stops each window still open exactly once, and none that left.
    func testOpenWindowsStopsEachWindowStillOpenOnce() {
        let openWindows = OpenWindows()
        let windows = (0..<64).map { _ in NSObject() }
        let stops = (0..<64).map { _ in Counter() }
        let handedWindows = HandedOver(windows)  // the threads only take the objects' identities
        DispatchQueue.concurrentPerform(iterations: windows.count) { index in
            let stop = stops[index]
            openWindows.register(handedWindows.value[index]) { stop.increment() }
            if index % 2 == 1 { openWindows.deregister(handedWindows.value[index]) }
        }
        openWindows.stopAll()
        openWindows.stopAll()
        XCTAssertEqual(stops.map(\.count), (0..<64).map { $0 % 2 == 0 ? 1 : 0 })
    }

    /// `RenderErrorSlot` (a lock): render threads record, the loop takes. The first error recorded is
    /// the one taken; an error is taken once.
    func testRenderErrorSlotHandsTheFirstErrorOverOnce() {
        let slot = RenderErrorSlot()
        for thread in 0..<2 {
            let renderThread = DispatchGroup()
            DispatchQueue.global().async(group: renderThread) { slot.record(TestError(thread: thread)) }
            renderThread.wait()
        }
        XCTAssertEqual(slot.take() as? TestError, TestError(thread: 0), "the first one recorded")
        XCTAssertNil(slot.take(), "taken once")
        // Recorded by many threads while taken: no error is taken twice.
        let taken = Locked<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 9) { thread in
            if thread == 8 {
                for _ in 0..<100 { if let error = slot.take() as? TestError { taken.withLock { $0.append(error.thread) } } }
            } else {
                slot.record(TestError(thread: thread))
            }
        }
        if let error = slot.take() as? TestError { taken.withLock { $0.append(error.thread) } }
        let all = taken.withLock { $0 }
        XCTAssertFalse(all.isEmpty)
        XCTAssertEqual(Set(all).count, all.count, "no error taken twice")
    }

    /// `WindowExecutor`: `status` may be read from any thread while the render thread presents; each
    /// reader sees the count of presented frames never go back.
    func testSwapchainStatusReadFromOtherThreadsWhileTheWindowPresents() throws {
        let window = try makeWindow()
        addLayer(CGRect(x: 0, y: 0, width: 20, height: 20), CGColor(red: 1, green: 0, blue: 0, alpha: 1), in: window.rootLayer)
        let executor = window.executor
        let stopped = Counter()
        let backwards = Counter(), reads = Counter()
        let readers = DispatchGroup()
        for _ in 0..<2 {
            DispatchQueue.global().async(group: readers) {
                var last = 0
                while stopped.count == 0 {
                    let presented = executor.status.framesPresented
                    if presented < last { backwards.increment() }
                    last = presented
                    reads.increment()
                }
            }
        }
        try runUntilPresented(window, frames: 5)
        stopped.increment()
        readers.wait()
        XCTAssertEqual(backwards.count, 0)
        XCTAssertGreaterThan(reads.count, 0)
        XCTAssertGreaterThanOrEqual(window.framesPresented, 5)
    }
}
