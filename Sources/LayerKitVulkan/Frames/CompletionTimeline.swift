import CVulkan

/// A timeline semaphore that an app's submission signals when it submits a frame LayerKit recorded into
/// the app's command buffer (`CARenderer.frameCompletion`), so that LayerKit learns the frame is done
/// without a submission of its own.
///
/// Why a timeline value and not the app's fence: games wait for their frame fence, reset it, and only
/// then submit with it again; LayerKit, waiting on that fence two frames later, could find it reset and
/// not yet submitted, and wait forever. A timeline value only grows: frame `n` waits for the value `n`,
/// which its submission (or any later one) signals.
///
/// Input: a device with timeline semaphores enabled (`VK_KHR_timeline_semaphore` with its
/// `timelineSemaphore` feature, or Vulkan 1.2). Output: the semaphore, and waits for values on it.
/// Threading: used by the thread that records (the renderer's owner), as the recorder is.
final class CompletionTimeline {
    let semaphore: VkSemaphore
    private let device: VulkanDevice
    private let waitSemaphores: PFN_vkWaitSemaphoresKHR

    /// - Throws: `VulkanError.unsupportedTarget` when the device offers no `vkWaitSemaphoresKHR`; a failed
    ///   semaphore creation.
    init(device: VulkanDevice) throws {
        guard let function = vkGetDeviceProcAddr(device.handle, "vkWaitSemaphoresKHR") ?? vkGetDeviceProcAddr(device.handle, "vkWaitSemaphores")
        else {
            throw VulkanError.unsupportedTarget("the app's device has no timeline semaphores (enable VK_KHR_timeline_semaphore and its timelineSemaphore feature, or Vulkan 1.2's)")
        }
        waitSemaphores = unsafeBitCast(function, to: PFN_vkWaitSemaphoresKHR.self)
        self.device = device
        var type = VkSemaphoreTypeCreateInfo()
        type.sType = VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO
        type.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE
        type.initialValue = 0
        var info = VkSemaphoreCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO
        var semaphore: VkSemaphore?
        try withUnsafePointer(to: &type) { typePointer in
            info.pNext = UnsafeRawPointer(typePointer)
            try check(vkCreateSemaphore(device.handle, &info, nil, &semaphore), "vkCreateSemaphore(frame completion timeline)")
        }
        self.semaphore = semaphore!
        device.labels.name(semaphore, VK_OBJECT_TYPE_SEMAPHORE, "frame completion timeline")
    }

    deinit {
        vkDestroySemaphore(device.handle, semaphore, nil)
    }

    /// Blocks until the semaphore reaches `value`.
    func wait(for value: UInt64) throws {
        var handle: VkSemaphore? = semaphore
        var value = value
        try withUnsafePointer(to: &handle) { semaphores in
            try withUnsafePointer(to: &value) { values in
                var info = VkSemaphoreWaitInfo()
                info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO
                info.semaphoreCount = 1
                info.pSemaphores = semaphores
                info.pValues = values
                try check(waitSemaphores(device.handle, &info, UInt64.max), "vkWaitSemaphores(frame completion timeline)")
            }
        }
    }
}
