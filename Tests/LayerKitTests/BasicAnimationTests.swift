import Foundation
import XCTest
@testable import LayerKit

/// `CABasicAnimation` evaluated from its committed record at explicit layer times: every combination of
/// fromValue, toValue and byValue, timing functions against an independent Bézier solve, additive and
/// cumulative animations, and key paths into a property (`position.x`, `bounds.size.width`,
/// `transform.rotation.z`).
///
/// Every animation here has an absolute `beginTime` (1000) and an explicit duration, so the commit resolves
/// nothing and the layer time alone decides the progress: progress = (t − 1000) / duration.
final class BasicAnimationTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()  // start from an empty change log
    }

    /// A layer whose model values the combinations fall back on: cornerRadius 10, position (30, 70),
    /// bounds 20 × 40.
    private func makeLayer() -> CALayer {
        let layer = CALayer()
        layer.cornerRadius = 10
        layer.position = CGPoint(x: 30, y: 70)
        layer.bounds = CGRect(x: 0, y: 0, width: 20, height: 40)
        return layer
    }

    private func assertCornerRadius(_ animation: CABasicAnimation, _ expected: [(t: Double, value: Double)],
                                    file: StaticString = #filePath, line: UInt = #line) {
        let layer = makeLayer()
        layer.add(animation, forKey: "radius")
        let records = AnimationTestKit.commit(layer)
        XCTAssertEqual(records.count, 1, "committed", file: file, line: line)
        for (t, value) in expected {
            let store = AnimationTestKit.evaluate(records, on: layer, at: t)
            XCTAssertEqual(store.number("cornerRadius") ?? .nan, value, accuracy: 1e-9, "cornerRadius at t = \(t)", file: file, line: line)
        }
        XCTAssertEqual(layer.cornerRadius, 10, "the model keeps its own value", file: file, line: line)
    }

    // MARK: - fromValue / toValue / byValue

    func testFromAndToInterpolateBetweenThem() {
        // 2 → 42: value = 2 + 40·p, p = (t − 1000) / 2.
        assertCornerRadius(AnimationTestKit.basic("cornerRadius", from: 2, to: 42),
                           [(1000, 2), (1000.5, 12), (1001, 22), (1001.5, 32), (1001.9, 40)])
    }

    func testFromAndByEndAtFromPlusBy() {
        // 2 → 2 + 8 = 10: value = 2 + 8·p.
        assertCornerRadius(AnimationTestKit.basic("cornerRadius", from: 2, by: 8),
                           [(1000, 2), (1000.5, 4), (1001, 6), (1001.5, 8)])
    }

    func testByAndToStartAtToMinusBy() {
        // 42 − 8 = 34 → 42: value = 34 + 8·p.
        assertCornerRadius(AnimationTestKit.basic("cornerRadius", to: 42, by: 8),
                           [(1000, 34), (1000.5, 36), (1001, 38), (1001.5, 40)])
    }

    func testFromAloneEndsAtTheModelValue() {
        // 2 → model 10: value = 2 + 8·p.
        assertCornerRadius(AnimationTestKit.basic("cornerRadius", from: 2),
                           [(1000, 2), (1000.5, 4), (1001, 6), (1001.5, 8)])
    }

    func testToAloneStartsAtTheModelValue() {
        // model 10 → 42: value = 10 + 32·p.
        assertCornerRadius(AnimationTestKit.basic("cornerRadius", to: 42),
                           [(1000, 10), (1000.5, 18), (1001, 26), (1001.5, 34)])
    }

    func testByAloneAddsToTheModelValue() {
        // model 10 → 10 + 8 = 18: value = 10 + 8·p.
        assertCornerRadius(AnimationTestKit.basic("cornerRadius", by: 8),
                           [(1000, 10), (1000.5, 12), (1001, 14), (1001.5, 16)])
    }

    func testAllThreeUseFromAndToAndIgnoreBy() {
        // from + to win; by is ignored: 2 + 40·p.
        assertCornerRadius(AnimationTestKit.basic("cornerRadius", from: 2, to: 42, by: 1000),
                           [(1000, 2), (1001, 22)])
    }

    func testNoValuesShowTheModelValue() {
        assertCornerRadius(AnimationTestKit.basic("cornerRadius"), [(1000.5, 10), (1001, 10)])
    }

    func testOutsideTheActiveDurationTheModelShows() {
        // Default fill mode (removed): before 1000 and from 1002 on nothing is applied.
        assertCornerRadius(AnimationTestKit.basic("cornerRadius", from: 2, to: 42),
                           [(999.9, 10), (1002, 10), (1010, 10)])
    }

    func testNumbersOfAnyTypeAnimateACGFloatProperty() {
        // Int, Double, Float, NSNumber all read as numbers: Float(2) → NSNumber(42).
        let animation = AnimationTestKit.basic("cornerRadius", from: Float(2), to: NSNumber(value: 42))
        assertCornerRadius(animation, [(1001, 22)])
    }

    func testPointsInterpolateComponentWise() {
        let layer = makeLayer()
        layer.add(AnimationTestKit.basic("position", from: CGPoint(x: 0, y: 100), to: CGPoint(x: 40, y: 0)), forKey: "move")
        let records = AnimationTestKit.commit(layer)
        // p = 0.25: (0 + 40·0.25, 100 − 100·0.25) = (10, 75).
        let store = AnimationTestKit.evaluate(records, on: layer, at: 1000.5)
        XCTAssertEqual(store.value("position") as? CGPoint, CGPoint(x: 10, y: 75))
    }

    func testColorsInterpolatePerComponent() {
        let layer = makeLayer()
        let fade = AnimationTestKit.basic("backgroundColor", from: CGColor(red: 1, green: 0, blue: 0, alpha: 1),
                                          to: CGColor(red: 0, green: 0, blue: 1, alpha: 0))
        layer.add(fade, forKey: "fade")
        let records = AnimationTestKit.commit(layer)
        // p = 0.25: r = 0.75, g = 0, b = 0.25, a = 0.75.
        let color = AnimationTestKit.evaluate(records, on: layer, at: 1000.5).value("backgroundColor") as? CGColor
        let rgba = color?.rgba
        XCTAssertEqual(Double(rgba?.r ?? -1), 0.75, accuracy: 1e-6)
        XCTAssertEqual(Double(rgba?.g ?? -1), 0, accuracy: 1e-6)
        XCTAssertEqual(Double(rgba?.b ?? -1), 0.25, accuracy: 1e-6)
        XCTAssertEqual(Double(rgba?.a ?? -1), 0.75, accuracy: 1e-6)
    }

    func testOpacityStaysAFloat() {
        let layer = makeLayer()
        layer.add(AnimationTestKit.basic("opacity", from: 0, to: 1), forKey: "fade")
        let records = AnimationTestKit.commit(layer)
        let value = AnimationTestKit.evaluate(records, on: layer, at: 1001).value("opacity")
        XCTAssertEqual(value as? Float, 0.5)
    }

    // MARK: - Timing functions

    /// Samples 0…1 in tenths plus a few uneven points.
    private let samples: [Double] = [0.05, 0.1, 0.2, 0.3, 0.37, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95]

    private func assertPaced(by name: CAMediaTimingFunctionName, controlPoints c: (Float, Float, Float, Float),
                             file: StaticString = #filePath, line: UInt = #line) {
        let layer = makeLayer()
        let animation = AnimationTestKit.basic("cornerRadius", from: 0, to: 100, duration: 1)
        animation.timingFunction = CAMediaTimingFunction(name: name)
        layer.add(animation, forKey: "radius")
        let records = AnimationTestKit.commit(layer)
        for x in samples {
            let expected = 100 * referenceBezierY(x, c)
            let actual = AnimationTestKit.evaluate(records, on: layer, at: 1000 + x).number("cornerRadius") ?? .nan
            XCTAssertEqual(actual, expected, accuracy: 1e-5, "\(name.rawValue) at x = \(x)", file: file, line: line)
        }
    }

    func testLinearTimingFunctionIsTheIdentity() {
        let layer = makeLayer()
        let animation = AnimationTestKit.basic("cornerRadius", from: 0, to: 100, duration: 1)
        animation.timingFunction = CAMediaTimingFunction(name: .linear)
        layer.add(animation, forKey: "radius")
        let records = AnimationTestKit.commit(layer)
        for x in samples {
            XCTAssertEqual(AnimationTestKit.evaluate(records, on: layer, at: 1000 + x).number("cornerRadius") ?? .nan, 100 * x, accuracy: 1e-6)
        }
    }

    func testEaseInMatchesAnIndependentBezierSolve() {
        assertPaced(by: .easeIn, controlPoints: (0.42, 0, 1, 1))
    }

    func testEaseOutMatchesAnIndependentBezierSolve() {
        assertPaced(by: .easeOut, controlPoints: (0, 0, 0.58, 1))
    }

    func testEaseInEaseOutMatchesAnIndependentBezierSolve() {
        assertPaced(by: .easeInEaseOut, controlPoints: (0.42, 0, 0.58, 1))
    }

    func testDefaultCurveMatchesAnIndependentBezierSolve() {
        assertPaced(by: .default, controlPoints: (0.25, 0.1, 0.25, 1))
    }

    func testEaseInEaseOutIsHalfwayAtHalfTime() {
        // (0.42, 0, 0.58, 1) is symmetric about (0.5, 0.5), so the curve passes through it (up to the
        // Float rounding of 0.42 and 0.58, which do not add up to exactly 1).
        let layer = makeLayer()
        let animation = AnimationTestKit.basic("cornerRadius", from: 0, to: 100, duration: 1)
        animation.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        layer.add(animation, forKey: "radius")
        let records = AnimationTestKit.commit(layer)
        XCTAssertEqual(AnimationTestKit.evaluate(records, on: layer, at: 1000.5).number("cornerRadius") ?? .nan, 50, accuracy: 1e-5)
        // Slow start: at a tenth of the time, well under a tenth of the way.
        XCTAssertLessThan(AnimationTestKit.evaluate(records, on: layer, at: 1000.1).number("cornerRadius") ?? .nan, 10)
    }

    // MARK: - Additive and cumulative

    func testAdditiveAddsTheAnimatedValueToTheModel() {
        let layer = makeLayer()  // position.x 30
        let nudge = AnimationTestKit.basic("position.x", from: 0, to: 10)
        nudge.isAdditive = true
        layer.add(nudge, forKey: "nudge")
        let records = AnimationTestKit.commit(layer)
        // 30 + (0 + 10·p): p = 0.5 → 35; p = 0.75 → 37.5.
        XCTAssertEqual(AnimationTestKit.evaluate(records, on: layer, at: 1001).number("position.x") ?? .nan, 35, accuracy: 1e-9)
        XCTAssertEqual(AnimationTestKit.evaluate(records, on: layer, at: 1001.5).number("position.x") ?? .nan, 37.5, accuracy: 1e-9)
    }

    func testAdditiveByAloneStartsFromZeroOverTheModel() {
        let layer = makeLayer()  // cornerRadius 10
        let grow = AnimationTestKit.basic("cornerRadius", by: 8)
        grow.isAdditive = true
        layer.add(grow, forKey: "grow")
        let records = AnimationTestKit.commit(layer)
        // Additive: the underlying value is 0, so 0 → 8, added to 10: p = 0.5 → 14.
        XCTAssertEqual(AnimationTestKit.evaluate(records, on: layer, at: 1001).number("cornerRadius") ?? .nan, 14, accuracy: 1e-9)
    }

    func testAdditiveAnimationsStackOnEachOther() {
        let layer = makeLayer()  // position.x 30
        for (key, amount) in [("a", 10.0), ("b", 100.0)] {
            let shake = AnimationTestKit.basic("position.x", from: 0, to: amount)
            shake.isAdditive = true
            layer.add(shake, forKey: key)
        }
        let records = AnimationTestKit.commit(layer)
        // p = 0.5: 30 + 5 + 50.
        XCTAssertEqual(AnimationTestKit.evaluate(records, on: layer, at: 1001).number("position.x") ?? .nan, 85, accuracy: 1e-9)
    }

    func testLaterNonAdditiveAnimationReplacesEarlierOnes() {
        let layer = makeLayer()
        layer.add(AnimationTestKit.basic("cornerRadius", from: 0, to: 100), forKey: "first")
        layer.add(AnimationTestKit.basic("cornerRadius", from: 200, to: 300), forKey: "second")
        let records = AnimationTestKit.commit(layer)
        XCTAssertEqual(AnimationTestKit.evaluate(records, on: layer, at: 1001).number("cornerRadius") ?? .nan, 250, accuracy: 1e-9)
    }

    func testCumulativeRepeatsStartWhereThePreviousOneEnded() {
        let layer = makeLayer()
        let step = AnimationTestKit.basic("cornerRadius", from: 5, to: 15, duration: 1)
        step.repeatCount = 3
        step.isCumulative = true
        layer.add(step, forKey: "step")
        let records = AnimationTestKit.commit(layer)
        // Change per iteration: 15 − 5 = 10. Iteration i at fraction f: 5 + 10·f + 10·i.
        let expected: [(Double, Double)] = [
            (1000.5, 10),    // i 0, f 0.5
            (1001.0, 15),    // i 1, f 0 (starts where iteration 0 ended)
            (1001.5, 20),    // i 1, f 0.5
            (1002.25, 27.5), // i 2, f 0.25: offset 2 × 10
            (1002.5, 30),    // i 2, f 0.5
        ]
        for (t, value) in expected {
            XCTAssertEqual(AnimationTestKit.evaluate(records, on: layer, at: t).number("cornerRadius") ?? .nan, value, accuracy: 1e-9, "t = \(t)")
        }
        // Removed after three iterations: the model again.
        XCTAssertEqual(AnimationTestKit.evaluate(records, on: layer, at: 1003).number("cornerRadius") ?? .nan, 10, accuracy: 1e-9)
    }

    func testNonCumulativeRepeatsStartOver() {
        let layer = makeLayer()
        let step = AnimationTestKit.basic("cornerRadius", from: 5, to: 15, duration: 1)
        step.repeatCount = 3
        layer.add(step, forKey: "step")
        let records = AnimationTestKit.commit(layer)
        XCTAssertEqual(AnimationTestKit.evaluate(records, on: layer, at: 1002.5).number("cornerRadius") ?? .nan, 10, accuracy: 1e-9)
    }

    func testCumulativePointsAccumulatePerComponent() {
        let layer = makeLayer()
        let walk = AnimationTestKit.basic("position", from: CGPoint(x: 0, y: 0), to: CGPoint(x: 10, y: -4), duration: 1)
        walk.repeatCount = 3
        walk.isCumulative = true
        layer.add(walk, forKey: "walk")
        let records = AnimationTestKit.commit(layer)
        // Iteration 2 at f 0.5: (5, −2) + 2 × (10, −4) = (25, −10).
        let point = AnimationTestKit.evaluate(records, on: layer, at: 1002.5).value("position") as? CGPoint
        XCTAssertEqual(Double(point?.x ?? .nan), 25, accuracy: 1e-9)
        XCTAssertEqual(Double(point?.y ?? .nan), -10, accuracy: 1e-9)
    }

    // MARK: - Key paths into a property

    func testPositionXLeavesYAlone() {
        let layer = makeLayer()  // position (30, 70)
        layer.add(AnimationTestKit.basic("position.x", from: 0, to: 100), forKey: "slide")
        let records = AnimationTestKit.commit(layer)
        XCTAssertEqual(AnimationTestKit.evaluate(records, on: layer, at: 1001).value("position") as? CGPoint, CGPoint(x: 50, y: 70))
    }

    func testPositionYLeavesXAlone() {
        let layer = makeLayer()
        layer.add(AnimationTestKit.basic("position.y", to: 0), forKey: "rise")
        let records = AnimationTestKit.commit(layer)
        // 70 → 0: p = 0.5 → 35.
        XCTAssertEqual(AnimationTestKit.evaluate(records, on: layer, at: 1001).value("position") as? CGPoint, CGPoint(x: 30, y: 35))
    }

    func testBoundsSizeWidthLeavesOriginAndHeightAlone() {
        let layer = makeLayer()
        layer.bounds = CGRect(x: 3, y: 4, width: 20, height: 40)
        layer.add(AnimationTestKit.basic("bounds.size.width", to: 100), forKey: "widen")
        let records = AnimationTestKit.commit(layer)
        // 20 → 100: p = 0.25 → 40.
        XCTAssertEqual(AnimationTestKit.evaluate(records, on: layer, at: 1000.5).value("bounds") as? CGRect,
                       CGRect(x: 3, y: 4, width: 40, height: 40))
    }

    func testBoundsOriginAnimatesAsAPoint() {
        let layer = makeLayer()
        layer.add(AnimationTestKit.basic("bounds.origin", from: CGPoint(x: 0, y: 0), to: CGPoint(x: 8, y: 16)), forKey: "scroll")
        let records = AnimationTestKit.commit(layer)
        XCTAssertEqual(AnimationTestKit.evaluate(records, on: layer, at: 1001).value("bounds") as? CGRect,
                       CGRect(x: 4, y: 8, width: 20, height: 40))
    }

    func testRotationZFromZeroToFourPiTurnsTwice() {
        let layer = makeLayer()
        let spin = AnimationTestKit.basic("transform.rotation.z", from: 0, to: 4 * CGFloat.pi, duration: 4)
        layer.add(spin, forKey: "spin")
        let records = AnimationTestKit.commit(layer)
        // The angle interpolates as a number: θ = 4π · (t − 1000) / 4 = π · (t − 1000). Every half second
        // is a quarter turn; over 4 s the matrix goes round twice. Row-vector rotation about z:
        // m11 = cos θ, m12 = sin θ, m21 = −sin θ, m22 = cos θ.
        let quarterTurns: [(t: Double, cos: Double, sin: Double)] = [
            (1000.0, 1, 0), (1000.5, 0, 1), (1001.0, -1, 0), (1001.5, 0, -1),  // first turn
            (1002.0, 1, 0), (1002.5, 0, 1), (1003.0, -1, 0), (1003.5, 0, -1),  // second turn
        ]
        for (t, c, s) in quarterTurns {
            guard let m = AnimationTestKit.evaluate(records, on: layer, at: t).value("transform") as? CATransform3D else {
                XCTFail("no transform at t = \(t)")
                continue
            }
            XCTAssertEqual(Double(m.m11), c, accuracy: 1e-9, "m11 at t = \(t)")
            XCTAssertEqual(Double(m.m12), s, accuracy: 1e-9, "m12 at t = \(t)")
            XCTAssertEqual(Double(m.m21), -s, accuracy: 1e-9, "m21 at t = \(t)")
            XCTAssertEqual(Double(m.m22), c, accuracy: 1e-9, "m22 at t = \(t)")
            XCTAssertEqual(Double(m.m33), 1, accuracy: 1e-9, "m33 at t = \(t)")
            XCTAssertEqual(Double(m.m41), 0, accuracy: 1e-9, "no translation at t = \(t)")
        }
        // An eighth turn in: θ = π/4 at t = 1000.25.
        let m = AnimationTestKit.evaluate(records, on: layer, at: 1000.25).value("transform") as? CATransform3D
        XCTAssertEqual(Double(m?.m11 ?? .nan), 0.5.squareRoot(), accuracy: 1e-9)
        XCTAssertEqual(Double(m?.m12 ?? .nan), 0.5.squareRoot(), accuracy: 1e-9)
    }

    func testRotationZKeepsTheModelsScaleAndTranslation() {
        let layer = makeLayer()
        layer.transform = CATransform3DConcat(CATransform3DMakeScale(2, 2, 1), CATransform3DMakeTranslation(5, 7, 0))
        layer.add(AnimationTestKit.basic("transform.rotation.z", from: 0, to: CGFloat.pi, duration: 2), forKey: "spin")
        let records = AnimationTestKit.commit(layer)
        // θ = π/2 at p = 0.5: scale 2 then rotate: m11 = 2cos θ = 0, m12 = 2sin θ = 2, m21 = −2; translation kept.
        let m = AnimationTestKit.evaluate(records, on: layer, at: 1001).value("transform") as? CATransform3D
        XCTAssertEqual(Double(m?.m11 ?? .nan), 0, accuracy: 1e-9)
        XCTAssertEqual(Double(m?.m12 ?? .nan), 2, accuracy: 1e-9)
        XCTAssertEqual(Double(m?.m21 ?? .nan), -2, accuracy: 1e-9)
        XCTAssertEqual(Double(m?.m22 ?? .nan), 0, accuracy: 1e-9)
        XCTAssertEqual(Double(m?.m41 ?? .nan), 5, accuracy: 1e-9)
        XCTAssertEqual(Double(m?.m42 ?? .nan), 7, accuracy: 1e-9)
    }

    func testTransformScaleKeyPath() {
        let layer = makeLayer()
        layer.add(AnimationTestKit.basic("transform.scale", from: 1, to: 3), forKey: "zoom")
        let records = AnimationTestKit.commit(layer)
        // p = 0.5: scale 2 on all three axes.
        let m = AnimationTestKit.evaluate(records, on: layer, at: 1001).value("transform") as? CATransform3D
        XCTAssertEqual(Double(m?.m11 ?? .nan), 2, accuracy: 1e-9)
        XCTAssertEqual(Double(m?.m22 ?? .nan), 2, accuracy: 1e-9)
        XCTAssertEqual(Double(m?.m33 ?? .nan), 2, accuracy: 1e-9)
    }

    // MARK: - Copy semantics

    func testChangingAnAnimationAfterAddingItChangesNothing() {
        let layer = makeLayer()
        let animation = AnimationTestKit.basic("cornerRadius", from: 0, to: 100)
        layer.add(animation, forKey: "radius")
        animation.toValue = 1000
        animation.duration = 50
        let records = AnimationTestKit.commit(layer)
        XCTAssertEqual(AnimationTestKit.evaluate(records, on: layer, at: 1001).number("cornerRadius") ?? .nan, 50, accuracy: 1e-9)
        XCTAssertFalse(layer.animation(forKey: "radius") === animation, "the layer holds a copy")
        XCTAssertEqual(layer.animation(forKey: "radius")?.duration, 2)
    }
}

// MARK: - Helpers shared by the animation tests (LayerKitTests)

/// Builds, commits and evaluates animations without a render server.
enum AnimationTestKit {
    /// A basic animation beginning at absolute time `begin` for `duration` seconds.
    static func basic(_ keyPath: String, from: Any? = nil, to: Any? = nil, by: Any? = nil,
                      duration: Double = 2, begin: Double = 1000) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: keyPath)
        animation.fromValue = from
        animation.toValue = to
        animation.byValue = by
        animation.duration = duration
        animation.beginTime = begin
        return animation
    }

    /// Commits the pending changes (the implicit transaction) and returns `layer`'s committed records.
    static func commit(_ layer: CALayer) -> [AnimationRecord] {
        CATransaction.flush()
        return layer.animationList.entries.compactMap(\.record)
    }

    /// `records` applied at layer time `time` over `layer`'s model values.
    static func evaluate(_ records: [AnimationRecord], on layer: CALayer, at time: Double) -> AnimationTestStore {
        var store = AnimationTestStore(layer: layer)
        _ = AnimationEvaluator.apply(records, layerTime: time, to: &store)
        return store
    }
}

/// Animated values over a layer's model values (which stay untouched).
struct AnimationTestStore: AnimatedPropertyStore {
    let layer: CALayer
    var overrides: [String: AnimatableValue] = [:]

    func animatedBaseValue(for target: PropertyAnimationTarget) -> AnimatableValue? {
        overrides[target.keyPath.key] ?? AnimatableValue(layer.value(forKey: target.keyPath.key))
    }

    mutating func setAnimatedValue(_ value: AnimatableValue, for target: PropertyAnimationTarget) {
        overrides[target.keyPath.key] = value
    }

    /// The value of a whole property, of the model's type: animated if an animation wrote it, the
    /// model's otherwise.
    func value(_ key: String) -> Any? {
        let model = layer.value(forKey: key)
        return overrides[key].flatMap { $0.modelValue(like: model) } ?? model
    }

    /// A number at a key path (`"position.x"`, `"cornerRadius"`, `"opacity"`).
    func number(_ keyPath: String) -> Double? {
        let path = AnimationKeyPath(keyPath)
        guard let whole = value(path.key), let part = path.subvalue(of: whole), let scalar = scalarValue(part) else { return nil }
        return Double(scalar)
    }
}

/// y at `x` of the cubic Bézier (0, 0), (x1, y1), (x2, y2), (1, 1), by bisecting x(s) = x over the curve
/// parameter s — plain math, independent of `CAMediaTimingFunction`'s Newton solve.
func referenceBezierY(_ x: Double, _ c: (Float, Float, Float, Float)) -> Double {
    let (x1, y1, x2, y2) = (Double(c.0), Double(c.1), Double(c.2), Double(c.3))
    func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }
    var low = 0.0, high = 1.0
    for _ in 0..<200 {
        let mid = (low + high) / 2
        if bezier(mid, x1, x2) < x { low = mid } else { high = mid }
    }
    return bezier((low + high) / 2, y1, y2)
}
