import CVulkan
import Logging
@testable import LayerKitVulkan
import XCTest

/// Proves the validation plumbing can fail a test: an invalid call on purpose must land in
/// `validationMessages`. Without this, an empty message list could mean validation never ran.
final class ValidationCanaryTests: XCTestCase {
    func testInvalidCallIsRecordedAsValidationMessage() throws {
        let context = try VulkanContext(applicationName: "ValidationCanary", validation: true, pipelineCache: .none)
        XCTAssertTrue(context.validationEnabled)
        XCTAssertEqual(context.validationMessages, [])

        // A zero-sized buffer violates VUID-VkBufferCreateInfo-size-00912.
        var info = VkBufferCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO
        info.size = 0
        info.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT.rawValue
        info.sharingMode = VK_SHARING_MODE_EXCLUSIVE
        var buffer: VkBuffer?
        _ = vkCreateBuffer(context.device.handle, &info, nil, &buffer)
        if let buffer { vkDestroyBuffer(context.device.handle, buffer, nil) }

        XCTAssertTrue(
            context.validationMessages.contains { $0.contains("VUID-VkBufferCreateInfo-size-00912") },
            "expected the zero-size buffer to be reported; got \(context.validationMessages)")
        context.clearValidationMessages()
        XCTAssertEqual(context.validationMessages, [])
    }

    func testSynchronizationHazardIsRecorded() throws {
        // Two transfer writes to one buffer with no barrier between them: a write-after-write hazard that
        // only synchronization validation (enabled through VkValidationFeaturesEXT) reports. The message
        // names the buffer by its debug name, which pins DebugLabels too.
        let context = try VulkanContext(applicationName: "ValidationCanary", validation: true, pipelineCache: .none)
        let frame = try FrameContext(device: context.device, index: 0)
        let buffer = try GPUBuffer(
            device: context.device, allocator: context.allocator, size: 256, usage: VK_BUFFER_USAGE_TRANSFER_DST_BIT.rawValue,
            location: .deviceLocal, name: "canary")
        try frame.beginReuse()
        var begin = VkCommandBufferBeginInfo()
        begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO
        XCTAssertEqual(vkBeginCommandBuffer(frame.commandBuffer, &begin), VK_SUCCESS)
        vkCmdFillBuffer(frame.commandBuffer, buffer.handle, 0, 256, 1)
        vkCmdFillBuffer(frame.commandBuffer, buffer.handle, 0, 256, 2)
        XCTAssertEqual(vkEndCommandBuffer(frame.commandBuffer), VK_SUCCESS)
        XCTAssertTrue(
            context.validationMessages.contains { $0.contains("SYNC-HAZARD-WRITE-AFTER-WRITE") && $0.contains("canary") },
            "expected a write-after-write hazard; got \(context.validationMessages)")
        context.clearValidationMessages()
        _ = vkQueueSubmit(context.device.queue, 0, nil, frame.fence)
    }

    func testValidationEnvironmentVariableTurnsValidationOn() throws {
        let previous = ProcessInfo.processInfo.environment[VulkanContext.validationEnvironmentVariable]
        setenv(VulkanContext.validationEnvironmentVariable, "1", 1)
        defer {
            if let previous { setenv(VulkanContext.validationEnvironmentVariable, previous, 1) } else { unsetenv(VulkanContext.validationEnvironmentVariable) }
        }
        let context = try VulkanContext(applicationName: "ValidationCanary", pipelineCache: .none)
        XCTAssertTrue(context.validationEnabled)
    }

    func testMissingDriverErrorsNameTheDebianPackages() {
        XCTAssertTrue(VulkanError.noVulkanDriver("none").description.contains("libvulkan1"))
        XCTAssertTrue(VulkanError.noVulkanDriver("none").description.contains("mesa-vulkan-drivers"))
        XCTAssertTrue(VulkanError.noUsableDevice("none").description.contains("mesa-vulkan-drivers"))
        XCTAssertTrue(VulkanError.validationLayerMissing.description.contains("vulkan-validationlayers"))
    }

    func testLoaderRemarksAreLoggedButValidationWarningsFail() {
        let log = ValidationLog(logger: Logger(label: "test"))
        let general = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT.rawValue
        let validation = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT.rawValue
        log.receive(severity: VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, types: general, messageID: "Loader Message", text: "skipping ICD")
        log.receive(severity: VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT, types: validation, messageID: "info", text: "fyi")
        XCTAssertEqual(log.messages, [])
        log.receive(severity: VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT, types: validation, messageID: "VUID-x", text: "bad")
        log.receive(severity: VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT, types: general, messageID: "Loader Message", text: "broken")
        XCTAssertEqual(log.messages, ["[warning] VUID-x: bad", "[error] Loader Message: broken"])
    }

    func testNoValidationMessageIsSuppressed() {
        // Each suppression needs a reason; today there are none, so every message fails a test.
        XCTAssertEqual(KnownValidationIssues.all, [])
    }
}
