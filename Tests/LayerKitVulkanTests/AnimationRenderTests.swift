import XCTest
@testable import LayerKitVulkan

/// Animations evaluated by the renderer at explicit frame times, checked at pixels.
final class AnimationRenderTests: XCTestCase {
    private func makeScene() throws -> (CARenderer, CALayer) {
        setenv("LK_VALIDATION", "1", 1)
        let renderer = try CARenderer(width: 64, height: 16)
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 16)
        root.position = CGPoint(x: 32, y: 8)
        let box = CALayer()
        box.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        box.anchorPoint = .zero
        box.position = CGPoint(x: 0, y: 6)
        box.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        root.addSublayer(box)
        renderer.layer = root
        return (renderer, box)
    }

    /// The leftmost red column of row 7.
    private func boxX(_ renderer: CARenderer, at time: Double) throws -> Int? {
        renderer.beginFrame(atTime: time)
        renderer.render()
        renderer.endFrame()
        let image = try renderer.snapshot()
        return (0..<64).first { image.pixel(x: $0, y: 7).r == 255 }
    }

    func testLinearPositionAnimationIsEvaluatedAtTheFrameTime() throws {
        let (renderer, box) = try makeScene()
        let animation = CABasicAnimation(keyPath: "position.x")
        animation.fromValue = 0
        animation.toValue = 40
        animation.duration = 1
        animation.beginTime = 1000
        box.add(animation, forKey: "slide")
        // Linear: x = 40 · (t − 1000) at t in [1000, 1001]; before and after, the model (0).
        XCTAssertEqual(try boxX(renderer, at: 999), 0)
        XCTAssertEqual(try boxX(renderer, at: 1000.25), 10)
        XCTAssertEqual(try boxX(renderer, at: 1000.5), 20)
        XCTAssertEqual(try boxX(renderer, at: 1000.75), 30)
        XCTAssertEqual(try boxX(renderer, at: 1002), 0)
        XCTAssertEqual(renderer.validationMessages, [])
    }

    func testFillForwardsKeepsTheFinalValueWhileTheModelKeepsItsOwn() throws {
        let (renderer, box) = try makeScene()
        let animation = CABasicAnimation(keyPath: "position.x")
        animation.toValue = 40
        animation.duration = 1
        animation.beginTime = 1000
        animation.fillMode = .forwards
        animation.isRemovedOnCompletion = false
        box.add(animation, forKey: "slide")
        XCTAssertEqual(try boxX(renderer, at: 1005), 40)
        XCTAssertEqual(box.position.x, 0)
        // Removing it shows the model again: the well-known jump back.
        box.removeAnimation(forKey: "slide")
        XCTAssertEqual(try boxX(renderer, at: 1006), 0)
    }

    func testLayerSpeedZeroPausesAndTimeOffsetScrubs() throws {
        let (renderer, box) = try makeScene()
        let animation = CABasicAnimation(keyPath: "position.x")
        animation.fromValue = 0
        animation.toValue = 40
        animation.duration = 1
        animation.beginTime = 0.001  // in the paused layer's local time; must not be 0 (that means "now")
        box.speed = 0
        box.timeOffset = 0.501  // local time 0.501: progress 0.5 → x = 20
        box.add(animation, forKey: "slide")
        XCTAssertEqual(try boxX(renderer, at: 5000), 20)
        XCTAssertEqual(try boxX(renderer, at: 9000), 20)
    }

    func testTransformRotationKeyPathTurnsTwiceOverFourPi() throws {
        let (renderer, box) = try makeScene()
        box.bounds = CGRect(x: 0, y: 0, width: 8, height: 2)
        box.anchorPoint = CGPoint(x: 0.5, y: 0.5)
        box.position = CGPoint(x: 20, y: 8)
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0
        spin.toValue = 4 * CGFloat.pi
        spin.duration = 4
        spin.beginTime = 1000
        box.add(spin, forKey: "spin")
        // At t = 1000.5 the angle is π/2: the 8×2 bar stands upright (2 wide, 8 tall) at x 19…21.
        renderer.beginFrame(atTime: 1000.5)
        renderer.render()
        renderer.endFrame()
        let image = try renderer.snapshot()
        XCTAssertEqual(image.pixel(x: 20, y: 5).r, 255)
        XCTAssertEqual(image.pixel(x: 17, y: 8).r, 0)
        // At t = 1001 the angle is π (horizontal again): x 16…24.
        renderer.beginFrame(atTime: 1001)
        renderer.render()
        renderer.endFrame()
        let flat = try renderer.snapshot()
        XCTAssertEqual(flat.pixel(x: 17, y: 8).r, 255)
        XCTAssertEqual(flat.pixel(x: 20, y: 5).r, 0)
    }

    private func solidImage(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> CGImage {
        CGImage(width: 2, height: 2, bytesPerRow: 8, premultipliedRGBA: [UInt8](repeating: 0, count: 16).enumerated().map { index, _ in
            [r, g, b, 255][index % 4]
        }, alphaInfo: .noneSkipLast)!
    }

    func testContentsCrossFadeMixesTheTwoImagesByTheFraction() throws {
        let (renderer, box) = try makeScene()
        box.backgroundColor = nil
        box.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
        box.position = CGPoint(x: 8, y: 4)
        let red = solidImage(255, 0, 0), blue = solidImage(0, 0, 255)
        box.contents = blue
        let fade = CABasicAnimation(keyPath: "contents")
        fade.fromValue = red
        fade.toValue = blue
        fade.duration = 1
        fade.beginTime = 1000
        box.add(fade, forKey: "contents")
        // At a quarter of the way: blue at 0.25 over red = (255·0.75, 0, 255·0.25) = (191.25, 0, 63.75).
        renderer.beginFrame(atTime: 1000.25)
        renderer.render()
        renderer.endFrame()
        let pixel = try renderer.snapshot().pixel(x: 12, y: 8)
        XCTAssertEqual(Double(pixel.r), 191.25, accuracy: 1.5)
        XCTAssertEqual(pixel.g, 0)
        XCTAssertEqual(Double(pixel.b), 63.75, accuracy: 1.5)
        XCTAssertEqual(pixel.a, 255)
        // After the fade only the new image remains.
        renderer.beginFrame(atTime: 1002)
        renderer.render()
        renderer.endFrame()
        let after = try renderer.snapshot().pixel(x: 12, y: 8)
        XCTAssertEqual([after.r, after.g, after.b, after.a], [0, 0, 255, 255])
        XCTAssertEqual(renderer.validationMessages, [])
    }

    func testPushTransitionMovesTheOldContentsOutAndTheNewIn() throws {
        let (renderer, box) = try makeScene()
        box.backgroundColor = nil
        box.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
        box.position = CGPoint(x: 8, y: 4)  // anchor (0, 0): the layer covers x 8…16, y 4…12
        box.masksToBounds = true
        let red = solidImage(255, 0, 0), blue = solidImage(0, 0, 255)
        box.contents = red
        renderer.beginFrame(atTime: 999)
        renderer.render()
        renderer.endFrame()
        let push = CATransition()
        push.type = .push
        push.subtype = .fromRight
        push.duration = 1
        push.beginTime = 1000
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        box.contents = blue
        box.add(push, forKey: kCATransition)
        CATransaction.commit()
        // Halfway: the old image has moved 4 px left (visible on x 8…12), the new one fills x 12…16;
        // the layer masks to its bounds, so nothing shows outside them.
        renderer.beginFrame(atTime: 1000.5)
        renderer.render()
        renderer.endFrame()
        let image = try renderer.snapshot()
        XCTAssertEqual(image.pixel(x: 9, y: 8).r, 255)
        XCTAssertEqual(image.pixel(x: 9, y: 8).b, 0)
        XCTAssertEqual(image.pixel(x: 14, y: 8).b, 255)
        XCTAssertEqual(image.pixel(x: 14, y: 8).r, 0)
        XCTAssertEqual(image.pixel(x: 5, y: 8).a, 0, "the old image is clipped to the bounds")
        XCTAssertEqual(image.pixel(x: 18, y: 8).a, 0, "the new image is clipped to the bounds")
        XCTAssertEqual(renderer.validationMessages, [])
    }
}
