import CVulkan

/// What the GPU measured for one frame: fragment-shader invocations (a pipeline-statistics query inside
/// each of the frame's render passes) and the time from the start of its first render pass to the end of
/// its last (two timestamps).
///
/// Input: a command buffer being recorded — `begin` before anything else, with how many passes the
/// frame may draw and whether it is measured at all (a frame that is not records no query); `passBegan` right after each pass begins (LayerKit's render pass, or the app's subpass
/// LayerKit draws into) and `passEnding` right before it ends — then, once the frame's fence has
/// signalled, `results()`. Every query lies inside a render pass and the pools are reset on the host
/// (`VulkanDevice.resetQueryPool`) where the device can: a frame's command buffer then opens with its
/// first render pass and closes with its last. lavapipe waits for all rendering submitted before at
/// each pipeline barrier except one that opens or closes a command buffer, and each render pass begins
/// and ends with one (Mesa's common render pass code): a reset or timestamp outside the passes made the
/// frame's first barrier wait for the frame before to be rasterized, and its last wait for its own, so
/// the driver's vertex work and its rasterization never overlapped across frames (a `city` window:
/// 82 % of the two cores busy, 96 % without). Devices without host resets reset in the command buffer.
/// Output: fragments shaded and GPU seconds, each nil where the device lacks the feature
/// (`pipelineStatisticsQuery`; timestamps on the queue) or the frame never recorded its queries. One per
/// frame in flight, reused: `begin` resets the pools (after the frame's last use has completed, as the
/// reuse of its command buffer implies). A frame drawn inside an app's render pass counts only LayerKit's
/// draws there; its GPU time spans the app's commands between its first pass and its draws.
/// Cost: two small query pools (the statistics one grown to the most passes a frame has drawn); a reset,
/// a query per pass and two timestamp writes per frame.
final class GPUQueries {
    private let device: VulkanDevice
    /// The frame's name, for the pools' labels.
    private let name: String
    /// One query per pass; nil where the device counts no fragments.
    private var statisticsPool: VkQueryPool?
    private var statisticsCapacity: Int
    private let timestampPool: VkQueryPool?
    /// What the current recording wrote (so results are read only for queries that ran).
    private var passesCounted = 0
    private var passOpen = false
    private var measuring = false
    private var startTimestampWritten = false
    private var recordedTimestamps = false

    init(device: VulkanDevice, name: String) throws {
        self.device = device
        self.name = name
        statisticsCapacity = 0
        statisticsPool = nil
        timestampPool = device.supportsTimestamps
            ? try Self.makePool(device, VK_QUERY_TYPE_TIMESTAMP, count: 2, statistics: 0, label: "\(name) · timestamps") : nil
    }

    deinit {
        if let statisticsPool { vkDestroyQueryPool(device.handle, statisticsPool, nil) }
        if let timestampPool { vkDestroyQueryPool(device.handle, timestampPool, nil) }
    }

    private static func makePool(_ device: VulkanDevice, _ type: VkQueryType, count: Int, statistics: VkQueryPipelineStatisticFlags,
                                 label: String) throws -> VkQueryPool? {
        var info = VkQueryPoolCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO
        info.queryType = type
        info.queryCount = UInt32(count)
        info.pipelineStatistics = statistics
        var pool: VkQueryPool?
        try check(vkCreateQueryPool(device.handle, &info, nil, &pool), "vkCreateQueryPool(\(label))")
        device.labels.name(pool, VK_OBJECT_TYPE_QUERY_POOL, label)
        return pool
    }

    /// Readies the pools for a frame of at most `passes` passes (growing the statistics pool to hold
    /// them) and resets them: on the host where the device can, else first in `commandBuffer`. A frame
    /// not `measuring` records no query (and touches no pool).
    func begin(_ commandBuffer: VkCommandBuffer, passes: Int, measuring: Bool) throws {
        discard()
        guard measuring else { return }
        self.measuring = true
        if device.supportsPipelineStatistics && passes > statisticsCapacity {
            let capacity = max(passes, 2 * statisticsCapacity, 4)
            if let statisticsPool { vkDestroyQueryPool(device.handle, statisticsPool, nil) }
            statisticsPool = nil
            statisticsCapacity = 0
            statisticsPool = try Self.makePool(device, VK_QUERY_TYPE_PIPELINE_STATISTICS, count: capacity,
                                               statistics: VK_QUERY_PIPELINE_STATISTIC_FRAGMENT_SHADER_INVOCATIONS_BIT.rawValue,
                                               label: "\(name) · fragments")
            statisticsCapacity = capacity
        }
        for (pool, count) in [(statisticsPool, statisticsCapacity), (timestampPool, 2)] {
            guard let pool else { continue }
            if let reset = device.resetQueryPool {
                // lavapipe's host reset destroys the queries on its queue's context from this thread: safe
                // only because the frame's last use has completed (its fence signalled), so no scene of
                // the driver still refers to them and it flushes nothing.
                reset(device.handle, pool, 0, UInt32(count))
            } else {
                vkCmdResetQueryPool(commandBuffer, pool, 0, UInt32(count))
            }
        }
    }

    /// Starts counting a pass's fragments (and, for the frame's first pass, its time): right after the
    /// pass began in `commandBuffer`.
    func passBegan(_ commandBuffer: VkCommandBuffer) {
        guard measuring else { return }
        precondition(!passOpen, "one pass at a time")
        if !startTimestampWritten, let timestampPool {
            vkCmdWriteTimestamp(commandBuffer, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, timestampPool, 0)
            startTimestampWritten = true
        }
        if let statisticsPool {
            precondition(passesCounted < statisticsCapacity, "the frame draws more passes than `begin` was told")
            vkCmdBeginQuery(commandBuffer, statisticsPool, UInt32(passesCounted), 0)
        }
        passOpen = true
    }

    /// Stops counting the pass `passBegan` started (in the same render pass or subpass), and for the
    /// frame's last pass (`isLast`) writes the end timestamp.
    func passEnding(_ commandBuffer: VkCommandBuffer, isLast: Bool) {
        guard passOpen else { return }
        if let statisticsPool { vkCmdEndQuery(commandBuffer, statisticsPool, UInt32(passesCounted)) }
        passOpen = false
        passesCounted += 1
        if isLast && startTimestampWritten, let timestampPool {
            vkCmdWriteTimestamp(commandBuffer, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestampPool, 1)
            recordedTimestamps = true
        }
    }

    /// Forgets the recording (the frame was abandoned; its queries will never be written).
    func discard() {
        measuring = false
        passesCounted = 0
        passOpen = false
        startTimestampWritten = false
        recordedTimestamps = false
    }

    /// The frame's fragments shaded and GPU seconds. Call only after the frame's fence has signalled.
    func results() -> (fragments: Int?, seconds: Double?) {
        var fragments: Int?
        var seconds: Double?
        if passesCounted > 0, let statisticsPool {
            var values = [UInt64](repeating: 0, count: passesCounted)
            let result = vkGetQueryPoolResults(device.handle, statisticsPool, 0, UInt32(passesCounted), values.count * MemoryLayout<UInt64>.size,
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
