import CVulkan

/// Pipelines made on first use, one per key, each labelled for debuggers, destroyed with the set.
///
/// The layer-quad pipelines vary by depth phase, blend mode, stencil use and `Material`; each owner
/// (`LayerPipeline`, `SurfacePipelines`) keeps its variants here instead of a dictionary and a lookup of
/// its own. Cost: one compile per key used (cached on disk by `PipelineCache`).
final class PipelineVariants<Key: Hashable> {
    private let device: VulkanDevice
    private var pipelines: [Key: VkPipeline] = [:]

    init(device: VulkanDevice) {
        self.device = device
    }

    deinit {
        for pipeline in pipelines.values { vkDestroyPipeline(device.handle, pipeline, nil) }
    }

    /// The pipeline for `key`, made by `make` and named `label` the first time.
    func pipeline(for key: Key, label: @autoclosure () -> String, make: () throws -> VkPipeline) rethrows -> VkPipeline {
        if let existing = pipelines[key] { return existing }
        let made = try make()
        device.labels.name(made, VK_OBJECT_TYPE_PIPELINE, label())
        pipelines[key] = made
        return made
    }
}
