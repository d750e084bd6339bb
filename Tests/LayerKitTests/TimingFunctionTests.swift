import Foundation
import XCTest
@testable import LayerKit

/// `CAMediaTimingFunction`: Core Animation's named control points, and `value(at:)` checked against an
/// independent solver (bisection on the Bernstein form of the curve, to 1e-12 in t).
final class TimingFunctionTests: XCTestCase {
    /// The control point `index` as (x, y).
    private func point(_ function: CAMediaTimingFunction, _ index: Int) -> (Float, Float) {
        var values: [Float] = [-7, -7]
        values.withUnsafeMutableBufferPointer { function.getControlPoint(at: index, values: $0.baseAddress!) }
        return (values[0], values[1])
    }

    private func assertControlPoints(_ function: CAMediaTimingFunction, _ p1: (Float, Float), _ p2: (Float, Float),
                                     file: StaticString = #filePath, line: UInt = #line) {
        let expected = [(Float(0), Float(0)), p1, p2, (1, 1)]
        for (index, point) in expected.enumerated() {
            let actual = self.point(function, index)
            XCTAssertEqual(actual.0, point.0, "x of control point \(index)", file: file, line: line)
            XCTAssertEqual(actual.1, point.1, "y of control point \(index)", file: file, line: line)
        }
    }

    /// The reference: y at x for the Bézier (0,0) P1 P2 (1,1), found by bisecting t on
    /// x(t) = 3(1−t)²t·x1 + 3(1−t)t²·x2 + t³ (x control points clamped to 0…1, so x(t) increases) until
    /// the bracket is under 1e-12, then y(t) from the same Bernstein form. The ends are the curve's end
    /// points, (0, 0) and (1, 1), by definition: where x′ vanishes at an end (x1 = x2 = 1, say) x(t) rounds
    /// to 1 over the last ~5e-6 of t, which bisection cannot resolve.
    private func referenceValue(_ p1: (Double, Double), _ p2: (Double, Double), at x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        let x1 = min(max(p1.0, 0), 1), x2 = min(max(p2.0, 0), 1)
        func bernstein(_ a: Double, _ b: Double, _ t: Double) -> Double {
            let u = 1 - t
            return 3 * u * u * t * a + 3 * u * t * t * b + t * t * t
        }
        var low = 0.0, high = 1.0
        while high - low > 1e-12 {
            let mid = (low + high) / 2
            if bernstein(x1, x2, mid) < x { low = mid } else { high = mid }
        }
        return bernstein(p1.1, p2.1, (low + high) / 2)
    }

    private let tenths = (0...10).map { Double($0) / 10 }

    private func assertMatchesReference(_ c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float, samples: [Double],
                                        file: StaticString = #filePath, line: UInt = #line) {
        let function = CAMediaTimingFunction(controlPoints: c1x, c1y, c2x, c2y)
        let p1 = (Double(c1x), Double(c1y)), p2 = (Double(c2x), Double(c2y))
        for x in samples {
            XCTAssertEqual(function.value(at: x), referenceValue(p1, p2, at: x), accuracy: 1e-6,
                           "\(function) at x = \(x)", file: file, line: line)
        }
    }

    // MARK: - Named functions

    func testNamedFunctionsHaveCoreAnimationsControlPoints() {
        assertControlPoints(CAMediaTimingFunction(name: .linear), (0, 0), (1, 1))
        assertControlPoints(CAMediaTimingFunction(name: .easeIn), (0.42, 0), (1, 1))
        assertControlPoints(CAMediaTimingFunction(name: .easeOut), (0, 0), (0.58, 1))
        assertControlPoints(CAMediaTimingFunction(name: .easeInEaseOut), (0.42, 0), (0.58, 1))
        assertControlPoints(CAMediaTimingFunction(name: .default), (0.25, 0.1), (0.25, 1))
    }

    func testNamesHaveCoreAnimationsRawValues() {
        XCTAssertEqual(CAMediaTimingFunctionName.linear.rawValue, "linear")
        XCTAssertEqual(CAMediaTimingFunctionName.easeIn.rawValue, "easeIn")
        XCTAssertEqual(CAMediaTimingFunctionName.easeOut.rawValue, "easeOut")
        XCTAssertEqual(CAMediaTimingFunctionName.easeInEaseOut.rawValue, "easeInEaseOut")
        XCTAssertEqual(CAMediaTimingFunctionName.default.rawValue, "default")
    }

    func testCustomControlPointsAreReturnedAsGiven() {
        assertControlPoints(CAMediaTimingFunction(controlPoints: 0.5, -0.5, 0.5, 1.5), (0.5, -0.5), (0.5, 1.5))
        assertControlPoints(CAMediaTimingFunction(controlPoints: 1.5, 0, -0.5, 1), (1.5, 0), (-0.5, 1))
    }

    func testUnknownNameGivesTheLinearCurve() {
        XCTAssertEqual(CAMediaTimingFunction(name: CAMediaTimingFunctionName("bogus")), CAMediaTimingFunction(name: .linear))
    }

    // MARK: - Values against the reference solver

    func testLinearIsTheIdentity() {
        let linear = CAMediaTimingFunction(name: .linear)
        for x in tenths {
            XCTAssertEqual(linear.value(at: x), x, accuracy: 1e-9)
        }
    }

    func testEaseInMatchesReferenceAtTenths() {
        assertMatchesReference(0.42, 0, 1, 1, samples: tenths)
    }

    func testEaseOutMatchesReferenceAtTenths() {
        assertMatchesReference(0, 0, 0.58, 1, samples: tenths)
    }

    func testEaseInEaseOutMatchesReferenceAtTenths() {
        assertMatchesReference(0.42, 0, 0.58, 1, samples: tenths)
    }

    func testDefaultMatchesReferenceAtTenths() {
        assertMatchesReference(0.25, 0.1, 0.25, 1, samples: tenths)
    }

    func testOvershootingCurveMatchesReferenceAtTenths() {
        assertMatchesReference(0.5, -0.5, 0.5, 1.5, samples: tenths)
    }

    func testSteepAndFlatCurvesMatchReferenceDensely() {
        // Vertical tangents at the ends (x′ = 0 where y′ ≠ 0) and a near-step: the hard cases for Newton.
        let dense = (0...1000).map { Double($0) / 1000 }
        assertMatchesReference(0, 1, 0, 1, samples: dense)
        assertMatchesReference(1, 0, 1, 0, samples: dense)
        assertMatchesReference(1, 0, 0, 1, samples: dense)
        assertMatchesReference(0.5, -0.5, 0.5, 1.5, samples: dense)
        assertMatchesReference(0.25, 0.1, 0.25, 1, samples: dense)
        assertMatchesReference(0.68, -0.6, 0.32, 1.6, samples: dense)
    }

    func testOvershootingCurveLeavesZeroToOne() {
        let overshoot = CAMediaTimingFunction(controlPoints: 0.5, -0.5, 0.5, 1.5)
        XCTAssertLessThan(overshoot.value(at: 0.1), 0)
        XCTAssertGreaterThan(overshoot.value(at: 0.9), 1)
    }

    func testOutOfRangeXControlPointsAreClampedForEvaluation() {
        let wild = CAMediaTimingFunction(controlPoints: 1.5, 0, -0.5, 1)
        let clamped = CAMediaTimingFunction(controlPoints: 1, 0, 0, 1)
        for x in tenths {
            XCTAssertEqual(wild.value(at: x), clamped.value(at: x), accuracy: 1e-12)
        }
    }

    // MARK: - Worked values

    func testEaseInAtItsParameterMidpoint() {
        // t = 0.5: x = 3·0.25·0.5·0.42 + 3·0.5·0.25·1 + 0.125 = 0.1575 + 0.375 + 0.125 = 0.6575;
        //          y = 0 + 0.375 + 0.125 = 0.5.
        XCTAssertEqual(CAMediaTimingFunction(name: .easeIn).value(at: 0.6575), 0.5, accuracy: 1e-6)
    }

    func testEaseInEaseOutIsPointSymmetric() {
        // P1 = (0.42, 0) and P2 = (0.58, 1) mirror through (0.5, 0.5), so f(x) + f(1 − x) = 1 and f(0.5) = 0.5
        // — up to the Float rounding of the control points (Float(0.42) + Float(0.58) = 1 − 3e-8), which
        // moves values by a few 1e-8.
        let curve = CAMediaTimingFunction(name: .easeInEaseOut)
        XCTAssertEqual(curve.value(at: 0.5), 0.5, accuracy: 1e-7)
        for x in tenths {
            XCTAssertEqual(curve.value(at: x) + curve.value(at: 1 - x), 1, accuracy: 1e-7)
        }
        // With control points that are exact binary fractions the symmetry is exact to the solver's precision.
        let exact = CAMediaTimingFunction(controlPoints: 0.375, 0, 0.625, 1)
        XCTAssertEqual(exact.value(at: 0.5), 0.5, accuracy: 1e-12)
        for x in tenths {
            XCTAssertEqual(exact.value(at: x) + exact.value(at: 1 - x), 1, accuracy: 1e-9)
        }
    }

    func testEndsAreExactAndInputIsClamped() {
        for name in [CAMediaTimingFunctionName.linear, .easeIn, .easeOut, .easeInEaseOut, .default] {
            let curve = CAMediaTimingFunction(name: name)
            XCTAssertEqual(curve.value(at: 0), 0)
            XCTAssertEqual(curve.value(at: 1), 1)
            XCTAssertEqual(curve.value(at: -0.5), 0)
            XCTAssertEqual(curve.value(at: 1.5), 1)
            XCTAssertEqual(curve.value(at: .nan), 0)
        }
    }

    func testValuesIncreaseForMonotoneCurves() {
        for name in [CAMediaTimingFunctionName.linear, .easeIn, .easeOut, .easeInEaseOut, .default] {
            let curve = CAMediaTimingFunction(name: name)
            var previous = 0.0
            for step in 1...200 {
                let value = curve.value(at: Double(step) / 200)
                XCTAssertGreaterThanOrEqual(value, previous - 1e-12, "\(name.rawValue) at step \(step)")
                previous = value
            }
        }
    }

    // MARK: - Identity

    func testEqualityAndHashingFollowTheControlPoints() {
        let named = CAMediaTimingFunction(name: .easeInEaseOut)
        let explicit = CAMediaTimingFunction(controlPoints: 0.42, 0, 0.58, 1)
        XCTAssertEqual(named, explicit)
        XCTAssertEqual(named.hashValue, explicit.hashValue)
        XCTAssertNotEqual(named, CAMediaTimingFunction(name: .default))
        let set: Set<CAMediaTimingFunction> = [named, explicit, CAMediaTimingFunction(name: .linear)]
        XCTAssertEqual(set.count, 2)
    }
}
