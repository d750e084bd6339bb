import CVulkan

/// Every way the Vulkan backend fails, as a Swift error. `VkResult` becomes a `VulkanError` here and
/// nowhere else (`check(_:_:)`).
package enum VulkanError: Error, CustomStringConvertible, Equatable {
    /// A Vulkan call returned an error code.
    case call(String, result: Int32)
    /// No Vulkan loader or driver (ICD) answered.
    case noVulkanDriver(String)
    /// Drivers exist but no device can render (no graphics queue, or `LK_DEVICE` matched nothing).
    case noUsableDevice(String)
    /// `LK_VALIDATION=1` (or an explicit request) but the Khronos validation layer is not installed.
    case validationLayerMissing
    /// No memory type satisfies a resource's requirements.
    case noSuitableMemoryType(typeBits: UInt32, required: UInt32)
    /// A shader stage is missing from the embedded SPIR-V.
    case missingShader(String)
    /// A render graph names a target this renderer cannot draw into.
    case unsupportedTarget(String)
    /// An image is larger than the device's largest 2D image.
    case imageTooLarge(width: Int, height: Int, limit: Int)
    /// Readback was asked for before any frame was rendered.
    case nothingRendered

    /// Whether the device is gone (`VK_ERROR_DEVICE_LOST`): everything made on it must be made again.
    package var isDeviceLost: Bool {
        if case .call(_, let result) = self { return result == VK_ERROR_DEVICE_LOST.rawValue }
        return false
    }

    package var description: String {
        switch self {
        case let .call(what, result):
            return "\(what) failed: \(VulkanError.name(of: result)) (\(result))"
        case let .noVulkanDriver(detail):
            return "no Vulkan driver: \(detail). Install the Debian packages libvulkan1 (the loader) and "
                + "mesa-vulkan-drivers (lavapipe, a CPU implementation) or your GPU vendor's driver."
        case let .noUsableDevice(detail):
            return "no usable Vulkan device: \(detail). For a CPU device install the Debian package "
                + "mesa-vulkan-drivers; LK_DEVICE selects a device by a substring of its name."
        case .validationLayerMissing:
            return "validation was requested but VK_LAYER_KHRONOS_validation is not installed; install the "
                + "Debian package vulkan-validationlayers"
        case let .noSuitableMemoryType(typeBits, required):
            return "no memory type in mask 0x\(String(typeBits, radix: 16)) has properties 0x\(String(required, radix: 16))"
        case let .missingShader(name):
            return "shader \(name) is not in the embedded SPIR-V (is it in Shaders/?)"
        case let .unsupportedTarget(detail):
            return "unsupported render target: \(detail)"
        case let .imageTooLarge(width, height, limit):
            return "a \(width)x\(height) image exceeds this device's \(limit)-pixel image limit"
        case .nothingRendered:
            return "readback() called before render()"
        }
    }

    /// Whether the device (or the injected limit of a test) had no memory for an allocation.
    var isOutOfDeviceMemory: Bool {
        if case let .call(_, result) = self { return result == VK_ERROR_OUT_OF_DEVICE_MEMORY.rawValue }
        return false
    }

    static func name(of result: Int32) -> String {
        switch result {
        case VK_NOT_READY.rawValue: return "VK_NOT_READY"
        case VK_TIMEOUT.rawValue: return "VK_TIMEOUT"
        case VK_INCOMPLETE.rawValue: return "VK_INCOMPLETE"
        case VK_ERROR_OUT_OF_HOST_MEMORY.rawValue: return "VK_ERROR_OUT_OF_HOST_MEMORY"
        case VK_ERROR_OUT_OF_DEVICE_MEMORY.rawValue: return "VK_ERROR_OUT_OF_DEVICE_MEMORY"
        case VK_ERROR_INITIALIZATION_FAILED.rawValue: return "VK_ERROR_INITIALIZATION_FAILED"
        case VK_ERROR_DEVICE_LOST.rawValue: return "VK_ERROR_DEVICE_LOST"
        case VK_ERROR_MEMORY_MAP_FAILED.rawValue: return "VK_ERROR_MEMORY_MAP_FAILED"
        case VK_ERROR_LAYER_NOT_PRESENT.rawValue: return "VK_ERROR_LAYER_NOT_PRESENT"
        case VK_ERROR_EXTENSION_NOT_PRESENT.rawValue: return "VK_ERROR_EXTENSION_NOT_PRESENT"
        case VK_ERROR_FEATURE_NOT_PRESENT.rawValue: return "VK_ERROR_FEATURE_NOT_PRESENT"
        case VK_ERROR_INCOMPATIBLE_DRIVER.rawValue: return "VK_ERROR_INCOMPATIBLE_DRIVER"
        case VK_ERROR_TOO_MANY_OBJECTS.rawValue: return "VK_ERROR_TOO_MANY_OBJECTS"
        case VK_ERROR_FORMAT_NOT_SUPPORTED.rawValue: return "VK_ERROR_FORMAT_NOT_SUPPORTED"
        case VK_ERROR_FRAGMENTED_POOL.rawValue: return "VK_ERROR_FRAGMENTED_POOL"
        case VK_ERROR_OUT_OF_POOL_MEMORY.rawValue: return "VK_ERROR_OUT_OF_POOL_MEMORY"
        default: return "VkResult"
        }
    }
}

/// Turns a `VkResult` into a thrown `VulkanError.call` unless it is `VK_SUCCESS`. `what` names the call
/// and its purpose ("vkCreateImage(headless target)").
@inline(__always)
func check(_ result: VkResult, _ what: @autoclosure () -> String) throws {
    guard result == VK_SUCCESS else {
        throw VulkanError.call(what(), result: result.rawValue)
    }
}
