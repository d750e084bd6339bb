import CVulkan
import Foundation
import LayerKit
@testable import LayerKitVulkan
import XCTest

/// `CARenderer(vulkanTarget:)`: drawing into an app's image on the app's device. The "app" here is a
/// context of its own, with validation on, standing in for a game's Vulkan setup: its messenger hears
/// every validation message about LayerKit's use of its device.
final class AppVulkanTargetRenderTests: CARendererTestCase {
    private func scene() -> CALayer {
        let root = makeRoot()
        root.backgroundColor = CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1)
        let card = makeLayer(CGRect(x: 6, y: 6, width: 40, height: 30), CGColor(red: 1, green: 0.5, blue: 0, alpha: 1), in: root)
        card.cornerRadius = 6
        card.shadowOpacity = 0.6
        card.shadowRadius = 3
        let picture = CALayer()
        picture.frame = CGRect(x: 20, y: 34, width: 36, height: 24)
        picture.contents = makeImage(width: 12, height: 8) { x, y in PixelRGBA(UInt8(x * 20), UInt8(y * 30), 90, 255) }
        root.addSublayer(picture)
        let veil = makeLayer(CGRect(x: 30, y: 10, width: 30, height: 40), CGColor(red: 0, green: 0, blue: 1, alpha: 0.5), in: root)
        veil.opacity = 0.8
        return root
    }

    /// The app's context, an image of `format` on it, and a target naming them.
    private func appTarget(format: VkFormat) throws -> (VulkanContext, GPUImage, CARenderer.VulkanTarget) {
        let app = try VulkanContext(applicationName: "a game", validation: true, pipelineCache: .none)
        let image = try GPUImage(device: app.device, allocator: app.allocator, width: 64, height: 64, format: format,
                                 usage: VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue
                                     | VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue | VK_IMAGE_USAGE_SAMPLED_BIT.rawValue, name: "the game's HUD image")
        let target = CARenderer.VulkanTarget(
            instance: app.instance.handle, physicalDevice: app.device.physicalDevice, device: app.device.handle,
            queueFamilyIndex: app.device.queueFamily, image: image.handle, imageView: image.view, format: format.rawValue,
            width: 64, height: 64)
        return (app, image, target)
    }

    private func renderInto(_ target: CARenderer.VulkanTarget) throws -> CGImage {
        let renderer = try CARenderer(vulkanTarget: target)
        XCTAssertFalse(renderer.readsBack, "no readback unless asked")
        renderer.readsBack = true
        renderer.layer = scene()
        renderer.beginFrame(atTime: 0)
        renderer.render()
        renderer.endFrame()
        return try renderer.snapshot()
    }

    func testTheAppsImageShowsWhatLayerKitsOwnTargetShows() throws {
        let expected = try render(scene())
        for format in [VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM] {
            var app: VulkanContext? , image: GPUImage?
            let log: ValidationLog
            do {
                let (context, hudImage, target) = try appTarget(format: format)
                (app, image, log) = (context, hudImage, context.instance.log)
                let drawn = try renderInto(target)
                var differing = 0
                for y in 0..<64 {
                    for x in 0..<64 where PixelRGBA(drawn, x, y) != PixelRGBA(expected, x, y) { differing += 1 }
                }
                XCTAssertEqual(differing, 0, "VkFormat \(format.rawValue)")
            }
            // The renderer is gone: the app's device is the app's, still working; then the app tears it
            // down, and validation finds nothing of LayerKit's left on it.
            XCTAssertNoThrow(try app?.device.waitIdle())
            image = nil
            app = nil
            XCTAssertNil(image)
            XCTAssertEqual(log.messages, [], "VkFormat \(format.rawValue)")
        }
    }

    func testAnUnsupportedFormatIsRefusedAndANewTargetIsFollowed() throws {
        let (app, image, target) = try appTarget(format: VK_FORMAT_R8G8B8A8_UNORM)
        var wrong = target
        wrong.format = VK_FORMAT_R16G16B16A16_SFLOAT.rawValue
        XCTAssertThrowsError(try CARenderer(vulkanTarget: wrong))

        // A resized target (the app recreated its swapchain): the next frame draws at the new size.
        let renderer = try CARenderer(vulkanTarget: target)
        renderer.readsBack = true
        let root = makeRoot(width: 32, height: 32)
        makeLayer(CGRect(x: 0, y: 0, width: 16, height: 16), CGColor(red: 1, green: 0, blue: 0, alpha: 1), in: root)
        renderer.layer = root
        let small = try GPUImage(device: app.device, allocator: app.allocator, width: 32, height: 32,
                                 usage: VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue
                                     | VK_IMAGE_USAGE_SAMPLED_BIT.rawValue, name: "smaller")
        var resized = target
        (resized.image, resized.imageView, resized.width, resized.height) = (small.handle, small.view, 32, 32)
        try renderer.setVulkanTarget(resized)
        XCTAssertEqual(renderer.bounds, CGRect(x: 0, y: 0, width: 32, height: 32))
        renderer.beginFrame(atTime: 0)
        renderer.render()
        renderer.endFrame()
        let frame = try renderer.snapshot()
        XCTAssertEqual(frame.width, 32)
        XCTAssertEqual(PixelRGBA(frame, 8, 8), PixelRGBA(255, 0, 0, 255))
        XCTAssertEqual(PixelRGBA(frame, 24, 24), .clear)
        XCTAssertEqual(app.validationMessages, [])
        withExtendedLifetime((image, small)) {}
    }

    func testAHUDDrawsOverWhatTheAppsImageHolds() throws {
        // The "game" fills its image red (here: a first renderer that clears it, signalling a semaphore);
        // the HUD renderer keeps those pixels (initialLayout: where the game left the image) and draws a
        // half-transparent blue square over them: red outside, (0.5, 0, 0.5) inside. Even an opaque
        // full-target layer of the HUD's would draw over the game's pixels, not clear them.
        let (app, image, target) = try appTarget(format: VK_FORMAT_R8G8B8A8_UNORM)
        var info = VkSemaphoreCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO
        var semaphore: VkSemaphore?
        XCTAssertEqual(vkCreateSemaphore(app.device.handle, &info, nil, &semaphore), VK_SUCCESS)
        defer { vkDestroySemaphore(app.device.handle, semaphore, nil) }

        var gameTarget = target
        gameTarget.signalSemaphore = semaphore
        let game = try CARenderer(vulkanTarget: gameTarget)
        let gameRoot = makeRoot()
        gameRoot.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        game.layer = gameRoot

        var hudTarget = target
        hudTarget.waitSemaphore = semaphore
        hudTarget.initialLayout = target.finalLayout
        let hud = try CARenderer(vulkanTarget: hudTarget)
        hud.readsBack = true
        let hudRoot = makeRoot()
        makeLayer(CGRect(x: 16, y: 16, width: 32, height: 32), CGColor(red: 0, green: 0, blue: 1, alpha: 0.5), in: hudRoot)
        hud.layer = hudRoot

        for renderer in [game, hud] {
            renderer.beginFrame(atTime: 0)
            renderer.render()
            renderer.endFrame()
        }
        let frame = try hud.snapshot()
        assertPixels(frame, "hud over the game", tolerance: 1, probes: [
            Probe("the game's pixels", 4, 4, PixelRGBA(255, 0, 0, 255)),
            Probe("the HUD over them", 32, 32, PixelRGBA(premultiplied: 0.5, 0, 0.5, 1)),
        ])

        // An opaque layer over the whole target: drawn, not made the frame's clear (which keeping skips).
        makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), CGColor(red: 0, green: 1, blue: 0, alpha: 1), in: hudRoot)
        for renderer in [game, hud] {
            renderer.beginFrame(atTime: 1)
            renderer.render()
            renderer.endFrame()
        }
        XCTAssertEqual(PixelRGBA(try hud.snapshot(), 4, 4), PixelRGBA(0, 255, 0, 255))
        XCTAssertEqual(app.validationMessages, [])
        withExtendedLifetime(image) {}
    }

    /// Moves `image` between layouts inside `commandBuffer` (whole image, colour).
    private func transition(_ commandBuffer: VkCommandBuffer?, _ image: VkImage, from old: VkImageLayout, to new: VkImageLayout,
                            after source: (VkPipelineStageFlagBits, VkAccessFlagBits?), before destination: (VkPipelineStageFlagBits, UInt32)) {
        var barrier = VkImageMemoryBarrier()
        barrier.sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER
        barrier.srcAccessMask = source.1?.rawValue ?? 0
        barrier.dstAccessMask = destination.1
        barrier.oldLayout = old
        barrier.newLayout = new
        barrier.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
        barrier.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
        barrier.image = image
        barrier.subresourceRange = VkImageSubresourceRange(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, baseMipLevel: 0, levelCount: 1,
                                                           baseArrayLayer: 0, layerCount: 1)
        vkCmdPipelineBarrier(commandBuffer, source.0.rawValue, destination.0.rawValue, 0, 0, nil, 0, nil, 1, &barrier)
    }

    func testTheHUDIsRecordedIntoTheAppsOwnCommandBuffer() throws {
        // One command buffer a frame, the app's: it clears its image (red, then green, then red), makes it a
        // colour attachment, LayerKit records the HUD after that (a half-transparent blue square), and the
        // app submits with its own fence. Three frames: LayerKit's frame slots come round again, each
        // reused only after the app's submission of it finished.
        let (app, image, target) = try appTarget(format: VK_FORMAT_R8G8B8A8_UNORM)
        var hudTarget = target
        hudTarget.initialLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL.rawValue
        let hud = try CARenderer(vulkanTarget: hudTarget)
        hud.readsBack = true
        let root = makeRoot()
        makeLayer(CGRect(x: 16, y: 16, width: 32, height: 32), CGColor(red: 0, green: 0, blue: 1, alpha: 0.5), in: root)
        hud.layer = root

        let device = app.device.handle
        var poolInfo = VkCommandPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
        poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT.rawValue
        poolInfo.queueFamilyIndex = app.device.queueFamily
        var pool: VkCommandPool?
        XCTAssertEqual(vkCreateCommandPool(device, &poolInfo, nil, &pool), VK_SUCCESS)
        defer { vkDestroyCommandPool(device, pool, nil) }
        var commandBuffer = try allocateAppCommandBuffer(device, pool: pool, "app")
        var fenceInfo = VkFenceCreateInfo()
        fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO
        fenceInfo.flags = VK_FENCE_CREATE_SIGNALED_BIT.rawValue
        var fence: VkFence?
        XCTAssertEqual(vkCreateFence(device, &fenceInfo, nil, &fence), VK_SUCCESS)
        defer { vkDestroyFence(device, fence, nil) }

        for frame in 0..<3 {
            XCTAssertEqual(vkWaitForFences(device, 1, &fence, VkBool32(VK_TRUE), UInt64.max), VK_SUCCESS)
            XCTAssertEqual(vkResetFences(device, 1, &fence), VK_SUCCESS)
            XCTAssertEqual(vkResetCommandBuffer(commandBuffer, 0), VK_SUCCESS)
            var begin = VkCommandBufferBeginInfo()
            begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
            XCTAssertEqual(vkBeginCommandBuffer(commandBuffer, &begin), VK_SUCCESS)
            // The game's frame: its image cleared (after the last frame's copy out of it).
            transition(commandBuffer, image.handle, from: VK_IMAGE_LAYOUT_UNDEFINED, to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                       after: (VK_PIPELINE_STAGE_TRANSFER_BIT, nil), before: (VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT.rawValue))
            var color = VkClearColorValue()
            color.float32 = frame == 1 ? (0, 1, 0, 1) : (1, 0, 0, 1)
            var range = VkImageSubresourceRange(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, baseMipLevel: 0, levelCount: 1,
                                                baseArrayLayer: 0, layerCount: 1)
            vkCmdClearColorImage(commandBuffer, image.handle, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &color, 1, &range)
            transition(commandBuffer, image.handle, from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, to: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                       after: (VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT),
                       before: (VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT,
                                VK_ACCESS_COLOR_ATTACHMENT_READ_BIT.rawValue | VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT.rawValue))
            // The HUD, in the same buffer.
            hud.beginFrame(atTime: Double(frame))
            try hud.render(recordingInto: commandBuffer!)
            hud.endFrame()
            XCTAssertEqual(vkEndCommandBuffer(commandBuffer), VK_SUCCESS)
            try withUnsafePointer(to: &commandBuffer) { buffers in
                var submit = VkSubmitInfo()
                submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO
                submit.commandBufferCount = 1
                submit.pCommandBuffers = buffers
                XCTAssertEqual(vkQueueSubmit(app.device.queue, 1, &submit, fence), VK_SUCCESS)
            }
        }
        // Statistics wait for the GPU's results of the last frame: once the app's submission of it is done.
        XCTAssertEqual(hud.lastFrameStatistics.passes, 1, "one render pass of LayerKit's in the app's buffer")
        let frame = try hud.snapshot()
        assertPixels(frame, "hud recorded into the app's buffer", tolerance: 1, probes: [
            Probe("the app's clear", 4, 4, PixelRGBA(255, 0, 0, 255)),
            Probe("the HUD over it", 32, 32, PixelRGBA(premultiplied: 0.5, 0, 0.5, 1)),
        ])
        XCTAssertEqual(app.validationMessages, [])
        XCTAssertThrowsError(try CARenderer(width: 8, height: 8).render(recordingInto: commandBuffer!), "LayerKit's own device: no app buffer")
        XCTAssertEqual(vkWaitForFences(device, 1, &fence, VkBool32(VK_TRUE), UInt64.max), VK_SUCCESS)
    }
}
