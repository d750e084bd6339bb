import LayerKit

extension RenderNode {
    /// The specialised drawing the layer's class asks for (`LayerRenderKind`, committed with its declared
    /// properties); nil for layers of any other class.
    package var renderKind: LayerRenderKind? {
        // Most layers declare nothing: answer them without hashing a key (the builder asks for every layer).
        guard !customProperties.isEmpty, let raw = customProperties.string(LayerRenderKind.propertyKey) else { return nil }
        return LayerRenderKind(rawValue: raw)
    }

    /// Whether the layer is a `CATransformLayer`: it draws nothing and its sublayers join its
    /// superlayer's 3D rendering context instead of being flattened into its plane.
    package var isTransformLayer: Bool { renderKind == .transform }

    /// Whether the layer's sublayers join a 3D rendering context instead of being flattened into its
    /// plane: a `CATransformLayer`, or a `CAReplicatorLayer` with `preservesDepth` (its instances then
    /// take their places in depth, as Core Animation draws them). Neither draws content of its own.
    package var keepsSublayersIn3D: Bool {
        switch renderKind {
        case .transform?: true
        case .replicator?: customProperties.bool("preservesDepth") == true
        default: false
        }
    }

    /// Whether the layer can draw nothing but its background colour: a plain layer (no class-specific
    /// drawing) without sublayers, contents, border, shadow, filters or a running transition.
    package var drawsAtMostBackground: Bool {
        sublayers.isEmpty && customProperties.isEmpty && contents == nil && !(borderWidth > 0) && !(shadowOpacity > 0)
            && filters.isEmpty && backgroundFilters.isEmpty && activeTransition == nil && !shouldRasterize
    }
}
