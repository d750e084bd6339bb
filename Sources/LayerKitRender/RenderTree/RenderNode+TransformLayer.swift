import LayerKit

extension RenderNode {
    /// Whether the layer is a `CATransformLayer`: it draws nothing and its sublayers join its
    /// superlayer's 3D rendering context instead of being flattened into its plane. The model says so
    /// with a declared property (`CATransformLayer.renderKindKey`) committed with the layer.
    package var isTransformLayer: Bool {
        // Most layers declare nothing: answer them without hashing a key (the builder asks for every layer).
        guard !customProperties.isEmpty, case .discrete(let value)? = customProperties[CATransformLayer.renderKindKey] else { return false }
        return value.value as? Bool ?? false
    }
}
