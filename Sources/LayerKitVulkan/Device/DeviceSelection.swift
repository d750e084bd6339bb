import CVulkan

/// What LayerKit needs to know about a physical device to choose one.
struct PhysicalDeviceCandidate {
    let handle: VkPhysicalDevice?
    let name: String
    let kind: Kind
    /// A queue family with graphics (which implies transfer) support, if any.
    let graphicsQueueFamily: UInt32?

    enum Kind: Int, Comparable, CustomStringConvertible {
        // Raw values are the preference order: lower is preferred.
        case discrete = 0, integrated, virtual, cpu, other

        init(_ type: VkPhysicalDeviceType) {
            switch type {
            case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: self = .discrete
            case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: self = .integrated
            case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: self = .virtual
            case VK_PHYSICAL_DEVICE_TYPE_CPU: self = .cpu
            default: self = .other
            }
        }

        static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rawValue < rhs.rawValue }

        var description: String {
            switch self {
            case .discrete: return "discrete GPU"
            case .integrated: return "integrated GPU"
            case .virtual: return "virtual GPU"
            case .cpu: return "CPU"
            case .other: return "other"
            }
        }
    }
}

/// Chooses the physical device to render with.
///
/// Input: the candidates the instance enumerates and `LK_DEVICE` (a case-insensitive substring of a
/// device name). Output: one candidate with a graphics queue. Rule: with `LK_DEVICE`, the first device
/// whose name contains it (an error naming the available devices when none does); otherwise the most
/// preferred kind — discrete, integrated, virtual, CPU — in enumeration order. Cost: negligible, once.
enum DeviceSelection {
    static let environmentVariable = "LK_DEVICE"

    static func choose(from candidates: [PhysicalDeviceCandidate], override: String?) throws -> PhysicalDeviceCandidate {
        let usable = candidates.filter { $0.graphicsQueueFamily != nil }
        let available = candidates.map { "\($0.name) (\($0.kind))" }.joined(separator: ", ")
        if let override, !override.isEmpty {
            guard let match = usable.first(where: { $0.name.lowercased().contains(override.lowercased()) }) else {
                throw VulkanError.noUsableDevice("\(environmentVariable)=\(override) matches none of: \(available.isEmpty ? "no devices" : available)")
            }
            return match
        }
        guard let best = usable.enumerated().min(by: { ($0.element.kind, $0.offset) < ($1.element.kind, $1.offset) })?.element else {
            if candidates.isEmpty {
                throw VulkanError.noVulkanDriver("the Vulkan loader found no physical devices")
            }
            throw VulkanError.noUsableDevice("no device has a graphics queue (found: \(available))")
        }
        return best
    }

    /// Every physical device of `instance`, described.
    static func candidates(of instance: VkInstance) throws -> [PhysicalDeviceCandidate] {
        var count: UInt32 = 0
        try check(vkEnumeratePhysicalDevices(instance, &count, nil), "vkEnumeratePhysicalDevices")
        var devices = [VkPhysicalDevice?](repeating: nil, count: Int(count))
        try check(vkEnumeratePhysicalDevices(instance, &count, &devices), "vkEnumeratePhysicalDevices")
        return devices.prefix(Int(count)).map { device in
            var properties = VkPhysicalDeviceProperties()
            vkGetPhysicalDeviceProperties(device, &properties)
            var familyCount: UInt32 = 0
            vkGetPhysicalDeviceQueueFamilyProperties(device, &familyCount, nil)
            var families = [VkQueueFamilyProperties](repeating: VkQueueFamilyProperties(), count: Int(familyCount))
            vkGetPhysicalDeviceQueueFamilyProperties(device, &familyCount, &families)
            let graphics = families.prefix(Int(familyCount)).firstIndex {
                $0.queueFlags & VK_QUEUE_GRAPHICS_BIT.rawValue != 0 && $0.queueCount > 0
            }
            return PhysicalDeviceCandidate(
                handle: device,
                name: fixedString(properties.deviceName),
                kind: .init(properties.deviceType),
                graphicsQueueFamily: graphics.map { UInt32($0) }
            )
        }
    }
}
