import CVulkan
import Foundation
import Logging

/// Where a context keeps its on-disk pipeline cache.
package enum PipelineCacheLocation: Sendable, Equatable {
    /// `$XDG_CACHE_HOME/layerkit`, else `~/.cache/layerkit`.
    case userCache
    /// A directory of the caller's choosing (tests use a temporary one).
    case directory(URL)
    /// No file: pipelines are compiled at every start.
    case none
}

/// A Vulkan instance and device, with the memory allocator and pipeline cache every renderer on it shares.
///
/// What LayerKitVulkan does NOT do: decide what to draw (that is `LayerKitRender`'s render graph), own a
/// window (`LayerKitSDL`), or touch the model tree. It executes graphs and reads pixels back.
///
/// Environment: `LK_VALIDATION=1` enables the Khronos validation layer with synchronization validation;
/// every warning or error it reports lands in `validationMessages`. `LK_DEVICE=substring` picks the device
/// whose name contains it; otherwise a discrete GPU is preferred, then integrated, virtual, CPU.
/// On a CPU device of its own, the context sets the process's C heap to keep freed memory
/// (`CPUDeviceHeapPolicy`: the driver allocates and frees its bins every frame).
/// Threading: a context and its renderers are used from one thread at a time (the render thread); they
/// may move between threads, and overlapping calls trap (`ExclusiveAccess`).
package final class VulkanContext: @unchecked Sendable {
    /// The environment variable that enables validation when set to `1`.
    package static let validationEnvironmentVariable = "LK_VALIDATION"

    let instance: VulkanInstance
    let device: VulkanDevice
    let allocator: MemoryAllocator
    let pipelineCache: PipelineCache
    let logger: Logger
    /// Held by every renderer call: the allocator and caches here are shared by all renderers.
    let access = ExclusiveAccess(name: "VulkanContext")
    private var cachedLayerPipelines: [VkFormat.RawValue: LayerPipeline] = [:]

    /// Creates an instance and a device.
    ///
    /// - Parameters:
    ///   - applicationName: reported to the driver (`VkApplicationInfo`).
    ///   - validation: force validation on or off; nil reads `LK_VALIDATION`.
    ///   - deviceName: a substring of the device to use; nil reads `LK_DEVICE`.
    ///   - pipelineCache: where the pipeline cache lives on disk.
    ///   - instanceExtensions: extra instance extensions (a window system's surface extensions).
    ///   - deviceExtensions: device extensions to enable (`VK_KHR_swapchain` to present to a window).
    /// - Throws: `VulkanError.noVulkanDriver` / `.noUsableDevice` (naming the Debian packages to install),
    ///   `.validationLayerMissing`, or a failed call.
    package init(
        applicationName: String, validation: Bool? = nil, deviceName: String? = nil,
        pipelineCache: PipelineCacheLocation = .userCache, instanceExtensions: [String] = [], deviceExtensions: [String] = []
    ) throws {
        let environment = ProcessInfo.processInfo.environment
        var logger = Logger(label: "LayerKit.Vulkan")
        logger[metadataKey: "subsystem"] = "vulkan"
        self.logger = logger
        let validate = validation ?? (environment[Self.validationEnvironmentVariable] == "1")
        instance = try VulkanInstance(
            applicationName: applicationName, validation: validate, log: ValidationLog(logger: logger), extraExtensions: instanceExtensions)
        let candidates = try DeviceSelection.candidates(of: instance.handle)
        let chosen = try DeviceSelection.choose(from: candidates, override: deviceName ?? environment[DeviceSelection.environmentVariable])
        device = try VulkanDevice(instance: instance, candidate: chosen, extensions: deviceExtensions)
        rendersOnCPU = chosen.kind == .cpu
        if CPUDeviceHeapPolicy.applies(to: chosen.kind, ownsDevice: true, environment: environment) {
            let applied = CPUDeviceHeapPolicy.apply()
            logger.debug("C heap keeps freed memory for the CPU device's per-frame bins", metadata: ["applied": "\(applied)"])
        }
        allocator = MemoryAllocator(device: device)
        let cacheDirectory: URL?
        switch pipelineCache {
        case .userCache: cacheDirectory = PipelineCache.defaultDirectory(environment: environment)
        case let .directory(url): cacheDirectory = url
        case .none: cacheDirectory = nil
        }
        self.pipelineCache = try PipelineCache(device: device, directory: cacheDirectory, logger: logger)
        logger.debug("Vulkan device", metadata: ["device": "\(device.name)", "kind": "\(chosen.kind)", "validation": "\(validate)"])
    }

    /// A context on an app's instance and device (`CARenderer.VulkanTarget`): LayerKit creates its own
    /// objects on them (memory, pipelines, a pipeline cache kept in memory) and releases them with the
    /// context, but never the app's instance, device or queue.
    package init(borrowing target: CARenderer.VulkanTarget) {
        var logger = Logger(label: "LayerKit.Vulkan")
        logger[metadataKey: "subsystem"] = "vulkan"
        self.logger = logger
        instance = VulkanInstance(borrowing: target.instance, log: ValidationLog(logger: logger))
        device = VulkanDevice(borrowing: target.device, physicalDevice: target.physicalDevice, queueFamily: target.queueFamilyIndex,
                              queueIndex: target.queueIndex, instance: instance)
        allocator = MemoryAllocator(device: device)
        // An empty in-memory cache cannot fail to load; nothing is written to disk for the app's device.
        pipelineCache = (try? PipelineCache(device: device, directory: nil, logger: logger))!
        ownsDevice = false
        logger.debug("Vulkan device (the app's)", metadata: ["device": "\(device.name)"])
    }

    /// Whether the device is LayerKit's own (an app's is waited for by the app, not at release).
    package private(set) var ownsDevice = true

    /// Whether LayerKit's own device is a CPU implementation (lavapipe): its images live in host memory,
    /// so a window host may show frames from there (`HostPresenter`). False on an app's device.
    package private(set) var rendersOnCPU = false

    deinit {
        // Everything LayerKit submitted must be done before its objects go; on an app's device, only
        // LayerKit's frames are waited for (`HeadlessRenderer`), not the app's queue.
        if ownsDevice { try? device.waitIdle() }
        pipelineCache.save()
    }

    /// The device's name as the driver reports it ("llvmpipe (LLVM 15.0.6, 256 bits)").
    package var deviceName: String { device.name }

    /// Whether the Khronos validation layer is on.
    package var validationEnabled: Bool { instance.validationEnabled }

    /// Validation warnings and errors so far, one line each ("[error] VUID-…: …"); with validation off, only
    /// errors the driver itself reports. Tests assert it is empty.
    package var validationMessages: [String] { instance.log.messages }

    /// Forgets recorded validation messages.
    package func clearValidationMessages() { instance.log.removeAll() }

    /// Device memory blocks allocated from the driver (each up to 64 MiB), for leak and growth checks.
    package var memoryBlockCount: Int { allocator.blockCount }

    /// Whether a valid pipeline cache file was loaded at start.
    package var pipelineCacheLoadedFromDisk: Bool { pipelineCache.loadedFromDisk }

    /// The on-disk pipeline cache file, if persistence is on.
    package var pipelineCacheFile: URL? { pipelineCache.fileURL }

    /// The layer-quad pipeline for color targets of `format`, compiled once per context and format.
    func layerPipeline(format: VkFormat = GPUImage.format) throws -> LayerPipeline {
        if let cached = cachedLayerPipelines[format.rawValue] { return cached }
        let pipeline = try LayerPipeline(device: device, cache: pipelineCache, format: format)
        cachedLayerPipelines[format.rawValue] = pipeline
        return pipeline
    }
}
