import XCTest
@testable import LayerKit

/// Value functions, rotation along a path, number arrays, color arrays and path morphing, evaluated with
/// `AnimationTestKit` (see BasicAnimationTests.swift). Expected values are worked out by hand.
final class AnimatedValueKindsTests: XCTestCase {
    private var root: CALayer!

    override func setUp() {
        CATransaction.flush()
        root = CALayer()
    }

    private func makeLayer() -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        root.addSublayer(layer)
        return layer
    }

    func testRotateZValueFunctionInterpolatesTheAngleNotTheMatrix() throws {
        let layer = makeLayer()
        let spin = AnimationTestKit.basic("transform", from: 0, to: 4 * Double.pi, duration: 4)
        spin.valueFunction = CAValueFunction(name: .rotateZ)
        layer.add(spin, forKey: "spin")
        let records = AnimationTestKit.commit(layer)
        // At t = 1000.5 the angle is 4π · 0.5/4 = π/2: m11 = cos = 0, m12 = sin = 1.
        let transform = try XCTUnwrap(AnimationTestKit.evaluate(records, on: layer, at: 1000.5).value("transform") as? CATransform3D)
        XCTAssertEqual(transform.m11, 0, accuracy: 1e-9)
        XCTAssertEqual(transform.m12, 1, accuracy: 1e-9)
        // At t = 1001 the angle is π: m11 = −1 (a matrix interpolation between equal end matrices would stay at 1).
        let half = try XCTUnwrap(AnimationTestKit.evaluate(records, on: layer, at: 1001).value("transform") as? CATransform3D)
        XCTAssertEqual(half.m11, -1, accuracy: 1e-9)
    }

    func testTranslateValueFunctionTakesThreeNumbers() throws {
        let layer = makeLayer()
        let move = AnimationTestKit.basic("transform", from: [0, 0, 0], to: [10, 20, 30], duration: 2)
        move.valueFunction = CAValueFunction(name: .translate)
        layer.add(move, forKey: "move")
        let records = AnimationTestKit.commit(layer)
        // A quarter of the way: (2.5, 5, 7.5) in m41…m43.
        let transform = try XCTUnwrap(AnimationTestKit.evaluate(records, on: layer, at: 1000.5).value("transform") as? CATransform3D)
        XCTAssertEqual([transform.m41, transform.m42, transform.m43], [2.5, 5, 7.5])
    }

    func testUnknownValueFunctionNameIsRefused() {
        XCTAssertNil(CAValueFunction(name: CAValueFunctionName(rawValue: "wobble")))
    }

    func testRotationModeAutoTurnsTheLayerAlongThePath() throws {
        let layer = makeLayer()
        // A path going right, then down: the tangent is 0 on the first half, π/2 on the second.
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addLine(to: CGPoint(x: 100, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 100))
        let follow = CAKeyframeAnimation(keyPath: "position")
        follow.path = path
        follow.rotationMode = .rotateAuto
        follow.duration = 2
        follow.beginTime = 1000
        layer.add(follow, forKey: "follow")
        let records = AnimationTestKit.commit(layer)
        let early = AnimationTestKit.evaluate(records, on: layer, at: 1000.5)  // progress 1/4: on the first line
        let earlyTransform = try XCTUnwrap(early.value("transform") as? CATransform3D)
        XCTAssertEqual(earlyTransform.m11, 1, accuracy: 1e-6)
        XCTAssertEqual(earlyTransform.m12, 0, accuracy: 1e-6)
        let late = AnimationTestKit.evaluate(records, on: layer, at: 1001.5)  // progress 3/4: going down
        let lateTransform = try XCTUnwrap(late.value("transform") as? CATransform3D)
        XCTAssertEqual(lateTransform.m11, 0, accuracy: 1e-6)
        XCTAssertEqual(lateTransform.m12, 1, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(late.value("position") as? CGPoint).y, 50, accuracy: 1e-9)
    }

    func testNumberArraysInterpolateElementWise() {
        let from = AnimatableValue([0.0, 10.0, 100.0] as [Any])
        let to = AnimatableValue([1.0, 20.0, 0.0] as [Any])
        XCTAssertEqual(AnimatableValue.interpolate(from!, to!, 0.25), .numbers([0.25, 12.5, 75]))
    }

    func testColorArraysInterpolateElementWise() {
        let from = AnimatableValue([CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(gray: 0, alpha: 0)])!
        let to = AnimatableValue([CGColor(red: 0, green: 0, blue: 1, alpha: 1), CGColor(gray: 1, alpha: 1)])!
        XCTAssertEqual(AnimatableValue.interpolate(from, to, 0.5), .colors([SIMD4(0.5, 0, 0.5, 1), SIMD4(0.5, 0.5, 0.5, 0.5)]))
    }

    func testPathsWithTheSameElementsMorphPointByPoint() throws {
        let a = CGMutablePath()
        a.move(to: .zero)
        a.addLine(to: CGPoint(x: 10, y: 0))
        a.addCurve(to: CGPoint(x: 10, y: 10), control1: CGPoint(x: 20, y: 0), control2: CGPoint(x: 20, y: 10))
        let b = CGMutablePath()
        b.move(to: CGPoint(x: 0, y: 4))
        b.addLine(to: CGPoint(x: 30, y: 0))
        b.addCurve(to: CGPoint(x: 10, y: 30), control1: CGPoint(x: 0, y: 0), control2: CGPoint(x: 20, y: 30))
        guard case .path(let middle) = AnimatableValue.interpolate(.path(a), .path(b), 0.5) else { return XCTFail("not a path") }
        XCTAssertEqual(middle.elements.map(\.points), [
            [CGPoint(x: 0, y: 2)], [CGPoint(x: 20, y: 0)],
            [CGPoint(x: 10, y: 0), CGPoint(x: 20, y: 20), CGPoint(x: 10, y: 20)],
        ])
    }

    func testPathsWithDifferentElementsSwitchAtHalfway() {
        let line = CGMutablePath()
        line.move(to: .zero)
        line.addLine(to: CGPoint(x: 10, y: 0))
        let rect = CGPath(rect: CGRect(x: 0, y: 0, width: 5, height: 5))
        XCTAssertEqual(AnimatableValue.interpolate(.path(line), .path(rect), 0.4), .path(line))
        XCTAssertEqual(AnimatableValue.interpolate(.path(line), .path(rect), 0.6), .path(rect))
    }
}
