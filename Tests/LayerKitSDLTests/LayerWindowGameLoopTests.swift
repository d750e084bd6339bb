import CSDL2
import Foundation
@testable import LayerKitSDL
import XCTest

/// A game's own loop driving a window call by call: pump this window's events, change layers, render a
/// frame and wait for it — no `run()`.
final class LayerWindowGameLoopTests: LayerWindowTestCase {
    func testEachRenderFrameDrawsWhatWasChangedBeforeIt() throws {
        let window = try makeWindow(framesPerSecond: 30)
        var presses = 0
        window.onPointerDown = { _ in presses += 1 }
        let box = addLayer(CGRect(x: 0, y: 0, width: 20, height: 20), CGColor(red: 1, green: 0, blue: 0, alpha: 1), in: window.rootLayer)
        var click = SDL_Event()
        click.button.type = SDL_MOUSEBUTTONDOWN.rawValue
        click.button.windowID = window.windowID
        click.button.button = UInt8(SDL_BUTTON_LEFT)
        SDL_PushEvent(&click)
        for step in 1...3 {
            window.pumpEvents()
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            box.position.x = CGFloat(10 + 30 * step)
            CATransaction.commit()
            let before = window.server.framesRendered
            try window.renderFrame()
            XCTAssertGreaterThan(window.server.framesRendered, before, "step \(step) drew a frame before returning")
            XCTAssertEqual(window.lastFrameStatistics.layersVisible, 1, "step \(step): the box (the root draws nothing)")
        }
        XCTAssertEqual(presses, 1, "the pumped click")
        let image = try window.snapshot()
        XCTAssertEqual(image.rgb(100, 10), RGB(1, 0, 0), "the last step's place: x 90…110")
        XCTAssertEqual(image.rgb(70, 10), RGB(0, 0, 0))
    }
}

/// A game's own SDL window given to LayerKit.
final class LayerWindowAdoptionTests: LayerWindowTestCase {
    func testAGamesOwnWindowShowsTheTreeAndOutlivesTheLayerWindow() throws {
        _ = try makeWindow(width: 16, height: 16)  // SDL's video is up (or the test is skipped)
        let flags = SDL_WINDOW_VULKAN.rawValue | SDL_WINDOW_SHOWN.rawValue
        let handle = try XCTUnwrap(SDL_CreateWindow("the game", 0, 0, 120, 80, flags))
        defer { SDL_DestroyWindow(handle) }
        var log: [String]?
        do {
            let window = try LayerWindow(adopting: handle, options: .init(framesPerSecond: 120, validation: true))
            XCTAssertEqual(window.size, CGSize(width: 120, height: 80))
            window.rootLayer.backgroundColor = CGColor(red: 0, green: 0.5, blue: 1, alpha: 1)
            let image = try window.snapshot()
            XCTAssertEqual(image.rgb(60, 40), RGB(0, 0.5, 1))
            log = window.context.validationMessages
        }
        XCTAssertEqual(log, [])
        XCTAssertNotEqual(SDL_GetWindowID(handle), 0, "the game's window is still there")

        let plain = try XCTUnwrap(SDL_CreateWindow("no vulkan", 0, 0, 40, 40, SDL_WINDOW_HIDDEN.rawValue))
        defer { SDL_DestroyWindow(plain) }
        XCTAssertThrowsError(try LayerWindow(sdlWindow: plain))
    }
}
