import CSDL2
import Foundation
@testable import LayerKitSDL
import XCTest

final class LayerWindowEventTests: LayerWindowTestCase {
    private func mouseButton(_ type: SDL_EventType, window: LayerWindow, x: Int32, y: Int32, button: Int32, clicks: UInt8 = 1) -> SDL_Event {
        var event = SDL_Event()
        event.button.type = type.rawValue
        event.button.windowID = window.windowID
        event.button.x = x
        event.button.y = y
        event.button.button = UInt8(button)
        event.button.state = UInt8(type == SDL_MOUSEBUTTONDOWN ? SDL_PRESSED : SDL_RELEASED)
        event.button.clicks = clicks
        return event
    }

    func testPointerEventsArriveInRootLayerCoordinates() throws {
        let window = try makeWindow(width: 200, height: 100)
        // Scroll the root: its coordinates are the window's plus the bounds origin.
        window.rootLayer.bounds.origin = CGPoint(x: 100, y: 50)
        var downs: [PointerEvent] = []
        var moves: [PointerEvent] = []
        var ups: [PointerEvent] = []
        window.onPointerDown = { downs.append($0) }
        window.onPointerMove = { moves.append($0) }
        window.onPointerUp = { ups.append($0) }
        try window.run(frames: 1)  // commit the scroll; drain whatever the X server sent on mapping
        moves.removeAll()

        push(mouseButton(SDL_MOUSEBUTTONDOWN, window: window, x: 30, y: 40, button: SDL_BUTTON_LEFT, clicks: 2))
        var motion = SDL_Event()
        motion.motion.type = SDL_MOUSEMOTION.rawValue
        motion.motion.windowID = window.windowID
        motion.motion.x = 35
        motion.motion.y = 47
        motion.motion.state = UInt32(1) << UInt32(SDL_BUTTON_LEFT - 1)
        push(motion)
        push(mouseButton(SDL_MOUSEBUTTONUP, window: window, x: 36, y: 48, button: SDL_BUTTON_RIGHT))
        try window.run(frames: 1)

        XCTAssertEqual(downs, [PointerEvent(
            location: CGPoint(x: 130, y: 90), windowLocation: CGPoint(x: 30, y: 40), button: .left, buttons: [.left], clickCount: 2)])
        let drag = try XCTUnwrap(moves.first { $0.windowLocation == CGPoint(x: 35, y: 47) }, "the pushed motion arrives")
        XCTAssertEqual(drag.location, CGPoint(x: 135, y: 97))
        XCTAssertNil(drag.button)
        XCTAssertEqual(drag.buttons, [.left])
        XCTAssertEqual(ups.count, 1)
        XCTAssertEqual(ups.first?.location, CGPoint(x: 136, y: 98))
        XCTAssertEqual(ups.first?.button, .right)
        XCTAssertFalse(ups.first?.buttons.contains(.right) ?? true, "a released button is not held")
    }

    func testARootTransformMapsPointerLocations() throws {
        let window = try makeWindow(width: 200, height: 100)
        // Scaled by 2 about the window's centre (100, 50): window point p maps to (p − centre)/2 + centre.
        window.rootLayer.transform = CATransform3DMakeScale(2, 2, 1)
        var downs: [PointerEvent] = []
        window.onPointerDown = { downs.append($0) }
        try window.run(frames: 1)
        push(mouseButton(SDL_MOUSEBUTTONDOWN, window: window, x: 60, y: 70, button: SDL_BUTTON_MIDDLE))
        try window.run(frames: 1)
        XCTAssertEqual(downs.first?.location, CGPoint(x: 80, y: 60))
        XCTAssertEqual(downs.first?.button, .middle)
    }

    func testEventsOfOtherWindowsAreLeftQueuedForTheirOwner() throws {
        let window = try makeWindow()
        var downs: [PointerEvent] = []
        var keys: [KeyEvent] = []
        window.onPointerDown = { downs.append($0) }
        window.onKeyDown = { keys.append($0) }
        var click = mouseButton(SDL_MOUSEBUTTONDOWN, window: window, x: 1, y: 1, button: SDL_BUTTON_LEFT)
        click.button.windowID = window.windowID + 1000
        push(click)
        var key = SDL_Event()
        key.key.type = SDL_KEYDOWN.rawValue
        key.key.windowID = window.windowID + 1000
        key.key.keysym.sym = SDL_Keycode(SDLK_SPACE.rawValue)
        push(key)
        try window.run(frames: 1)
        XCTAssertEqual(downs, [])
        XCTAssertEqual(keys, [])
        // They stay queued, in order, for the app (or the other window) to read.
        var left: [SDL_Event] = []
        var event = SDL_Event()
        while SDL_PollEvent(&event) != 0 {
            if event.type == SDL_MOUSEBUTTONDOWN.rawValue || event.type == SDL_KEYDOWN.rawValue { left.append(event) }
        }
        XCTAssertEqual(left.map(\.type), [SDL_MOUSEBUTTONDOWN.rawValue, SDL_KEYDOWN.rawValue])
        XCTAssertEqual(left.first?.button.windowID, window.windowID + 1000)
    }

    func testWheelAndTextEventsReachTheirCallbacks() throws {
        let window = try makeWindow(width: 200, height: 100)
        var scrolls: [ScrollEvent] = []
        var texts: [String] = []
        window.onScroll = { scrolls.append($0) }
        window.onTextInput = { texts.append($0) }
        window.acceptsTextInput = true
        var wheel = SDL_Event()
        wheel.wheel.type = SDL_MOUSEWHEEL.rawValue
        wheel.wheel.windowID = window.windowID
        wheel.wheel.preciseY = 1.5
        wheel.wheel.y = 1
        wheel.wheel.direction = SDL_MOUSEWHEEL_FLIPPED.rawValue
        push(wheel)
        var text = SDL_Event()
        text.text.type = SDL_TEXTINPUT.rawValue
        text.text.windowID = window.windowID
        withUnsafeMutableBytes(of: &text.text.text) { bytes in
            for (index, byte) in Array("né".utf8).enumerated() { bytes[index] = byte }
        }
        push(text)
        try window.run(frames: 1)
        XCTAssertEqual(scrolls.map(\.delta), [CGSize(width: 0, height: -1.5)], "a flipped wheel's direction undone")
        XCTAssertEqual(texts, ["né"])
        window.acceptsTextInput = false
    }

    func testKeyEventsCarryNameCodesModifiersAndRepeat() throws {
        let window = try makeWindow()
        var downs: [KeyEvent] = []
        var ups: [KeyEvent] = []
        window.onKeyDown = { downs.append($0) }
        window.onKeyUp = { ups.append($0) }
        var down = SDL_Event()
        down.key.type = SDL_KEYDOWN.rawValue
        down.key.windowID = window.windowID
        down.key.state = UInt8(SDL_PRESSED)
        down.key.repeat = 1
        down.key.keysym.sym = SDL_Keycode(SDLK_a.rawValue)
        down.key.keysym.scancode = SDL_SCANCODE_A
        down.key.keysym.mod = UInt16(KMOD_LSHIFT.rawValue | KMOD_RCTRL.rawValue)
        push(down)
        var up = SDL_Event()
        up.key.type = SDL_KEYUP.rawValue
        up.key.windowID = window.windowID
        up.key.keysym.sym = SDL_Keycode(SDLK_ESCAPE.rawValue)
        up.key.keysym.scancode = SDL_SCANCODE_ESCAPE
        push(up)
        try window.run(frames: 1)
        XCTAssertEqual(downs, [KeyEvent(keyName: "A", keyCode: 97, scanCode: 4, modifiers: [.shift, .control], isRepeat: true)])
        XCTAssertEqual(ups, [KeyEvent(keyName: "Escape", keyCode: 27, scanCode: 41, modifiers: [], isRepeat: false)])
    }

    func testQuitStopsTheLoopUnlessOnQuitIsSet() throws {
        let window = try makeWindow()
        var quit = SDL_Event()
        quit.type = SDL_QUIT.rawValue
        push(quit)
        var iterations = 0
        window.onFrame = { _ in iterations += 1 }
        try window.run()  // returns: the default quit handling stops the loop
        XCTAssertEqual(iterations, 1, "the iteration that saw the quit completes, then the loop ends")

        var quits = 0
        window.onQuit = { quits += 1 }
        push(quit)
        try window.run(frames: 3)
        XCTAssertEqual(quits, 1)
        XCTAssertEqual(iterations, 4, "with onQuit set the app decides; the loop went on")

        // The window's close button.
        var close = SDL_Event()
        close.window.type = SDL_WINDOWEVENT.rawValue
        close.window.windowID = window.windowID
        close.window.event = UInt8(SDL_WINDOWEVENT_CLOSE.rawValue)
        push(close)
        window.onQuit = { [unowned window] in quits += 1; window.stop() }
        try window.run()
        XCTAssertEqual(quits, 2)
    }

    func testStopEndsRunAfterTheCurrentIteration() throws {
        let window = try makeWindow()
        var count = 0
        window.onFrame = { [unowned window] _ in
            count += 1
            if count == 5 { window.stop() }
        }
        try window.run()
        XCTAssertEqual(count, 5)
    }
}
