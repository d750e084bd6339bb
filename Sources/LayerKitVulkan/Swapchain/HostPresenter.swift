import CVulkan

/// Shows frames whose pixels are in host memory: a window host's way around a swapchain where the device
/// renders on the CPU anyway (`WindowExecutor(hostPresenter:)`).
///
/// Why: lavapipe's swapchain under an X server without DRI3 (Xvfb, remote displays) sends every frame
/// through the X connection's socket (`xcb_put_image`, 3.7 MB for 1280×720) inside `vkQueuePresentKHR`,
/// which holds the only queue meanwhile: the next frame cannot start rendering until the copy is done.
/// A host presenter gets the frame's pixels after the GPU wrote them into host memory (where it drew
/// them, a linear image, or a host buffer they were copied into) and shows them
/// (MIT-SHM on X11: `X11SharedMemoryPresenter`) on the present thread, while the queue renders the next
/// frame.
/// Contract: `present` is called on the executor's present thread, one frame at a time, with pixels valid
/// for the call only: `VK_FORMAT_B8G8R8A8_UNORM` bytes (premultiplied, shown opaque), top row first,
/// `bytesPerRow` apart. It returns whether the frame was shown (false: the window cannot show it now,
/// counted as skipped).
package protocol HostPresenter: AnyObject, Sendable {
    func present(pixels: UnsafeRawPointer, width: Int, height: Int, bytesPerRow: Int) -> Bool
}
