import CSDL2
import Foundation
@testable import LayerKitSDL
@testable import LayerKitVulkan
import XCTest

/// Base class of the window tests: windows with the Khronos validation layer on, a tearDown that closes
/// them and fails the test on any validation message (including those reported while the swapchain,
/// surface and device are destroyed), and a skip — not a failure — when no display can be opened.
/// CI runs these under Xvfb (`xvfb-run -a -s "-screen 0 1280x720x24" swift test`), where they run.
///
/// Windows run their loop and render thread at 120 Hz unless a test asks otherwise, so waiting for
/// frames is quick; Xvfb's displays are 1 point per pixel.
class LayerWindowTestCase: XCTestCase {
    private var windows: [LayerWindow] = []

    override func tearDownWithError() throws {
        let logs = windows.map { $0.context.instance.log }
        let closed = windows.map { Weak($0) }
        windows.removeAll()  // the last references: windows close here
        XCTAssertTrue(closed.allSatisfy { $0.object == nil }, "a window outlived its test (a callback capturing it strongly?)")
        for log in logs {
            XCTAssertEqual(log.messages, [], "Vulkan validation reported:\n" + log.messages.joined(separator: "\n"))
        }
        try super.tearDownWithError()
    }

    /// A layer at `frame` filled with `color`, added to `parent`.
    @discardableResult
    func addLayer(_ frame: CGRect, _ color: CGColor?, in parent: CALayer) -> CALayer {
        let layer = CALayer()
        layer.frame = frame
        layer.backgroundColor = color
        parent.addSublayer(layer)
        return layer
    }

    /// How many pixels of `a` and `b` differ by more than one level in a channel (RGB: what a window shows).
    func differingPixels(_ a: CGImage, _ b: CGImage) -> Int {
        var count = 0
        for y in 0..<min(a.height, b.height) {
            for x in 0..<min(a.width, b.width) {
                let p = a.rgb(x, y), q = b.rgb(x, y)
                if max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b))) > 1 { count += 1 }
            }
        }
        return count
    }

    /// The same tree rendered headless (one frame at time 0, validation on and checked): the renderer,
    /// for its statistics, and the frame. `build` fills a root covering the `width`×`height` target.
    func renderHeadless(width: Int = 160, height: Int = 120, _ build: (CALayer) -> Void) throws -> (CARenderer, CGImage) {
        let renderer = try CARenderer(width: width, height: height)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: CGFloat(width), height: CGFloat(height))
        build(root)
        renderer.layer = root
        renderer.beginFrame(atTime: 0)
        renderer.render()
        renderer.endFrame()
        XCTAssertEqual(renderer.validationMessages, [])
        return (renderer, try renderer.snapshot())
    }

    /// A window with validation on; skips the test when there is no display.
    func makeWindow(
        width: Int = 160, height: Int = 120, presentMode: PresentMode? = nil, framesPerSecond: Double = 120,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> LayerWindow {
        let window: LayerWindow
        do {
            window = try LayerWindow(
                title: name, width: width, height: height,
                options: .init(framesPerSecond: framesPerSecond, presentMode: presentMode, validation: true, environment: environment))
        } catch let error as LayerWindowError {
            if case .noDisplay = error { throw XCTSkip("no display (run under xvfb-run): \(error)") }
            throw error
        }
        windows.append(window)
        return window
    }

    /// Runs the window's loop until `condition` holds, one iteration at a time; fails after `timeout`.
    func runUntil(
        _ window: LayerWindow, timeout: TimeInterval = 10, _ what: String, file: StaticString = #filePath, line: UInt = #line,
        _ condition: () -> Bool
    ) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition() {
            guard Date() < deadline else {
                XCTFail("timed out after \(timeout) s waiting for \(what)", file: file, line: line)
                return
            }
            try window.run(frames: 1)
        }
    }

    /// Runs the loop until the render thread has presented `frames` frames that started after this call
    /// (each one requested, so an idle window draws too).
    func runUntilPresented(_ window: LayerWindow, frames: Int = 1, file: StaticString = #filePath, line: UInt = #line) throws {
        // Rounds of "request a frame, wait for one more": a frame counted in the first round may have
        // been drawing already, but one counted in any later round started after the first request.
        for _ in 0...frames {
            let presented = window.executor.status.framesPresented
            window.server.setNeedsFrame()
            try runUntil(window, "a presented frame", file: file, line: line) {
                window.executor.status.framesPresented > presented
            }
        }
    }

    /// Pushes an SDL event for the window's loop to dispatch.
    func push(_ event: SDL_Event) {
        var event = event
        XCTAssertEqual(SDL_PushEvent(&event), 1, "SDL_PushEvent: \(String(cString: SDL_GetError()))")
    }
}

private struct Weak {
    weak var object: LayerWindow?
    init(_ object: LayerWindow) { self.object = object }
}

/// Straight 8-bit RGB of a pixel, as the window shows it (snapshots are opaque).
struct RGB: Equatable, CustomStringConvertible {
    var r, g, b: UInt8
    init(bytes r: UInt8, _ g: UInt8, _ b: UInt8) { (self.r, self.g, self.b) = (r, g, b) }

    /// The 8-bit encoding of a color's components (round to nearest), as the compositor writes them.
    init(_ red: Double, _ green: Double, _ blue: Double) {
        func byte(_ value: Double) -> UInt8 { UInt8((min(max(value, 0), 1) * 255).rounded()) }
        self.init(bytes: byte(red), byte(green), byte(blue))
    }

    var description: String { "(\(r), \(g), \(b))" }
}

extension CGImage {
    func rgb(_ x: Int, _ y: Int) -> RGB {
        let pixel = pixel(x: x, y: y)
        return RGB(bytes: pixel.r, pixel.g, pixel.b)
    }

    /// The smallest x in row `y` whose pixel is `color`, if any.
    func firstColumn(of color: RGB, inRow y: Int) -> Int? {
        (0..<width).first { rgb($0, y) == color }
    }
}
