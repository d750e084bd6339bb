import CVulkan
import Foundation

/// Presents a window's frames on a thread of its own, so the render thread builds the next frame while
/// this one is shown.
///
/// Why: `vkQueuePresentKHR` may block for as long as showing the image takes. On lavapipe under X11 it
/// waits for the frame's rendering and then copies the image to the X server (about 3 ms for 1280×720);
/// with FIFO on other drivers it may wait for the display. On the render thread that time added to every
/// frame's graph build; here it overlaps the next one.
///
/// Contract: the render thread hands over one present at a time (`present(_:then:)`) and calls
/// `waitUntilIdle()` before it touches the queue or the swapchain again (acquire, submit, a swapchain
/// rebuild, waiting for the device): Vulkan requires both to be used by one thread at a time, and the
/// hand-over and the wait order every use. Each present's result goes to its completion, on this
/// thread, before the thread is idle again.
/// Sendable (unchecked): `pending`, `busy`, `stopping` and `exited` are touched only under `condition`;
/// a request's handles are used by this thread only between the hand-over and the end of the present,
/// while the render thread waits before using them again. Checked by `VulkanSendableInvariantTests`.
/// Cost: one thread per window, two lock round trips per frame.
final class PresentThread: @unchecked Sendable {
    /// One present: the queue, the swapchain and image, and the semaphore the present waits on.
    struct Request: @unchecked Sendable {
        var queue: VkQueue
        var swapchain: VkSwapchainKHR
        var imageIndex: UInt32
        var wait: VkSemaphore
    }

    /// Presents a request and returns `vkQueuePresentKHR`'s result (a stand-in in tests).
    typealias Presenting = @Sendable (Request) -> VkResult

    private let condition = NSCondition()
    private let presenting: Presenting
    private var pending: (work: @Sendable () -> VkResult, completion: @Sendable (VkResult) -> Void)?
    private var busy = false
    private var stopping = false
    private var exited = false

    init(name: String, presenting: @escaping Presenting = PresentThread.queuePresent) {
        self.presenting = presenting
        let thread = Thread { [unowned self] in self.run() }
        thread.name = name
        thread.start()
    }

    /// Stops the thread once the present handed over, if any, is done.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !exited { condition.wait() }
        condition.unlock()
    }

    deinit {
        stop()
    }

    /// Hands `request` to the thread; `completion` receives the present's result there. The caller must
    /// have waited for the previous present.
    func present(_ request: Request, then completion: @escaping @Sendable (VkResult) -> Void) {
        let presenting = self.presenting
        perform({ presenting(request) }, then: completion)
    }

    /// Hands `work` (a present of another kind: `HostPresenter`'s) to the thread; `completion` receives
    /// its result there. The caller must have waited for the previous present.
    func perform(_ work: @escaping @Sendable () -> VkResult, then completion: @escaping @Sendable (VkResult) -> Void) {
        condition.lock()
        precondition(!busy, "a present is handed over before the previous one was waited for")
        precondition(!stopping, "a present is handed over after stop()")
        pending = (work, completion)
        busy = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the present handed over last, if any, is done and its completion has run.
    func waitUntilIdle() {
        condition.lock()
        while busy { condition.wait() }
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while pending == nil && !stopping { condition.wait() }
            guard let (work, completion) = pending else {
                exited = true
                condition.broadcast()
                condition.unlock()
                return
            }
            pending = nil
            condition.unlock()
            completion(work())
            condition.lock()
            busy = false
            condition.broadcast()
            condition.unlock()
        }
    }

    /// `vkQueuePresentKHR` of one image, waiting on one semaphore.
    static let queuePresent: Presenting = { request in
        var wait: VkSemaphore? = request.wait
        var swapchain: VkSwapchainKHR? = request.swapchain
        var index = request.imageIndex
        return withUnsafePointer(to: &wait) { waitPointer in
            withUnsafePointer(to: &swapchain) { swapchainPointer in
                withUnsafePointer(to: &index) { indexPointer in
                    var info = VkPresentInfoKHR()
                    info.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR
                    info.waitSemaphoreCount = 1
                    info.pWaitSemaphores = waitPointer
                    info.swapchainCount = 1
                    info.pSwapchains = swapchainPointer
                    info.pImageIndices = indexPointer
                    return vkQueuePresentKHR(request.queue, &info)
                }
            }
        }
    }
}
