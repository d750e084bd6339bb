// Showing the game's frame in a window: a FIFO swapchain on the window's surface, each frame's image
// (the tiles and the HUD over them) copied into the acquired swapchain image at the end of the game's
// command buffer, then presented. Still the game's own Vulkan: LayerKit only drew into the frame image.
import CVulkan

extension TileMapGame {
    /// The window's swapchain and the semaphores that order acquiring, drawing and presenting.
    final class Presenter {
        /// An acquired swapchain image: its index, the semaphore the acquire signals (the frame's submission
        /// waits on it) and the one the submission signals (the present waits on it).
        struct Shown {
            let index: UInt32
            let acquired: VkSemaphore
            let drawn: VkSemaphore
        }

        private let device: VkDevice
        private let swapchain: VkSwapchainKHR
        private let images: [VkImage?]
        private let extent: VkExtent2D
        private let acquired: VkSemaphore
        /// One per swapchain image: an image acquired again has finished its last present.
        private let drawn: [VkSemaphore]
        private(set) var framesPresented = 0

        init(game: TileMapGame, surface: VkSurfaceKHR, window: GameWindow) throws {
            device = game.device
            var capabilities = VkSurfaceCapabilitiesKHR()
            try check(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(game.physicalDevice, surface, &capabilities), "vkGetPhysicalDeviceSurfaceCapabilitiesKHR")
            var formatCount: UInt32 = 0
            try check(vkGetPhysicalDeviceSurfaceFormatsKHR(game.physicalDevice, surface, &formatCount, nil), "vkGetPhysicalDeviceSurfaceFormatsKHR")
            var formats = [VkSurfaceFormatKHR](repeating: VkSurfaceFormatKHR(), count: Int(formatCount))
            try check(vkGetPhysicalDeviceSurfaceFormatsKHR(game.physicalDevice, surface, &formatCount, &formats), "vkGetPhysicalDeviceSurfaceFormatsKHR")
            let format = formats.first { $0.format == VK_FORMAT_B8G8R8A8_UNORM || $0.format == VK_FORMAT_R8G8B8A8_UNORM } ?? formats[0]
            extent = capabilities.currentExtent.width == UInt32.max
                ? VkExtent2D(width: UInt32(game.width), height: UInt32(game.height)) : capabilities.currentExtent

            var info = VkSwapchainCreateInfoKHR()
            info.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR
            info.surface = surface
            info.minImageCount = max(capabilities.minImageCount, min(3, capabilities.maxImageCount == 0 ? 3 : capabilities.maxImageCount))
            info.imageFormat = format.format
            info.imageColorSpace = format.colorSpace
            info.imageExtent = extent
            info.imageArrayLayers = 1
            info.imageUsage = VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue
            info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE
            info.preTransform = capabilities.currentTransform
            info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR
            info.presentMode = VK_PRESENT_MODE_FIFO_KHR  // paced by the display; every driver has it
            info.clipped = VkBool32(VK_TRUE)
            var created: VkSwapchainKHR?
            try check(vkCreateSwapchainKHR(device, &info, nil, &created), "vkCreateSwapchainKHR")
            swapchain = created!
            var imageCount: UInt32 = 0
            try check(vkGetSwapchainImagesKHR(device, swapchain, &imageCount, nil), "vkGetSwapchainImagesKHR")
            var images = [VkImage?](repeating: nil, count: Int(imageCount))
            try check(vkGetSwapchainImagesKHR(device, swapchain, &imageCount, &images), "vkGetSwapchainImagesKHR")
            self.images = images

            let device = game.device!
            func semaphore() throws -> VkSemaphore {
                var semaphoreInfo = VkSemaphoreCreateInfo()
                semaphoreInfo.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO
                var made: VkSemaphore?
                try check(vkCreateSemaphore(device, &semaphoreInfo, nil, &made), "vkCreateSemaphore")
                return made!
            }
            acquired = try semaphore()
            drawn = try images.map { _ in try semaphore() }
        }

        deinit {
            vkDeviceWaitIdle(device)
            vkDestroySemaphore(device, acquired, nil)
            drawn.forEach { vkDestroySemaphore(device, $0, nil) }
            vkDestroySwapchainKHR(device, swapchain, nil)
        }

        /// Acquires the next swapchain image and records the copy of `frame` (in TRANSFER_SRC_OPTIMAL, where
        /// the HUD left it) into it, leaving it ready to present.
        func recordCopy(from frame: VkImage, width: Int, height: Int, into commandBuffer: VkCommandBuffer) throws -> Shown {
            var index: UInt32 = 0
            try check(vkAcquireNextImageKHR(device, swapchain, UInt64.max, acquired, nil, &index), "vkAcquireNextImageKHR",
                      alsoAccepting: VK_SUBOPTIMAL_KHR)
            let image = images[Int(index)]
            let range = VkImageSubresourceRange(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, baseMipLevel: 0, levelCount: 1,
                                                baseArrayLayer: 0, layerCount: 1)
            var toCopy = VkImageMemoryBarrier()
            toCopy.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER
            toCopy.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT.rawValue
            toCopy.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED
            toCopy.newLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL
            toCopy.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
            toCopy.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
            toCopy.image = image
            toCopy.subresourceRange = range
            vkCmdPipelineBarrier(commandBuffer, VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue, VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue, 0,
                                 0, nil, 0, nil, 1, &toCopy)
            var blit = VkImageBlit()
            let layers = VkImageSubresourceLayers(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, baseArrayLayer: 0, layerCount: 1)
            blit.srcSubresource = layers
            blit.dstSubresource = layers
            blit.srcOffsets = (VkOffset3D(x: 0, y: 0, z: 0), VkOffset3D(x: Int32(width), y: Int32(height), z: 1))
            blit.dstOffsets = (VkOffset3D(x: 0, y: 0, z: 0), VkOffset3D(x: Int32(extent.width), y: Int32(extent.height), z: 1))
            vkCmdBlitImage(commandBuffer, frame, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           1, &blit, VK_FILTER_NEAREST)
            var toPresent = toCopy
            toPresent.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT.rawValue
            toPresent.dstAccessMask = 0
            toPresent.oldLayout = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL
            toPresent.newLayout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR
            vkCmdPipelineBarrier(commandBuffer, VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT.rawValue, 0,
                                 0, nil, 0, nil, 1, &toPresent)
            return Shown(index: index, acquired: acquired, drawn: drawn[Int(index)])
        }

        /// Presents `shown` once its frame's submission has signalled `shown.drawn`.
        func present(_ shown: Shown, on queue: VkQueue) throws {
            var wait: VkSemaphore? = shown.drawn
            var chain: VkSwapchainKHR? = swapchain
            var index = shown.index
            try withUnsafePointer(to: &wait) { waits in
                try withUnsafePointer(to: &chain) { chains in
                    try withUnsafePointer(to: &index) { indices in
                        var info = VkPresentInfoKHR()
                        info.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR
                        info.waitSemaphoreCount = 1
                        info.pWaitSemaphores = waits
                        info.swapchainCount = 1
                        info.pSwapchains = chains
                        info.pImageIndices = indices
                        try check(vkQueuePresentKHR(queue, &info), "vkQueuePresentKHR", alsoAccepting: VK_SUBOPTIMAL_KHR)
                    }
                }
            }
            framesPresented += 1
        }
    }
}
