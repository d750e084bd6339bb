import CVulkan
import Foundation
import LayerKit
import LayerKitTestSupport
@testable import LayerKitVulkan
import XCTest

/// `CARenderer` drawing inside the app's own render pass (`VulkanTarget.renderPass`): the app begins its
/// pass (clearing its image red, its depth to 0 and its stencil to 7 — values LayerKit must not draw
/// against), draws a green square of its own, LayerKit draws the HUD there (`render(inRenderPassOf:)`,
/// after `prepareRender(recordingInto:)` recorded uploads and offscreen passes before the pass), and the
/// app ends the pass and copies its image out. The app is a context of its own with validation and
/// synchronization validation on: its messenger hears every message about LayerKit's use of its device.
///
/// The HUD (64×64, one point a pixel; the app's red is (1, 0, 0, 1)):
/// - a blue square (0, 0, 1) at alpha 0.5 at (16, 16, 32, 32): 0.5 · blue + 0.5 · red = (0.5, 0, 0.5, 1);
/// - an opaque yellow square at (0, 48, 16, 16), drawn in the opaque early-depth phase where the pass has
///   depth: yellow, which only a depth buffer LayerKit cleared lets through (the app's holds 0, and the
///   test is LESS);
/// - a green square (0, 1, 0) at (40, 4, 16, 16) masked by a layer of alpha 0.5 over its left half (two
///   offscreen passes before the app's: the masked content's surface and the mask's): (0.5, 0.5, 0, 1)
///   on the left, the app's red on the right.
final class AppRenderPassRenderTests: CARendererTestCase {
    private func scene() -> CALayer {
        let root = makeRoot()
        makeLayer(CGRect(x: 16, y: 16, width: 32, height: 32), CGColor(red: 0, green: 0, blue: 1, alpha: 0.5), in: root)
        makeLayer(CGRect(x: 0, y: 48, width: 16, height: 16), CGColor(red: 1, green: 1, blue: 0, alpha: 1), in: root)
        let masked = makeLayer(CGRect(x: 40, y: 4, width: 16, height: 16), CGColor(red: 0, green: 1, blue: 0, alpha: 1), in: root)
        masked.mask = makeLayer(CGRect(x: 0, y: 0, width: 8, height: 16), CGColor(red: 0, green: 0, blue: 0, alpha: 0.5))
        return root
    }

    private let expected: [Probe] = [
        Probe("the app's clear", 60, 60, PixelRGBA(255, 0, 0, 255)),
        Probe("the app's own square", 4, 4, PixelRGBA(0, 255, 0, 255)),
        Probe("half-transparent blue over the app's red", 32, 32, PixelRGBA(premultiplied: 0.5, 0, 0.5, 1)),
        Probe("opaque yellow (early depth where there is depth)", 8, 56, PixelRGBA(255, 255, 0, 255)),
        Probe("masked green, left half at 0.5", 44, 12, PixelRGBA(premultiplied: 0.5, 0.5, 0, 1)),
        Probe("masked green, right half masked out", 52, 12, PixelRGBA(255, 0, 0, 255)),
    ]

    /// Draws frames of `root` in `game`'s pass with a renderer on its device, and returns the last frame
    /// and the renderer's statistics of it.
    /// One frame of `game` with `root` drawn by LayerKit's own render pass over the app's kept image,
    /// recorded into the app's command buffer after the app's pass (`render(recordingInto:)`), and the
    /// renderer that drew it.
    private func drawAfterTheAppsPass(_ game: TestGame, _ root: CALayer) throws -> (CGImage, CARenderer) {
        let own = try CARenderer(vulkanTarget: game.imageTarget())
        own.layer = root
        let image = try game.frame(keepingImageForLayerKit: true) { commandBuffer, stage in
            switch stage {
            case .beforePass: own.beginFrame(atTime: 0)
            case .inPass: break
            case .afterPass:
                try own.render(recordingInto: commandBuffer)
                own.endFrame()
            }
        }
        return (image, own)
    }

    private func drawInside(_ game: TestGame, _ root: CALayer, frames: Int = 1, inSecondaryBuffer: Bool = false) throws
        -> (CGImage, FrameStatistics) {
        let renderer = try CARenderer(vulkanTarget: game.target())
        renderer.layer = root
        var image: CGImage?
        for frame in 0..<frames {
            image = try self.frame(of: renderer, in: game, at: Double(frame), inSecondaryBuffer: inSecondaryBuffer)
        }
        return (image!, renderer.lastFrameStatistics)
    }

    func testTheHUDIsDrawnInsideTheAppsRenderPassWithNoRenderPassOfItsOwn() throws {
        for depthStencil in [true, false] {
            let game = try TestGame(depthStencil: depthStencil)
            // Three frames: LayerKit's frame slots come round again, each after the app's submission of it.
            let (frame, statistics) = try drawInside(game, scene(), frames: 3)
            assertPixels(frame, "inside the app's pass, depth-stencil \(depthStencil)", tolerance: 1, probes: expected)
            XCTAssertEqual(statistics.offscreenReasons, [.mask, .mask], "the masked content's and the mask's surfaces, before the app's pass")
            XCTAssertEqual(statistics.passes, 2, "LayerKit's render passes: the offscreen ones only, none for the frame")
            XCTAssertEqual(game.context.validationMessages, [], "depth-stencil \(depthStencil)")

            // Without offscreen work: no render pass of LayerKit's at all.
            let plain = makeRoot()
            makeLayer(CGRect(x: 16, y: 16, width: 32, height: 32), CGColor(red: 0, green: 0, blue: 1, alpha: 0.5), in: plain)
            let (plainFrame, plainStatistics) = try drawInside(game, plain)
            assertPixels(plainFrame, "no offscreen work", tolerance: 1, probes: [expected[2]])
            XCTAssertEqual(plainStatistics.passes, 0)
            XCTAssertEqual(plainStatistics.drawCalls, 1)
            XCTAssertEqual(game.context.validationMessages, [])
        }
    }

    /// With timeline semaphores on the app's device, the app's own submission tells LayerKit that a
    /// recorded frame is done (it signals `frameCompletion`): over five frames, with LayerKit's two frame
    /// slots coming round twice, and a wait for the last one, LayerKit submits nothing. Without them it
    /// signals each frame's fence with a submission of its own.
    func testWithTimelineSemaphoresLayerKitMakesNoQueueSubmissionOfItsOwn() throws {
        let game = try TestGame(depthStencil: true)
        func draw(timelines: Bool) throws -> (CGImage, CARenderer, [UInt64]) {
            var target = game.target()
            target.timelineSemaphores = timelines
            let renderer = try CARenderer(vulkanTarget: target)
            renderer.layer = scene()
            var image: CGImage?
            var values: [UInt64] = []
            for frame in 0..<5 {
                image = try self.frame(of: renderer, in: game, at: Double(frame)) {
                    game.timelineSignal = renderer.frameCompletion
                    if let completion = renderer.frameCompletion { values.append(completion.value) }
                }
            }
            _ = renderer.lastFrameStatistics  // waits for the last frame
            return (image!, renderer, values)
        }
        let (image, renderer, values) = try draw(timelines: true)
        assertPixels(image, "completed by the app's timeline signal", tolerance: 1, probes: expected)
        XCTAssertEqual(renderer.queueSubmissions, 0)
        XCTAssertEqual(values.count, 5)
        XCTAssertEqual(values, values.sorted(), "the values only grow")
        XCTAssertEqual(Set(values).count, 5)
        XCTAssertEqual(game.context.validationMessages, [])

        let (fenced, fencing, noValues) = try draw(timelines: false)
        assertPixels(fenced, "completed by LayerKit's own fence", tolerance: 1, probes: expected)
        XCTAssertEqual(noValues, [], "no timeline without timelineSemaphores")
        XCTAssertGreaterThanOrEqual(fencing.queueSubmissions, 4, "an empty submission for each frame before the last, and one to wait for it")
        XCTAssertEqual(game.context.validationMessages, [])
    }

    func testInsideTheAppsPassEveryPixelIsWhatLayerKitsOwnPassDrawsOverTheSameFrame() throws {
        // The same app frame, the HUD drawn by LayerKit's own render pass after the app's
        // (`render(recordingInto:)` with `initialLayout`) and inside the app's: every pixel equal.
        let game = try TestGame(depthStencil: true)
        let (inside, _) = try drawInside(game, scene())
        let (after, own) = try drawAfterTheAppsPass(game, scene())
        XCTAssertEqual(own.lastFrameStatistics.passes, 3, "LayerKit's own passes: the two surfaces of the mask, and the frame's")
        assertPixels(after, "LayerKit's own pass", tolerance: 1, probes: expected)
        assertPixels(inside, "inside the app's pass, compared with LayerKit's own") { x, y in PixelRGBA(after, x, y) }
        XCTAssertEqual(game.context.validationMessages, [])
    }

    /// Background filters inside the app's pass cannot see the app's pixels of that pass (LayerKit's
    /// offscreen passes run before it): the backdrop holds LayerKit's draws only — here none, so an
    /// inverting background filter leaves the app's frame as it is — and LayerKit says so once
    /// (`backdropWithoutAppPixels`), not every frame. Drawn in LayerKit's own pass over the app's image after
    /// the app's pass, the same HUD inverts the app's pixels under the panel (0, 0, 32, 32): its green square
    /// (0, 1, 0) becomes (1, 0, 1), its red (1, 0, 0) becomes (0, 1, 1); beyond the panel the red stays.
    func testABackgroundFilterInsideTheAppsPassSeesOnlyLayerKitsDrawsAndSaysSoOnce() throws {
        let game = try TestGame(depthStencil: true)
        func hud() -> CALayer {
            let root = makeRoot()
            let panel = makeLayer(CGRect(x: 0, y: 0, width: 32, height: 32), nil, in: root)
            panel.backgroundFilters = [CIFilter(name: "CIColorInvert")!]
            return root
        }
        let diagnostics = DiagnosticCapture()
        let (inside, _) = try drawInside(game, hud(), frames: 2)
        assertPixels(inside, "a backdrop inside the app's pass", tolerance: 1, probes: [
            Probe("the app's square, not inverted", 4, 4, PixelRGBA(0, 255, 0, 255)),
            Probe("the app's red, not inverted", 20, 20, PixelRGBA(255, 0, 0, 255)),
        ])
        XCTAssertEqual(diagnostics.names.filter { $0 == "backdropWithoutAppPixels" }.count, 1, "\(diagnostics.names)")

        let (after, _) = try drawAfterTheAppsPass(game, hud())
        assertPixels(after, "a backdrop over the app's image", tolerance: 1, probes: [
            Probe("the app's square, inverted", 4, 4, PixelRGBA(255, 0, 255, 255)),
            Probe("the app's red, inverted", 20, 20, PixelRGBA(0, 255, 255, 255)),
            Probe("the app's red beyond the panel", 40, 40, PixelRGBA(255, 0, 0, 255)),
        ])
        XCTAssertEqual(diagnostics.names.filter { $0 == "backdropWithoutAppPixels" }.count, 1, "no more: LayerKit's own pass sees the app's pixels")
        XCTAssertEqual(game.context.validationMessages, [])
    }

    func testAMultisampledPassGetsPipelinesOfItsSampleCount() throws {
        // 4 samples a pixel, resolved by the app's pass into its image: inside each square every sample
        // is covered, so the resolved pixels are the single-sample ones.
        let game = try TestGame(depthStencil: true, samples: VK_SAMPLE_COUNT_4_BIT)
        let (frame, statistics) = try drawInside(game, scene(), frames: 2)
        assertPixels(frame, "inside a 4× multisampled pass", tolerance: 1, probes: expected)
        XCTAssertEqual(statistics.passes, 2)
        XCTAssertEqual(game.context.validationMessages, [])
    }

    func testTheHUDIsDrawnIntoASecondaryCommandBufferTheAppsPassExecutes() throws {
        // The game's pass contents are a secondary buffer inheriting its pass: LayerKit's draws go there
        // (render(inRenderPassOf:) with the secondary), its uploads and offscreen passes into the primary
        // before the pass. The same pixels as inline, with and without depth-stencil, validation clean.
        for depthStencil in [true, false] {
            let game = try TestGame(depthStencil: depthStencil)
            let (image, statistics) = try drawInside(game, scene(), frames: 3, inSecondaryBuffer: true)
            assertPixels(image, "in a secondary buffer, depth-stencil \(depthStencil)", tolerance: 1, probes: expected)
            XCTAssertEqual(statistics.passes, 2, "the mask's two offscreen passes only")
            XCTAssertEqual(game.context.validationMessages, [], "depth-stencil \(depthStencil)")
        }
    }

    func testLayerKitCreatesNoInstanceOrDeviceOfItsOwnOnTheAppsDevice() throws {
        // The one place LayerKit creates instances and devices counts them: its own renderer makes one of
        // each; the "game" here (a context of LayerKit's, standing in) one of each; a renderer on the
        // game's device, its frames and a new target on that device none.
        let before = VulkanCensus.created
        let own = try CARenderer(width: 8, height: 8)
        XCTAssertEqual(VulkanCensus.created, VulkanCensus.Counts(instances: before.instances + 1, devices: before.devices + 1))
        let game = try TestGame(depthStencil: true)
        let withGame = VulkanCensus.created
        XCTAssertEqual(withGame, VulkanCensus.Counts(instances: before.instances + 2, devices: before.devices + 2))
        _ = try drawInside(game, scene(), frames: 2)
        do {
            let renderer = try CARenderer(vulkanTarget: game.target())
            try renderer.setVulkanTarget(game.target())
        }
        XCTAssertEqual(VulkanCensus.created, withGame, "nothing created twice: the game's instance and device are LayerKit's too")
        XCTAssertEqual(game.context.validationMessages, [])
        withExtendedLifetime(own) {}
    }

    /// One frame of `renderer` drawn inside `game`'s pass (or a secondary buffer the pass executes) at
    /// time `t`; `drawn` runs in the pass right after LayerKit's draws.
    private func frame(of renderer: CARenderer, in game: TestGame, at t: Double, inSecondaryBuffer: Bool = false,
                       drawn: () -> Void = {}) throws -> CGImage {
        try game.frame(inSecondaryBuffer: inSecondaryBuffer) { commandBuffer, stage in
            switch stage {
            case .beforePass:
                renderer.beginFrame(atTime: t)
                try renderer.prepareRender(recordingInto: commandBuffer)
            case .inPass:
                try renderer.render(inRenderPassOf: commandBuffer)
                drawn()
            case .afterPass: renderer.endFrame()
            }
        }
    }

    func testWhenTheAppsDeviceIsLostLayerKitLetsGoOfItAndFollowsTheAppToItsNewDevice() throws {
        var game: TestGame? = try TestGame(depthStencil: true)
        let oldLog = game!.context.instance.log
        var renderer: CARenderer? = try CARenderer(vulkanTarget: game!.target())
        renderer!.layer = scene()
        assertPixels(try frame(of: renderer!, in: game!, at: 0), "before the loss", tolerance: 1, probes: expected)

        // The device is lost: LayerKit learns it at its next submission (the one signalling its last
        // frame's fence, after the app's), and says so.
        renderer!.loseDeviceAtNextSubmit()
        renderer!.beginFrame(atTime: 1)
        XCTAssertThrowsError(try renderer!.prepareRender(recordingInto: game!.commandBuffer)) { error in
            XCTAssertTrue((error as? VulkanError)?.isDeviceLost == true, "\(error)")
        }
        renderer!.endFrame()

        // The app makes a new instance and device (and a smaller frame, 48×40), hands LayerKit its pass on
        // them, and destroys everything on the old device: validation there reports any object LayerKit
        // left on it.
        let newGame = try TestGame(depthStencil: true, width: 48, height: 40)
        try renderer!.setVulkanTarget(newGame.target())
        XCTAssertEqual(renderer!.bounds, CGRect(x: 0, y: 0, width: 48, height: 40))
        game = nil
        XCTAssertEqual(oldLog.messages, [], "nothing of LayerKit's left on the old device")

        // The same tree, drawn again in full on the new device (its images uploaded again).
        let after = try frame(of: renderer!, in: newGame, at: 2)
        assertPixels(after, "on the new device", tolerance: 1, probes: [
            expected[1], expected[2], expected[4], Probe("the app's clear", 8, 30, PixelRGBA(255, 0, 0, 255)),
        ])
        XCTAssertEqual(renderer!.lastFrameStatistics.offscreenReasons, [.mask, .mask])
        // The renderer goes before the app's new device does: nothing of LayerKit's is left on that one either.
        renderer = nil
        XCTAssertEqual(newGame.context.validationMessages, [])
    }

    func testADescriptionLayerKitCannotDrawWithIsRefused() throws {
        let game = try TestGame(depthStencil: false)
        for wrong in [
            { (pass: inout CARenderer.VulkanRenderPass) in pass.colorFormat = VK_FORMAT_R8G8B8A8_SRGB.rawValue },
            { (pass: inout CARenderer.VulkanRenderPass) in pass.sampleCount = 3 },
            { (pass: inout CARenderer.VulkanRenderPass) in pass.depthStencilFormat = VK_FORMAT_R8G8B8A8_UNORM.rawValue },
        ] {
            var target = game.target()
            wrong(&target.renderPass!)
            XCTAssertThrowsError(try CARenderer(vulkanTarget: target))
        }
        let renderer = try CARenderer(vulkanTarget: game.target())
        XCTAssertThrowsError(try renderer.render(inRenderPassOf: game.commandBuffer), "nothing prepared")
        XCTAssertThrowsError(try renderer.render(recordingInto: game.commandBuffer), "a render pass target is drawn inside the app's pass")
        XCTAssertEqual(game.context.validationMessages, [])
    }
}

/// A stand-in for a game's Vulkan frame: its own context (validation on), a 64×64 (or `width`×`height`) RGBA8 image (resolved
/// into from a multisampled one with `samples`), a depth-stencil image with `depthStencil`, one render
/// pass clearing them (red; depth 0, stencil 7), one command buffer and fence, and a readback buffer.
final class TestGame {
    enum Stage { case beforePass, inPass, afterPass }

    let context: VulkanContext
    let width: Int, height: Int
    let image: GPUImage
    private let multisampled: GPUImage?
    private let depth: GPUImage?
    let samples: VkSampleCountFlagBits
    private(set) var renderPass: VkRenderPass!
    /// The same pass, but leaving the image in COLOR_ATTACHMENT_OPTIMAL for LayerKit's own pass to load.
    private var keepingPass: VkRenderPass!
    private var framebuffers: [VkFramebuffer?] = []
    private var pool: VkCommandPool?
    private(set) var commandBuffer: OpaquePointer!
    /// The pass's secondary command buffer, for frames recorded `inSecondaryBuffer`.
    private var secondary: VkCommandBuffer?
    private var fence: VkFence?
    private let readback: GPUBuffer
    /// A timeline semaphore and value the next frame's submission signals as well (LayerKit's
    /// `CARenderer.frameCompletion`), set by a HUD while it records; nil: none.
    var timelineSignal: (semaphore: OpaquePointer, value: UInt64)?

    init(depthStencil: Bool, samples: VkSampleCountFlagBits = VK_SAMPLE_COUNT_1_BIT, width: Int = 64, height: Int = 64) throws {
        (self.width, self.height) = (width, height)
        context = try VulkanContext(applicationName: "a game", validation: true, pipelineCache: .none)
        let device = self.context.device
        self.samples = samples
        image = try GPUImage(device: device, allocator: self.context.allocator, width: width, height: height,
                             usage: VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue, name: "the game's frame")
        multisampled = samples == VK_SAMPLE_COUNT_1_BIT ? nil
            : try GPUImage(device: device, allocator: self.context.allocator, width: width, height: height,
                           usage: VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue, samples: samples, name: "the game's multisampled frame")
        depth = depthStencil ? try GPUImage(device: device, allocator: self.context.allocator, width: width, height: height,
                                            format: device.depthStencilFormat,
                                            aspect: VK_IMAGE_ASPECT_DEPTH_BIT.rawValue | VK_IMAGE_ASPECT_STENCIL_BIT.rawValue,
                                            usage: VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT.rawValue, samples: samples,
                                            name: "the game's depth") : nil
        readback = try GPUBuffer(device: device, allocator: self.context.allocator, size: UInt64(width * height * 4),
                                 usage: VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue, location: .readback, name: "the game's readback")
        renderPass = try makeRenderPass(finalLayout: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL)
        keepingPass = try makeRenderPass(finalLayout: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL)
        for pass in [renderPass, keepingPass] {
            var views: [VkImageView?] = [multisampled?.view ?? image.view] + (depth.map { [$0.view] } ?? []) + (multisampled == nil ? [] : [image.view])
            var info = VkFramebufferCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO
            info.renderPass = pass
            info.attachmentCount = UInt32(views.count)
            info.width = UInt32(width)
            info.height = UInt32(height)
            info.layers = 1
            var framebuffer: VkFramebuffer?
            try views.withUnsafeMutableBufferPointer { pointer in
                info.pAttachments = UnsafePointer(pointer.baseAddress)
                try check(vkCreateFramebuffer(device.handle, &info, nil, &framebuffer), "vkCreateFramebuffer(game)")
            }
            framebuffers.append(framebuffer)
        }
        var poolInfo = VkCommandPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
        poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT.rawValue
        poolInfo.queueFamilyIndex = device.queueFamily
        try check(vkCreateCommandPool(device.handle, &poolInfo, nil, &pool), "vkCreateCommandPool(game)")
        commandBuffer = try allocateAppCommandBuffer(device.handle, pool: pool, "game")
        var fenceInfo = VkFenceCreateInfo()
        fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO
        fenceInfo.flags = VK_FENCE_CREATE_SIGNALED_BIT.rawValue
        try check(vkCreateFence(device.handle, &fenceInfo, nil, &fence), "vkCreateFence(game)")
    }

    deinit {
        let device = context.device.handle
        vkDeviceWaitIdle(device)
        vkDestroyFence(device, fence, nil)
        vkDestroyCommandPool(device, pool, nil)
        for framebuffer in framebuffers { vkDestroyFramebuffer(device, framebuffer, nil) }
        vkDestroyRenderPass(device, renderPass, nil)
        vkDestroyRenderPass(device, keepingPass, nil)
    }

    /// The game's pass as LayerKit is told about it.
    func target() -> CARenderer.VulkanTarget {
        CARenderer.VulkanTarget(
            instance: context.instance.handle, physicalDevice: context.device.physicalDevice, device: context.device.handle,
            queueFamilyIndex: context.device.queueFamily,
            renderPass: CARenderer.VulkanRenderPass(renderPass: renderPass, colorFormat: VK_FORMAT_R8G8B8A8_UNORM.rawValue,
                                                    sampleCount: samples.rawValue, depthStencilFormat: depth.map { _ in context.device.depthStencilFormat.rawValue }),
            width: width, height: height)
    }

    /// The game's image as LayerKit's own pass draws over it (after `keepingPass`).
    func imageTarget() -> CARenderer.VulkanTarget {
        CARenderer.VulkanTarget(
            instance: context.instance.handle, physicalDevice: context.device.physicalDevice, device: context.device.handle,
            queueFamilyIndex: context.device.queueFamily, image: image.handle, imageView: image.view, format: VK_FORMAT_R8G8B8A8_UNORM.rawValue,
            width: width, height: height, finalLayout: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL.rawValue,
            initialLayout: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL.rawValue)
    }

    /// One frame in the game's one command buffer: `hud(.beforePass)`, the game's pass (its clear, its
    /// green square at (0, 0, 8, 8), `hud(.inPass)`), `hud(.afterPass)`, the copy out; submitted with
    /// the game's fence and read back once it signals. With `keepingImageForLayerKit` the pass leaves the
    /// image for LayerKit's own pass, which moves it to TRANSFER_SRC_OPTIMAL.
    ///
    /// With `inSecondaryBuffer` the pass's contents are a secondary command buffer the primary executes:
    /// the game's square and `hud(.inPass)` are recorded into it, begun with `RENDER_PASS_CONTINUE` and
    /// inheriting the pass, its subpass and framebuffer.
    func frame(keepingImageForLayerKit: Bool = false, inSecondaryBuffer: Bool = false,
               hud: (OpaquePointer, Stage) throws -> Void) throws -> CGImage {
        let device = context.device.handle
        try check(vkWaitForFences(device, 1, &fence, VkBool32(VK_TRUE), UInt64.max), "vkWaitForFences(game)")
        try check(vkResetFences(device, 1, &fence), "vkResetFences(game)")
        try check(vkResetCommandBuffer(commandBuffer, 0), "vkResetCommandBuffer(game)")
        var begin = VkCommandBufferBeginInfo()
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
        try check(vkBeginCommandBuffer(commandBuffer, &begin), "vkBeginCommandBuffer(game)")
        try hud(commandBuffer, .beforePass)

        var clears = [VkClearValue](repeating: VkClearValue(), count: depth == nil ? 1 : 2)
        clears[0].color.float32 = (1, 0, 0, 1)
        if depth != nil { clears[1].depthStencil = VkClearDepthStencilValue(depth: 0, stencil: 7) }
        clears.withUnsafeBufferPointer { clearPointer in
            var info = VkRenderPassBeginInfo()
            info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO
            info.renderPass = keepingImageForLayerKit ? keepingPass : renderPass
            info.framebuffer = framebuffers[keepingImageForLayerKit ? 1 : 0]
            info.renderArea = VkRect2D(offset: VkOffset2D(x: 0, y: 0), extent: VkExtent2D(width: UInt32(width), height: UInt32(height)))
            info.clearValueCount = UInt32(clearPointer.count)
            info.pClearValues = clearPointer.baseAddress
            vkCmdBeginRenderPass(commandBuffer, &info, inSecondaryBuffer ? VK_SUBPASS_CONTENTS_SECONDARY_COMMAND_BUFFERS : VK_SUBPASS_CONTENTS_INLINE)
        }
        let passContents: OpaquePointer = inSecondaryBuffer
            ? try beginSecondary(framebuffer: framebuffers[keepingImageForLayerKit ? 1 : 0],
                                 renderPass: keepingImageForLayerKit ? keepingPass : renderPass)
            : commandBuffer
        var square = VkClearAttachment()
        square.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT.rawValue
        square.clearValue.color.float32 = (0, 1, 0, 1)
        var rect = VkClearRect(rect: VkRect2D(offset: VkOffset2D(x: 0, y: 0), extent: VkExtent2D(width: 8, height: 8)), baseArrayLayer: 0, layerCount: 1)
        vkCmdClearAttachments(passContents, 1, &square, 1, &rect)
        try hud(passContents, .inPass)
        if inSecondaryBuffer {
            try check(vkEndCommandBuffer(passContents), "vkEndCommandBuffer(game secondary)")
            var secondary: VkCommandBuffer? = passContents
            vkCmdExecuteCommands(commandBuffer, 1, &secondary)
        }
        vkCmdEndRenderPass(commandBuffer)
        try hud(commandBuffer, .afterPass)

        var region = VkBufferImageCopy()
        region.imageSubresource = VkImageSubresourceLayers(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, baseArrayLayer: 0, layerCount: 1)
        region.imageExtent = VkExtent3D(width: UInt32(width), height: UInt32(height), depth: 1)
        vkCmdCopyImageToBuffer(commandBuffer, image.handle, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback.handle, 1, &region)
        Barriers.buffer(commandBuffer, readback.handle, source: (VK_PIPELINE_STAGE_TRANSFER_BIT, Access.transferWrite),
                        destination: (VK_PIPELINE_STAGE_HOST_BIT, Access.hostRead))
        try check(vkEndCommandBuffer(commandBuffer), "vkEndCommandBuffer(game)")
        let buffers: [VkCommandBuffer?] = [commandBuffer]
        var signalled: VkSemaphore? = timelineSignal?.semaphore
        var value = timelineSignal?.value ?? 0
        let signals = timelineSignal != nil
        timelineSignal = nil
        try buffers.withUnsafeBufferPointer { pointer in
            try withUnsafePointer(to: &signalled) { semaphores in
                try withUnsafePointer(to: &value) { values in
                    var timeline = VkTimelineSemaphoreSubmitInfo()
                    timeline.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO
                    timeline.signalSemaphoreValueCount = 1
                    timeline.pSignalSemaphoreValues = values
                    try withUnsafePointer(to: &timeline) { timelinePointer in
                        var submit = VkSubmitInfo()
                        submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO
                        submit.commandBufferCount = 1
                        submit.pCommandBuffers = pointer.baseAddress
                        if signals {
                            submit.pNext = UnsafeRawPointer(timelinePointer)
                            submit.signalSemaphoreCount = 1
                            submit.pSignalSemaphores = semaphores
                        }
                        try check(vkQueueSubmit(context.device.queue, 1, &submit, fence), "vkQueueSubmit(game)")
                    }
                }
            }
        }
        try check(vkWaitForFences(device, 1, &fence, VkBool32(VK_TRUE), UInt64.max), "vkWaitForFences(game)")
        let bytes = [UInt8](UnsafeRawBufferPointer(start: readback.mapped, count: width * height * 4))
        return CGImage(width: width, height: height, bytesPerRow: width * 4, premultipliedRGBA: bytes)!
    }

    /// The secondary command buffer the pass executes (made on first use), reset and begun inside
    /// `renderPass`'s subpass 0 on `framebuffer`.
    private func beginSecondary(framebuffer: VkFramebuffer?, renderPass: VkRenderPass) throws -> OpaquePointer {
        if secondary == nil {
            secondary = try allocateAppCommandBuffer(context.device.handle, pool: pool, level: VK_COMMAND_BUFFER_LEVEL_SECONDARY, "game secondary")
        }
        try check(vkResetCommandBuffer(secondary, 0), "vkResetCommandBuffer(game secondary)")
        var inheritance = VkCommandBufferInheritanceInfo()
        inheritance.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_INHERITANCE_INFO
        inheritance.renderPass = renderPass
        inheritance.subpass = 0
        inheritance.framebuffer = framebuffer
        try withUnsafePointer(to: &inheritance) { inheritancePointer in
            var begin = VkCommandBufferBeginInfo()
            begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
            begin.flags = VK_COMMAND_BUFFER_USAGE_RENDER_PASS_CONTINUE_BIT.rawValue | VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT.rawValue
            begin.pInheritanceInfo = inheritancePointer
            try check(vkBeginCommandBuffer(secondary, &begin), "vkBeginCommandBuffer(game secondary)")
        }
        return secondary!
    }

    /// The game's pass: its color attachment (multisampled and resolved into `image` with `samples`)
    /// cleared and left in `finalLayout`, its depth-stencil cleared and not stored. The dependencies order
    /// it after the last frame's copy out of the image and depth tests, and make its writes visible to
    /// the copy after it (and to a render pass of LayerKit's drawing over the image).
    private func makeRenderPass(finalLayout: VkImageLayout) throws -> VkRenderPass {
        let multisampling = samples != VK_SAMPLE_COUNT_1_BIT
        var attachments: [VkAttachmentDescription] = []
        var color = VkAttachmentDescription()
        color.format = VK_FORMAT_R8G8B8A8_UNORM
        color.samples = samples
        color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR
        color.storeOp = multisampling ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE
        color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE
        color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE
        color.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED
        color.finalLayout = multisampling ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : finalLayout
        attachments.append(color)
        var depthReference = VkAttachmentReference(attachment: 1, layout: VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL)
        if depth != nil {
            var attachment = VkAttachmentDescription()
            attachment.format = context.device.depthStencilFormat
            attachment.samples = samples
            attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR
            attachment.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE
            attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_CLEAR
            attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE
            attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED
            attachment.finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL
            attachments.append(attachment)
        }
        var resolveReference = VkAttachmentReference(attachment: UInt32(attachments.count), layout: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL)
        if multisampling {
            var resolve = color
            resolve.samples = VK_SAMPLE_COUNT_1_BIT
            resolve.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE
            resolve.storeOp = VK_ATTACHMENT_STORE_OP_STORE
            resolve.finalLayout = finalLayout
            attachments.append(resolve)
        }
        var colorReference = VkAttachmentReference(attachment: 0, layout: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL)
        let tests = VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT.rawValue | VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT.rawValue
        let colorOutput = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT.rawValue
        let transfer = VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue
        var dependencies = [VkSubpassDependency(), VkSubpassDependency()]
        dependencies[0].srcSubpass = VK_SUBPASS_EXTERNAL
        dependencies[0].dstSubpass = 0
        dependencies[0].srcStageMask = colorOutput | transfer | tests
        dependencies[0].srcAccessMask = Access.colorWrite | Access.depthWrite
        dependencies[0].dstStageMask = colorOutput | tests
        dependencies[0].dstAccessMask = Access.colorWrite | Access.colorRead | Access.depthWrite | Access.depthRead
        dependencies[1].srcSubpass = 0
        dependencies[1].dstSubpass = VK_SUBPASS_EXTERNAL
        dependencies[1].srcStageMask = colorOutput
        dependencies[1].srcAccessMask = Access.colorWrite
        dependencies[1].dstStageMask = transfer | colorOutput
        dependencies[1].dstAccessMask = Access.transferRead | Access.colorWrite | Access.colorRead
        var created: VkRenderPass?
        try withUnsafePointer(to: &colorReference) { colorPointer in
            try withUnsafePointer(to: &depthReference) { depthPointer in
                try withUnsafePointer(to: &resolveReference) { resolvePointer in
                    var subpass = VkSubpassDescription()
                    subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS
                    subpass.colorAttachmentCount = 1
                    subpass.pColorAttachments = colorPointer
                    subpass.pDepthStencilAttachment = depth == nil ? nil : depthPointer
                    subpass.pResolveAttachments = multisampling ? resolvePointer : nil
                    try withUnsafePointer(to: &subpass) { subpassPointer in
                        try attachments.withUnsafeBufferPointer { attachmentPointer in
                            try dependencies.withUnsafeBufferPointer { dependencyPointer in
                                var info = VkRenderPassCreateInfo()
                                info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO
                                info.attachmentCount = UInt32(attachmentPointer.count)
                                info.pAttachments = attachmentPointer.baseAddress
                                info.subpassCount = 1
                                info.pSubpasses = subpassPointer
                                info.dependencyCount = UInt32(dependencyPointer.count)
                                info.pDependencies = dependencyPointer.baseAddress
                                try check(vkCreateRenderPass(context.device.handle, &info, nil, &created), "vkCreateRenderPass(game)")
                            }
                        }
                    }
                }
            }
        }
        return created!
    }
}
