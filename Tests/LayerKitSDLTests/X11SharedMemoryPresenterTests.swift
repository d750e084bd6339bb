import CSDL2
import CXCB
import Foundation
import LayerKit
@testable import LayerKitSDL
import XCTest

/// What the X server shows in a window, read back from the server itself (not from LayerKit's own copy
/// of the frame): through shared memory on a CPU device, and through the swapchain when asked.
final class X11SharedMemoryPresenterTests: LayerWindowTestCase {
    /// A 160×120 window: red root, a blue 40×30 layer at (100, 70). On a CPU device under X11 the frames
    /// go through shared memory, and the server's window holds exactly those pixels.
    func testACPUDeviceShowsItsFramesThroughSharedMemory() throws {
        let window = try makeWindow()
        try XCTSkipUnless(Self.isCPUDeviceOnX11(window), "needs a CPU device under X11")
        try drawRedAndBlue(in: window)
        XCTAssertTrue(window.executor.status.presentsFromHostMemory)
        // lavapipe lays color attachments out linearly too: the frames are shown where they were drawn.
        XCTAssertTrue(window.executor.status.presentsWhereDrawn)
        try assertServerShowsRedAndBlue(window)
    }

    /// A window 161 pixels wide, whose rows a linear image may lay out padded apart: the server shows
    /// the same pixels (the presenter packs the rows).
    func testAnOddWidthShowsTheSamePixels() throws {
        let window = try makeWindow(width: 161, height: 121)
        try XCTSkipUnless(Self.isCPUDeviceOnX11(window), "needs a CPU device under X11")
        try drawRedAndBlue(in: window)
        try assertServerShowsRedAndBlue(window)
        let pixels = try XCTUnwrap(Self.serverPixels(of: window, width: 161, height: 121))
        for (x, y) in [(160, 0), (0, 120), (160, 120)] {
            XCTAssertEqual(pixels.bgr(x, y), [0, 0, 255], "(\(x), \(y)), in the last column or row, is the red root")
        }
    }

    /// `LK_PRESENTER=swapchain`: the swapchain presents, and the server shows the same pixels.
    func testTheSwapchainPresentsWhenAskedTo() throws {
        var environment = ProcessInfo.processInfo.environment
        environment[LayerWindow.presenterEnvironmentVariable] = "swapchain"
        let window = try makeWindow(environment: environment)
        try drawRedAndBlue(in: window)
        XCTAssertFalse(window.executor.status.presentsFromHostMemory)
        try XCTSkipUnless(Self.isCPUDeviceOnX11(window), "reads the window back from an X server")
        try assertServerShowsRedAndBlue(window)
    }

    private func drawRedAndBlue(in window: LayerWindow) throws {
        window.rootLayer.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let blue = CALayer()
        blue.frame = CGRect(x: 100, y: 70, width: 40, height: 30)
        blue.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        window.rootLayer.addSublayer(blue)
        try runUntilPresented(window, frames: 2)
        XCTAssertEqual(window.context.validationMessages, [])
    }

    /// Pixel centres inside and outside the blue layer, with a pixel's margin from its edges.
    private func assertServerShowsRedAndBlue(_ window: LayerWindow, file: StaticString = #filePath, line: UInt = #line) throws {
        let pixels = try XCTUnwrap(Self.serverPixels(of: window), "the X server returns the window's image", file: file, line: line)
        let red: [UInt8] = [0, 0, 255], blue: [UInt8] = [255, 0, 0]  // B, G, R
        for (x, y) in [(0, 0), (159, 119), (98, 85), (141, 85), (120, 68), (120, 101)] {
            XCTAssertEqual(pixels.bgr(x, y), red, "(\(x), \(y)) is the red root", file: file, line: line)
        }
        for (x, y) in [(100, 70), (139, 99), (120, 85)] {
            XCTAssertEqual(pixels.bgr(x, y), blue, "(\(x), \(y)) is the blue layer", file: file, line: line)
        }
    }

    private static func isCPUDeviceOnX11(_ window: LayerWindow) -> Bool {
        String(cString: SDL_GetCurrentVideoDriver()) == "x11" && window.renderingOnCPU
    }

    /// The window's pixels as the X server holds them (32-bit Z-pixmap rows), from a connection of the
    /// test's own.
    private static func serverPixels(of window: LayerWindow, width: Int = 160, height: Int = 120) -> (bytes: [UInt8], width: Int, bgr: (Int, Int) -> [UInt8])? {
        var info = SDL_SysWMinfo()
        SDL_GetVersion(&info.version)
        guard SDL_GetWindowWMInfo(window.window.handle, &info) == SDL_TRUE, info.subsystem == SDL_SYSWM_X11,
              let connection = xcb_connect(nil, nil) else { return nil }
        defer { xcb_disconnect(connection) }
        let id = xcb_window_t(truncatingIfNeeded: info.info.x11.window)
        let cookie = xcb_get_image(connection, UInt8(XCB_IMAGE_FORMAT_Z_PIXMAP.rawValue), id, 0, 0, UInt16(width), UInt16(height), UInt32.max)
        guard let reply = xcb_get_image_reply(connection, cookie, nil) else { return nil }
        defer { free(reply) }
        let count = Int(xcb_get_image_data_length(reply))
        guard count == width * height * 4, let data = xcb_get_image_data(reply) else { return nil }
        let bytes = Array(UnsafeBufferPointer(start: data, count: count))
        return (bytes, width, { x, y in Array(bytes[(y * width + x) * 4..<(y * width + x) * 4 + 3]) })
    }
}
