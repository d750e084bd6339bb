import LayerKit

/// How many Vulkan instances and devices LayerKit has created in this process: the one place that
/// counts them, bumped by `VulkanInstance` and `VulkanDevice` right after `vkCreateInstance` and
/// `vkCreateDevice` succeed (the only callers of either for a renderer). A renderer on an app's device
/// (`CARenderer.VulkanTarget`) borrows the app's instance and device and must add nothing here: "nothing
/// created twice" when a game embeds LayerKit is checked against these counts (tests, and the GameHUD
/// sample's report).
///
/// Process-wide because what it counts is: instances and devices are the driver's, for the process. It
/// only ever grows, behind `Locked`; nothing reads it to decide anything. The one instance that only keeps
/// the driver loaded (`VulkanDriverResidency`) is not counted: no renderer uses it.
package enum VulkanCensus {
    package struct Counts: Equatable, Sendable, CustomStringConvertible {
        package var instances = 0
        package var devices = 0

        package var description: String { "\(instances) Vulkan instance(s), \(devices) device(s)" }
    }

    private static let counts = Locked(Counts())

    /// What LayerKit has created so far.
    package static var created: Counts { counts.withLock { $0 } }

    static func instanceCreated() { counts.withLock { $0.instances += 1 } }
    static func deviceCreated() { counts.withLock { $0.devices += 1 } }
}
