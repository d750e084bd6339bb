/// What the frame's target holds before LayerKit's first draw into it, as background filters see it
/// (`RenderGraphBuilder.targetContents`).
///
/// A screen shows a layer's backdrop as everything under it: where LayerKit draws over an app's image,
/// that includes the app's own pixels, which a graph can read only when the backend can copy them out of
/// the target before its passes run.
package enum TargetContents: Hashable, Sendable {
    /// The target is cleared: behind every layer lies only what LayerKit draws (its own image, a window).
    case cleared
    /// The target keeps an app's pixels and LayerKit draws over them. `copyable`: the backend can copy
    /// them before the frame's offscreen passes (an app's image, kept with `initialLayout`); not copyable:
    /// they are not drawn yet when those passes run (the frame is drawn inside the app's own render pass),
    /// so a backdrop holds LayerKit's draws only (`RenderGraph.backdropsWithoutTargetPixels`).
    case appPixels(copyable: Bool)
}

/// A surface whose texels are the frame target's own pixels as the frame begins — what the app drew
/// there before LayerKit draws over it — rather than the output of a pass (`RenderGraph.targetPixelCopies`).
///
/// The graph says what: `region` of the target (target pixels, top-left origin, inside the target) becomes
/// `surface`, `region`'s size, 1:1. The backend says how (`LayerKitVulkan`: a blit out of the app's image
/// before any pass, with the barriers its layouts need). Items sample the surface as any other.
package struct TargetPixelCopy: Hashable, Sendable {
    package var surface: SurfaceID
    package var region: PixelRect

    package init(surface: SurfaceID, region: PixelRect) {
        self.surface = surface
        self.region = region
    }
}
