import CVulkan
import Foundation
import LayerKit
import LayerKitRender
@testable import LayerKitVulkan
import XCTest

/// `backgroundFilters` over an app's image (`CARenderer.VulkanTarget.initialLayout`): the backdrop starts
/// from the app's pixels under the layer, then LayerKit's own draws behind it.
///
/// The "app" is a context of its own with validation (synchronization validation included) on. It fills
/// its 96×64 image by a transfer from a buffer: opaque red left of x = 48, opaque blue from x = 48, and
/// leaves it in `COLOR_ATTACHMENT_OPTIMAL`. The HUD has no draws but a transparent 64×32 panel at (16, 16)
/// whose background filter is `CIGaussianBlur` with inputRadius σ = 3 (Core Image's radius is the standard
/// deviation). Inside the panel a pixel centre at x shows blue in proportion
/// Φ = ½ (1 + erf((x + ½ − 48) / (σ√2))), red in the rest, whatever y: the app's image is uniform along y
/// and the blur's reach (3σ = 9 px) around the panel lies inside the image. Tolerance 3/255 for LayerKit's
/// discrete 19-tap kernel, truncated at 3σ and quantised to 8 bits after each axis, against that continuous
/// convolution. Outside the panel the app's pixels are untouched: exact.
final class AppPixelsBackdropRenderTests: CARendererTestCase {
    static let (width, height, step) = (96, 64, 48)
    static let sigma = 3.0
    static let panel = CGRect(x: 16, y: 16, width: 64, height: 32)

    /// The app's context and image, and a target keeping the image's pixels from `COLOR_ATTACHMENT_OPTIMAL`.
    private func appTarget() throws -> (VulkanContext, GPUImage, CARenderer.VulkanTarget) {
        let app = try VulkanContext(applicationName: "a game", validation: true, pipelineCache: .none)
        let usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_DST_BIT.rawValue
        let image = try GPUImage(device: app.device, allocator: app.allocator, width: Self.width, height: Self.height, usage: usage,
                                 name: "the game's frame")
        var target = CARenderer.VulkanTarget(
            instance: app.instance.handle, physicalDevice: app.device.physicalDevice, device: app.device.handle,
            queueFamilyIndex: app.device.queueFamily, image: image.handle, imageView: image.view, format: VK_FORMAT_R8G8B8A8_UNORM.rawValue,
            width: Self.width, height: Self.height, finalLayout: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL.rawValue,
            initialLayout: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL.rawValue)
        target.imageUsage = usage
        return (app, image, target)
    }

    /// The HUD: nothing but the transparent, blurring panel.
    private func hud() -> CALayer {
        let root = makeRoot(width: CGFloat(Self.width), height: CGFloat(Self.height))
        let panel = makeLayer(Self.panel, nil, in: root)
        panel.backgroundFilters = [CIFilter(name: "CIGaussianBlur", parameters: ["inputRadius": Self.sigma])!]
        return root
    }

    /// The app's buffer, command pool and one command buffer, begun.
    private final class AppCommands {
        let device: VkDevice
        var pool: VkCommandPool?
        var buffer: VkCommandBuffer?
        let pattern: GPUBuffer

        init(_ app: VulkanContext) throws {
            device = app.device.handle
            var poolInfo = VkCommandPoolCreateInfo()
            poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
            poolInfo.queueFamilyIndex = app.device.queueFamily
            XCTAssertEqual(vkCreateCommandPool(device, &poolInfo, nil, &pool), VK_SUCCESS)
            buffer = try allocateAppCommandBuffer(device, pool: pool, "app")
            var begin = VkCommandBufferBeginInfo()
            begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
            XCTAssertEqual(vkBeginCommandBuffer(buffer, &begin), VK_SUCCESS)
            // Red left of the step, blue from it: RGBA8 rows, top first.
            let bytes = (0..<AppPixelsBackdropRenderTests.height).flatMap { _ in
                (0..<AppPixelsBackdropRenderTests.width).flatMap { x in x < AppPixelsBackdropRenderTests.step ? [255, 0, 0, 255] : [0, 0, 255, 255] as [UInt8] }
            }
            pattern = try GPUBuffer(device: app.device, allocator: app.allocator, size: UInt64(bytes.count),
                                    usage: VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue, location: .upload, name: "the game's pattern")
            bytes.withUnsafeBytes { pattern.mapped!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        }

        deinit { vkDestroyCommandPool(device, pool, nil) }

        /// The game's drawing: its image filled from the pattern by a transfer, then made a colour attachment.
        func fill(_ image: VkImage) {
            let range = VkImageSubresourceRange(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, baseMipLevel: 0, levelCount: 1,
                                                baseArrayLayer: 0, layerCount: 1)
            Barriers.image(buffer!, image, range: range, from: VK_IMAGE_LAYOUT_UNDEFINED, to: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
                           source: (VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, Access.none), destination: (VK_PIPELINE_STAGE_TRANSFER_BIT, Access.transferWrite))
            var region = VkBufferImageCopy()
            region.imageSubresource = VkImageSubresourceLayers(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, baseArrayLayer: 0, layerCount: 1)
            region.imageExtent = VkExtent3D(width: UInt32(AppPixelsBackdropRenderTests.width), height: UInt32(AppPixelsBackdropRenderTests.height), depth: 1)
            vkCmdCopyBufferToImage(buffer, pattern.handle, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region)
            Barriers.image(buffer!, image, range: range, from: VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, to: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL,
                           source: (VK_PIPELINE_STAGE_TRANSFER_BIT, Access.transferWrite),
                           destination: (VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, Access.colorRead | Access.colorWrite))
        }

        /// Ends the buffer and submits it to `queue`, waiting until it is done.
        func submit(to queue: VkQueue) {
            XCTAssertEqual(vkEndCommandBuffer(buffer), VK_SUCCESS)
            withUnsafePointer(to: &buffer) { buffers in
                var submit = VkSubmitInfo()
                submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO
                submit.commandBufferCount = 1
                submit.pCommandBuffers = buffers
                XCTAssertEqual(vkQueueSubmit(queue, 1, &submit, nil), VK_SUCCESS)
            }
            XCTAssertEqual(vkQueueWaitIdle(queue), VK_SUCCESS)
        }
    }

    /// The frame's pixels against the analytic blur inside the panel and the app's pattern outside it.
    private func assertBlurredStep(_ frame: CGImage, _ name: String) {
        func sharp(_ x: Int) -> PixelRGBA { x < Self.step ? PixelRGBA(255, 0, 0, 255) : PixelRGBA(0, 0, 255, 255) }
        let inside = { (x: Int, y: Int) in Self.panel.contains(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)) }
        assertPixels(frame, "\(name)-outside") { x, y in inside(x, y) ? nil : sharp(x) }
        assertPixels(frame, "\(name)-inside", tolerance: 3) { x, y in
            guard inside(x, y) else { return nil }
            let blue = 0.5 * (1 + erf((Double(x) + 0.5 - Double(Self.step)) / (Self.sigma * 2.0.squareRoot())))
            return PixelRGBA(premultiplied: 1 - blue, 0, blue, 1)
        }
        // The probes the expectation hinges on, spelled out: Φ at (x + ½ − 48) / 3 for x = 43, 45, 47, 48, 50
        // is Φ(−1.5) = 0.0668, Φ(−0.833) = 0.2023, Φ(−0.167) = 0.4338, Φ(0.167) = 0.5662, Φ(0.833) = 0.7977.
        assertPixels(frame, "\(name)-across-the-step", tolerance: 3, probes: [
            Probe("4.5 px left of the step", 43, 32, PixelRGBA(premultiplied: 1 - 0.0668, 0, 0.0668, 1)),
            Probe("2.5 px left of the step", 45, 32, PixelRGBA(premultiplied: 1 - 0.2023, 0, 0.2023, 1)),
            Probe("0.5 px left of the step", 47, 32, PixelRGBA(premultiplied: 1 - 0.4338, 0, 0.4338, 1)),
            Probe("0.5 px right of the step", 48, 32, PixelRGBA(premultiplied: 1 - 0.5662, 0, 0.5662, 1)),
            Probe("2.5 px right of the step", 50, 32, PixelRGBA(premultiplied: 1 - 0.7977, 0, 0.7977, 1)),
            Probe("beside the panel: the app's red", 15, 32, PixelRGBA(255, 0, 0, 255)),
            Probe("below the panel: the app's blue", 50, 48, PixelRGBA(0, 0, 255, 255)),
        ])
    }

    func testABackgroundBlurOverTheAppsImageBlursTheAppsPixels() throws {
        let (app, image, target) = try appTarget()
        let commands = try AppCommands(app)
        commands.fill(image.handle)
        commands.submit(to: app.device.queue)  // the game's frame, submitted earlier on the same queue

        let renderer = try CARenderer(vulkanTarget: target)
        renderer.readsBack = true
        renderer.layer = hud()
        let frame = try renderFrame(renderer)
        assertBlurredStep(frame, "app-image-render")
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.backgroundFilter, .backgroundFilter, .backgroundFilter],
                       "the backdrop, its blur along x and along y; the copy of the app's pixels is no pass")
        // One copy of the app's pixels: at least the panel's footprint grown by the blur's reach (3σ = 9 px on
        // every side: (7, 7)–(89, 57); the footprint's float bounds may round a pixel wider), within the target.
        let copies = renderer.lastGraph?.targetPixelCopies ?? []
        XCTAssertEqual(copies.count, 1)
        if let region = copies.first?.region {
            XCTAssertEqual(region.intersection(PixelRect(minX: 7, minY: 7, maxX: 89, maxY: 57)), PixelRect(minX: 7, minY: 7, maxX: 89, maxY: 57), "\(region)")
            XCTAssertEqual(region.intersection(PixelRect(minX: 0, minY: 0, maxX: Self.width, maxY: Self.height)), region, "\(region)")
        }
        XCTAssertEqual(app.validationMessages, [])
        withExtendedLifetime(image) {}
    }

    func testABackgroundBlurRecordedIntoTheAppsCommandBufferBlursTheAppsPixels() throws {
        let (app, image, target) = try appTarget()
        let renderer = try CARenderer(vulkanTarget: target)
        renderer.readsBack = true
        renderer.layer = hud()
        // The game's drawing and the HUD in one command buffer, the app's, in that order.
        let commands = try AppCommands(app)
        commands.fill(image.handle)
        renderer.beginFrame(atTime: 0)
        try renderer.render(recordingInto: commands.buffer!)
        renderer.endFrame()
        commands.submit(to: app.device.queue)
        assertBlurredStep(try renderer.snapshot(), "app-image-recorded")
        XCTAssertEqual(app.validationMessages, [])
        withExtendedLifetime(image) {}
    }

    func testAnImageTargetDeclaredWithoutTransferSourceUsageIsRefused() throws {
        let (app, image, target) = try appTarget()
        var declared = target
        declared.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_SAMPLED_BIT.rawValue
        XCTAssertThrowsError(try CARenderer(vulkanTarget: declared)) { error in
            XCTAssertTrue("\(error)".contains("TRANSFER_SRC"), "\(error)")
        }
        withExtendedLifetime((app, image)) {}
    }
}
