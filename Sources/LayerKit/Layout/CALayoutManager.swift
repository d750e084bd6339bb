import Foundation

/// An object that lays out a layer's sublayers: Core Animation's `CALayoutManager`, set as a layer's
/// `layoutManager`.
///
/// Every method is optional, as in Core Animation's informal protocol; the defaults behave as if the
/// manager did not implement it. The layer calls them:
/// - `layoutSublayers(of:)` from its default `layoutSublayers()`, when its delegate does not lay it out;
/// - `invalidateLayout(of:)` from `setNeedsLayout()`, when a layout that was valid becomes invalid;
/// - `preferredSize(of:)` from `preferredFrameSize()`.
public protocol CALayoutManager: AnyObject {
    /// The size `layer` would like in its superlayer. Default: its bounds size through its transform
    /// (what `preferredFrameSize()` gives without a layout manager).
    func preferredSize(of layer: CALayer) -> CGSize

    /// `layer`'s layout is no longer valid: drop whatever was cached about it. Default: nothing.
    func invalidateLayout(of layer: CALayer)

    /// Sets the frames of `layer`'s sublayers. Default: nothing.
    func layoutSublayers(of layer: CALayer)
}

public extension CALayoutManager {
    func preferredSize(of layer: CALayer) -> CGSize { layer.transformedBoundsSize }
    func invalidateLayout(of layer: CALayer) {}
    func layoutSublayers(of layer: CALayer) {}
}
