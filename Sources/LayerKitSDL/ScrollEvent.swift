import Foundation

/// A scroll (mouse wheel or touchpad) over a window, as `LayerWindow.onScroll` delivers it.
public struct ScrollEvent: Equatable, Sendable {
    /// Where the pointer is, in the root layer's coordinate space.
    public var location: CGPoint
    /// Where the pointer is, in window points.
    public var windowLocation: CGPoint
    /// How far, in wheel steps (fractional on touchpads): positive width to the right, positive height away from
    /// the user (scroll up), as SDL reports it with its "flipped" direction undone.
    public var delta: CGSize

    public init(location: CGPoint, windowLocation: CGPoint, delta: CGSize) {
        self.location = location
        self.windowLocation = windowLocation
        self.delta = delta
    }
}
