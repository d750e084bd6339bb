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

    init(applicationName: String, validation: Bool, log: ValidationLog) throws {
        self.log = log
        let availableLayers = try Self.instanceLayerNames()
        let availableExtensions = try Self.instanceExtensionNames()
        if validation && !availableLayers.contains(Self.validationLayerName) {
            throw VulkanError.validationLayerMissing
        }
        var extensions: [String] = []
        let debugUtils = availableExtensions.contains("VK_EXT_debug_utils")
        if debugUtils { extensions.append("VK_EXT_debug_utils") }
        var flags: VkInstanceCreateFlags = 0
        if availableExtensions.contains("VK_KHR_portability_enumeration") {
            extensions.append("VK_KHR_portability_enumeration")
            flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR.rawValue
        }
        let layers = validation ? [Self.validationLayerName] : []

        var messengerInfo = ValidationMessenger.createInfo(log: log)
        var enabledFeatures = [VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT]
        var instance: VkInstance?
        let result: VkResult = try withCStringArray(extensions) { extensionPointers in
            try withCStringArray(layers) { layerPointers in
                try applicationName.withCString { appName in
                    try "LayerKit".withCString { engineName in
                        var app = VkApplicationInfo()
                        app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO
                        app.pApplicationName = appName
                        app.pEngineName = engineName
                        app.engineVersion = 1
                        app.apiVersion = Self.apiVersion
                        return try withUnsafePointer(to: &app) { appPointer in
                            try enabledFeatures.withUnsafeMutableBufferPointer { features in
                                var validationFeatures = VkValidationFeaturesEXT()
                                validationFeatures.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT
                                validationFeatures.enabledValidationFeatureCount = UInt32(features.count)
                                validationFeatures.pEnabledValidationFeatures = UnsafePointer(features.baseAddress)
                                return try withUnsafeMutablePointer(to: &messengerInfo) { messengerPointer in
                                    try withUnsafeMutablePointer(to: &validationFeatures) { featuresPointer in
                                        var chain: UnsafeMutableRawPointer? = nil
                                        if debugUtils {
                                            messengerPointer.pointee.pNext = chain.map { UnsafeRawPointer($0) }
                                            chain = UnsafeMutableRawPointer(messengerPointer)
                                        }
                                        if validation {
                                            featuresPointer.pointee.pNext = chain.map { UnsafeRawPointer($0) }
                                            chain = UnsafeMutableRawPointer(featuresPointer)
                                        }
                                        var info = VkInstanceCreateInfo()
                                        info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO
                                        info.pNext = chain.map { UnsafeRawPointer($0) }
                                        info.flags = flags
                                        info.pApplicationInfo = appPointer
                                        info.enabledExtensionCount = UInt32(extensionPointers.count)
                                        info.ppEnabledExtensionNames = extensionPointers.baseAddress
                                        info.enabledLayerCount = UInt32(layerPointers.count)
                                        info.ppEnabledLayerNames = layerPointers.baseAddress
                                        return vkCreateInstance(&info, nil, &instance)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        if result == VK_ERROR_INCOMPATIBLE_DRIVER || result == VK_ERROR_INITIALIZATION_FAILED {
            throw VulkanError.noVulkanDriver("vkCreateInstance returned \(VulkanError.name(of: result.rawValue))")
        }
        try check(result, "vkCreateInstance")
        guard let instance else { throw VulkanError.noVulkanDriver("vkCreateInstance returned no instance") }
        self.handle = instance
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

/// Calls `body` with a C array of C strings that lives for the duration of the call.
func withCStringArray<Result>(_ strings: [String], _ body: (UnsafeBufferPointer<UnsafePointer<CChar>?>) throws -> Result) rethrows -> Result {
    let duplicated = strings.map { strdup($0) }
    defer { duplicated.forEach { free($0) } }
    let pointers = duplicated.map { UnsafePointer($0) }
    return try pointers.withUnsafeBufferPointer(body)
}

/// Reads a fixed-size C `char[N]` member (imported as a tuple) as a Swift string.
func fixedString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        let bytes = raw.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}
