// The game under the HUD: a scrolling tile map drawn with the game's own Vulkan objects — its instance,
// device, queue, frame image, render passes and command buffer — as a game engine would own them. LayerKit
// is handed these handles and records the HUD into the game's command buffer: inside the game's render
// pass (`hudPassTarget`), or in a render pass of its own after it, over the game's frame image
// (`hudTarget`). It creates nothing global on them and never destroys them.
//
// To stay short, the game draws without a pipeline: each tile is a rectangle cleared to its terrain's
// colour inside the game's render pass (`vkCmdClearAttachments`), a few calls a frame, one per terrain.
import CVulkan
import Foundation
import LayerKit
import LayerKitVulkan

/// A failed Vulkan call of the game's.
struct GameVulkanError: Error, CustomStringConvertible {
    var call: String
    var result: VkResult
    var description: String { "\(call) failed (VkResult \(result.rawValue))" }
}

/// Throws unless `result` is success (or `alsoAccepting`: a swapchain that still presents, suboptimally).
func check(_ result: VkResult, _ call: String, alsoAccepting accepted: VkResult = VK_SUCCESS) throws {
    guard result == VK_SUCCESS || result == accepted else { throw GameVulkanError(call: call, result: result) }
}

/// The game's Vulkan set-up and its frame: a tile map scrolling to the left, in a frame image the game
/// owns, which the HUD is drawn over.
final class TileMapGame {
    static let tileSize = 32
    /// Terrain colours, straight RGBA: deep water, water, sand, grass, forest, rock.
    static let terrainColors: [SIMD4<Float>] = [
        SIMD4(0.05, 0.15, 0.40, 1), SIMD4(0.10, 0.30, 0.65, 1), SIMD4(0.85, 0.78, 0.50, 1),
        SIMD4(0.30, 0.62, 0.25, 1), SIMD4(0.12, 0.40, 0.18, 1), SIMD4(0.50, 0.48, 0.46, 1),
    ]
    /// Scrolling speed, in pixels a second.
    static let scrollSpeed = 48.0

    let width: Int
    let height: Int
    private(set) var instance: VkInstance!
    private(set) var physicalDevice: VkPhysicalDevice!
    private(set) var device: VkDevice!
    private(set) var queueFamily: UInt32 = 0
    private var queue: VkQueue!
    private(set) var frameImage: VkImage!
    private var frameMemory: VkDeviceMemory!
    private(set) var frameView: VkImageView!
    /// The game's pass with the HUD drawn inside it: it leaves the frame ready to copy out.
    private(set) var renderPass: VkRenderPass!
    /// The same pass (compatible: one framebuffer serves both) for frames whose HUD LayerKit draws in a
    /// pass of its own afterwards: it leaves the frame a colour attachment, for LayerKit's pass to load.
    private var renderPassBeforeHUD: VkRenderPass!
    private var framebuffer: VkFramebuffer!
    private var commandPool: VkCommandPool!
    private(set) var commandBuffer: VkCommandBuffer!
    private var frameDone: VkFence!
    /// Headless: where the game copies its frame to read it (`readFrame`).
    private var readbackBuffer: VkBuffer?
    private var readbackMemory: VkDeviceMemory?
    /// In a window: the surface, swapchain and semaphores the frame is shown with (`TileMapGame+Present.swift`).
    var presenter: Presenter?

    /// A game drawing `width`×`height` frames, shown in `window` when given (else read back), with the HUD
    /// drawn inside its render pass or after it, frame by frame (`drawMap(at:hudInPass:)`).
    init(width: Int, height: Int, window: GameWindow? = nil) throws {
        (self.width, self.height) = (width, height)
        try makeDevice(window: window)
        try makeFrameImage()
        renderPass = try makeRenderPass(hudInside: true)
        renderPassBeforeHUD = try makeRenderPass(hudInside: false)
        try makeFramebuffer()
        try makeCommands()
        if window == nil { try makeReadback() }
        if let window, let surface { presenter = try Presenter(game: self, surface: surface, window: window) }
    }

    /// The window's surface, made with the instance (nil headless).
    private(set) var surface: VkSurfaceKHR?

    deinit {
        guard let device else { return }
        vkDeviceWaitIdle(device)
        presenter = nil
        vkDestroyFence(device, frameDone, nil)
        if let readbackBuffer { vkDestroyBuffer(device, readbackBuffer, nil) }
        if let readbackMemory { vkFreeMemory(device, readbackMemory, nil) }
        vkDestroyCommandPool(device, commandPool, nil)
        vkDestroyFramebuffer(device, framebuffer, nil)
        vkDestroyRenderPass(device, renderPass, nil)
        vkDestroyRenderPass(device, renderPassBeforeHUD, nil)
        vkDestroyImageView(device, frameView, nil)
        vkDestroyImage(device, frameImage, nil)
        vkFreeMemory(device, frameMemory, nil)
        vkDestroyDevice(device, nil)
        if let surface { vkDestroySurfaceKHR(instance, surface, nil) }
        vkDestroyInstance(instance, nil)
    }

    /// Where LayerKit draws the HUD by default: inside the game's render pass (subpass 0, one RGBA8 colour
    /// attachment, no depth), over the tiles, with no render pass of its own. Background filters there
    /// cannot see the tiles (not drawn yet when LayerKit's offscreen passes run): see `hudTarget`.
    var hudPassTarget: CARenderer.VulkanTarget {
        CARenderer.VulkanTarget(
            instance: instance, physicalDevice: physicalDevice, device: device, queueFamilyIndex: queueFamily,
            renderPass: CARenderer.VulkanRenderPass(renderPass: renderPass, colorFormat: VK_FORMAT_R8G8B8A8_UNORM.rawValue),
            width: width, height: height)
    }

    /// Where LayerKit draws the HUD in a render pass of its own after the game's (while the pause panel's
    /// blur shows, and always with `--hud-in-own-pass`): the game's frame image, kept (`initialLayout`: where
    /// `renderPassBeforeHUD` leaves it), so background filters blur the tiles; left ready to copy out.
    var hudTarget: CARenderer.VulkanTarget {
        var target = CARenderer.VulkanTarget(
            instance: instance, physicalDevice: physicalDevice, device: device, queueFamilyIndex: queueFamily,
            image: frameImage, imageView: frameView, format: VK_FORMAT_R8G8B8A8_UNORM.rawValue, width: width, height: height,
            finalLayout: VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL.rawValue, initialLayout: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL.rawValue)
        target.imageUsage = Self.frameImageUsage
        return target
    }

    /// How the frame image is used: drawn into, and copied out of (to the window or the host, and by
    /// LayerKit for the pause panel's blurred backdrop).
    static let frameImageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT.rawValue | VK_IMAGE_USAGE_TRANSFER_SRC_BIT.rawValue

    /// The terrain of tile (x, y): rolling hills of a few sines, the same for every run.
    static func terrain(_ x: Int, _ y: Int) -> Int {
        let (fx, fy) = (Double(x), Double(y))
        let height = sin(fx * 0.21) + sin(fy * 0.27 + 1.3) + 0.6 * sin((fx + fy) * 0.11) + 0.4 * sin(fx * 0.63 - fy * 0.41)
        return min(max(Int((height + 2.2) * 1.5), 0), terrainColors.count - 1)
    }

    /// How far the map has scrolled at `time`, in pixels.
    static func scroll(at time: Double) -> Double { time * scrollSpeed }

    /// Begins the game's frame in its command buffer, once the GPU has finished the last one. Returns the
    /// command buffer, recording, outside any render pass; `drawMap(at:inPass:)` records the game's pass,
    /// `submitFrame()` ends and submits the buffer.
    func beginFrame() throws -> VkCommandBuffer {
        var fence: VkFence? = frameDone
        try check(vkWaitForFences(device, 1, &fence, VkBool32(VK_TRUE), UInt64.max), "vkWaitForFences")
        try check(vkResetFences(device, 1, &fence), "vkResetFences")
        try check(vkResetCommandBuffer(commandBuffer, 0), "vkResetCommandBuffer")
        var begin = VkCommandBufferBeginInfo()
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
        begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT.rawValue
        try check(vkBeginCommandBuffer(commandBuffer, &begin), "vkBeginCommandBuffer")
        return commandBuffer
    }

    /// Records the game's render pass at `time`: the tiles in view, cleared terrain by terrain, then
    /// `hudInPass` (the HUD, drawn inside the pass) before the pass ends. Without `hudInPass` the pass leaves
    /// the frame for the HUD to be drawn over after it (`hudTarget`).
    func drawMap(at time: Double, hudInPass: ((VkCommandBuffer) throws -> Void)? = nil) throws {
        var passInfo = VkRenderPassBeginInfo()
        passInfo.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO
        passInfo.renderPass = hudInPass == nil ? renderPassBeforeHUD : renderPass
        passInfo.framebuffer = framebuffer
        passInfo.renderArea = VkRect2D(offset: VkOffset2D(x: 0, y: 0), extent: VkExtent2D(width: UInt32(width), height: UInt32(height)))
        vkCmdBeginRenderPass(commandBuffer, &passInfo, VK_SUBPASS_CONTENTS_INLINE)

        // The tiles in view, grouped by terrain: one clear per terrain.
        let scroll = Self.scroll(at: time)
        let firstColumn = Int((scroll / Double(Self.tileSize)).rounded(.down))
        let offset = Int(scroll) - firstColumn * Self.tileSize
        var rects = Array(repeating: [VkClearRect](), count: Self.terrainColors.count)
        for row in 0...(height / Self.tileSize) {
            for column in 0...(width / Self.tileSize + 1) {
                let x = column * Self.tileSize - offset, y = row * Self.tileSize
                let (left, top) = (max(x, 0), max(y, 0))
                let (right, bottom) = (min(x + Self.tileSize, width), min(y + Self.tileSize, height))
                guard right > left, bottom > top else { continue }
                let rect = VkRect2D(offset: VkOffset2D(x: Int32(left), y: Int32(top)),
                                    extent: VkExtent2D(width: UInt32(right - left), height: UInt32(bottom - top)))
                rects[Self.terrain(firstColumn + column, row)].append(VkClearRect(rect: rect, baseArrayLayer: 0, layerCount: 1))
            }
        }
        for (terrain, terrainRects) in rects.enumerated() where !terrainRects.isEmpty {
            let c = Self.terrainColors[terrain]
            var clear = VkClearAttachment()
            clear.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT.rawValue
            clear.colorAttachment = 0
            clear.clearValue.color.float32 = (c.x, c.y, c.z, c.w)
            terrainRects.withUnsafeBufferPointer { vkCmdClearAttachments(commandBuffer, 1, &clear, UInt32($0.count), $0.baseAddress) }
        }
        try hudInPass?(commandBuffer)
        vkCmdEndRenderPass(commandBuffer)
    }

    /// The frame last submitted, read back (headless): waits for it.
    func readFrame() throws -> CGImage {
        guard let readbackMemory else { throw GameVulkanError(call: "readFrame (no readback buffer)", result: VK_ERROR_INITIALIZATION_FAILED) }
        var fence: VkFence? = frameDone
        try check(vkWaitForFences(device, 1, &fence, VkBool32(VK_TRUE), UInt64.max), "vkWaitForFences")
        var mapped: UnsafeMutableRawPointer?
        try check(vkMapMemory(device, readbackMemory, 0, VkDeviceSize(width * height * 4), 0, &mapped), "vkMapMemory")
        defer { vkUnmapMemory(device, readbackMemory) }
        let bytes = [UInt8](UnsafeRawBufferPointer(start: mapped, count: width * height * 4))
        guard let image = CGImage(width: width, height: height, bytesPerRow: width * 4, premultipliedRGBA: bytes) else {
            throw GameVulkanError(call: "readFrame (no image)", result: VK_ERROR_INITIALIZATION_FAILED)
        }
        return image
    }

    /// Ends the frame's command buffer (the game's pass and whatever was recorded after it) and submits
    /// it: one submission a frame, which also signals `completion` (the HUD's frame done: LayerKit's
    /// `frameCompletion`). In a window, the frame is copied into the swapchain's image first and presented.
    func submitFrame(signalling completion: (semaphore: OpaquePointer, value: UInt64)?) throws {
        let shown = try presenter?.recordCopy(from: frameImage, width: width, height: height, into: commandBuffer)
        if let readbackBuffer {
            // The frame (in TRANSFER_SRC_OPTIMAL, where the game's pass or LayerKit's leaves it) into the host's buffer.
            var region = VkBufferImageCopy()
            region.imageSubresource = VkImageSubresourceLayers(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, mipLevel: 0, baseArrayLayer: 0, layerCount: 1)
            region.imageExtent = VkExtent3D(width: UInt32(width), height: UInt32(height), depth: 1)
            vkCmdCopyImageToBuffer(commandBuffer, frameImage, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readbackBuffer, 1, &region)
            var toHost = VkBufferMemoryBarrier()
            toHost.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER
            toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT.rawValue
            toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT.rawValue
            toHost.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
            toHost.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED
            toHost.buffer = readbackBuffer
            toHost.size = VkDeviceSize(VK_WHOLE_SIZE)
            vkCmdPipelineBarrier(commandBuffer, VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue, VK_PIPELINE_STAGE_HOST_BIT.rawValue, 0,
                                 0, nil, 1, &toHost, 0, nil)
        }
        try check(vkEndCommandBuffer(commandBuffer), "vkEndCommandBuffer")
        var buffer: VkCommandBuffer? = commandBuffer
        var wait = shown?.acquired
        var waitStage = VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue
        // The present's binary semaphore (in a window) and LayerKit's timeline value (a binary one's value
        // is ignored).
        var signals: [VkSemaphore?] = []
        var values: [UInt64] = []
        if let shown {
            signals.append(shown.drawn)
            values.append(0)
        }
        if let completion {
            signals.append(completion.semaphore)
            values.append(completion.value)
        }
        try withUnsafePointer(to: &buffer) { buffers in
            try withUnsafePointer(to: &wait) { waits in
                try withUnsafePointer(to: &waitStage) { stages in
                    try signals.withUnsafeMutableBufferPointer { signalPointer in
                        try values.withUnsafeMutableBufferPointer { valuePointer in
                            var timeline = VkTimelineSemaphoreSubmitInfo()
                            timeline.sType = VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO
                            timeline.signalSemaphoreValueCount = UInt32(valuePointer.count)
                            timeline.pSignalSemaphoreValues = UnsafePointer(valuePointer.baseAddress)
                            try withUnsafePointer(to: &timeline) { timelinePointer in
                                var submit = VkSubmitInfo()
                                submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO
                                submit.pNext = completion == nil ? nil : UnsafeRawPointer(timelinePointer)
                                submit.commandBufferCount = 1
                                submit.pCommandBuffers = buffers
                                submit.waitSemaphoreCount = shown == nil ? 0 : 1
                                submit.pWaitSemaphores = waits
                                submit.pWaitDstStageMask = stages
                                submit.signalSemaphoreCount = UInt32(signalPointer.count)
                                submit.pSignalSemaphores = UnsafePointer(signalPointer.baseAddress)
                                try check(vkQueueSubmit(queue, 1, &submit, frameDone), "vkQueueSubmit")
                            }
                        }
                    }
                }
            }
        }
        if let shown { try presenter?.present(shown, on: queue) }
    }

    // MARK: Set-up

    /// C strings for Vulkan's name lists, freed with the list.
    private final class CStrings {
        let pointers: [UnsafePointer<CChar>?]
        init(_ strings: [String]) { pointers = strings.map { UnsafePointer(strdup($0)) } }
        deinit { pointers.forEach { free(UnsafeMutablePointer(mutating: $0)) } }
    }

    private func makeDevice(window: GameWindow?) throws {
        var app = VkApplicationInfo()
        app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO
        app.apiVersion = (1 << 22) | (1 << 12)
        let validation = ProcessInfo.processInfo.environment["LK_VALIDATION"] == "1"
        let layers = CStrings(validation ? ["VK_LAYER_KHRONOS_validation"] : [])
        let instanceExtensions = CStrings(try window?.instanceExtensions() ?? [])
        var created: VkInstance?
        try withUnsafePointer(to: &app) { appPointer in
            try layers.pointers.withUnsafeBufferPointer { layerPointer in
                try instanceExtensions.pointers.withUnsafeBufferPointer { extensionPointer in
                    var info = VkInstanceCreateInfo()
                    info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO
                    info.pApplicationInfo = appPointer
                    info.enabledLayerCount = UInt32(layerPointer.count)
                    info.ppEnabledLayerNames = layerPointer.baseAddress
                    info.enabledExtensionCount = UInt32(extensionPointer.count)
                    info.ppEnabledExtensionNames = extensionPointer.baseAddress
                    try check(vkCreateInstance(&info, nil, &created), "vkCreateInstance")
                }
            }
        }
        instance = created
        surface = try window?.makeSurface(instance: instance)

        var count: UInt32 = 0
        try check(vkEnumeratePhysicalDevices(instance, &count, nil), "vkEnumeratePhysicalDevices")
        guard count > 0 else { throw GameVulkanError(call: "vkEnumeratePhysicalDevices (no device)", result: VK_ERROR_INITIALIZATION_FAILED) }
        var devices = [VkPhysicalDevice?](repeating: nil, count: Int(count))
        try check(vkEnumeratePhysicalDevices(instance, &count, &devices), "vkEnumeratePhysicalDevices")
        physicalDevice = devices[0]

        var familyCount: UInt32 = 0
        vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &familyCount, nil)
        var families = [VkQueueFamilyProperties](repeating: VkQueueFamilyProperties(), count: Int(familyCount))
        vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &familyCount, &families)
        // A graphics queue that can present to the window's surface (any graphics queue headless).
        func presents(_ family: Int) -> Bool {
            guard let surface else { return true }
            var supported: VkBool32 = 0
            vkGetPhysicalDeviceSurfaceSupportKHR(physicalDevice, UInt32(family), surface, &supported)
            return supported != 0
        }
        guard let graphics = families.indices.first(where: { families[$0].queueFlags & VK_QUEUE_GRAPHICS_BIT.rawValue != 0 && presents($0) }) else {
            throw GameVulkanError(call: "vkGetPhysicalDeviceQueueFamilyProperties (no graphics queue)", result: VK_ERROR_INITIALIZATION_FAILED)
        }
        queueFamily = UInt32(graphics)

        var priority: Float = 1
        var createdDevice: VkDevice?
        // Timeline semaphores: the game's submission tells LayerKit when the HUD's frame is done
        // (`CARenderer.frameCompletion`), so the HUD costs no submission of LayerKit's.
        let deviceExtensions = CStrings(["VK_KHR_timeline_semaphore"] + (surface == nil ? [] : ["VK_KHR_swapchain"]))
        var timeline = VkPhysicalDeviceTimelineSemaphoreFeatures()
        timeline.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES
        timeline.timelineSemaphore = VkBool32(VK_TRUE)
        try withUnsafePointer(to: &priority) { priorityPointer in
            var queueInfo = VkDeviceQueueCreateInfo()
            queueInfo.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO
            queueInfo.queueFamilyIndex = queueFamily
            queueInfo.queueCount = 1
            queueInfo.pQueuePriorities = priorityPointer
            try withUnsafePointer(to: &queueInfo) { queuePointer in
                try deviceExtensions.pointers.withUnsafeBufferPointer { extensionPointer in
                    var info = VkDeviceCreateInfo()
                    info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO
                    info.queueCreateInfoCount = 1
                    info.pQueueCreateInfos = queuePointer
                    info.enabledExtensionCount = UInt32(extensionPointer.count)
                    info.ppEnabledExtensionNames = extensionPointer.baseAddress
                    try withUnsafePointer(to: &timeline) { features in
                        info.pNext = UnsafeRawPointer(features)
                        try check(vkCreateDevice(physicalDevice, &info, nil, &createdDevice), "vkCreateDevice")
                    }
                }
            }
        }
        device = createdDevice
        var createdQueue: VkQueue?
        vkGetDeviceQueue(device, queueFamily, 0, &createdQueue)
        queue = createdQueue
    }

    private func makeFrameImage() throws {
        var info = VkImageCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO
        info.imageType = VK_IMAGE_TYPE_2D
        info.format = VK_FORMAT_R8G8B8A8_UNORM
        info.extent = VkExtent3D(width: UInt32(width), height: UInt32(height), depth: 1)
        info.mipLevels = 1
        info.arrayLayers = 1
        info.samples = VK_SAMPLE_COUNT_1_BIT
        info.tiling = VK_IMAGE_TILING_OPTIMAL
        info.usage = Self.frameImageUsage
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED
        var image: VkImage?
        try check(vkCreateImage(device, &info, nil, &image), "vkCreateImage")
        frameImage = image

        var requirements = VkMemoryRequirements()
        vkGetImageMemoryRequirements(device, frameImage, &requirements)
        frameMemory = try allocate(requirements, preferring: VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT.rawValue)
        try check(vkBindImageMemory(device, frameImage, frameMemory, 0), "vkBindImageMemory")

        var viewInfo = VkImageViewCreateInfo()
        viewInfo.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO
        viewInfo.image = frameImage
        viewInfo.viewType = VK_IMAGE_VIEW_TYPE_2D
        viewInfo.format = VK_FORMAT_R8G8B8A8_UNORM
        viewInfo.subresourceRange = VkImageSubresourceRange(aspectMask: VK_IMAGE_ASPECT_COLOR_BIT.rawValue, baseMipLevel: 0, levelCount: 1,
                                                            baseArrayLayer: 0, layerCount: 1)
        var view: VkImageView?
        try check(vkCreateImageView(device, &viewInfo, nil, &view), "vkCreateImageView")
        frameView = view
    }

    /// One colour attachment, its old contents dropped (every pixel gets a tile). With the HUD drawn inside
    /// the pass it ends ready to copy out (TRANSFER_SRC_OPTIMAL; the second dependency makes the pass's
    /// writes visible to the copy); else it is left for LayerKit's pass to draw over (COLOR_ATTACHMENT_OPTIMAL,
    /// LayerKit's barriers order its reads and writes after the pass's). The first dependency orders it after
    /// the last frame's copy out of it; the HUD blends (reads the attachment) as well as writes.
    private func makeRenderPass(hudInside: Bool) throws -> VkRenderPass {
        var attachment = VkAttachmentDescription()
        attachment.format = VK_FORMAT_R8G8B8A8_UNORM
        attachment.samples = VK_SAMPLE_COUNT_1_BIT
        attachment.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE
        attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE
        attachment.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE
        attachment.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE
        attachment.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED
        attachment.finalLayout = hudInside ? VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL : VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL
        var reference = VkAttachmentReference(attachment: 0, layout: VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL)
        var dependencies = [VkSubpassDependency(), VkSubpassDependency()]
        dependencies[0].srcSubpass = VK_SUBPASS_EXTERNAL
        dependencies[0].dstSubpass = 0
        dependencies[0].srcStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue | VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT.rawValue
        dependencies[0].srcAccessMask = 0
        dependencies[0].dstStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT.rawValue
        dependencies[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT.rawValue | VK_ACCESS_COLOR_ATTACHMENT_READ_BIT.rawValue
        dependencies[1].srcSubpass = 0
        dependencies[1].dstSubpass = VK_SUBPASS_EXTERNAL
        dependencies[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT.rawValue
        dependencies[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT.rawValue
        dependencies[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT.rawValue
        dependencies[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT.rawValue
        var created: VkRenderPass?
        try withUnsafePointer(to: &reference) { referencePointer in
            var subpass = VkSubpassDescription()
            subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS
            subpass.colorAttachmentCount = 1
            subpass.pColorAttachments = referencePointer
            try withUnsafePointer(to: &attachment) { attachmentPointer in
                try withUnsafePointer(to: &subpass) { subpassPointer in
                    try dependencies.withUnsafeBufferPointer { dependencyPointer in
                        var info = VkRenderPassCreateInfo()
                        info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO
                        info.attachmentCount = 1
                        info.pAttachments = attachmentPointer
                        info.subpassCount = 1
                        info.pSubpasses = subpassPointer
                        // Both dependencies in both passes: passes that differ in them are not compatible, and
                        // one framebuffer serves both (the second is then LayerKit's copies' to wait on).
                        info.dependencyCount = 2
                        info.pDependencies = dependencyPointer.baseAddress
                        try check(vkCreateRenderPass(device, &info, nil, &created), "vkCreateRenderPass")
                    }
                }
            }
        }
        return created!
    }

    /// The frame's framebuffer, made with `renderPass` and compatible with `renderPassBeforeHUD`.
    private func makeFramebuffer() throws {
        var view: VkImageView? = frameView
        var framebufferInfo = VkFramebufferCreateInfo()
        framebufferInfo.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO
        framebufferInfo.renderPass = renderPass
        framebufferInfo.attachmentCount = 1
        framebufferInfo.width = UInt32(width)
        framebufferInfo.height = UInt32(height)
        framebufferInfo.layers = 1
        var createdFramebuffer: VkFramebuffer?
        try withUnsafePointer(to: &view) { viewPointer in
            framebufferInfo.pAttachments = viewPointer
            try check(vkCreateFramebuffer(device, &framebufferInfo, nil, &createdFramebuffer), "vkCreateFramebuffer")
        }
        framebuffer = createdFramebuffer
    }

    /// Device memory for `requirements`, of a type with `preferred` properties when there is one (else
    /// any type that fits, unless `required`).
    private func allocate(_ requirements: VkMemoryRequirements, preferring preferred: VkMemoryPropertyFlags,
                          required: VkMemoryPropertyFlags = 0) throws -> VkDeviceMemory {
        var properties = VkPhysicalDeviceMemoryProperties()
        vkGetPhysicalDeviceMemoryProperties(physicalDevice, &properties)
        let types = withUnsafeBytes(of: properties.memoryTypes) { Array($0.bindMemory(to: VkMemoryType.self).prefix(Int(properties.memoryTypeCount))) }
        func fits(_ index: Int, _ flags: VkMemoryPropertyFlags) -> Bool {
            requirements.memoryTypeBits & (1 << UInt32(index)) != 0 && types[index].propertyFlags & flags == flags
        }
        guard let type = types.indices.first(where: { fits($0, preferred | required) }) ?? types.indices.first(where: { fits($0, required) }) else {
            throw GameVulkanError(call: "vkGetPhysicalDeviceMemoryProperties (no memory type)", result: VK_ERROR_OUT_OF_DEVICE_MEMORY)
        }
        var allocation = VkMemoryAllocateInfo()
        allocation.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO
        allocation.allocationSize = requirements.size
        allocation.memoryTypeIndex = UInt32(type)
        var memory: VkDeviceMemory?
        try check(vkAllocateMemory(device, &allocation, nil, &memory), "vkAllocateMemory")
        return memory!
    }

    /// A host-visible buffer the frame is copied into each frame (`readFrame`).
    private func makeReadback() throws {
        var info = VkBufferCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO
        info.size = VkDeviceSize(width * height * 4)
        info.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        var buffer: VkBuffer?
        try check(vkCreateBuffer(device, &info, nil, &buffer), "vkCreateBuffer")
        readbackBuffer = buffer
        var requirements = VkMemoryRequirements()
        vkGetBufferMemoryRequirements(device, buffer, &requirements)
        readbackMemory = try allocate(requirements, preferring: 0,
                                      required: VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT.rawValue | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT.rawValue)
        try check(vkBindBufferMemory(device, buffer, readbackMemory, 0), "vkBindBufferMemory")
    }

    private func makeCommands() throws {
        var poolInfo = VkCommandPoolCreateInfo()
        poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO
        poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT.rawValue
        poolInfo.queueFamilyIndex = queueFamily
        var pool: VkCommandPool?
        try check(vkCreateCommandPool(device, &poolInfo, nil, &pool), "vkCreateCommandPool")
        commandPool = pool
        var allocation = VkCommandBufferAllocateInfo()
        allocation.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO
        allocation.commandPool = commandPool
        allocation.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY
        allocation.commandBufferCount = 1
        var buffer: VkCommandBuffer?
        try check(vkAllocateCommandBuffers(device, &allocation, &buffer), "vkAllocateCommandBuffers")
        commandBuffer = buffer
        var fenceInfo = VkFenceCreateInfo()
        fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO
        fenceInfo.flags = VK_FENCE_CREATE_SIGNALED_BIT.rawValue
        var fence: VkFence?
        try check(vkCreateFence(device, &fenceInfo, nil, &fence), "vkCreateFence")
        frameDone = fence
    }
}
