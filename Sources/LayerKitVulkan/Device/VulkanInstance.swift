import CVulkan
import Foundation
import Logging

/// The Vulkan instance: loader, optional Khronos validation (with synchronization validation) and the
/// `VK_EXT_debug_utils` messenger.
///
/// Input: an application name and whether to validate. Output: a `VkInstance` plus the extension
/// functions LayerKit uses. Cost: once per `VulkanContext`; validation slows every later call.
final class VulkanInstance {
    static let validationLayerName = "VK_LAYER_KHRONOS_validation"
    /// Vulkan 1.1: everything LayerKit needs, available on lavapipe and every desktop GPU since 2018.
    static let apiVersion: UInt32 = (1 << 22) | (1 << 12)

    let handle: VkInstance
    let validationEnabled: Bool
    /// Whether `VK_EXT_debug_utils` is enabled (object names, command labels, the validation messenger).
    let debugUtilsEnabled: Bool
    let log: ValidationLog
    private var messenger: VkDebugUtilsMessengerEXT?
    private let destroyMessenger: PFN_vkDestroyDebugUtilsMessengerEXT?
    /// Whether LayerKit made the instance (and destroys it); an app's instance is only borrowed.
    private let ownsHandle: Bool

    /// An app's instance, borrowed: LayerKit adds nothing to it (no messenger, no debug labels, whose
    /// extension it cannot know is on) and never destroys it.
    init(borrowing handle: VkInstance, log: ValidationLog) {
        self.handle = handle
        self.log = log
        validationEnabled = false
        debugUtilsEnabled = false
        destroyMessenger = nil
        ownsHandle = false
    }

    /// - Parameter extraExtensions: instance extensions the caller needs (a window system's surface
    ///   extensions); a missing one throws `VulkanError.noVulkanDriver` naming it.
    init(applicationName: String, validation: Bool, log: ValidationLog, extraExtensions: [String] = []) throws {
        self.log = log
        VulkanDriverResidency.keepDriverLoaded()
        let availableLayers = try Self.instanceLayerNames()
        let availableExtensions = try Self.instanceExtensionNames()
        if validation && !availableLayers.contains(Self.validationLayerName) {
            throw VulkanError.validationLayerMissing
        }
        let missing = extraExtensions.filter { !availableExtensions.contains($0) }
        guard missing.isEmpty else {
            throw VulkanError.noVulkanDriver("the Vulkan loader lacks the instance extensions \(missing.joined(separator: ", "))")
        }
        var extensions: [String] = extraExtensions
        let debugUtils = availableExtensions.contains("VK_EXT_debug_utils")
        if debugUtils { extensions.append("VK_EXT_debug_utils") }
        var flags: VkInstanceCreateFlags = 0
        if availableExtensions.contains("VK_KHR_portability_enumeration") {
            extensions.append("VK_KHR_portability_enumeration")
            flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR.rawValue
        }
        let layers = validation ? [Self.validationLayerName] : []

        let arena = CreateInfoArena()
        var app = VkApplicationInfo()
        app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO
        app.pApplicationName = arena.cString(applicationName)
        app.pEngineName = arena.cString("LayerKit")
        app.engineVersion = 1
        app.apiVersion = Self.apiVersion

        // pNext chain: the messenger (so instance creation and destruction are reported too), then the
        // validation features that turn on synchronization validation.
        var chain: UnsafeRawPointer?
        if debugUtils {
            var messengerInfo = ValidationMessenger.createInfo(log: log)
            messengerInfo.pNext = chain
            chain = UnsafeRawPointer(arena.pointer(to: messengerInfo))
        }
        if validation {
            var features = VkValidationFeaturesEXT()
            features.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT
            features.enabledValidationFeatureCount = 1
            features.pEnabledValidationFeatures = UnsafePointer(arena.pointer(to: [VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT]))
            features.pNext = chain
            chain = UnsafeRawPointer(arena.pointer(to: features))
        }
        var info = VkInstanceCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO
        info.pNext = chain
        info.flags = flags
        info.pApplicationInfo = UnsafePointer(arena.pointer(to: app))
        info.enabledExtensionCount = UInt32(extensions.count)
        info.ppEnabledExtensionNames = UnsafePointer(arena.cStrings(extensions))
        info.enabledLayerCount = UInt32(layers.count)
        info.ppEnabledLayerNames = UnsafePointer(arena.cStrings(layers))
        var instance: VkInstance?
        let result = vkCreateInstance(&info, nil, &instance)
        if result == VK_ERROR_INCOMPATIBLE_DRIVER || result == VK_ERROR_INITIALIZATION_FAILED {
            throw VulkanError.noVulkanDriver("vkCreateInstance returned \(VulkanError.name(of: result.rawValue))")
        }
        try check(result, "vkCreateInstance")
        guard let instance else { throw VulkanError.noVulkanDriver("vkCreateInstance returned no instance") }
        VulkanCensus.instanceCreated()
        self.handle = instance
        self.ownsHandle = true
        self.validationEnabled = validation
        self.debugUtilsEnabled = debugUtils
        self.destroyMessenger = loadInstanceFunction(instance, "vkDestroyDebugUtilsMessengerEXT")

        if debugUtils, let create: PFN_vkCreateDebugUtilsMessengerEXT = loadInstanceFunction(instance, "vkCreateDebugUtilsMessengerEXT") {
            var created: VkDebugUtilsMessengerEXT?
            var info = ValidationMessenger.createInfo(log: log)
            try check(create(instance, &info, nil, &created), "vkCreateDebugUtilsMessengerEXT")
            messenger = created
        }
    }

    deinit {
        guard ownsHandle else { return }
        if let messenger, let destroyMessenger {
            destroyMessenger(handle, messenger, nil)
        }
        vkDestroyInstance(handle, nil)
    }

    static func instanceLayerNames() throws -> Set<String> {
        var count: UInt32 = 0
        try check(vkEnumerateInstanceLayerProperties(&count, nil), "vkEnumerateInstanceLayerProperties")
        var properties = [VkLayerProperties](repeating: VkLayerProperties(), count: Int(count))
        try check(vkEnumerateInstanceLayerProperties(&count, &properties), "vkEnumerateInstanceLayerProperties")
        return Set(properties.prefix(Int(count)).map { fixedString($0.layerName) })
    }

    static func instanceExtensionNames() throws -> Set<String> {
        var count: UInt32 = 0
        try check(vkEnumerateInstanceExtensionProperties(nil, &count, nil), "vkEnumerateInstanceExtensionProperties")
        var properties = [VkExtensionProperties](repeating: VkExtensionProperties(), count: Int(count))
        try check(vkEnumerateInstanceExtensionProperties(nil, &count, &properties), "vkEnumerateInstanceExtensionProperties")
        return Set(properties.prefix(Int(count)).map { fixedString($0.extensionName) })
    }
}

/// Looks up an instance-level extension function; nil when the driver lacks it.
func loadInstanceFunction<Function>(_ instance: VkInstance, _ name: String) -> Function? {
    guard let function = vkGetInstanceProcAddr(instance, name) else { return nil }
    return unsafeBitCast(function, to: Function.self)
}

/// Reads a fixed-size C `char[N]` member (imported as a tuple) as a Swift string.
func fixedString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        let bytes = raw.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}
