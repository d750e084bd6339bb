import XCTest
@testable import LayerKitVulkan

/// `CATransition` between layer trees: the state before the transaction and the state after, drawn
/// per type at explicit frame times, checked at pixels worked out by hand.
final class TransitionRenderTests: XCTestCase {
    private let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    private let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)

    /// A 64×16 renderer over an opaque black root, and a 16×8 container at x 8…24, y 4…12 holding one
    /// red card that fills it.
    private func makeScene() throws -> (renderer: CARenderer, root: CALayer, container: CALayer, card: CALayer) {
        setenv("LK_VALIDATION", "1", 1)
        let renderer = try CARenderer(width: 64, height: 16)
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 16)
        root.position = CGPoint(x: 32, y: 8)
        root.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let container = CALayer()
        container.bounds = CGRect(x: 0, y: 0, width: 16, height: 8)
        container.anchorPoint = .zero
        container.position = CGPoint(x: 8, y: 4)
        root.addSublayer(container)
        let card = card(red)
        container.addSublayer(card)
        renderer.layer = root
        try render(renderer, at: 999)
        return (renderer, root, container, card)
    }

    private func card(_ color: CGColor, alpha: Float = 1) -> CALayer {
        let card = CALayer()
        card.frame = CGRect(x: 0, y: 0, width: 16, height: 8)
        card.backgroundColor = color
        card.opacity = alpha
        return card
    }

    @discardableResult
    private func render(_ renderer: CARenderer, at time: Double) throws -> CGImage {
        renderer.beginFrame(atTime: time)
        renderer.render()
        renderer.endFrame()
        return try renderer.snapshot()
    }

    /// Swaps the container's card for `newCard` in one transaction with `transition` (1 s from t = 1000).
    private func swap(_ container: CALayer, to newCard: CALayer, with transition: CATransition) {
        transition.duration = 1
        transition.beginTime = 1000
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        container.sublayers = [newCard]
        container.add(transition, forKey: kCATransition)
        CATransaction.commit()
    }

    private func rgb(_ image: CGImage, _ x: Int, _ y: Int = 8) -> [UInt8] {
        let pixel = image.pixel(x: x, y: y)
        return [pixel.r, pixel.g, pixel.b]
    }

    func testPushHalfwayShowsTheOldTreeHalfOutAndTheNewHalfIn() throws {
        let (renderer, _, container, _) = try makeScene()
        let push = CATransition()
        push.type = .push
        push.subtype = .fromRight
        swap(container, to: card(blue), with: push)
        // Halfway: the old tree has moved half the container's width (8 px) left, to x 0…16; the new one
        // comes from 8 px right of its place, x 16…32. Nothing clips them (the container does not mask).
        let image = try render(renderer, at: 1000.5)
        XCTAssertEqual(rgb(image, 2), [255, 0, 0])
        XCTAssertEqual(rgb(image, 14), [255, 0, 0])
        XCTAssertEqual(rgb(image, 17), [0, 0, 255])
        XCTAssertEqual(rgb(image, 30), [0, 0, 255])
        XCTAssertEqual(rgb(image, 34), [0, 0, 0])
        XCTAssertEqual(rgb(image, 12, 2), [0, 0, 0], "above the container nothing moved in")
        // The model holds the new tree at once; after the transition only it is drawn.
        XCTAssertEqual(container.sublayers?.count, 1)
        let after = try render(renderer, at: 1001.5)
        XCTAssertEqual(rgb(after, 2), [0, 0, 0])
        XCTAssertEqual(rgb(after, 12), [0, 0, 255])
        XCTAssertEqual(rgb(after, 30), [0, 0, 0])
        XCTAssertEqual(renderer.validationMessages, [])
    }

    func testAContainerThatMasksToBoundsKeepsBothStatesInside() throws {
        let (renderer, _, container, _) = try makeScene()
        container.masksToBounds = true
        try render(renderer, at: 999.5)
        let push = CATransition()
        push.type = .push
        push.subtype = .fromLeft
        swap(container, to: card(blue), with: push)
        // A quarter of the way from the left: the new tree at x 8 − 12 = −4…12, the old at 12…28; the
        // container's bounds (x 8…24) cut both.
        let image = try render(renderer, at: 1000.25)
        XCTAssertEqual(rgb(image, 6), [0, 0, 0])
        XCTAssertEqual(rgb(image, 10), [0, 0, 255])
        XCTAssertEqual(rgb(image, 13), [255, 0, 0])
        XCTAssertEqual(rgb(image, 22), [255, 0, 0])
        XCTAssertEqual(rgb(image, 26), [0, 0, 0])
        XCTAssertEqual(renderer.validationMessages, [])
    }

    func testMoveInSlidesTheNewStateOverTheOldAndRevealSlidesTheOldOff() throws {
        do {
            let (renderer, _, container, _) = try makeScene()
            let moveIn = CATransition()
            moveIn.type = .moveIn
            moveIn.subtype = .fromRight
            swap(container, to: card(blue), with: moveIn)
            // A quarter: the new state 12 px right of its place (x 20…36) over the unmoved old one (8…24).
            let image = try render(renderer, at: 1000.25)
            XCTAssertEqual(rgb(image, 10), [255, 0, 0])
            XCTAssertEqual(rgb(image, 22), [0, 0, 255])
            XCTAssertEqual(rgb(image, 34), [0, 0, 255])
            XCTAssertEqual(renderer.validationMessages, [])
        }
        do {
            let (renderer, _, container, _) = try makeScene()
            let reveal = CATransition()
            reveal.type = .reveal
            reveal.subtype = .fromRight
            swap(container, to: card(blue), with: reveal)
            // A quarter: the old state 4 px left of its place (x 4…20) over the unmoved new one (8…24).
            let image = try render(renderer, at: 1000.25)
            XCTAssertEqual(rgb(image, 5), [255, 0, 0])
            XCTAssertEqual(rgb(image, 18), [255, 0, 0])
            XCTAssertEqual(rgb(image, 22), [0, 0, 255])
            XCTAssertEqual(renderer.validationMessages, [])
        }
    }

    func testFadeCrossDissolvesTheTwoStates() throws {
        let (renderer, _, container, _) = try makeScene()
        // The new state is a half-transparent blue card: a dissolve gives, over black,
        // red·(1 − p) + blue·0.5·p; at p = 0.5: (127.5, 0, 63.75). (Drawing the new state over a fading
        // old one would give red·0.5·(1 − 0.25) = 95.6 instead.)
        swap(container, to: card(blue, alpha: 0.5), with: CATransition())
        let image = try render(renderer, at: 1000.5)
        let pixel = image.pixel(x: 16, y: 8)
        XCTAssertEqual(Double(pixel.r), 127.5, accuracy: 1.5)
        XCTAssertEqual(pixel.g, 0)
        XCTAssertEqual(Double(pixel.b), 63.75, accuracy: 1.5)
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.transition])
        XCTAssertEqual(renderer.validationMessages, [])
    }

    func testFadeFlattensAStateWhoseLayersOverlap() throws {
        let (renderer, _, container, _) = try makeScene()
        // The old state: the red card under a green one covering its right half. Flattened, the old
        // state at 1 − p shows green alone there, not green over red: at p = 0.25 over black, with the new
        // state empty, (0, 191.25, 0).
        let green = card(CGColor(red: 0, green: 1, blue: 0, alpha: 1))
        green.frame = CGRect(x: 8, y: 0, width: 8, height: 8)
        container.addSublayer(green)
        try render(renderer, at: 999.5)
        swap(container, to: CALayer(), with: CATransition())
        let image = try render(renderer, at: 1000.25)
        let right = image.pixel(x: 20, y: 8), left = image.pixel(x: 10, y: 8)
        XCTAssertEqual(right.r, 0)
        XCTAssertEqual(Double(right.g), 191.25, accuracy: 1.5)
        XCTAssertEqual(Double(left.r), 191.25, accuracy: 1.5)
        XCTAssertEqual(left.g, 0)
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.transition])
        XCTAssertEqual(renderer.validationMessages, [])
    }

    func testHidingALayerUnderAFadeFadesItOut() throws {
        let (renderer, _, _, card) = try makeScene()
        let fade = CATransition()
        fade.duration = 1
        fade.beginTime = 1000
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        card.isHidden = true
        card.add(fade, forKey: kCATransition)
        CATransaction.commit()
        // The old state (shown) fades out over black: red at 0.75 a quarter of the way.
        let image = try render(renderer, at: 1000.25)
        XCTAssertEqual(Double(image.pixel(x: 16, y: 8).r), 191.25, accuracy: 1.5)
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [], "one state alone folds its fade")
        XCTAssertEqual(rgb(try render(renderer, at: 1001.5), 16), [0, 0, 0])
        XCTAssertEqual(renderer.validationMessages, [])
    }

    func testPropertyChangesOfTheLayerItselfAreTransitionedToo() throws {
        let (renderer, _, container, _) = try makeScene()
        container.sublayers = nil
        container.backgroundColor = red
        try render(renderer, at: 999.5)
        let push = CATransition()
        push.type = .push
        push.subtype = .fromBottom
        push.duration = 1
        push.beginTime = 1000
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        container.backgroundColor = blue
        container.add(push, forKey: kCATransition)
        CATransaction.commit()
        // fromBottom enters from the minimum y (Core Animation's naming, y up): halfway, the new state is
        // 4 px above its place (y 0…8), the old one 4 px below (8…16).
        let image = try render(renderer, at: 1000.5)
        XCTAssertEqual(rgb(image, 16, 1), [0, 0, 255])
        XCTAssertEqual(rgb(image, 16, 6), [0, 0, 255])
        XCTAssertEqual(rgb(image, 16, 9), [255, 0, 0])
        XCTAssertEqual(rgb(image, 16, 14), [255, 0, 0])
        XCTAssertEqual(renderer.validationMessages, [])
    }
}

/// Core Animation's built-in `onOrderIn` action: a layer joining a tree a host already shows fades in.
final class OrderInFadeRenderTests: XCTestCase {
    func testALayerAddedToAShownTreeFadesInAndOneAddedBeforeTheFirstFrameDoesNot() throws {
        setenv("LK_VALIDATION", "1", 1)
        let renderer = try CARenderer(width: 32, height: 8)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 32, height: 8)
        let first = CALayer()
        first.frame = CGRect(x: 0, y: 0, width: 8, height: 8)
        first.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        root.addSublayer(first)
        renderer.layer = root
        XCTAssertNil(first.animationKeys(), "the tree was not shown yet when it was added")

        let before = CACurrentMediaTime()
        renderer.beginFrame(atTime: before)
        renderer.render()
        renderer.endFrame()
        CATransaction.setAnimationDuration(10)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        let added = CALayer()
        added.frame = CGRect(x: 16, y: 0, width: 8, height: 8)
        added.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        root.addSublayer(added)
        XCTAssertEqual(added.animationKeys(), [kCAOnOrderIn])
        XCTAssertTrue(added.action(forKey: kCAOnOrderIn) is CATransition)
        CATransaction.flush()
        let after = CACurrentMediaTime()
        // The fade began at its commit, somewhere in [before, after]; 5 s after `after` it is halfway or
        // (by at most (after − before) / 10) past it: red at 255 × 0.5 over nothing.
        renderer.beginFrame(atTime: after + 5)
        renderer.render()
        renderer.endFrame()
        let image = try renderer.snapshot()
        XCTAssertEqual(Double(image.pixel(x: 20, y: 4).r), 127.5 + 255 * (after - before) / 20, accuracy: 1.5 + 255 * (after - before) / 20)
        XCTAssertEqual(image.pixel(x: 4, y: 4).g, 255, "the first layer is not fading")
        XCTAssertEqual(renderer.validationMessages, [])
    }
}
