import CSDL2
import Foundation
@testable import LayerKitSDL
@testable import LayerKitVulkan
import XCTest

final class LayerWindowTests: LayerWindowTestCase {
    func testWithoutADisplayVariableInitThrowsNoDisplay() {
        var environment = ProcessInfo.processInfo.environment
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"] { environment[name] = nil }
        XCTAssertThrowsError(try LayerWindow(title: "headless", width: 64, height: 64, options: .init(environment: environment))) { error in
            guard case let LayerWindowError.noDisplay(message)? = error as? LayerWindowError else {
                return XCTFail("expected LayerWindowError.noDisplay, got \(error)")
            }
            XCTAssertTrue(message.contains("DISPLAY"), "the message says why: \(message)")
        }
    }

    func testANonPositiveSizeIsRefused() {
        XCTAssertThrowsError(try LayerWindow(title: "empty", width: 0, height: 10)) { error in
            guard case LayerWindowError.windowCreationFailed? = error as? LayerWindowError else {
                return XCTFail("expected LayerWindowError.windowCreationFailed, got \(error)")
            }
        }
    }

    func testRootLayerFillsTheWindowInPoints() throws {
        let window = try makeWindow(width: 320, height: 200)
        XCTAssertEqual(window.size, CGSize(width: 320, height: 200))
        XCTAssertEqual(window.rootLayer.bounds, CGRect(x: 0, y: 0, width: 320, height: 200))
        XCTAssertEqual(window.rootLayer.position, CGPoint(x: 160, y: 100))
        XCTAssertEqual(window.rootLayer.frame, CGRect(x: 0, y: 0, width: 320, height: 200))
        // contentsScale is drawable pixels per point (1 on Xvfb, 2 on a Retina-style display).
        let pixels = SDLVulkanSurface.drawableSize(of: window.window.handle)
        XCTAssertEqual(window.rootLayer.contentsScale, CGFloat(pixels.width) / 320)
        XCTAssertEqual(window.contentsScale, window.rootLayer.contentsScale)
        try runUntilPresented(window)
        let status = window.executor.status
        XCTAssertEqual(status.width, pixels.width, "the swapchain holds the drawable's pixels")
        XCTAssertEqual(status.height, pixels.height)
        XCTAssertEqual(status.swapchainsCreated, 1)
        XCTAssertEqual(status.presentMode, .fifo, "FIFO by default")
    }

    func testARequestedPresentModeIsUsedWhenTheSurfaceHasIt() throws {
        let window = try makeWindow(presentMode: .immediate)
        try runUntilPresented(window)
        // lavapipe's X11 surfaces offer immediate, mailbox and FIFO.
        XCTAssertEqual(window.executor.status.presentMode, .immediate)
    }

    func testALayersColorsReachTheSwapchainImage() throws {
        let window = try makeWindow(width: 200, height: 150)
        // Unequal red and blue catch a BGRA image read as RGBA; unequal x and y offsets catch swapped axes.
        window.rootLayer.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
        let card = CALayer()
        card.anchorPoint = .zero
        card.bounds = CGRect(x: 0, y: 0, width: 60, height: 30)
        card.position = CGPoint(x: 100, y: 20)
        card.backgroundColor = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        window.rootLayer.addSublayer(card)
        // Half-transparent over the root: premultiplied source-over in gamma-encoded values.
        let veil = CALayer()
        veil.anchorPoint = .zero
        veil.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        veil.position = CGPoint(x: 10, y: 100)
        veil.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.5)
        window.rootLayer.addSublayer(veil)
        try window.run(frames: 2)

        let image = try window.snapshot()
        XCTAssertEqual(image.width, 200)
        XCTAssertEqual(image.height, 150)
        let root = RGB(0.2, 0.4, 0.8)
        let orange = RGB(1, 0.5, 0)
        XCTAssertEqual(image.rgb(0, 0), root)
        XCTAssertEqual(image.rgb(199, 149), root)
        // The card covers x 100..<160, y 20..<50.
        XCTAssertEqual(image.rgb(100, 20), orange)
        XCTAssertEqual(image.rgb(159, 49), orange)
        XCTAssertEqual(image.rgb(99, 20), root)
        XCTAssertEqual(image.rgb(160, 49), root)
        XCTAssertEqual(image.rgb(100, 19), root)
        XCTAssertEqual(image.rgb(159, 50), root)
        XCTAssertEqual(image.firstColumn(of: orange, inRow: 35), 100)
        // 0.5 white over the root: c = 0.5 + 0.5 · root (in 8-bit, within rounding).
        let blended = image.rgb(15, 105)
        let expected = RGB(0.5 + 0.5 * 0.2, 0.5 + 0.5 * 0.4, 0.5 + 0.5 * 0.8)
        XCTAssertLessThanOrEqual(abs(Int(blended.r) - Int(expected.r)), 1, "\(blended) vs \(expected)")
        XCTAssertLessThanOrEqual(abs(Int(blended.g) - Int(expected.g)), 1, "\(blended) vs \(expected)")
        XCTAssertLessThanOrEqual(abs(Int(blended.b) - Int(expected.b)), 1, "\(blended) vs \(expected)")

        // A model change made between snapshots is in the next one (without its implicit fade).
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        card.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        CATransaction.commit()
        let changed = try window.snapshot()
        XCTAssertEqual(changed.rgb(120, 30), RGB(0, 1, 0))

        XCTAssertEqual(window.lastFrameStatistics.layerQuads, 3, "root, card and veil backgrounds")
        XCTAssertGreaterThanOrEqual(window.lastFrameStatistics.drawCalls, 1)
    }

    func testOffscreenPassesCompositeIntoTheSwapchainImage() throws {
        let window = try makeWindow(width: 100, height: 60)
        window.rootLayer.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        // Group opacity over overlapping children needs an offscreen pass (DESIGN.md §4): where they
        // overlap, only the top child shows, at half opacity over white.
        let group = CALayer()
        group.frame = CGRect(x: 0, y: 0, width: 100, height: 60)
        group.opacity = 0.5
        let red = CALayer()
        red.frame = CGRect(x: 10, y: 10, width: 40, height: 40)
        red.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let blue = CALayer()
        blue.frame = CGRect(x: 30, y: 10, width: 40, height: 40)
        blue.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        // Rounded children: the depth test cannot resolve the group (their corners are antialiased), so
        // it goes through a surface.
        red.cornerRadius = 4
        blue.cornerRadius = 4
        group.addSublayer(red)
        group.addSublayer(blue)
        window.rootLayer.addSublayer(group)
        let image = try window.snapshot()

        func assertClose(_ actual: RGB, _ expected: RGB, _ what: String, line: UInt = #line) {
            let close = abs(Int(actual.r) - Int(expected.r)) <= 1 && abs(Int(actual.g) - Int(expected.g)) <= 1
                && abs(Int(actual.b) - Int(expected.b)) <= 1
            XCTAssertTrue(close, "\(what): \(actual), expected \(expected)", line: line)
        }
        assertClose(image.rgb(20, 30), RGB(1, 0.5, 0.5), "red alone at half opacity over white")
        assertClose(image.rgb(40, 30), RGB(0.5, 0.5, 1), "the overlap: blue only, at half opacity")
        assertClose(image.rgb(60, 30), RGB(0.5, 0.5, 1), "blue alone")
        XCTAssertEqual(image.rgb(5, 5), RGB(1, 1, 1))
        // Through an offscreen surface: drawn this frame, or (the group staying the same) drawn in an
        // earlier frame and composited from the cache.
        let statistics = window.lastFrameStatistics
        XCTAssertEqual(statistics.offscreenPasses + statistics.rasterizeHits, 1)
    }

    func testTransparentAreasShowBlack() throws {
        let window = try makeWindow(width: 64, height: 48)
        let image = try window.snapshot()
        XCTAssertEqual(image.rgb(0, 0), RGB(0, 0, 0))
        XCTAssertEqual(image.rgb(63, 47), RGB(0, 0, 0))
        XCTAssertEqual(image.pixel(x: 10, y: 10).a, 255, "snapshots are opaque, as the window shows them")
    }

    /// Debug views switch at run time: with nothing else changing, the next frame shows them, and
    /// switching them off again restores the plain frame. The opaque blue root, tinted half-way to green
    /// as opaque content is in the blended view, is (0, ½, ½).
    func testDebugViewsSwitchAtRunTime() throws {
        let window = try makeWindow(width: 64, height: 48)
        window.rootLayer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        XCTAssertEqual(window.debugOptions, [], "LK_DEBUG is not set in tests")
        XCTAssertEqual(try window.snapshot().rgb(10, 10), RGB(0, 0, 1))
        window.debugOptions = .blended
        let tinted = try window.snapshot().rgb(10, 10)
        XCTAssertEqual(tinted.r, 0)
        XCTAssertEqual(Double(tinted.g), 127.5, accuracy: 1)
        XCTAssertEqual(Double(tinted.b), 127.5, accuracy: 1)
        window.debugOptions = []
        XCTAssertEqual(try window.snapshot().rgb(10, 10), RGB(0, 0, 1))
    }
}
