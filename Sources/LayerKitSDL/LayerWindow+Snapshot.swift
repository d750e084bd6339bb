import Foundation
import LayerKitVulkan

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
    ///   minimized, or the render thread failed — its error is rethrown instead when there is one).
    public func snapshot(timeout: TimeInterval = 5) throws -> CGImage {
        assertOwnerThread()
        CATransaction.flush()
        var image: CGImage?
        for _ in 0..<2 {
            let ticket = executor.requestCapture()
            server.setNeedsFrame()
            image = executor.waitForCapture(ticket, timeout: timeout)
            if let error = takeRenderError() { throw error }
            guard image != nil else {
                throw LayerWindowError.snapshotUnavailable(
                    "no frame was presented within \(timeout) s\(isMinimized ? " (the window is minimized)" : "")")
            }
        }
        return image!
    }
}
