import CVulkan
import Foundation

/// How a window's swapchain hands finished images to the display.
///
/// Input: `LK_PRESENT_MODE` (`fifo`, `mailbox` or `immediate`, case-insensitive) and the modes the surface
/// supports. Output: the mode to create the swapchain with. Rule: FIFO (vsync, every frame shown, never
/// tearing) unless the variable asks for another; a value that names no mode, or a mode the surface
/// lacks, falls back to FIFO — which every surface supports — with a named diagnostic that is logged.
/// Cost: none after swapchain creation.
package enum PresentMode: String, CaseIterable, Sendable {
    /// Vsync: images queue up and one is shown per refresh. Always available.
    case fifo
    /// Vsync without queueing: a newer image replaces a waiting one (lowest latency without tearing).
    case mailbox
    /// No vsync: an image is shown at once, and may tear.
    case immediate

    /// The environment variable that chooses the mode.
    package static let environmentVariable = "LK_PRESENT_MODE"

    /// Why the requested mode was not used, as a named value (STYLE.md guideline 7).
    package enum Diagnostic: Equatable, Sendable, CustomStringConvertible {
        /// `LK_PRESENT_MODE` named no present mode.
        case unrecognizedPresentMode(value: String)
        /// The surface does not support the requested mode.
        case presentModeUnsupported(requested: PresentMode)

        package var name: String {
            switch self {
            case .unrecognizedPresentMode: "unrecognizedPresentMode"
            case .presentModeUnsupported: "presentModeUnsupported"
            }
        }

        package var description: String {
            switch self {
            case let .unrecognizedPresentMode(value):
                "\(PresentMode.environmentVariable)=\(value) names no present mode (valid: "
                    + PresentMode.allCases.map(\.rawValue).joined(separator: ", ") + "); using fifo"
            case let .presentModeUnsupported(requested):
                "the surface does not support present mode \(requested.rawValue); using fifo"
            }
        }
    }

    /// The mode `value` (an `LK_PRESENT_MODE` value) asks for: FIFO when nil or empty, FIFO with a
    /// diagnostic when it names no mode.
    package static func parse(_ value: String?) -> (mode: PresentMode, diagnostic: Diagnostic?) {
        guard let value else { return (.fifo, nil) }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return (.fifo, nil) }
        guard let mode = PresentMode(rawValue: trimmed.lowercased()) else {
            return (.fifo, .unrecognizedPresentMode(value: value))
        }
        return (mode, nil)
    }

    /// This mode if the surface supports it, else FIFO with a diagnostic.
    package func resolved(supported: [PresentMode]) -> (mode: PresentMode, diagnostic: Diagnostic?) {
        if self == .fifo || supported.contains(self) { return (self, nil) }
        return (.fifo, .presentModeUnsupported(requested: self))
    }

    var vulkanValue: VkPresentModeKHR {
        switch self {
        case .fifo: VK_PRESENT_MODE_FIFO_KHR
        case .mailbox: VK_PRESENT_MODE_MAILBOX_KHR
        case .immediate: VK_PRESENT_MODE_IMMEDIATE_KHR
        }
    }

    init?(_ mode: VkPresentModeKHR) {
        switch mode {
        case VK_PRESENT_MODE_FIFO_KHR: self = .fifo
        case VK_PRESENT_MODE_MAILBOX_KHR: self = .mailbox
        case VK_PRESENT_MODE_IMMEDIATE_KHR: self = .immediate
        default: return nil
        }
    }
}
