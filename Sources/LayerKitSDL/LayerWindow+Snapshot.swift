import Foundation
import LayerKitVulkan

// Reading the window's pixels back: for tests, and for looking at what a program draws without a
// screen grabber. Input: the committed layer tree. Output: a `CGImage` copied from a presented swapchain
// image by the render thread. Cost: two frames and one drawable-sized copy per call.

extension LayerWindow {
    /// The window's pixels showing everything committed so far: commits the implicit transaction, then
    /// waits (up to `timeout` seconds) for the render thread to present a frame that includes it, and
    /// returns a copy of that frame — drawable size, premultiplied RGBA8, opaque as the window shows it
    /// (transparent areas are black). The event loop does not run meanwhile; the render thread does.
    ///
    /// Two captures are taken in a row: the first frame to start after the request may have been built
    /// from commits taken before this call, but the frame after it cannot have been.
    ///
    /// - Throws: `LayerWindowError.snapshotUnavailable` when no frame is presented in time (the window is
    ///   minimized) or the swapchain's images cannot be copied; the render thread's error when it failed.
    public func snapshot(timeout: TimeInterval = 5) throws -> CGImage {
        assertOwnerThread()
        commitTree()
        var image: CGImage?
        var captured = 0, recoveries = 0
        // Two captures (the second frame starts after this call), again after a device loss recovered.
        while captured < 2 {
            let losses = deviceLossesRecovered
            let ticket = executor.requestCapture()
            server.setNeedsFrame()
            image = executor.waitForCapture(ticket, timeout: timeout)
            try checkRenderError()
            if deviceLossesRecovered != losses {
                recoveries += 1
                guard recoveries < 3 else { throw LayerWindowError.snapshotUnavailable("the device was lost again and again") }
                captured = 0
                continue
            }
            captured += 1
            guard image != nil else {
                guard executor.status.supportsCapture else {
                    throw LayerWindowError.snapshotUnavailable("the window's swapchain images cannot be copied (no TRANSFER_SRC usage)")
                }
                throw LayerWindowError.snapshotUnavailable(
                    "no frame was presented within \(timeout) s\(isMinimized ? " (the window is minimized)" : "")")
            }
        }
        return image!
    }
}
