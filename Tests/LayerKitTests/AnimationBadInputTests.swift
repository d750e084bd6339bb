import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKit

/// Animations that cannot run are dropped at commit with a diagnostic naming the key path, without
/// stopping the layer's other animations; values that would make a frame non-finite never reach one.
final class AnimationBadInputTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    private final class StopRecorder: CAAnimationDelegate {
        var stops: [Bool] = []
        func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { stops.append(flag) }
    }

    private func basic(_ keyPath: String?, from: Any? = nil, to: Any? = nil, by: Any? = nil) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: keyPath)
        animation.fromValue = from
        animation.toValue = to
        animation.byValue = by
        animation.beginTime = 1000
        animation.duration = 1
        return animation
    }

    /// A layer with a valid position.x animation under "good" (0 → 100) and `bad` under "bad", committed;
    /// returns the layer and the diagnostics the commit emitted.
    private func commitBesideAGoodAnimation(_ bad: CAAnimation) -> (CALayer, [LayerKitDiagnostic]) {
        let layer = CALayer()
        layer.position = CGPoint(x: 5, y: 5)
        layer.cornerRadius = 2
        layer.add(basic("position.x", from: 0, to: 100), forKey: "good")
        layer.add(bad, forKey: "bad")
        let capture = DiagnosticCapture()
        CATransaction.flush()
        return (layer, capture.diagnostics)
    }

    /// The good animation is committed, evaluates, and the bad one is gone.
    private func assertOnlyTheGoodOneRuns(_ layer: CALayer, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(layer.animationKeys(), ["good"], file: file, line: line)
        let records = layer.animationList.entries.compactMap(\.record)
        XCTAssertEqual(records.map(\.key), ["good"], file: file, line: line)
        let store = AnimationTestKit.evaluate(records, on: layer, at: 1000.5)
        XCTAssertEqual(store.value("position") as? CGPoint, CGPoint(x: 50, y: 5), file: file, line: line)
        XCTAssertEqual(store.number("cornerRadius"), 2, file: file, line: line)
    }

    // MARK: - Key paths

    func testUnknownKeyPathIsIgnoredWithADiagnostic() {
        let (layer, diagnostics) = commitBesideAGoodAnimation(basic("nonsense", from: 0, to: 1))
        XCTAssertEqual(diagnostics, [.unknownKeyPath(keyPath: "nonsense")])
        assertOnlyTheGoodOneRuns(layer)
    }

    func testUnknownSubPathIsIgnoredWithADiagnostic() {
        let (layer, diagnostics) = commitBesideAGoodAnimation(basic("position.z", from: 0, to: 1))
        XCTAssertEqual(diagnostics, [.unknownKeyPath(keyPath: "position.z")])
        assertOnlyTheGoodOneRuns(layer)
    }

    func testUnknownTransformComponentIsIgnored() {
        let (layer, diagnostics) = commitBesideAGoodAnimation(basic("transform.rotation.w", from: 0, to: 1))
        XCTAssertEqual(diagnostics, [.unknownKeyPath(keyPath: "transform.rotation.w")])
        assertOnlyTheGoodOneRuns(layer)
    }

    func testNonAnimatablePropertyIsIgnored() {
        let (layer, diagnostics) = commitBesideAGoodAnimation(basic("name", from: "a", to: "b"))
        XCTAssertEqual(diagnostics, [.unknownKeyPath(keyPath: "name")])
        assertOnlyTheGoodOneRuns(layer)
    }

    func testNilAndEmptyKeyPathsAreIgnored() {
        let (layer, diagnostics) = commitBesideAGoodAnimation(basic(nil, from: 0, to: 1))
        XCTAssertEqual(diagnostics.map(\.name), ["unknownKeyPath"])
        assertOnlyTheGoodOneRuns(layer)
        let (other, more) = commitBesideAGoodAnimation(basic("", from: 0, to: 1))
        XCTAssertEqual(more.map(\.name), ["unknownKeyPath"])
        assertOnlyTheGoodOneRuns(other)
    }

    func testUnknownChildOfAGroupIsDroppedAndItsSiblingsRun() {
        let layer = CALayer()
        let group = CAAnimationGroup()
        group.animations = [basic("nonsense", from: 0, to: 1), basic("position.x", from: 0, to: 100)]
        group.animations?.forEach { $0.beginTime = 0 }
        group.beginTime = 1000
        group.duration = 1
        layer.add(group, forKey: "group")
        let capture = DiagnosticCapture()
        let records = AnimationTestKit.commit(layer)
        XCTAssertEqual(capture.diagnostics, [.unknownKeyPath(keyPath: "nonsense")])
        XCTAssertEqual(AnimationTestKit.evaluate(records, on: layer, at: 1000.5).number("position.x") ?? .nan, 50, accuracy: 1e-9)
    }

    func testDroppedAnimationsDelegateHearsItStopUnfinished() {
        let recorder = StopRecorder()
        let bad = basic("nonsense", from: 0, to: 1)
        bad.delegate = recorder
        let (_, _) = commitBesideAGoodAnimation(bad)
        AnimationCallbacks.shared.deliverPending()
        XCTAssertEqual(recorder.stops, [false])
    }

    func testTransactionWhoseOnlyAnimationIsDroppedStillCompletes() {
        var runs = 0
        let layer = CALayer()
        let capture = DiagnosticCapture()
        CATransaction.begin()
        CATransaction.setCompletionBlock { runs += 1 }
        layer.add(basic("nonsense", from: 0, to: 1), forKey: "bad")
        CATransaction.commit()
        AnimationCallbacks.shared.deliverPending()
        XCTAssertEqual(runs, 1)
        XCTAssertEqual(capture.names, ["unknownKeyPath"])
    }

    // MARK: - Value types

    func testWrongValueTypeIsRefusedWithValueTypeMismatch() {
        // A number for a CGPoint property.
        let (layer, diagnostics) = commitBesideAGoodAnimation(basic("position", from: 5, to: 10))
        XCTAssertEqual(diagnostics, [.valueTypeMismatch(keyPath: "position", expected: "CGPoint", got: "number")])
        assertOnlyTheGoodOneRuns(layer)
    }

    func testPointForANumberIsRefused() {
        let (layer, diagnostics) = commitBesideAGoodAnimation(basic("cornerRadius", to: CGPoint(x: 1, y: 1)))
        XCTAssertEqual(diagnostics, [.valueTypeMismatch(keyPath: "cornerRadius", expected: "number", got: "CGPoint")])
        assertOnlyTheGoodOneRuns(layer)
    }

    func testStringForANumberIsRefused() {
        let (layer, diagnostics) = commitBesideAGoodAnimation(basic("cornerRadius", by: "wide"))
        XCTAssertEqual(diagnostics, [.valueTypeMismatch(keyPath: "cornerRadius", expected: "number", got: "value")])
        assertOnlyTheGoodOneRuns(layer)
    }

    func testWrongTypeOnASubPathIsRefused() {
        let (layer, diagnostics) = commitBesideAGoodAnimation(basic("bounds.size", to: 12))
        XCTAssertEqual(diagnostics, [.valueTypeMismatch(keyPath: "bounds.size", expected: "CGSize", got: "number")])
        assertOnlyTheGoodOneRuns(layer)
    }

    func testKeyframeValueOfTheWrongTypeIsRefused() {
        let keys = CAKeyframeAnimation(keyPath: "cornerRadius")
        keys.values = [0, CGSize(width: 1, height: 1), 3]
        keys.duration = 1
        keys.beginTime = 1000
        let (layer, diagnostics) = commitBesideAGoodAnimation(keys)
        XCTAssertEqual(diagnostics.map(\.name), ["valueTypeMismatch"])
        assertOnlyTheGoodOneRuns(layer)
    }

    func testKeyframesWithoutValuesOrPathAreRefused() {
        let keys = CAKeyframeAnimation(keyPath: "cornerRadius")
        keys.duration = 1
        keys.beginTime = 1000
        let (layer, diagnostics) = commitBesideAGoodAnimation(keys)
        XCTAssertEqual(diagnostics.map(\.name), ["valueTypeMismatch"])
        assertOnlyTheGoodOneRuns(layer)
    }

    func testInvalidSpringParametersAreRefused() {
        let spring = CASpringAnimation(keyPath: "cornerRadius")
        spring.fromValue = 0
        spring.toValue = 1
        spring.mass = 0
        spring.beginTime = 1000
        spring.duration = 1
        let (layer, diagnostics) = commitBesideAGoodAnimation(spring)
        XCTAssertEqual(diagnostics.map(\.name), ["valueTypeMismatch"])
        assertOnlyTheGoodOneRuns(layer)
        let nanSpring = spring.copy() as! CASpringAnimation
        nanSpring.mass = 1
        nanSpring.stiffness = .nan
        let (other, more) = commitBesideAGoodAnimation(nanSpring)
        XCTAssertEqual(more.map(\.name), ["valueTypeMismatch"])
        assertOnlyTheGoodOneRuns(other)
    }

    // MARK: - Non-finite values

    func testNaNFromValueIsRefused() {
        let (layer, diagnostics) = commitBesideAGoodAnimation(basic("cornerRadius", from: CGFloat.nan, to: 1))
        XCTAssertEqual(diagnostics.map(\.name), ["nonFiniteGeometry"])
        assertOnlyTheGoodOneRuns(layer)
    }

    func testInfinitePointIsRefused() {
        let (layer, diagnostics) = commitBesideAGoodAnimation(basic("position", to: CGPoint(x: CGFloat.infinity, y: 0)))
        XCTAssertEqual(diagnostics.map(\.name), ["nonFiniteGeometry"])
        assertOnlyTheGoodOneRuns(layer)
    }

    func testNaNKeyframeValueIsRefused() {
        let keys = CAKeyframeAnimation(keyPath: "position.y")
        keys.values = [0, Double.nan, 3]
        keys.duration = 1
        keys.beginTime = 1000
        let (layer, diagnostics) = commitBesideAGoodAnimation(keys)
        XCTAssertEqual(diagnostics.map(\.name), ["nonFiniteGeometry"])
        assertOnlyTheGoodOneRuns(layer)
    }

    func testNaNTimingNeverProducesAValue() {
        // A NaN speed makes every progress NaN; the evaluator must write nothing rather than NaN.
        let layer = CALayer()
        layer.cornerRadius = 2
        let odd = basic("cornerRadius", from: 0, to: 10)
        odd.speed = .nan
        layer.add(odd, forKey: "odd")
        let records = AnimationTestKit.commit(layer)
        for t in [999.0, 1000, 1000.5, 1002] {
            let value = AnimationTestKit.evaluate(records, on: layer, at: t).number("cornerRadius") ?? .nan
            XCTAssertTrue(value.isFinite, "finite at \(t): \(value)")
        }
    }

    func testNaNTimingFunctionNeverProducesAValue() {
        let layer = CALayer()
        layer.cornerRadius = 2
        let odd = basic("cornerRadius", from: 0, to: 10)
        odd.timingFunction = CAMediaTimingFunction(controlPoints: .nan, .nan, .nan, .nan)
        layer.add(odd, forKey: "odd")
        let records = AnimationTestKit.commit(layer)
        for t in [1000.0, 1000.25, 1000.5, 1000.99] {
            let value = AnimationTestKit.evaluate(records, on: layer, at: t).number("cornerRadius") ?? .nan
            XCTAssertTrue(value.isFinite, "finite at \(t): \(value)")
        }
    }

    func testNaNKeyTimesAreIgnored() {
        let keys = CAKeyframeAnimation(keyPath: "cornerRadius")
        keys.values = [0, 10, 30]
        keys.keyTimes = [0, NSNumber(value: Double.nan), 1]
        keys.duration = 1
        keys.beginTime = 1000
        let layer = CALayer()
        layer.add(keys, forKey: "k")
        let records = AnimationTestKit.commit(layer)
        // Ignored: even spacing 0, 0.5, 1 → p = 0.75 is 20.
        XCTAssertEqual(AnimationTestKit.evaluate(records, on: layer, at: 1000.75).number("cornerRadius") ?? .nan, 20, accuracy: 1e-9)
    }

    func testKeyTimesCountMismatchIsIgnoredSilently() {
        let keys = CAKeyframeAnimation(keyPath: "cornerRadius")
        keys.values = [0, 10, 30]
        keys.keyTimes = [0, 1]
        keys.duration = 1
        keys.beginTime = 1000
        let layer = CALayer()
        layer.add(keys, forKey: "k")
        let capture = DiagnosticCapture()
        let records = AnimationTestKit.commit(layer)
        XCTAssertEqual(capture.names, [])
        XCTAssertEqual(AnimationTestKit.evaluate(records, on: layer, at: 1000.25).number("cornerRadius") ?? .nan, 5, accuracy: 1e-9)
    }

    func testRemovingAnUnknownKeyDoesNothing() {
        let layer = CALayer()
        layer.add(basic("position.x", from: 0, to: 1), forKey: "a")
        layer.removeAnimation(forKey: "nothing")
        XCTAssertEqual(layer.animationKeys(), ["a"])
        XCTAssertNil(layer.animation(forKey: "nothing"))
    }

    func testAnonymousAnimationsAreNotListed() {
        let layer = CALayer()
        layer.add(basic("position.x", from: 0, to: 1), forKey: nil)
        XCTAssertNil(layer.animationKeys())
        let records = AnimationTestKit.commit(layer)
        XCTAssertEqual(records.count, 1, "but they run")
    }

    func testKeyframeArraysOfMismatchedLengthsFallBackToEvenKeyTimes() {
        // One value with one key time (a lone value is one segment: it needs two): the key times are
        // ignored, and the value holds throughout. Three values with two key times: even times 0, ½, 1.
        let lone = CAKeyframeAnimation(keyPath: "opacity")
        lone.values = [0.25]
        lone.keyTimes = [0.5]
        let three = CAKeyframeAnimation(keyPath: "opacity")
        three.values = [0, 1, 0]
        three.keyTimes = [0, 1]
        for (animation, expected) in [(lone, [0.25, 0.25, 0.25]), (three, [0, 1, 0.5])] as [(CAKeyframeAnimation, [Double])] {
            guard case .property(let record)? = animation.makeRecord(id: AnimationID.next(), layer: CALayer()),
                  case .keyframes(let track) = record.kind else { return XCTFail("no keyframe record") }
            for (p, value) in zip([0.0, 0.5, 0.75], expected) {
                XCTAssertEqual(track.value(at: p), .scalar(value), "\(animation.values ?? []) at \(p)")
            }
        }
    }
}
