import CSDL2
import Foundation
@testable import LayerKitSDL
@testable import LayerKitVulkan
import XCTest

final class LayerWindowResizeTests: LayerWindowTestCase {
    /// Resident set size of this process, in bytes.
    private func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    /// Whether AddressSanitizer is in the process (`Tools/test --asan`): it keeps freed memory in
    /// quarantine, so the resident set grows by what the test frees and says nothing about leaks.
    private var residentSizeMeansLeaks: Bool {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") == nil  // RTLD_DEFAULT
    }

    private func resize(_ window: LayerWindow, to width: Int, _ height: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        SDL_SetWindowSize(window.window.handle, Int32(width), Int32(height))
        try runUntil(window, timeout: 5, "a \(width)x\(height) swapchain", file: file, line: line) {
            let status = window.executor.status
            return window.size == CGSize(width: width, height: height) && status.width == width && status.height == height
        }
    }

    func testTheRootLayerAndTheSwapchainFollowAResize() throws {
        let window = try makeWindow(width: 160, height: 120)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        window.rootLayer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        CATransaction.commit()
        var reported: [CGSize] = []
        window.onResize = { reported.append($0) }
        try runUntilPresented(window)

        try resize(window, to: 240, 90)
        XCTAssertEqual(reported.last, CGSize(width: 240, height: 90))
        XCTAssertEqual(window.rootLayer.bounds, CGRect(x: 0, y: 0, width: 240, height: 90))
        XCTAssertEqual(window.rootLayer.position, CGPoint(x: 120, y: 45))
        XCTAssertNil(window.rootLayer.animationKeys(), "the root is resized without implicit animations")
        let image = try window.snapshot()
        XCTAssertEqual(image.width, 240)
        XCTAssertEqual(image.height, 90)
        // The viewport follows: the root's blue fills the new size up to its last pixel.
        XCTAssertEqual(image.rgb(239, 89), RGB(0, 0, 1))
        XCTAssertEqual(image.rgb(0, 0), RGB(0, 0, 1))
    }

    func testAThousandResizesLeakNothingAndStayValid() throws {
        let window = try makeWindow(width: 160, height: 120, presentMode: .immediate, framesPerSecond: 240)
        window.rootLayer.backgroundColor = CGColor(red: 0.5, green: 0.25, blue: 0, alpha: 1)
        let child = CALayer()
        child.frame = CGRect(x: 10, y: 10, width: 30, height: 30)
        child.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        window.rootLayer.addSublayer(child)
        // Warm up: the first sizes allocate the per-frame buffers and pools for good.
        for (width, height) in [(200, 150), (160, 120)] { try resize(window, to: width, height) }
        let blocksBefore = window.executor.status.memoryBlockCount
        let residentBefore = residentBytes()
        let swapchainsBefore = window.executor.status.swapchainsCreated

        for index in 0..<1000 {
            // Consecutive sizes always differ; they cycle through 35 combinations.
            let width = 120 + (index % 7) * 17
            let height = 90 + (index % 5) * 13
            try resize(window, to: width, height)
            if testRun?.failureCount ?? 0 > 0 { break }
        }

        let status = window.executor.status
        XCTAssertGreaterThanOrEqual(status.swapchainsCreated - swapchainsBefore, 1000, "one swapchain per size")
        XCTAssertEqual(status.memoryBlockCount, blocksBefore, "device memory blocks after 1000 resizes")
        let growth = residentBytes() - residentBefore
        // A leaked swapchain holds ~4 images of ≥ 40 KB each (lavapipe keeps them in host memory); 1000 of
        // them, or their views and framebuffers, would show as hundreds of megabytes. (Under
        // AddressSanitizer only the counts above are checked.)
        if residentSizeMeansLeaks {
            XCTAssertLessThan(growth, 48 << 20, "resident memory grew by \(growth >> 20) MiB over 1000 resizes")
        }
        XCTAssertEqual(window.context.validationMessages, [])
    }

    func testMinimizeAndRestoreKeepRendering() throws {
        let window = try makeWindow(width: 120, height: 90)
        window.rootLayer.backgroundColor = CGColor(red: 1, green: 0, blue: 1, alpha: 1)
        try runUntilPresented(window)
        SDL_MinimizeWindow(window.window.handle)
        try window.run(frames: 10)
        SDL_RestoreWindow(window.window.handle)
        try window.run(frames: 10)
        try runUntilPresented(window)
        XCTAssertEqual(try window.snapshot().rgb(60, 45), RGB(1, 0, 1))
    }

    func testAMinimizedWindowSkipsFramesUntilRestored() throws {
        let window = try makeWindow(width: 120, height: 90)
        let box = CALayer()
        box.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        box.backgroundColor = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
        window.rootLayer.addSublayer(box)
        let spin = CABasicAnimation(keyPath: "position.x")
        spin.fromValue = 5
        spin.toValue = 115
        spin.duration = 30
        box.add(spin, forKey: "spin")
        try runUntilPresented(window)

        // What a window manager sends when the window is iconified (Xvfb has none to send it).
        var minimized = SDL_Event()
        minimized.window.type = SDL_WINDOWEVENT.rawValue
        minimized.window.windowID = window.windowID
        minimized.window.event = UInt8(SDL_WINDOWEVENT_MINIMIZED.rawValue)
        push(minimized)
        try window.run(frames: 1)
        XCTAssertTrue(window.isMinimized)
        let presented = window.executor.status.framesPresented
        let skipped = window.executor.status.framesSkipped
        try window.run(frames: 20)
        // At most one frame that was already being drawn when the event arrived.
        XCTAssertLessThanOrEqual(window.executor.status.framesPresented - presented, 1, "no frames presented while minimized")
        XCTAssertGreaterThan(window.executor.status.framesSkipped, skipped, "frames are skipped, without error")
        XCTAssertThrowsError(try window.snapshot(timeout: 0.5), "no snapshot of a minimized window")

        var restored = minimized
        restored.window.event = UInt8(SDL_WINDOWEVENT_RESTORED.rawValue)
        push(restored)
        try window.run(frames: 1)
        XCTAssertFalse(window.isMinimized)
        try runUntilPresented(window, frames: 3)
        XCTAssertEqual(try window.snapshot().width, 120)
    }

    func testADrawableWithNoPixelsSuspendsPresentingUntilItHasSomeAgain() throws {
        let window = try makeWindow(width: 120, height: 90)
        try runUntilPresented(window)
        // What Wayland and Windows report for a minimized window: a 0×0 drawable.
        let skipped = window.executor.status.framesSkipped
        window.applyWindowSize(points: .zero, pixels: (0, 0))
        window.server.setNeedsFrame()
        // The render thread skips on its own; the loop is not run meanwhile, as a size event from the X
        // server arriving late would give the drawable its real size back before the frame is skipped.
        XCTAssertTrue(window.executor.waitForStatus(timeout: 10) { $0.framesSkipped > skipped }, "a skipped frame")
        XCTAssertEqual(window.rootLayer.bounds.size, CGSize(width: 120, height: 90), "the root keeps its last real size")
        window.updateGeometryFromWindow()
        try runUntilPresented(window)
        XCTAssertEqual(try window.snapshot().width, 120)
    }
}
