import Foundation
import XCTest
@testable import LayerKit

/// `CAKeyframeAnimation` evaluated from its committed record: key times (default, custom, mismatched),
/// the calculation modes (linear, discrete, paced, cubic), per-segment timing functions, and paths.
///
/// Each animation begins at absolute time 1000 and lasts `duration` seconds, so progress p = (t − 1000) /
/// duration. Values animate `cornerRadius` (model value 7) unless they are points.
final class KeyframeAnimationTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    private func keyframes(_ keyPath: String, _ values: [Any], keyTimes: [Double]? = nil, mode: CAAnimationCalculationMode = .linear,
                           duration: Double = 1) -> CAKeyframeAnimation {
        let animation = CAKeyframeAnimation(keyPath: keyPath)
        animation.values = values
        animation.keyTimes = keyTimes?.map { NSNumber(value: $0) }
        animation.calculationMode = mode
        animation.duration = duration
        animation.beginTime = 1000
        animation.fillMode = .forwards  // so p = 1 can be read after the end
        return animation
    }

    /// Commits `animation` on a fresh layer and checks cornerRadius at progresses `expected`.
    private func assertRadius(_ animation: CAKeyframeAnimation, _ expected: [(p: Double, value: Double)],
                              file: StaticString = #filePath, line: UInt = #line) {
        let layer = CALayer()
        layer.cornerRadius = 7
        layer.add(animation, forKey: "k")
        let records = AnimationTestKit.commit(layer)
        XCTAssertEqual(records.count, 1, "committed", file: file, line: line)
        for (p, value) in expected {
            let actual = AnimationTestKit.evaluate(records, on: layer, at: 1000 + p * animation.duration).number("cornerRadius") ?? .nan
            XCTAssertEqual(actual, value, accuracy: 1e-9, "cornerRadius at p = \(p)", file: file, line: line)
        }
    }

    private func assertPosition(_ animation: CAKeyframeAnimation, _ expected: [(p: Double, point: CGPoint)], accuracy: Double = 1e-9,
                                file: StaticString = #filePath, line: UInt = #line) {
        let layer = CALayer()
        layer.position = CGPoint(x: -1, y: -1)
        layer.add(animation, forKey: "k")
        let records = AnimationTestKit.commit(layer)
        XCTAssertEqual(records.count, 1, "committed", file: file, line: line)
        for (p, point) in expected {
            let actual = AnimationTestKit.evaluate(records, on: layer, at: 1000 + p * animation.duration).value("position") as? CGPoint
            XCTAssertEqual(Double(actual?.x ?? .nan), Double(point.x), accuracy: accuracy, "x at p = \(p)", file: file, line: line)
            XCTAssertEqual(Double(actual?.y ?? .nan), Double(point.y), accuracy: accuracy, "y at p = \(p)", file: file, line: line)
        }
    }

    // MARK: - Linear

    func testLinearWithDefaultKeyTimesSpacesValuesEvenly() {
        // Values 0, 10, 30 at times 0, 0.5, 1.
        assertRadius(keyframes("cornerRadius", [0, 10, 30]), [
            (0, 0), (0.25, 5), (0.5, 10), (0.75, 20), (0.9, 26), (1, 30),
        ])
    }

    func testLinearWithCustomKeyTimes() {
        // Values 0, 10, 30 at times 0, 0.2, 1: first segment 0.2 long, second 0.8.
        assertRadius(keyframes("cornerRadius", [0, 10, 30], keyTimes: [0, 0.2, 1]), [
            (0.1, 5),    // 10 · 0.1/0.2
            (0.2, 10),
            (0.6, 20),   // 10 + 20 · 0.4/0.8
            (1, 30),
        ])
    }

    func testBeforeTheFirstKeyTimeTheFirstValueHolds() {
        // Key times 0.5, 0.75, 1 leave 0…0.5 uncovered: the first value holds there (no extrapolation
        // backwards along the first segment).
        assertRadius(keyframes("cornerRadius", [0, 10, 30], keyTimes: [0.5, 0.75, 1]), [
            (0.25, 0),
            (0.5, 0),
            (0.6, 4),    // 10 · 0.1/0.25
            (0.875, 20), // 10 + 20 · 0.125/0.25
        ])
    }

    func testAfterTheLastKeyTimeTheLastValueHolds() {
        // Key times 0, 0.5, 0.8: from 0.8 on the last value holds (no extrapolation past it).
        assertRadius(keyframes("cornerRadius", [0, 10, 30], keyTimes: [0, 0.5, 0.8]), [
            (0.65, 20),  // 10 + 20 · 0.15/0.3
            (0.8, 30),
            (0.9, 30),
            (1, 30),
        ])
    }

    func testKeyTimesCountMismatchIsIgnoredAndValuesAreSpacedEvenly() {
        // Four key times for three values: ignored, so times 0, 0.5, 1.
        assertRadius(keyframes("cornerRadius", [0, 10, 30], keyTimes: [0, 0.1, 0.2, 1]), [
            (0.25, 5), (0.5, 10), (0.75, 20),
        ])
    }

    func testDecreasingKeyTimesAreIgnored() {
        assertRadius(keyframes("cornerRadius", [0, 10, 30], keyTimes: [0, 0.8, 0.4]), [(0.25, 5), (0.75, 20)])
    }

    func testKeyTimesOutsideZeroToOneAreIgnored() {
        assertRadius(keyframes("cornerRadius", [0, 10, 30], keyTimes: [0, 0.5, 2]), [(0.25, 5), (0.75, 20)])
    }

    func testSingleValueHoldsThroughout() {
        assertRadius(keyframes("cornerRadius", [12]), [(0, 12), (0.5, 12), (1, 12)])
    }

    func testAnimationTimingFunctionPacesTheWholeTrack() {
        // easeIn over the whole animation, then the track: f = bezier(p), value = 30·… piecewise.
        let animation = keyframes("cornerRadius", [0, 10, 30])
        animation.timingFunction = CAMediaTimingFunction(name: .easeIn)
        let f = referenceBezierY(0.6, (0.42, 0, 1, 1))  // < 0.5, so still in the first segment
        XCTAssertLessThan(f, 0.5)
        let layer = CALayer()
        layer.add(animation, forKey: "k")
        let records = AnimationTestKit.commit(layer)
        XCTAssertEqual(AnimationTestKit.evaluate(records, on: layer, at: 1000.6).number("cornerRadius") ?? .nan, 20 * f, accuracy: 1e-5)
    }

    // MARK: - Discrete

    func testDiscreteWithNPlusOneKeyTimesHoldsEachValueUntilTheNext() {
        // Value i holds on [keyTimes[i], keyTimes[i + 1]).
        assertRadius(keyframes("cornerRadius", [0, 10, 30], keyTimes: [0, 0.1, 0.6, 1], mode: .discrete), [
            (0, 0), (0.05, 0), (0.1, 10), (0.3, 10), (0.59, 10), (0.6, 30), (0.99, 30),
        ])
    }

    func testDiscreteWithOneKeyTimePerValueHoldsTheLastValueToTheEnd() {
        // Key times [0, 0.2, 0.5]: 0 on [0, 0.2), 10 on [0.2, 0.5), 30 from 0.5 to the end.
        assertRadius(keyframes("cornerRadius", [0, 10, 30], keyTimes: [0, 0.2, 0.5], mode: .discrete), [
            (0.1, 0), (0.2, 10), (0.49, 10), (0.5, 30), (0.9, 30),
        ])
    }

    func testDiscreteWithoutKeyTimesSplitsTimeInN() {
        // Three values, three equal slots: 0 on [0, 1/3), 10 on [1/3, 2/3), 30 on [2/3, 1].
        assertRadius(keyframes("cornerRadius", [0, 10, 30], mode: .discrete), [
            (0.3, 0), (0.34, 10), (0.65, 10), (0.7, 30), (1, 30),
        ])
    }

    func testDiscreteNeverInterpolates() {
        let animation = keyframes("position", [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 100)], mode: .discrete)
        assertPosition(animation, [(0.49, CGPoint(x: 0, y: 0)), (0.51, CGPoint(x: 100, y: 100))])
    }

    // MARK: - Paced

    func testPacedSpacesKeyTimesByDistance() {
        // Distances 10 and 30 of 40: key times 0, 0.25, 1 — so the value moves at 40 per unit progress.
        assertRadius(keyframes("cornerRadius", [0, 10, 40], mode: .paced), [
            (0.125, 5), (0.25, 10), (0.5, 20), (0.75, 30),
        ])
    }

    func testPacedIgnoresKeyTimes() {
        assertRadius(keyframes("cornerRadius", [0, 10, 40], keyTimes: [0, 0.9, 1], mode: .paced), [(0.5, 20)])
    }

    func testPacedPointsMoveAtEvenSpeedAlongThePolyline() {
        // (0,0) → (30,40): length 50; (30,40) → (30,100): length 60; total 110.
        // p = 0.5 → 55 along: 5 into the second leg → (30, 45). p = 10/110·… check a point on the first leg:
        // p = 25/110 → 25 along → (15, 20).
        let animation = keyframes("position", [CGPoint(x: 0, y: 0), CGPoint(x: 30, y: 40), CGPoint(x: 30, y: 100)], mode: .paced)
        assertPosition(animation, [(0.5, CGPoint(x: 30, y: 45)), (25.0 / 110, CGPoint(x: 15, y: 20))])
    }

    // MARK: - Cubic

    func testCubicPassesThroughEveryKeyframe() {
        // Three seconds, key times 0, 1/3, 2/3, 1: at t = 1000, 1001, 1002, 1003 exactly the values.
        assertRadius(keyframes("cornerRadius", [0, 10, 30, 30], mode: .cubic, duration: 3), [
            (0, 0), (1.0 / 3, 10), (2.0 / 3, 30), (1, 30),
        ])
    }

    func testCubicIsACatmullRomSplineBetweenKeyframes() {
        // Middle segment 10 → 30 with Catmull–Rom tangents m1 = (30 − 0)/2 = 15, m2 = (30 − 10)/2 = 10.
        // Hermite at s = 0.5: h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = −0.125:
        // 0.5·10 + 0.125·15 + 0.5·30 − 0.125·10 = 20.625 (a straight line would give 20).
        // At s = 0.25: h00 = 0.84375, h10 = 0.140625, h01 = 0.15625, h11 = −0.046875:
        // 8.4375 + 2.109375 + 4.6875 − 0.46875 = 14.765625.
        assertRadius(keyframes("cornerRadius", [0, 10, 30, 30], mode: .cubic, duration: 3), [
            (0.5, 20.625), (1.0 / 3 + 0.25 / 3, 14.765625),
        ])
    }

    func testCubicPointsPassThroughTheKeyframes() {
        let points = [CGPoint(x: 0, y: 0), CGPoint(x: 50, y: 80), CGPoint(x: 100, y: 0)]
        let animation = keyframes("position", points, mode: .cubic, duration: 2)
        // At the middle keyframe the tangent is ((100,0) − (0,0))/2: horizontal, so the path peaks there.
        assertPosition(animation, [(0, points[0]), (0.5, points[1]), (1, points[2])])
    }

    // MARK: - Per-segment timing functions

    func testTimingFunctionsPaceEachSegment() {
        // Values 0, 10, 20 at 0, 0.5, 1; segment 0 eases in, segment 1 is linear.
        let animation = keyframes("cornerRadius", [0, 10, 20])
        animation.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .linear)]
        let easedHalf = referenceBezierY(0.5, (0.42, 0, 1, 1))
        assertRadius(animation, [
            (0.25, 10 * easedHalf),  // local 0.5 in segment 0
            (0.5, 10),
            (0.75, 15),              // local 0.5 in segment 1, linear
        ])
        XCTAssertLessThan(easedHalf, 0.5, "ease-in is behind linear at half time")
    }

    func testTimingFunctionsCountMismatchIsIgnored() {
        // One function for two segments: ignored, both segments linear.
        let animation = keyframes("cornerRadius", [0, 10, 20])
        animation.timingFunctions = [CAMediaTimingFunction(name: .easeIn)]
        assertRadius(animation, [(0.25, 5), (0.75, 15)])
    }

    // MARK: - Paths

    func testPathLineMovesPositionAlongIt() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 50))
        let animation = keyframes("position", [])
        animation.values = nil
        animation.path = path
        assertPosition(animation, [
            (0, CGPoint(x: 0, y: 0)), (0.3, CGPoint(x: 30, y: 15)), (0.5, CGPoint(x: 50, y: 25)), (1, CGPoint(x: 100, y: 50)),
        ])
    }

    func testPathCubicCurveMovesPositionAlongTheBezier() {
        // B(s) = (1−s)³P0 + 3(1−s)²s·P1 + 3(1−s)s²·P2 + s³P3 with P0 (0,0), P1 (0,100), P2 (100,100), P3 (100,0).
        // s = 0.5: weights 1/8, 3/8, 3/8, 1/8 → (50, 75). s = 0.25: weights 27/64, 27/64, 9/64, 1/64 →
        // x = (9 + 1)/64·100 = 15.625, y = (27 + 9)/64·100 = 56.25.
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addCurve(to: CGPoint(x: 100, y: 0), control1: CGPoint(x: 0, y: 100), control2: CGPoint(x: 100, y: 100))
        let animation = keyframes("position", [])
        animation.values = nil
        animation.path = path
        assertPosition(animation, [
            (0.25, CGPoint(x: 15.625, y: 56.25)), (0.5, CGPoint(x: 50, y: 75)), (1, CGPoint(x: 100, y: 0)),
        ])
    }

    func testPathElementsAreEvenlyTimedSegments() {
        // A line (0,0) → (100,0) then a quadratic to (100,100) via (200,50): each half of the time.
        // Quadratic at s = 0.5: 0.25·(100,0) + 0.5·(200,50) + 0.25·(100,100) = (150, 50).
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 100, y: 0))
        path.addQuadCurve(to: CGPoint(x: 100, y: 100), control: CGPoint(x: 200, y: 50))
        let animation = keyframes("position", [])
        animation.values = nil
        animation.path = path
        assertPosition(animation, [
            (0.25, CGPoint(x: 50, y: 0)), (0.5, CGPoint(x: 100, y: 0)), (0.75, CGPoint(x: 150, y: 50)),
        ])
    }

    func testPathOverridesValues() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 10, y: 0))
        let animation = keyframes("position", [CGPoint(x: 500, y: 500), CGPoint(x: 600, y: 600)])
        animation.path = path
        assertPosition(animation, [(0.5, CGPoint(x: 5, y: 0))])
    }

    func testPacedPathMovesAtEvenSpeed() {
        // Lines of length 10 and 30: paced key times 0, 0.25, 1. p = 0.5 → 20 along → 10 into the second.
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addLine(to: CGPoint(x: 10, y: 0))
        path.addLine(to: CGPoint(x: 10, y: 30))
        let animation = keyframes("position", [], mode: .paced)
        animation.values = nil
        animation.path = path
        assertPosition(animation, [(0.5, CGPoint(x: 10, y: 10)), (0.125, CGPoint(x: 5, y: 0))], accuracy: 1e-6)
    }
}
