import CVulkan
import LayerKitRender

/// One `VkSampler` per (minification, magnification) filter pair, made on first use.
///
/// Non-trilinear samplers clamp the level of detail to [0, 0.25] so the min/mag filter choice still
/// follows the footprint but only level 0 is read; trilinear ones read the full mip chain. Edges clamp.
final class SamplerCache {
    struct Key: Hashable {
        let minification: TextureFilter
        let magnification: TextureFilter
    }

    private let device: VulkanDevice
    private var samplers: [Key: VkSampler] = [:]

    init(device: VulkanDevice) {
        self.device = device
    }

    deinit {
        for sampler in samplers.values { vkDestroySampler(device.handle, sampler, nil) }
    }

    func sampler(for key: Key) throws -> VkSampler {
        if let sampler = samplers[key] { return sampler }
        func filter(_ filter: TextureFilter) -> VkFilter { filter == .nearest ? VK_FILTER_NEAREST : VK_FILTER_LINEAR }
        var info = VkSamplerCreateInfo()
        info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO
        info.magFilter = filter(key.magnification)
        info.minFilter = filter(key.minification)
        let trilinear = key.minification == .trilinear
        info.mipmapMode = trilinear ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST
        info.addressModeU = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
        info.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
        info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE
        info.minLod = 0
        info.maxLod = trilinear ? VK_LOD_CLAMP_NONE : 0.25
        info.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK
        var sampler: VkSampler?
        try check(vkCreateSampler(device.handle, &info, nil, &sampler), "vkCreateSampler(\(key))")
        device.labels.name(sampler, VK_OBJECT_TYPE_SAMPLER, "sampler · min \(key.minification) · mag \(key.magnification)")
        samplers[key] = sampler!
        return sampler!
    }
}
