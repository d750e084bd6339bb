import Foundation

// Filters and rasterization.

extension CALayer {
    /// Filters applied to the layer and its sublayers, flattened, in order. Animatable
    /// (`"filters.NAME.KEY"`). The types in `CIFilter.drawnFilters` are drawn (blurs grow the layer's
    /// drawn area); setting any other says so (`LayerKitDiagnostic.filterNotDrawn`) and the layer draws
    /// without it.
    public var filters: [Any]? {
        get { value(of: .filters) }
        // Filters are copied when set, as Core Animation treats them as immutable from then on.
        set {
            Self.reportUndrawnFilters(newValue, property: "filters")
            setValue(newValue?.map { ($0 as? CIFilter)?.copy() ?? $0 }, of: .filters)
        }
    }

    /// Says which entries of a filter list the renderer will not draw: those that are not a `CIFilter`,
    /// and types outside `CIFilter.drawnFilters`.
    private static func reportUndrawnFilters(_ filters: [Any]?, property: String) {
        for entry in filters ?? [] {
            guard let filter = entry as? CIFilter else {
                LayerKitDiagnostics.emit(.filterNotDrawn(filter: "\(type(of: entry)) \(entry)", property: property))
                continue
            }
            if filter.kernel == nil && !CIFilter.drawnFilters.contains(filter.filterName) {
                LayerKitDiagnostics.emit(.filterNotDrawn(filter: filter.filterName, property: property))
            }
        }
    }

    /// Filters applied to what is behind the layer, composited under the layer within its rounded
    /// bounds: frosted glass. Animatable. The types in `CIFilter.drawnFilters` are drawn; setting any
    /// other says so (`LayerKitDiagnostic.filterNotDrawn`). "Behind" is what is drawn before the layer in
    /// the same target: the window, or the flattened group the layer is inside.
    public var backgroundFilters: [Any]? {
        get { value(of: .backgroundFilters) }
        set {
            Self.reportUndrawnFilters(newValue, property: "backgroundFilters")
            setValue(newValue?.map { ($0 as? CIFilter)?.copy() ?? $0 }, of: .backgroundFilters)
        }
    }

    /// A filter that composites the layer (flattened with its sublayers) with what is behind it: a Core
    /// Image blend or compositing filter, as a `CIFilter` or by name (`"multiplyBlendMode"`). Animatable
    /// (discretely). The modes in `CIFilter.drawnCompositingFilters` are drawn by the GPU's blending;
    /// setting another says so (`LayerKitDiagnostic.filterNotDrawn`) and the layer composites source-over.
    public var compositingFilter: Any? {
        get { value(of: .compositingFilter) }
        set {
            if let newValue {
                let name = CIFilter.compositingFilterName(of: newValue)
                if !CIFilter.drawnCompositingFilters.contains(name ?? "") {
                    LayerKitDiagnostics.emit(.filterNotDrawn(filter: name ?? "\(newValue)", property: "compositingFilter"))
                }
            }
            setValue(newValue, of: .compositingFilter)
        }
    }

    /// Whether the layer and its sublayers are rendered once into a bitmap and reused. Animatable.
    ///
    /// The bitmap is drawn in the layer's own space at `rasterizationScale` times its on-screen scale and
    /// reused from frame to frame until something inside changes: a property of any sublayer, the
    /// layer's own contents or appearance, an animation running inside, or its on-screen scale. Moving,
    /// rotating or fading the layer itself reuses it. The layer composites as one group (its opacity
    /// applies to the bitmap), sampled with its `minificationFilter` and `magnificationFilter`.
    public var shouldRasterize: Bool {
        get { value(of: .shouldRasterize) }
        set { setValue(newValue, of: .shouldRasterize) }
    }

    /// The scale of the rasterized bitmap relative to the layer's points. Animatable.
    public var rasterizationScale: CGFloat {
        get { value(of: .rasterizationScale) }
        set { setValue(newValue, of: .rasterizationScale) }
    }
}
