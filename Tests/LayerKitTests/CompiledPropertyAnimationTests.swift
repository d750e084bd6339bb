import XCTest
@testable import LayerKit

/// Compiled property animations (`CompiledPropertyAnimation`, `TypedPropertyAnimation`, the channels):
/// which animations compile to which channel, the typed values at known progress worked out by hand or
/// by an independent formula, that a channel writes its part and keeps the rest of the property, and
/// that stores with typed fields are written through them.
final class CompiledPropertyAnimationTests: XCTestCase {
    private var root: CALayer!

    override func setUp() {
        CATransaction.flush()
        root = CALayer()
    }

    private func makeLayer() -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.position = CGPoint(x: 3, y: 4)
        root.addSublayer(layer)
        return layer
    }

    /// The committed property record of `animation` added to a fresh layer.
    private func record(_ animation: CAAnimation, on layer: CALayer? = nil) throws -> PropertyAnimationRecord {
        let layer = layer ?? makeLayer()
        layer.add(animation, forKey: "a")
        let records = AnimationTestKit.commit(layer)
        guard case .property(let property)? = records.first?.content else { throw NotAPropertyRecord() }
        return property
    }

    // MARK: - What compiles

    func testEachKindOfKeyPathCompilesToItsChannel() throws {
        let cases: [(String, Any, String)] = [
            ("opacity", 0.5, "scalar property"),
            ("position.y", 20, "scalar pointPart(y)"),
            ("bounds.size.width", 20, "scalar rectPart(sizeWidth)"),
            ("transform.rotation.z", Double.pi, "scalar transformPart(rotation(2))"),
            ("position", CGPoint(x: 1, y: 2), "point"),
            ("bounds.origin", CGPoint(x: 1, y: 2), "point rectOrigin"),
            ("bounds.size", CGSize(width: 1, height: 2), "size rectSize"),
            ("transform.translation", CGSize(width: 1, height: 2), "size transformTranslation"),
            ("bounds", CGRect(x: 0, y: 0, width: 4, height: 4), "rect"),
            ("backgroundColor", CGColor(red: 1, green: 0, blue: 0, alpha: 1), "color"),
            ("transform", CATransform3DMakeScale(2, 2, 1), "transform"),
        ]
        for (keyPath, value, expected) in cases {
            let compiled = try record(AnimationTestKit.basic(keyPath, to: value)).compiled
            XCTAssertEqual(compiled.map(Self.describe), expected, keyPath)
        }
    }

    func testKeyframesValueFunctionsAndDiscreteValuesAreLeftToTheGeneralEvaluator() throws {
        let keys = CAKeyframeAnimation(keyPath: "opacity")
        keys.values = [0, 1, 0]
        keys.duration = 1
        XCTAssertNil(try record(keys).compiled, "keyframes")

        let spin = AnimationTestKit.basic("transform", from: 0, to: Double.pi)
        spin.valueFunction = CAValueFunction(name: .rotateZ)
        XCTAssertNil(try record(spin).compiled, "value function")

        XCTAssertNil(try record(AnimationTestKit.basic("hidden", from: false, to: true)).compiled, "booleans switch")
    }

    func testARecordCompiledThroughoutNamesTheOnePropertyItWrites() throws {
        let layer = makeLayer()
        layer.add(AnimationTestKit.basic("position.x", to: 10), forKey: "slide")
        let group = CAAnimationGroup()
        group.animations = [AnimationTestKit.basic("opacity", to: 0), AnimationTestKit.basic("transform.scale", to: 2)]
        group.duration = 2
        layer.add(group, forKey: "group")
        let keys = CAKeyframeAnimation(keyPath: "cornerRadius")
        keys.values = [0, 5]
        keys.duration = 1
        layer.add(keys, forKey: "keys")
        let records = AnimationTestKit.commit(layer)
        XCTAssertEqual(records.map(\.writtenProperties), [[.position], [.opacity, .transform], nil])
    }

    // MARK: - Typed values

    /// A scalar animation of `opacity` with the given values, evaluated directly.
    private func scalar(from: Double? = nil, to: Double? = nil, by: Double? = nil, additive: Bool = false,
                        cumulative: Bool = false, timingFunction: CAMediaTimingFunction? = nil,
                        spring: SpringSolution? = nil) -> TypedPropertyAnimation<ScalarChannel> {
        TypedPropertyAnimation(channel: ScalarChannel(property: .opacity, place: .property), from: from, to: to, by: by,
                               additive: additive, cumulative: cumulative, timingFunction: timingFunction, spring: spring)
    }

    func testAFrameCopiesAScalarsCoreWithoutReferencesWhileTheAnimationKeepsItsPaceAlive() {
        // What a frame copies per animation holds no reference (copying it retains nothing), and the
        // compiled enum beside it is one boxed word.
        XCTAssertTrue(_isPOD(TypedPropertyAnimation<ScalarChannel>.Core.self))
        XCTAssertEqual(MemoryLayout<CompiledPropertyAnimation>.size, 8)
        // The timing function and the spring are referred to unretained by the core and kept by the
        // animation: made here and held by nothing else, they still answer as equal ones made apart.
        let eased = scalar(from: 0, to: 100, timingFunction: CAMediaTimingFunction(controlPoints: 0.42, 0, 0.58, 1))
        let reference = CAMediaTimingFunction(controlPoints: 0.42, 0, 0.58, 1)
        XCTAssertEqual(eased.core.value(progress: 0.3, iteration: 0, duration: 1, base: 0), 100 * reference.value(at: 0.3))
        let solution = SpringSolution(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0)
        let sprung = scalar(from: 0, to: 1, spring: solution)
        XCTAssertEqual(sprung.core.value(progress: 0.5, iteration: 0, duration: 2, base: 0), solution.value(at: 1))
    }

    func testAPackedEntryHoldsAScalarsCoreAndAnyOtherKindCompiled() {
        let layer = makeLayer()
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1
        fade.toValue = 0
        let move = CABasicAnimation(keyPath: "position")
        move.fromValue = CGPoint(x: 0, y: 0)
        move.toValue = CGPoint(x: 10, y: 0)
        layer.add(fade, forKey: "fade")
        layer.add(move, forKey: "move")
        let entries = PackedAnimations(AnimationTestKit.commit(layer)).entries
        XCTAssertEqual(entries.count, 2)
        XCTAssertEqual(entries[0].scalar?.to, 0, "the fade's core, read by frames")
        XCTAssertNil(entries[0].compiled)
        XCTAssertNil(entries[1].scalar)
        guard case .point? = entries[1].compiled else { return XCTFail("the move compiles to a point animation") }
    }

    func testFromToByCombinationsAtAQuarter() {
        // base 5; at p = 0.25 a linear animation is a quarter of the way from its start to its end.
        let base = 5.0
        let cases: [(TypedPropertyAnimation<ScalarChannel>, Double, String)] = [
            (scalar(from: 10, to: 30), 15, "from 10 to 30"),
            (scalar(from: 10, by: 8), 12, "from 10 to 10 + 8"),
            (scalar(to: 30, by: 8), 24, "from 30 − 8 to 30"),
            (scalar(from: 9), 8, "from 9 to the base 5"),
            (scalar(to: 25), 10, "from the base 5 to 25"),
            (scalar(by: 4), 6, "from the base 5 to 9"),
            (scalar(), 5, "the base throughout"),
        ]
        for (animation, expected, name) in cases {
            XCTAssertEqual(animation.value(progress: 0.25, iteration: 0, duration: 1, base: base), expected, accuracy: 1e-12, name)
        }
    }

    func testAdditiveAddsTheInterpolatedOffsetToTheBase() {
        // 100 + (0 + (10 − 0)·0.3) = 103.
        XCTAssertEqual(scalar(from: 0, to: 10, additive: true).value(progress: 0.3, iteration: 0, duration: 1, base: 100), 103, accuracy: 1e-12)
    }

    func testCumulativeRepeatsStartWhereThePreviousIterationEnded() {
        // Iteration 2 of 0 → 10 at p = 0.5: 5 + 2 · (10 − 0) = 25.
        XCTAssertEqual(scalar(from: 0, to: 10, cumulative: true).value(progress: 0.5, iteration: 2, duration: 1, base: 0), 25, accuracy: 1e-12)
        // Without cumulative the iteration does not matter.
        XCTAssertEqual(scalar(from: 0, to: 10).value(progress: 0.5, iteration: 2, duration: 1, base: 0), 5, accuracy: 1e-12)
    }

    func testTimingFunctionPacesTheValueAsAnIndependentCubicSolveDoes() {
        let easeIn = CAMediaTimingFunction(name: .easeIn)
        let animation = scalar(from: 0, to: 100, timingFunction: easeIn)
        for x in [0.1, 0.5, 0.8] {
            // Bézier (0,0) (0.42,0) (1,1) (1,1), its control points Floats as the API takes them: solve
            // x(t) = x by bisection, then y(t).
            func bezier(_ p1: Double, _ p2: Double, _ t: Double) -> Double {
                3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t
            }
            var low = 0.0, high = 1.0
            for _ in 0..<200 {
                let mid = (low + high) / 2
                if bezier(Double(Float(0.42)), 1, mid) < x { low = mid } else { high = mid }
            }
            let y = bezier(0, 1, (low + high) / 2)
            XCTAssertEqual(animation.value(progress: x, iteration: 0, duration: 1, base: 0), 100 * y, accuracy: 1e-6, "x \(x)")
        }
    }

    func testSpringFollowsTheCriticallyDampedClosedForm() {
        // m 1, k 100, c 20: ζ = 20 / (2·√100) = 1, ω₀ = 10. Released at rest: fraction = 1 − (1 + 10t)·e^(−10t).
        let spring = SpringSolution(mass: 1, stiffness: 100, damping: 20, initialVelocity: 0)
        let animation = scalar(from: 0, to: 50, spring: spring)
        for t in [0.05, 0.1, 0.3] {
            let fraction = 1 - (1 + 10 * t) * exp(-10 * t)
            // progress · duration is the spring's time: duration 2, so progress t/2.
            XCTAssertEqual(animation.value(progress: t / 2, iteration: 0, duration: 2, base: 0), 50 * fraction, accuracy: 1e-9, "t \(t)")
        }
    }

    func testPointsRectsAndColorsInterpolatePerComponent() {
        let point = TypedPropertyAnimation(channel: PointChannel(property: .position, isRectOrigin: false),
                                           from: CGPoint(x: 0, y: 10), to: CGPoint(x: 8, y: 30), by: nil,
                                           additive: false, cumulative: false, timingFunction: nil, spring: nil)
        XCTAssertEqual(point.value(progress: 0.25, iteration: 0, duration: 1, base: .zero), CGPoint(x: 2, y: 15))
        let rect = TypedPropertyAnimation(channel: RectChannel(property: .bounds), from: CGRect(x: 0, y: 0, width: 10, height: 20),
                                          to: CGRect(x: 4, y: 8, width: 30, height: 40), by: nil,
                                          additive: false, cumulative: false, timingFunction: nil, spring: nil)
        XCTAssertEqual(rect.value(progress: 0.5, iteration: 0, duration: 1, base: .zero), CGRect(x: 2, y: 4, width: 20, height: 30))
        let color = TypedPropertyAnimation(channel: ColorChannel(property: .backgroundColor), from: SIMD4<Double>(1, 0, 0, 1),
                                           to: SIMD4<Double>(0, 0, 1, 0.5), by: nil,
                                           additive: false, cumulative: false, timingFunction: nil, spring: nil)
        XCTAssertEqual(color.value(progress: 0.5, iteration: 0, duration: 1, base: .zero), SIMD4<Double>(0.5, 0, 0.5, 0.75))
    }

    // MARK: - Channels and stores

    func testAPartChannelWritesItsPartAndKeepsTheRest() throws {
        let layer = makeLayer()
        layer.add(AnimationTestKit.basic("position.y", from: 10, to: 30, duration: 2), forKey: "move")
        var store = TypedFieldStore(position: CGPoint(x: 3, y: 4))
        _ = AnimationEvaluator.apply(AnimationTestKit.commit(layer), layerTime: 1000.5, to: &store)
        // p = 0.25: y = 10 + 20 · 0.25 = 15; x stays 3. Read and written through the typed accessors only.
        XCTAssertEqual(store.position, CGPoint(x: 3, y: 15))
        XCTAssertEqual(store.generalAccesses, 0)
    }

    func testRotationOfAnIdentityTransformIsARotationMatrix() throws {
        let layer = makeLayer()
        layer.add(AnimationTestKit.basic("transform.rotation.z", from: 0, to: Double.pi, duration: 2), forKey: "spin")
        var store = TypedFieldStore()
        _ = AnimationEvaluator.apply(AnimationTestKit.commit(layer), layerTime: 1000.5, to: &store)
        // p = 0.25: angle π/4; rows (cos, sin) and (−sin, cos).
        let c = cos(Double.pi / 4)
        XCTAssertEqual(store.transform.m11, c, accuracy: 1e-12)
        XCTAssertEqual(store.transform.m12, c, accuracy: 1e-12)
        XCTAssertEqual(store.transform.m21, -c, accuracy: 1e-12)
        XCTAssertEqual(store.transform.m22, c, accuracy: 1e-12)
    }

    func testAnUnsetColorAnimatesFromClear() throws {
        let layer = makeLayer()
        layer.add(AnimationTestKit.basic("backgroundColor", to: CGColor(red: 1, green: 0, blue: 0, alpha: 1), duration: 2), forKey: "tint")
        var store = TypedFieldStore()
        _ = AnimationEvaluator.apply(AnimationTestKit.commit(layer), layerTime: 1001, to: &store)
        // p = 0.5 from clear (0, 0, 0, 0) to red (1, 0, 0, 1).
        XCTAssertEqual(store.color, SIMD4<Double>(0.5, 0, 0, 0.5))
    }

    func testAStoreHoldingAnotherKindFallsBackToTheGeneralEvaluator() throws {
        let layer = makeLayer()
        layer.add(AnimationTestKit.basic("opacity", from: 0, to: 1, duration: 2), forKey: "fade")
        var store = TypedFieldStore()
        store.opacityAsPoint = true
        _ = AnimationEvaluator.apply(AnimationTestKit.commit(layer), layerTime: 1001, to: &store)
        // The typed read reports another kind, so the record runs in general: from 0 to 1 at p = 0.5,
        // written as an `AnimatableValue`; the typed field is untouched.
        XCTAssertEqual(store.generalAccesses, 1)
        XCTAssertEqual(store.generalValue, .scalar(0.5))
        XCTAssertEqual(store.opacity, 1)
    }

    private static func describe(_ compiled: CompiledPropertyAnimation) -> String {
        switch compiled {
        case .scalar(let a):
            switch a.channel.place {
            case .property: "scalar property"
            case .pointPart(let c): "scalar pointPart(\(c))"
            case .rectPart(let c): "scalar rectPart(\(c))"
            case .transformPart(let c): "scalar transformPart(\(c))"
            }
        case .point(let a): a.channel.isRectOrigin ? "point rectOrigin" : "point"
        case .size(let a): "size \(a.channel.place)"
        case .rect: "rect"
        case .color: "color"
        case .transform: "transform"
        }
    }
}

/// A store with typed fields, as a render node keeps them; counts the general (`AnimatableValue`) accesses.
private struct TypedFieldStore: AnimatedPropertyStore {
    var position = CGPoint.zero
    var transform = CATransform3DIdentity
    var opacity = 1.0
    var color: SIMD4<Double>?
    /// Answer `opacity` as a point, a kind the animation does not expect.
    var opacityAsPoint = false
    var generalAccesses = 0
    var generalValue: AnimatableValue?

    func animatedBaseValue(for target: PropertyAnimationTarget) -> AnimatableValue? {
        opacityAsPoint && target.property == .opacity ? .point(.zero) : nil
    }

    mutating func setAnimatedValue(_ value: AnimatableValue, for target: PropertyAnimationTarget) {
        generalAccesses += 1
        generalValue = value
    }

    func animatedScalar(of property: LayerPropertyKey) -> AnimationChannelBase<Double> {
        property == .opacity && !opacityAsPoint ? .value(opacity) : .unsupported
    }

    func animatedPoint(of property: LayerPropertyKey) -> AnimationChannelBase<CGPoint> {
        property == .position ? .value(position) : .unsupported
    }

    func animatedTransform(of property: LayerPropertyKey) -> AnimationChannelBase<CATransform3D> {
        property == .transform ? .value(transform) : .unsupported
    }

    func animatedColor(of property: LayerPropertyKey) -> AnimationChannelBase<SIMD4<Double>> {
        property == .backgroundColor ? color.map(AnimationChannelBase.value) ?? .unset : .unsupported
    }

    mutating func setAnimatedScalar(_ value: Double, of property: LayerPropertyKey) { opacity = value }
    mutating func setAnimatedPoint(_ value: CGPoint, of property: LayerPropertyKey) { position = value }
    mutating func setAnimatedTransform(_ value: CATransform3D, of property: LayerPropertyKey) { transform = value }
    mutating func setAnimatedColor(_ value: SIMD4<Double>, of property: LayerPropertyKey) { color = value }
}

private struct NotAPropertyRecord: Error {}
