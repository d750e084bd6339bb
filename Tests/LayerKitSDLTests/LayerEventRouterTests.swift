import Foundation
@testable import LayerKitSDL
import XCTest

/// `LayerEventRouter` without a window: synthetic events, a committed tree, what each layer hears.
final class LayerEventRouterTests: XCTestCase {
    private var log: [String] = []

    /// A 200×100 root with a card at (20, 20) 60×40 holding a button at (10, 10) 20×20 (root 30…50), and
    /// a panel at (120, 20) 60×60; the card and the panel have handlers, the button none.
    private func makeScene() -> (LayerEventRouter, card: CALayer, button: CALayer, panel: CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        let card = CALayer()
        card.frame = CGRect(x: 20, y: 20, width: 60, height: 40)
        let button = CALayer()
        button.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        card.addSublayer(button)
        let panel = CALayer()
        panel.frame = CGRect(x: 120, y: 20, width: 60, height: 60)
        root.addSublayer(card)
        root.addSublayer(panel)
        CATransaction.flush()
        let router = LayerEventRouter(root: root)
        for (name, layer) in [("card", card), ("panel", panel)] {
            router.setHandlers(LayerEventRouter.Handlers(
                onEnter: { [unowned self] e in log.append("\(name) enter \(Self.text(e.location))") },
                onLeave: { [unowned self] _ in log.append("\(name) leave") },
                onPress: { [unowned self] e in log.append("\(name) press \(Self.text(e.location))") },
                onDrag: { [unowned self] e in log.append("\(name) drag \(Self.text(e.location)) inside \(e.isInside)") },
                onRelease: { [unowned self] e in log.append("\(name) release inside \(e.isInside)") },
                onScroll: { [unowned self] _, delta in log.append("\(name) scroll \(delta.height)") },
                onText: { [unowned self] text in log.append("\(name) text \(text)") }), for: layer)
        }
        return (router, card, button, panel)
    }

    /// "(x, y)" in whole points.
    private static func text(_ p: CGPoint) -> String { "(\(Int(p.x.rounded())), \(Int(p.y.rounded())))" }

    private func at(_ x: CGFloat, _ y: CGFloat) -> PointerEvent {
        PointerEvent(location: CGPoint(x: x, y: y), windowLocation: CGPoint(x: x, y: y))
    }

    func testAPressOnALayerWithoutHandlersReachesItsSuperlayerInItsOwnCoordinates() {
        let (router, _, _, _) = makeScene()
        router.pointerDown(at(40, 40))  // on the button, inside the card at (20, 20)
        XCTAssertEqual(log, ["card press (20, 20)"])
    }

    func testAPressCapturesThePointerUntilTheRelease() {
        let (router, _, _, _) = makeScene()
        router.pointerDown(at(30, 30))
        router.pointerMoved(at(100, 30))  // off the card, over nothing
        router.pointerMoved(at(130, 30))  // over the panel: still the card's drag
        router.pointerUp(at(130, 30))
        XCTAssertEqual(log, ["card press (10, 10)", "card drag (80, 10) inside false", "card drag (110, 10) inside false",
                             "card release inside false", "panel enter (10, 10)"])
    }

    func testHoveringEntersAndLeavesHandlerLayers() {
        let (router, _, _, _) = makeScene()
        router.pointerMoved(at(5, 5))
        router.pointerMoved(at(30, 30))
        router.pointerMoved(at(35, 35))
        router.pointerMoved(at(150, 50))
        router.pointerMoved(at(5, 5))
        XCTAssertEqual(log, ["card enter (10, 10)", "card leave", "panel enter (30, 30)", "panel leave"])
    }

    func testScrollGoesUnderThePointerAndTextToTheLastPressedLayer() {
        let (router, _, _, _) = makeScene()
        router.scrolled(ScrollEvent(location: CGPoint(x: 150, y: 50), windowLocation: CGPoint(x: 150, y: 50), delta: CGSize(width: 0, height: 2)))
        router.textEntered("ignored: no focus yet")
        router.pointerDown(at(150, 50))
        router.pointerUp(at(150, 50))
        router.textEntered("hé")
        XCTAssertEqual(log, ["panel scroll 2.0", "panel press (30, 30)", "panel release inside true", "panel enter (30, 30)", "panel text hé"])
    }

    func testHitTestingFollowsWhereLayersAreOnScreen() {
        let (router, card, _, _) = makeScene()
        // The card's presentation is 40 points right of its model, at x 60…120 (an animation holding it there).
        let shift = CABasicAnimation(keyPath: "position.x")
        shift.fromValue = 90
        shift.toValue = 90
        shift.duration = 1000
        card.add(shift, forKey: "shift")
        CATransaction.flush()
        router.pointerDown(at(30, 30))  // where the model is: nothing on screen there
        router.pointerUp(at(30, 30))
        router.pointerDown(at(100, 30))  // where the card is shown
        XCTAssertEqual(log, ["card press (40, 10)"])
    }
}
