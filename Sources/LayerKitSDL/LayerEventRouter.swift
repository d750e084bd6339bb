import Foundation

/// Delivers a window's pointer, scroll and text events to layers, as Core Animation apps route them by
/// hand: the layer under the pointer is found by hit-testing the presentation tree (where layers are on
/// screen now, animations included), and the event goes to the nearest layer at or above it that has
/// handlers (`setHandlers(_:for:)`).
///
/// Rules:
/// - Press: to the handler layer under the pointer, which then captures the pointer: moves go to it as
///   drags, and the release goes to it, wherever the pointer is (`LayerPointerEvent.isInside` says whether
///   it is over the layer). A press on no handler layer captures nothing.
/// - Hover: while no button is held, a move that changes the handler layer under the pointer sends leave
///   to the old one and enter to the new one; moves over a layer go to it as hover moves. A capture
///   ending over another layer hovers that one.
/// - Scroll: to the nearest layer under the pointer that handles scrolls.
/// - Text: to the focus — the last layer a press reached that handles text, or `focus`.
/// - Coordinates: each event carries the pointer in the receiving layer's own space (its bounds'
///   coordinates), in the root layer's space and in window points.
/// Owner thread only (the window's). Cost: one presentation copy and hit test per event.
public final class LayerEventRouter {
    /// What a layer does with events; any may be nil.
    public struct Handlers {
        public var onEnter: ((LayerPointerEvent) -> Void)?
        public var onLeave: ((LayerPointerEvent) -> Void)?
        /// The pointer moved over the layer, no button held.
        public var onHover: ((LayerPointerEvent) -> Void)?
        public var onPress: ((LayerPointerEvent) -> Void)?
        /// The pointer moved while the layer holds the capture (a press on it, not yet released).
        public var onDrag: ((LayerPointerEvent) -> Void)?
        public var onRelease: ((LayerPointerEvent) -> Void)?
        public var onScroll: ((LayerPointerEvent, CGSize) -> Void)?
        public var onText: ((String) -> Void)?

        public init(onEnter: ((LayerPointerEvent) -> Void)? = nil, onLeave: ((LayerPointerEvent) -> Void)? = nil,
                    onHover: ((LayerPointerEvent) -> Void)? = nil, onPress: ((LayerPointerEvent) -> Void)? = nil,
                    onDrag: ((LayerPointerEvent) -> Void)? = nil, onRelease: ((LayerPointerEvent) -> Void)? = nil,
                    onScroll: ((LayerPointerEvent, CGSize) -> Void)? = nil, onText: ((String) -> Void)? = nil) {
            self.onEnter = onEnter
            self.onLeave = onLeave
            self.onHover = onHover
            self.onPress = onPress
            self.onDrag = onDrag
            self.onRelease = onRelease
            self.onScroll = onScroll
            self.onText = onText
        }
    }

    /// The root whose tree events are routed in.
    public let root: CALayer
    private var handlers: [LayerID: (layer: Weak, handlers: Handlers)] = [:]
    /// The layer holding the pointer capture (pressed, not yet released).
    private var captured: CALayer?
    /// The handler layer the pointer is over (hover), for enter and leave.
    private var hovered: CALayer?
    /// The layer text goes to.
    public var focus: CALayer?

    /// A router for `root`'s tree, fed by `pointerDown(_:)` and the other methods (a custom host).
    public init(root: CALayer) {
        self.root = root
    }

    /// A router for `window`'s tree, installed on its pointer, scroll and text callbacks (replacing
    /// whatever was set there).
    public convenience init(window: LayerWindow) {
        self.init(root: window.rootLayer)
        window.onPointerDown = { [weak self] in self?.pointerDown($0) }
        window.onPointerMove = { [weak self] in self?.pointerMoved($0) }
        window.onPointerUp = { [weak self] in self?.pointerUp($0) }
        window.onScroll = { [weak self] in self?.scrolled($0) }
        window.onTextInput = { [weak self] in self?.textEntered($0) }
    }

    /// Sets what `layer` does with events (nil: nothing; events go on to its superlayers).
    public func setHandlers(_ handlers: Handlers?, for layer: CALayer) {
        self.handlers[layer.layerID] = handlers.map { (Weak(layer), $0) }
    }

    // MARK: Events

    public func pointerDown(_ event: PointerEvent) {
        guard let target = handlerLayer(at: event.location, where: { _ in true }) else { return }
        captured = target
        if handlersOf(target)?.onText != nil { focus = target }
        handlersOf(target)?.onPress?(pointerEvent(event, for: target))
    }

    public func pointerMoved(_ event: PointerEvent) {
        if let captured {
            handlersOf(captured)?.onDrag?(pointerEvent(event, for: captured))
            return
        }
        hover(event)
    }

    public func pointerUp(_ event: PointerEvent) {
        guard let target = captured else { return hover(event) }
        captured = nil
        handlersOf(target)?.onRelease?(pointerEvent(event, for: target))
        hover(event)
    }

    public func scrolled(_ event: ScrollEvent) {
        let pointer = PointerEvent(location: event.location, windowLocation: event.windowLocation)
        guard let target = handlerLayer(at: event.location, where: { $0.onScroll != nil }) else { return }
        handlersOf(target)?.onScroll?(pointerEvent(pointer, for: target), event.delta)
    }

    public func textEntered(_ text: String) {
        guard let focus else { return }
        handlersOf(focus)?.onText?(text)
    }

    // MARK: Routing

    /// Enter, leave and hover for a move with no capture.
    private func hover(_ event: PointerEvent) {
        let target = handlerLayer(at: event.location, where: { _ in true })
        if target !== hovered {
            if let hovered { handlersOf(hovered)?.onLeave?(pointerEvent(event, for: hovered)) }
            hovered = target
            if let target { handlersOf(target)?.onEnter?(pointerEvent(event, for: target)) }
        }
        if let target { handlersOf(target)?.onHover?(pointerEvent(event, for: target)) }
    }

    /// The nearest layer at or above the one under `location` (root space) whose handlers satisfy
    /// `accepts`: hit-testing where layers are on screen (the presentation tree), answered in model layers.
    private func handlerLayer(at location: CGPoint, where accepts: (Handlers) -> Bool) -> CALayer? {
        let shown = root.presentation() ?? root
        var layer = shown.hitTest(shown.convert(location, to: nil))?.model()
        while let current = layer {
            if let entry = handlersOf(current), accepts(entry) { return current }
            if current === root { return nil }
            layer = current.superlayer
        }
        return nil
    }

    private func handlersOf(_ layer: CALayer) -> Handlers? {
        guard let entry = handlers[layer.layerID], entry.layer.object === layer else { return nil }
        return entry.handlers
    }

    /// `event` as `layer` receives it: the pointer in the layer's own space too (where it is on screen now).
    private func pointerEvent(_ event: PointerEvent, for layer: CALayer) -> LayerPointerEvent {
        let shownRoot = root.presentation() ?? root
        let shownLayer = layer.presentation() ?? layer
        let local = shownLayer.convert(event.location, from: shownRoot)
        return LayerPointerEvent(layer: layer, location: local, rootLocation: event.location, windowLocation: event.windowLocation,
                                 isInside: shownLayer.contains(local), button: event.button, buttons: event.buttons,
                                 clickCount: event.clickCount)
    }

    private struct Weak {
        weak var object: CALayer?
        init(_ object: CALayer) { self.object = object }
    }
}

/// A pointer event as a layer receives it from `LayerEventRouter`.
public struct LayerPointerEvent {
    /// The layer receiving the event.
    public var layer: CALayer
    /// The pointer in the layer's own coordinate space (its bounds'), where the layer is on screen now.
    public var location: CGPoint
    /// The pointer in the root layer's coordinate space.
    public var rootLocation: CGPoint
    /// The pointer in window points.
    public var windowLocation: CGPoint
    /// Whether the pointer is over the layer (`contains`); a captured drag may leave it.
    public var isInside: Bool
    /// The button pressed or released; nil for moves and scrolls.
    public var button: PointerEvent.Button?
    /// The buttons held after the event.
    public var buttons: Set<PointerEvent.Button>
    public var clickCount: Int
}
