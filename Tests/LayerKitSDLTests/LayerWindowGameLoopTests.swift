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
