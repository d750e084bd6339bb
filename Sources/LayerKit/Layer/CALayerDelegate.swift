/// Methods a layer's delegate can implement. Every method is optional (default implementations do
/// nothing), as in Core Animation. Drawing and layout callbacks arrive with the content and layout work.
public protocol CALayerDelegate: AnyObject {
    /// The action for `event`: nil to continue the search, `NSNull()` to stop it with no action.
    func action(for layer: CALayer, forKey event: String) -> CAAction?

    /// Lays out `layer`'s sublayers; called by the layer's default `layoutSublayers()`. Default: asks the
    /// layer's `layoutManager`, as Core Animation does when the delegate does not implement this method.
    func layoutSublayers(of layer: CALayer)

    /// Sets `layer`'s contents; called by the layer's default `display()`. Default: the layer's backing
    /// store, drawn with `layerWillDraw(_:)` and the layer's `draw(in:)` (see `CALayer+Display.swift`).
    func display(_ layer: CALayer)

    /// Draws `layer`'s content into `ctx` (the layer's bounds space, y down); called by the layer's
    /// default `draw(in:)`. Default: draws nothing.
    func draw(_ layer: CALayer, in ctx: CGContext)

    /// Called before `layer`'s backing store is drawn. Default: nothing.
    func layerWillDraw(_ layer: CALayer)
}

public extension CALayerDelegate {
    func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
    func layoutSublayers(of layer: CALayer) { layer.layoutManager?.layoutSublayers(of: layer) }
    func display(_ layer: CALayer) { layer.displayBackingStore() }
    func draw(_ layer: CALayer, in ctx: CGContext) {}
    func layerWillDraw(_ layer: CALayer) {}
}
