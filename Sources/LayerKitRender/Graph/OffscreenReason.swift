/// Why the render graph draws a subtree into an offscreen surface instead of straight into its target
/// (DESIGN.md §4, rule 2). Every offscreen pass carries one; frame statistics count passes per reason.
///
/// Only the reasons the builder can produce today are cases. The other one DESIGN.md lists (3D
/// flattening) arrives with its feature; replicators draw their instances without a pass.
public enum OffscreenReason: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// A layer with `allowsGroupOpacity` and opacity below 1 whose subtree's draws overlap one another:
    /// the subtree is composited once, then faded. Without overlap the opacity is folded into each draw.
    case groupOpacity
    /// A layer with a `mask`: its subtree is drawn into one surface, the mask layer's subtree into another,
    /// and the first is multiplied by the second's alpha before it is composited.
    case mask
    /// A `shouldRasterize` layer whose cached bitmap is missing or out of date: its subtree is drawn into
    /// the bitmap, which this frame and later ones composite (`RenderGraphBuilder+Rasterization.swift`).
    /// Also a settled layer with filters or an offscreen shadow, whose bitmap holds the effects' results.
    case rasterize
    /// A layer's shadow that is not a rect or rounded rect (`ShadowShape`): the layer's alpha (or its
    /// `shadowPath`) drawn into a surface, blurred by kernel passes, and composited tinted and offset
    /// behind the layer (`RenderGraphBuilder+Effects.swift`).
    case shadow
    /// A layer with `filters`: its subtree flattened into a surface, then each filter's kernel passes
    /// (`FilterPlan`), the result composited in the layer's place.
    case filter
    /// A layer with `backgroundFilters`: what lies behind it drawn again into a surface, filtered, and
    /// composited under it within its shape (`RenderGraphBuilder+Backdrop.swift`).
    case backgroundFilter
    /// A layer with a `compositingFilter` and more than one draw: its subtree flattened so that its
    /// composite, not each draw, blends with what is behind it.
    case compositingFilter
    /// A `CATransition` fade: the layer's old and new states cross-dissolved in a surface (and each
    /// state flattened first where its draws overlap), composited once (`RenderGraphBuilder+Transition.swift`).
    case transition
    /// A debug view needs the frame drawn a second way (`DebugOptions.overdraw` counts fragments into a
    /// surface, then colors the frame by the count).
    case debugVisualization

    public var description: String { rawValue }
}
