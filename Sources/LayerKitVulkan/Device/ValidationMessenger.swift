import CVulkan
import Foundation
import Logging

/// Receives the Khronos validation layer's messages (`VK_EXT_debug_utils`), logs them through swift-log
/// and keeps the warnings and errors in a thread-safe list that tests assert is empty.
///
/// Input: callbacks from any thread the driver or layer chooses. Output: `messages`, one line each,
/// "[severity] messageID: text": every error, and every validation or performance warning. Suppressions come from `KnownValidationIssues`. Cost: only when the layer
/// reports something; enabled only with `LK_VALIDATION=1` or an explicit request.
///
/// Ownership: the lists are behind a lock (`Locked`; the layer's threads append, tests read), so the log is
/// checked `Sendable`.
package final class ValidationLog: Sendable {
    private struct Lists {
        var recorded: [String] = []
        var suppressed: [String: Int] = [:]
    }

    private let lists = Locked(Lists())
    let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// Warnings and errors reported so far, in arrival order.
    package var messages: [String] {
        lists.withLock { $0.recorded }
    }

    /// How many times each suppressed message ID arrived.
    package var suppressedCounts: [String: Int] {
        lists.withLock { $0.suppressed }
    }

    /// Forgets the recorded messages (for a test that provokes one on purpose).
    package func removeAll() {
        lists.withLock { $0.recorded.removeAll() }
    }

    /// Records errors of any type and warnings from validation proper (validation or performance type);
    /// general-type warnings (the loader's remarks about drivers it skips) are only logged.
    func receive(severity: VkDebugUtilsMessageSeverityFlagBitsEXT, types: VkDebugUtilsMessageTypeFlagsEXT, messageID: String, text: String) {
        let severityName: String
        let level: Logger.Level
        switch severity {
        case VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT: severityName = "error"; level = .error
        case VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT: severityName = "warning"; level = .warning
        case VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT: severityName = "info"; level = .debug
        default: severityName = "verbose"; level = .trace
        }
        let validationTypes = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT.rawValue | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT.rawValue
        let isFailure = level == .error || (level == .warning && types & validationTypes != 0)
        if isFailure, let suppression = KnownValidationIssues.suppression(forMessageID: messageID) {
            lists.withLock { $0.suppressed[messageID, default: 0] += 1 }
            logger.debug("suppressed validation message", metadata: ["messageID": "\(messageID)", "reason": "\(suppression.reason)"])
            return
        }
        logger.log(level: level, "\(text)", metadata: ["messageID": "\(messageID)", "severity": "\(severityName)"])
        if isFailure {
            let line = "[\(severityName)] \(messageID): \(text)"
            lists.withLock { $0.recorded.append(line) }
        }
    }
}

/// The C callback: forwards to the `ValidationLog` passed as user data.
private func validationCallback(
    _ severity: VkDebugUtilsMessageSeverityFlagBitsEXT,
    _ types: VkDebugUtilsMessageTypeFlagsEXT,
    _ data: UnsafePointer<VkDebugUtilsMessengerCallbackDataEXT>?,
    _ userData: UnsafeMutableRawPointer?
) -> VkBool32 {
    guard let data, let userData else { return VkBool32(VK_FALSE) }
    let log = Unmanaged<ValidationLog>.fromOpaque(userData).takeUnretainedValue()
    let messageID = data.pointee.pMessageIdName.map { String(cString: $0) } ?? "\(data.pointee.messageIdNumber)"
    let text = data.pointee.pMessage.map { String(cString: $0) } ?? ""
    log.receive(severity: severity, types: types, messageID: messageID, text: text)
    return VkBool32(VK_FALSE)
}

enum ValidationMessenger {
    /// Severities delivered to the callback: everything; `ValidationLog` decides what is a failure.
    static let severities: VkDebugUtilsMessageSeverityFlagsEXT =
        VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT.rawValue | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT.rawValue
        | VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT.rawValue

    static let types: VkDebugUtilsMessageTypeFlagsEXT =
        VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT.rawValue | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT.rawValue
        | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT.rawValue

    /// A create-info routing messages to `log`. The caller keeps `log` alive as long as the messenger.
    static func createInfo(log: ValidationLog) -> VkDebugUtilsMessengerCreateInfoEXT {
        var info = VkDebugUtilsMessengerCreateInfoEXT()
        info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT
        info.messageSeverity = severities
        info.messageType = types
        info.pfnUserCallback = validationCallback
        info.pUserData = Unmanaged.passUnretained(log).toOpaque()
        return info
    }
}
