import Foundation

/// A mouse (or touch-emulated mouse) event in a `LayerWindow`.
///
/// `location` is in the root layer's own coordinate space: the window point mapped through the root's
/// bounds origin, position and transform (`rootLayer.convert(windowLocation, from: nil)`); pass it to a
/// sublayer's `convert(_:from: rootLayer)`. `windowLocation` is in window points, origin top-left, y down
/// — the root's superlayer space, which is what `rootLayer.hitTest(_:)` takes, as in Core Animation.
public struct PointerEvent: Equatable, Sendable {
    /// A mouse button.
    public enum Button: Hashable, Sendable {
        case left
        case middle
        case right
        /// Extra buttons, numbered as SDL numbers them (4 and 5 are usually back and forward).
        case other(Int)

        init(sdlButton: UInt8) {
            switch sdlButton {
            case 1: self = .left
            case 2: self = .middle
            case 3: self = .right
            default: self = .other(Int(sdlButton))
            }
        }
    }

    /// Where the pointer is, in the root layer's coordinate space.
    public var location: CGPoint
    /// Where the pointer is, in window points.
    public var windowLocation: CGPoint
    /// The button pressed or released; nil for a move.
    public var button: Button?
    /// The buttons held down when the event happened (during a drag, for moves).
    public var buttons: Set<Button>
    /// 1 for a single click, 2 for a double click, …; 0 for moves.
    public var clickCount: Int

    public init(location: CGPoint, windowLocation: CGPoint, button: Button? = nil, buttons: Set<Button> = [], clickCount: Int = 0) {
        self.location = location
        self.windowLocation = windowLocation
        self.button = button
        self.buttons = buttons
        self.clickCount = clickCount
    }
}
