import CVulkan

/// What the GPU measured for one frame: fragment-shader invocations (pipeline-statistics queries around
/// the frame's render passes) and the time from the frame's first command to its last (two timestamps).
///
/// Input: a command buffer being recorded (`begin` before anything else, `beginPasses` before the first
/// render pass and `endPasses` after the last, `end` after the last command), then, once the frame's fence
/// has signalled, `results()`. A frame drawn inside an app's render pass counts in two segments — its
/// offscreen passes before the app's pass, its draws inside it — so the app's own draws are not counted
/// (a query begun outside a render pass cannot end inside one); its GPU time spans the app's commands
/// between the two. At most `maximumSegments` segments, summed.
/// Output: fragments shaded and GPU seconds, each nil where the device lacks the feature
/// (`pipelineStatisticsQuery`; timestamps on the queue) or the frame never recorded its queries. One per
/// frame in flight, reused: `begin` resets the pools. Cost: two small query pools; a reset, a begin/end
/// and two timestamp writes per frame.
final class GPUQueries {
    private let device: VulkanDevice
    private let statisticsPool: VkQueryPool?
    private let timestampPool: VkQueryPool?
    /// What the last recording wrote (so results are read only for queries that ran).
    private var segmentsRecorded = 0
    private var segmentOpen = false
    private var recordedTimestamps = false
    /// Counting segments a frame may record (`beginPasses`/`endPasses` pairs).
    static let maximumSegments = 2

    init(device: VulkanDevice, name: String) throws {
        self.device = device
        func makePool(_ type: VkQueryType, count: UInt32, statistics: VkQueryPipelineStatisticFlags, label: String) throws -> VkQueryPool? {
            var info = VkQueryPoolCreateInfo()
            info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO
            info.queryType = type
            info.queryCount = count
            info.pipelineStatistics = statistics
            var pool: VkQueryPool?
            try check(vkCreateQueryPool(device.handle, &info, nil, &pool), "vkCreateQueryPool(\(label))")
            device.labels.name(pool, VK_OBJECT_TYPE_QUERY_POOL, label)
            return pool
        }
        statisticsPool = device.supportsPipelineStatistics
            ? try makePool(VK_QUERY_TYPE_PIPELINE_STATISTICS, count: UInt32(Self.maximumSegments),
                           statistics: VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT.rawValue, label: "\(name) · fragments")
            : nil
        do {
            timestampPool = device.supportsTimestamps
                ? try makePool(VK_QUERY_TYPE_TIMESTAMP, count: 2, statistics: 0, label: "\(name) · timestamps") : nil
        } catch {
            if let statisticsPool { vkDestroyQueryPool(device.handle, statisticsPool, nil) }
            throw error
        }
    }

    deinit {
        if let statisticsPool { vkDestroyQueryPool(device.handle, statisticsPool, nil) }
        if let timestampPool { vkDestroyQueryPool(device.handle, timestampPool, nil) }
    }

    /// Resets the pools and writes the start timestamp. First in the command buffer.
    func begin(_ commandBuffer: VkCommandBuffer) {
        segmentsRecorded = 0
        segmentOpen = false
        recordedTimestamps = false
        if let statisticsPool { vkCmdResetQueryPool(commandBuffer, statisticsPool, 0, UInt32(Self.maximumSegments)) }
        if let timestampPool {
            vkCmdResetQueryPool(commandBuffer, timestampPool, 0, 2)
            vkCmdWriteTimestamp(commandBuffer, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, timestampPool, 0)
        }
    }

    /// Starts a segment counting fragments: outside any render pass before the first, or inside an app's
    /// render pass before LayerKit's draws there.
    func beginPasses(_ commandBuffer: VkCommandBuffer) {
        precondition(!segmentOpen && segmentsRecorded < Self.maximumSegments, "at most \(Self.maximumSegments) counting segments, one at a time")
        if let statisticsPool { vkCmdBeginQuery(commandBuffer, statisticsPool, UInt32(segmentsRecorded), 0) }
        segmentOpen = true
    }

    /// Ends the segment `beginPasses` opened, where it was opened (outside render passes, or inside the
    /// same app's subpass).
    func endPasses(_ commandBuffer: VkCommandBuffer) {
        guard segmentOpen else { return }
        if let statisticsPool { vkCmdEndQuery(commandBuffer, statisticsPool, UInt32(segmentsRecorded)) }
        segmentOpen = false
        segmentsRecorded += 1
    }

    /// Writes the end timestamp (after the frame's last command).
    func end(_ commandBuffer: VkCommandBuffer) {
        precondition(!segmentOpen, "a counting segment is still open")
        if let timestampPool {
            vkCmdWriteTimestamp(commandBuffer, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestampPool, 1)
            recordedTimestamps = true
        }
    }

    /// Forgets the recording (the frame was abandoned; its queries will never be written).
    func discard() {
        segmentsRecorded = 0
        segmentOpen = false
        recordedTimestamps = false
    }

    /// The frame's fragments shaded and GPU seconds. Call only after the frame's fence has signalled.
    func results() -> (fragments: Int?, seconds: Double?) {
        var fragments: Int?
        var seconds: Double?
        if segmentsRecorded > 0, let statisticsPool {
            var values = [UInt64](repeating: 0, count: segmentsRecorded)
            let result = vkGetQueryPoolResults(device.handle, statisticsPool, 0, UInt32(segmentsRecorded), values.count * MemoryLayout<UInt64>.size,
                                               &values, VkDeviceSize(MemoryLayout<UInt64>.size), VK_QUERY_RESULT_64_BIT.rawValue)
            if result == VK_SUCCESS { fragments = Int(values.reduce(0, &+)) }
        }
        if recordedTimestamps, let timestampPool {
            var values: (UInt64, UInt64) = (0, 0)
            let result = withUnsafeMutableBytes(of: &values) { bytes in
                vkGetQueryPoolResults(device.handle, timestampPool, 0, 2, bytes.count, bytes.baseAddress,
                                      VkDeviceSize(MemoryLayout<UInt64>.size), VK_QUERY_RESULT_64_BIT.rawValue)
            }
            if result == VK_SUCCESS {
                let bits = device.timestampValidBits
                let mask: UInt64 = bits >= 64 ? .max : (UInt64(1) << UInt64(bits)) - 1
                let ticks = ((values.1 & mask) &- (values.0 & mask)) & mask
                seconds = Double(ticks) * Double(device.timestampPeriod) / 1e9
            }
        }
        return (fragments, seconds)
    }
}
