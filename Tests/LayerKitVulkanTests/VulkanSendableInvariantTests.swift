import CVulkan
import Foundation
import LayerKit
import LayerKitTestSupport
import Logging
@testable import LayerKitVulkan
import XCTest

/// Each `@unchecked Sendable` type of LayerKitVulkan used from several threads exactly as the invariant
/// in its doc comment allows, with the outcome checked. Threads meet only at group joins and
/// `concurrentPerform`, so every expectation is fixed in advance. Run under ThreadSanitizer by
/// `Tools/test --tsan`, which reports any access that the stated lock or hand-over does not cover.
final class VulkanSendableInvariantTests: CARendererTestCase {
    /// `CARenderer`, its `HeadlessRenderer` and `VulkanContext`: used from one thread at a time, they
    /// may move between threads (each use here is joined before the next thread starts, the ordering
    /// `ExclusiveAccess` checks). Each thread that drives the renderer changes the layer in its own
    /// explicit transaction and reads back exactly its own colour.
    func testARendererHandedFromThreadToThreadDrawsEachThreadsCommit() throws {
        let root = makeRoot(width: 4, height: 4)
        let square = makeLayer(CGRect(x: 0, y: 0, width: 4, height: 4), .testRed, in: root)
        let renderer = try makeRenderer(width: 4, height: 4)
        renderer.layer = root
        CATransaction.flush()
        let owned = HandedOver((renderer: renderer, square: square))
        let pixels = CollectedValues<[UInt8]>()
        let colors: [(CGFloat, CGFloat, CGFloat)] = [(0, 1, 0), (0, 0, 1), (1, 1, 0), (1, 0, 1)]
        for (index, color) in colors.enumerated() {
            let driver = DispatchGroup()
            DispatchQueue.global().async(group: driver) {
                CATransaction.begin()
                CATransaction.setDisableActions(true)
                owned.value.square.backgroundColor = CGColor(red: color.0, green: color.1, blue: color.2, alpha: 1)
                CATransaction.commit()
                let renderer = owned.value.renderer
                renderer.beginFrame(atTime: Double(index))
                renderer.render()
                renderer.endFrame()
                let image = try? renderer.snapshot()
                pixels.append(image.map { Array($0.pixelData[0..<4]) } ?? [])
            }
            driver.wait()
        }
        XCTAssertEqual(pixels.all, colors.map { [UInt8($0.0 * 255), UInt8($0.1 * 255), UInt8($0.2 * 255), 255] })
        // And back on the thread that made it.
        withoutAnimation { square.backgroundColor = .testRed }
        let image = try renderFrame(renderer, atTime: 10)
        XCTAssertEqual(Array(image.pixelData[0..<4]), [255, 0, 0, 255])
    }

    /// `ValidationLog` (checked `Sendable`): the validation layer calls back on whatever thread it likes;
    /// the list is behind the log's lock, so every failure is kept, and `removeAll()` from the test's
    /// thread leaves none.
    func testValidationLogKeepsEveryMessageReportedFromManyThreads() {
        var logger = Logger(label: "LayerKit.SendableInvariantTests")
        logger.logLevel = .critical
        let log = ValidationLog(logger: logger)
        let threads = 8, perThread = 50
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                log.receive(severity: VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                            types: VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT.rawValue,
                            messageID: "VUID-test-\(thread)", text: "\(index)")
                // An informational message is only logged, never kept.
                log.receive(severity: VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT,
                            types: VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT.rawValue,
                            messageID: "info", text: "\(index)")
            }
        }
        let messages = log.messages
        XCTAssertEqual(messages.count, threads * perThread)
        for thread in 0..<threads {
            let own = messages.filter { $0.hasPrefix("[error] VUID-test-\(thread):") }
            XCTAssertEqual(own, (0..<perThread).map { "[error] VUID-test-\(thread): \($0)" }, "in each thread's order")
        }
        log.removeAll()
        XCTAssertEqual(log.messages, [])
    }

    /// `ExclusiveAccess` (checked `Sendable`): calls from many threads that do not overlap — here
    /// serialized by the caller, as a render thread serializes its frames — all run, none traps.
    func testExclusiveAccessAdmitsNonOverlappingCallsFromAnyThread() {
        let access = ExclusiveAccess(name: "test object")
        let callers = NSLock()
        let runs = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            callers.lock()
            access.run { runs.withLock { $0 += 1 } }
            callers.unlock()
        }
        XCTAssertEqual(runs.withLock { $0 }, 64)
    }
    /// `PresentThread`: presents handed over by one thread run on the present thread, in order, each
    /// completion before the thread is idle again; the handing thread's state written before a hand-over
    /// is seen by the present (and the completion's writes after `waitUntilIdle()`), with no lock of the
    /// test's own around either. `stop()` finishes a present still pending.
    func testPresentThreadRunsEachHandedOverPresentInOrderAndHandsItsResultBack() {
        let presented = CollectedValues<UInt32>()
        let thread = PresentThread(name: "test present") { request in
            presented.append(request.imageIndex)
            return request.imageIndex % 3 == 0 ? VK_SUBOPTIMAL_KHR : VK_SUCCESS
        }
        let handle = OpaquePointer(bitPattern: 0x1000)!
        final class Box: @unchecked Sendable { var results: [VkResult] = [] }  // touched by one side at a time
        let box = Box()
        for index in UInt32(0)..<200 {
            thread.waitUntilIdle()
            box.results.append(VK_NOT_READY)  // the render thread's write, before the hand-over
            thread.present(PresentThread.Request(queue: handle, swapchain: handle, imageIndex: index, wait: handle)) { result in
                box.results[box.results.count - 1] = result  // the present thread's, before idle
            }
        }
        thread.waitUntilIdle()
        thread.present(PresentThread.Request(queue: handle, swapchain: handle, imageIndex: 200, wait: handle)) { _ in }
        thread.stop()
        XCTAssertEqual(presented.all, Array(0...200))
        XCTAssertEqual(box.results.count, 200)
        XCTAssertEqual(box.results.filter { $0 == VK_SUBOPTIMAL_KHR }.count, 67, "indices 0, 3, …, 198")
        XCTAssertFalse(box.results.contains(VK_NOT_READY), "every completion ran")
    }
}
