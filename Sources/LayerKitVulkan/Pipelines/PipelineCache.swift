import CVulkan
import Foundation
import Logging

/// A `VkPipelineCache` persisted on disk, so the second start of an application skips shader compilation.
///
/// Input: a directory (`$XDG_CACHE_HOME/layerkit`, else `~/.cache/layerkit`; nil disables persistence).
/// Output: `handle` for pipeline creation; `save()` writes the driver's blob back atomically.
/// The file is named after the device's vendor, device ID and pipeline-cache UUID, and its header is
/// checked against them before the driver sees it: a corrupt or foreign file is ignored with a log line.
/// Cost: one file read at start, one write when the blob has changed.
final class PipelineCache {
    let handle: VkPipelineCache
    /// Where the cache lives, or nil when persistence is off.
    let fileURL: URL?
    /// Whether a valid file was loaded at start.
    let loadedFromDisk: Bool
    private let device: VulkanDevice
    private let logger: Logger
    private var savedSize = 0

    /// `$XDG_CACHE_HOME/layerkit`, else `$HOME/.cache/layerkit`, else nil.
    static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg).appendingPathComponent("layerkit")
        }
        if let home = environment["HOME"], !home.isEmpty {
            return URL(fileURLWithPath: home).appendingPathComponent(".cache/layerkit")
        }
        return nil
    }

    init(device: VulkanDevice, directory: URL?, logger: Logger) throws {
        self.device = device
        self.logger = logger
        let properties = device.properties
        let uuid = withUnsafeBytes(of: properties.pipelineCacheUUID) { Array($0) }
        let fileName = String(format: "pipelines-%04x-%04x-", properties.vendorID, properties.deviceID)
            + uuid.map { String(format: "%02x", $0) }.joined() + ".bin"
        fileURL = directory?.appendingPathComponent(fileName)

        var initialData = Data()
        if let fileURL, let data = try? Data(contentsOf: fileURL) {
            if let problem = Self.headerProblem(data, vendorID: properties.vendorID, deviceID: properties.deviceID, uuid: uuid) {
                logger.warning("ignoring pipeline cache file", metadata: ["path": "\(fileURL.path)", "reason": "\(problem)"])
            } else {
                initialData = data
            }
        }
        var cache: VkPipelineCache?
        try initialData.withUnsafeBytes { bytes in
            var info = VkPipelineCacheCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO
            info.initialDataSize = bytes.count
            info.pInitialData = bytes.count > 0 ? bytes.baseAddress : nil
            try check(vkCreatePipelineCache(device.handle, &info, nil, &cache), "vkCreatePipelineCache")
        }
        handle = cache!
        loadedFromDisk = !initialData.isEmpty
        savedSize = initialData.count
        device.labels.name(handle, VK_OBJECT_TYPE_PIPELINE_CACHE, "pipeline cache")
    }

    deinit {
        vkDestroyPipelineCache(device.handle, handle, nil)
    }

    /// Why `data` is not a cache for this device (`VkPipelineCacheHeaderVersionOne`), or nil if it is.
    static func headerProblem(_ data: Data, vendorID: UInt32, deviceID: UInt32, uuid: [UInt8]) -> String? {
        guard data.count >= 32 else { return "shorter than the 32-byte header (\(data.count) bytes)" }
        func word(_ offset: Int) -> UInt32 {
            data.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
        }
        let headerSize = word(0)
        guard headerSize >= 32, headerSize <= data.count else { return "header size \(headerSize) is invalid" }
        guard word(4) == VK_PIPELINE_CACHE_HEADER_VERSION_ONE.rawValue else { return "header version \(word(4)) is not 1" }
        guard word(8) == vendorID, word(12) == deviceID else { return "written for another device" }
        guard Array(data[data.startIndex + 16..<data.startIndex + 32]) == uuid else { return "pipeline cache UUID differs (driver changed)" }
        return nil
    }

    /// Writes the driver's current blob to disk if it grew since the last load or save. Failures are
    /// logged, never thrown: the cache is an optimisation.
    func save() {
        guard let fileURL else { return }
        var size = 0
        guard vkGetPipelineCacheData(device.handle, handle, &size, nil) == VK_SUCCESS, size > 0, size != savedSize else { return }
        var data = Data(count: size)
        let result = data.withUnsafeMutableBytes { vkGetPipelineCacheData(device.handle, handle, &size, $0.baseAddress) }
        guard result == VK_SUCCESS else {
            logger.warning("could not read pipeline cache data", metadata: ["result": "\(VulkanError.name(of: result.rawValue))"])
            return
        }
        do {
            try FileManager.default.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.prefix(size).write(to: fileURL, options: .atomic)
            savedSize = size
        } catch {
            logger.warning("could not write pipeline cache", metadata: ["path": "\(fileURL.path)", "error": "\(error)"])
        }
    }
}
