import Foundation

// Filters and rasterization.

extension CALayer {
    /// Filters applied to the layer and its sublayers. Animatable (`"filters.NAME.KEY"`).
    public var filters: [Any]? {
        get { value(of: .filters) }
        // Filters are copied when set, as Core Animation treats them as immutable from then on.
        set { setValue(newValue?.map { ($0 as? CIFilter)?.copy() ?? $0 }, of: .filters) }
    }

    /// Filters applied to what is behind the layer, within its bounds. Animatable.
    public var backgroundFilters: [Any]? {
        get { value(of: .backgroundFilters) }
        set { setValue(newValue, of: .backgroundFilters) }
    }

    /// A filter that composites the layer with what is behind it. Animatable.
    public var compositingFilter: Any? {
        get { value(of: .compositingFilter) }
        set { setValue(newValue, of: .compositingFilter) }
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
