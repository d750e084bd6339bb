/// What a frame draws: passes in execution order, each into a target, each with its draw list.
///
/// A value, printable and testable without a GPU. The last pass draws into the frame's target (the
/// swapchain image or the headless image); earlier passes draw offscreen surfaces that later passes sample.
package struct RenderGraph: Sendable {
    package var passes: [RenderPass]

    package init(passes: [RenderPass]) {
        self.passes = passes
    }
}

/// Where a pass draws.
package enum RenderTarget: Hashable, Sendable {
    /// The frame's own image, `width`×`height` pixels.
    case frame(width: Int, height: Int)
}

/// One render pass: clear a target, then draw its items in order.
package struct RenderPass: Sendable {
    package var name: String
    package var target: RenderTarget
    /// Premultiplied RGBA the target is cleared to.
    package var clearColor: SIMD4<Float>
    package var items: [DrawItem]

    package init(name: String, target: RenderTarget, clearColor: SIMD4<Float>, items: [DrawItem]) {
        self.name = name
        self.target = target
        self.clearColor = clearColor
        self.items = items
    }
}
