import CSDL2
import Foundation
import LayerKitVulkan

// Turning SDL events into the window's callbacks and geometry.
//
// Input: the events SDL has queued (`SDL_PollEvent`), on the owner thread. Output: callbacks with
// `PointerEvent`s (location mapped into the root layer's space) and `KeyEvent`s; for window events, the
// root layer's geometry and the render server's target size, or a suspended swapchain while the window
// is minimized. Events of other SDL windows (a game's own, another LayerWindow's) are put back in SDL's
// queue, in their order, for whoever reads it next.
// Cost: O(events).

extension LayerWindow {
    /// Dispatches every event SDL has queued for this window, and leaves the others queued.
    func dispatchPendingEvents() {
        var event = SDL_Event()
        var others: [SDL_Event] = []
        while SDL_PollEvent(&event) != 0 {
            if belongsHere(event) { dispatch(event) } else { others.append(event) }
        }
        for var other in others { SDL_PushEvent(&other) }
    }

    /// Whether `event` is this window's: its own window, pointer, key and text events, and quit (which
    /// every window hears).
    func belongsHere(_ event: SDL_Event) -> Bool {
        switch SDL_EventType(event.type) {
        case SDL_QUIT: true
        case SDL_WINDOWEVENT: event.window.windowID == windowID
        case SDL_MOUSEBUTTONDOWN, SDL_MOUSEBUTTONUP: event.button.windowID == windowID
        case SDL_MOUSEMOTION: event.motion.windowID == windowID
        case SDL_MOUSEWHEEL: event.wheel.windowID == windowID
        case SDL_KEYDOWN, SDL_KEYUP: event.key.windowID == windowID
        case SDL_TEXTINPUT: event.text.windowID == windowID
        default: false
        }
    }

    func dispatch(_ event: SDL_Event) {
        switch SDL_EventType(event.type) {
        case SDL_QUIT:
            deliverQuit()
        case SDL_WINDOWEVENT where event.window.windowID == windowID:
            handleWindowEvent(SDL_WindowEventID(UInt32(event.window.event)), event.window)
        case SDL_MOUSEBUTTONDOWN where event.button.windowID == windowID:
            onPointerDown?(pointerEvent(x: event.button.x, y: event.button.y, button: event.button.button, clicks: event.button.clicks, down: true))
        case SDL_MOUSEBUTTONUP where event.button.windowID == windowID:
            onPointerUp?(pointerEvent(x: event.button.x, y: event.button.y, button: event.button.button, clicks: event.button.clicks, down: false))
        case SDL_MOUSEMOTION where event.motion.windowID == windowID:
            let location = CGPoint(x: CGFloat(event.motion.x), y: CGFloat(event.motion.y))
            onPointerMove?(PointerEvent(
                location: rootLayer.convert(location, from: nil), windowLocation: location, button: nil,
                buttons: Self.buttons(inMask: event.motion.state), clickCount: 0))
        case SDL_KEYDOWN where event.key.windowID == windowID:
            onKeyDown?(KeyEvent(event.key))
        case SDL_KEYUP where event.key.windowID == windowID:
            onKeyUp?(KeyEvent(event.key))
        case SDL_MOUSEWHEEL where event.wheel.windowID == windowID:
            var x: Int32 = 0, y: Int32 = 0
            SDL_GetMouseState(&x, &y)
            let location = CGPoint(x: CGFloat(x), y: CGFloat(y))
            let flip: CGFloat = event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -1 : 1
            onScroll?(ScrollEvent(location: rootLayer.convert(location, from: nil), windowLocation: location,
                                  delta: CGSize(width: CGFloat(event.wheel.preciseX) * flip, height: CGFloat(event.wheel.preciseY) * flip)))
        case SDL_TEXTINPUT where event.text.windowID == windowID:
            let text = withUnsafeBytes(of: event.text.text) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !text.isEmpty { onTextInput?(text) }
        default:
            break
        }
    }

    private func deliverQuit() {
        if let onQuit { onQuit() } else { stop() }
    }

    private func pointerEvent(x: Int32, y: Int32, button: UInt8, clicks: UInt8, down: Bool) -> PointerEvent {
        let location = CGPoint(x: CGFloat(x), y: CGFloat(y))
        let changed = PointerEvent.Button(sdlButton: button)
        var held = Self.buttons(inMask: SDL_GetMouseState(nil, nil))
        // SDL's state may already include or exclude the button; the event decides.
        if down { held.insert(changed) } else { held.remove(changed) }
        return PointerEvent(
            location: rootLayer.convert(location, from: nil), windowLocation: location, button: changed,
            buttons: held, clickCount: Int(clicks))
    }

    /// The buttons in an SDL button mask (bit n-1 for button n).
    static func buttons(inMask mask: UInt32) -> Set<PointerEvent.Button> {
        var result = Set<PointerEvent.Button>()
        for number in 1...8 where mask & (1 << UInt32(number - 1)) != 0 {
            result.insert(PointerEvent.Button(sdlButton: UInt8(number)))
        }
        return result
    }

    private func handleWindowEvent(_ kind: SDL_WindowEventID, _ event: SDL_WindowEvent) {
        switch kind {
        case SDL_WINDOWEVENT_SIZE_CHANGED, SDL_WINDOWEVENT_DISPLAY_CHANGED:
            updateGeometryFromWindow()
        case SDL_WINDOWEVENT_MINIMIZED:
            setMinimized(true)
        case SDL_WINDOWEVENT_RESTORED, SDL_WINDOWEVENT_MAXIMIZED, SDL_WINDOWEVENT_SHOWN:
            setMinimized(false)
            updateGeometryFromWindow()
        case SDL_WINDOWEVENT_EXPOSED:
            server.setNeedsFrame()
        case SDL_WINDOWEVENT_CLOSE:
            deliverQuit()
        default:
            break
        }
    }

    /// Reads the window's size in points and pixels from SDL and applies it.
    func updateGeometryFromWindow() {
        var width: Int32 = 0
        var height: Int32 = 0
        SDL_GetWindowSize(window.handle, &width, &height)
        applyWindowSize(points: CGSize(width: CGFloat(width), height: CGFloat(height)), pixels: SDLVulkanSurface.drawableSize(of: window.handle))
    }

    /// Resizes the root layer to `points` (in a transaction without actions), tells the render server
    /// the new target size, and calls `onResize` when the size in points changed. A drawable with no
    /// pixels suspends presenting until it has some again.
    func applyWindowSize(points: CGSize, pixels: (width: Int, height: Int)) {
        assertOwnerThread()
        guard pixels.width > 0, pixels.height > 0, points.width > 0, points.height > 0 else {
            drawableSize = (0, 0)
            executor.setSuspended(true)
            return
        }
        if !isMinimized { executor.setSuspended(false) }
        let scale = Self.scale(points: points, pixels: pixels)
        let changed = points != size
        size = points
        contentsScale = scale
        drawableSize = pixels
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        rootLayer.bounds.size = points
        rootLayer.position = CGPoint(x: points.width * rootLayer.anchorPoint.x, y: points.height * rootLayer.anchorPoint.y)
        if rootLayer.contentsScale != scale { rootLayer.contentsScale = scale }
        CATransaction.commit()
        // After the commit, so the first frame at the new size has the new root geometry.
        server.resize(width: pixels.width, height: pixels.height, viewport: CGRect(origin: .zero, size: points), scale: scale)
        if changed { onResize?(points) }
    }

    /// Minimized windows skip frames (animations keep their time); restoring draws at once.
    func setMinimized(_ minimized: Bool) {
        isMinimized = minimized
        executor.setSuspended(minimized || drawableSize.width == 0 || drawableSize.height == 0)
        if !minimized { server.setNeedsFrame() }
    }
}
