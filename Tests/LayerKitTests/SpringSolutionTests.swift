import Foundation
import XCTest
@testable import LayerKit

/// `SpringSolution`: the closed forms against a numerical integration of m·x″ + c·x′ + k·x = 0 (classic
/// fourth-order Runge–Kutta, step 1e-5 s), the settling duration, and the perceptual parameters.
///
/// Conventions: value = 1 + x, where x is the displacement from the target; x(0) = −1 and x′(0) is the
/// initial velocity in distances per second, positive toward the target.
final class SpringSolutionTests: XCTestCase {
    /// value(t) = 1 + x(t) by RK4 on (x, v)′ = (v, −(c·v + k·x) / m) from (−1, v0), at each of `times`
    /// (ascending).
    private func integrate(mass m: Double, stiffness k: Double, damping c: Double, initialVelocity v0: Double,
                           at times: [Double]) -> [Double] {
        let h = 1e-5
        var x = -1.0, v = v0, t = 0.0
        func acceleration(_ x: Double, _ v: Double) -> Double { -(c * v + k * x) / m }
        var values: [Double] = []
        for target in times {
            while t < target - 1e-12 {
                let step = min(h, target - t)
                let k1x = v, k1v = acceleration(x, v)
                let k2x = v + step / 2 * k1v, k2v = acceleration(x + step / 2 * k1x, v + step / 2 * k1v)
                let k3x = v + step / 2 * k2v, k3v = acceleration(x + step / 2 * k2x, v + step / 2 * k2v)
                let k4x = v + step * k3v, k4v = acceleration(x + step * k3x, v + step * k3v)
                x += step / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
                v += step / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
                t += step
            }
            values.append(1 + x)
        }
        return values
    }

    private let sampleTimes = [0.0, 0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3]

    private func assertMatchesIntegration(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double,
                                          allowsOverdamping: Bool = true,
                                          file: StaticString = #filePath, line: UInt = #line) {
        let spring = SpringSolution(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity,
                                    allowsOverdamping: allowsOverdamping)
        let expected = integrate(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: initialVelocity,
                                 at: sampleTimes)
        for (t, value) in zip(sampleTimes, expected) {
            XCTAssertEqual(spring.value(at: t), value, accuracy: 1e-4,
                           "m \(mass) k \(stiffness) c \(damping) v0 \(initialVelocity) at t = \(t)", file: file, line: line)
        }
    }

    // MARK: - Closed form against integration

    func testUnderdampedMatchesIntegration() {
        assertMatchesIntegration(mass: 1, stiffness: 100, damping: 10, initialVelocity: 0)   // ζ = 0.5
        assertMatchesIntegration(mass: 1, stiffness: 100, damping: 10, initialVelocity: 5)
        assertMatchesIntegration(mass: 1, stiffness: 100, damping: 10, initialVelocity: -3)
        assertMatchesIntegration(mass: 2, stiffness: 50, damping: 4, initialVelocity: 1)     // ζ = 4 / (2·10) = 0.2
        assertMatchesIntegration(mass: 1, stiffness: 300, damping: 1, initialVelocity: 0)    // ζ ≈ 0.029
    }

    func testCriticallyDampedMatchesIntegration() {
        assertMatchesIntegration(mass: 1, stiffness: 100, damping: 20, initialVelocity: 0)   // ζ = 20 / (2·10) = 1
        assertMatchesIntegration(mass: 1, stiffness: 100, damping: 20, initialVelocity: 8)
        assertMatchesIntegration(mass: 4, stiffness: 25, damping: 20, initialVelocity: -2)   // ζ = 20 / (2·10) = 1
    }

    func testOverdampedMatchesIntegrationWhenAllowed() {
        assertMatchesIntegration(mass: 1, stiffness: 100, damping: 50, initialVelocity: 0)   // ζ = 2.5
        assertMatchesIntegration(mass: 1, stiffness: 100, damping: 50, initialVelocity: 10)
        assertMatchesIntegration(mass: 0.5, stiffness: 20, damping: 30, initialVelocity: -1) // ζ = 30 / (2·√10) ≈ 4.7
    }

    func testOverdampingIsClampedToCriticalByDefault() {
        // Core Animation's allowsOverdamping defaults to false: ζ = 2.5 moves as ζ = 1 with the same ω₀ = 10,
        // i.e. as damping 20.
        let clamped = SpringSolution(mass: 1, stiffness: 100, damping: 50)
        XCTAssertEqual(clamped.dampingRatio, 1)
        let critical = integrate(mass: 1, stiffness: 100, damping: 20, initialVelocity: 0, at: sampleTimes)
        for (t, value) in zip(sampleTimes, critical) {
            XCTAssertEqual(clamped.value(at: t), value, accuracy: 1e-4, "t = \(t)")
        }
    }

    func testStartsAtZeroWithTheGivenVelocity() {
        let spring = SpringSolution(initialVelocity: 2)
        XCTAssertEqual(spring.value(at: 0), 0, accuracy: 1e-15)
        // Slope at 0 ≈ v0 = 2; the acceleration k·1/m = 100 adds 100·h/2 = 5e-5 over h = 1e-6.
        XCTAssertEqual((spring.value(at: 1e-6) - spring.value(at: 0)) / 1e-6, 2, accuracy: 1e-3)
        XCTAssertEqual(spring.value(at: -1), 0)   // before the start reads as the start
    }

    func testDefaultSpringOvershootsAndComesToRest() {
        let spring = SpringSolution()
        // First peak at t = π/ω_d = π/(5√3) ≈ 0.3628: 1 + e^(−5·0.3628) ≈ 1 + 0.163.
        XCTAssertEqual(spring.value(at: Double.pi / (5 * 3.0.squareRoot())), 1 + exp(-5 * Double.pi / (5 * 3.0.squareRoot())),
                       accuracy: 1e-12)
        XCTAssertEqual(spring.value(at: 20), 1, accuracy: 1e-12)
    }

    // MARK: - Parameters

    func testDefaultsAreCoreAnimations() {
        let spring = SpringSolution()
        XCTAssertEqual(spring.mass, 1)
        XCTAssertEqual(spring.stiffness, 100)
        XCTAssertEqual(spring.damping, 10)
        XCTAssertEqual(spring.initialVelocity, 0)
        XCTAssertFalse(spring.allowsOverdamping)
        XCTAssertEqual(spring.naturalFrequency, 10)         // √(100 / 1)
        XCTAssertEqual(spring.dampingRatio, 0.5)            // 10 / (2·√100)
        XCTAssertEqual(spring.perceptualDuration, 2 * Double.pi / 10, accuracy: 1e-12)  // SwiftUI: 0.63
        XCTAssertEqual(spring.bounce, 0.5, accuracy: 1e-12) // 1 − ζ; SwiftUI: 0.5
    }

    func testInvalidParametersAreReplacedAsCoreAnimationsSettersDo() {
        let spring = SpringSolution(mass: 0, stiffness: -5, damping: -1)
        XCTAssertEqual(spring.mass, 1)
        XCTAssertEqual(spring.stiffness, 100)
        XCTAssertEqual(spring.damping, 10)
    }

    func testDurationAndPositiveBounce() {
        // Stiffness (2π/0.5)² = (4π)² ≈ 157.914; damping 4π·(1 − 0.3)/0.5 ≈ 17.593 (SwiftUI's (157.9, 17.6)).
        let spring = SpringSolution(duration: 0.5, bounce: 0.3)
        XCTAssertEqual(spring.mass, 1)
        XCTAssertEqual(spring.stiffness, 157.91367041742973, accuracy: 1e-9)
        XCTAssertEqual(spring.damping, 17.59291886010284, accuracy: 1e-9)
        XCTAssertEqual(spring.dampingRatio, 0.7, accuracy: 1e-12)    // 1 − bounce
        XCTAssertTrue(spring.allowsOverdamping)
        XCTAssertEqual(spring.perceptualDuration, 0.5, accuracy: 1e-12)
        XCTAssertEqual(spring.bounce, 0.3, accuracy: 1e-12)
    }

    func testDurationAndZeroBounceIsCriticallyDamped() {
        let spring = SpringSolution(duration: 1, bounce: 0)
        XCTAssertEqual(spring.dampingRatio, 1, accuracy: 1e-12)
        // ω₀ = 2π: x = −e^(−2πt)(1 + 2πt); at t = 0.5: 1 − e^(−π)(1 + π).
        XCTAssertEqual(spring.value(at: 0.5), 1 - exp(-Double.pi) * (1 + Double.pi), accuracy: 1e-9)
    }

    func testDurationAndNegativeBounceIsOverdamped() {
        // Damping 4π / (0.5·(1 − 0.5)) = 16π ≈ 50.265; ζ = 1 / (1 − 0.5) = 2.
        let spring = SpringSolution(duration: 0.5, bounce: -0.5)
        XCTAssertEqual(spring.damping, 50.26548245743669, accuracy: 1e-9)
        XCTAssertEqual(spring.dampingRatio, 2, accuracy: 1e-12)
        XCTAssertEqual(spring.bounce, -0.5, accuracy: 1e-12)
        let expected = integrate(mass: 1, stiffness: spring.stiffness, damping: spring.damping, initialVelocity: 0,
                                 at: sampleTimes)
        for (t, value) in zip(sampleTimes, expected) {
            XCTAssertEqual(spring.value(at: t), value, accuracy: 1e-4, "t = \(t)")
        }
    }

    func testZeroDurationIsAtTheTargetAtOnce() {
        let spring = SpringSolution(duration: 0, bounce: 0.2)
        XCTAssertEqual(spring.value(at: 0), 0)
        XCTAssertEqual(spring.value(at: 0.001), 1)
        XCTAssertEqual(spring.settlingDuration, 0)
    }

    // MARK: - Settling duration

    func testDefaultSpringSettlesInWorkedTime() {
        // ζ = 0.5, ω₀ = 10, ω_d = 5√3. A = −1, B = (0 − 5)/(5√3) = −1/√3, so |A| + |B| = 1 + 1/√3 and the
        // envelope (1 + 1/√3)·e^(−5t) reaches 0.001 at t = ln(1000·(1 + 1/√3)) / 5 ≈ 1.4727.
        XCTAssertEqual(SpringSolution().settlingDuration, 1.4727003346780925, accuracy: 1e-9)
        XCTAssertEqual(SpringSolution.settlingEpsilon, 0.001)
    }

    func testUnderdampedSettlingGrowsWithVelocityAwayFromTheTarget() {
        // v0 = −5: B = (−5 − 5)/(5√3) = −2/√3; t = ln(1000·(1 + 2/√3)) / 5 ≈ 1.5389.
        XCTAssertEqual(SpringSolution(initialVelocity: -5).settlingDuration,
                       log(1000 * (1 + 2 / 3.0.squareRoot())) / 5, accuracy: 1e-9)
    }

    func testCriticallyDampedSettlesOnTheTenthOfASecondGrid() {
        // |1 − value| = (1 + 10t)e^(−10t): at 0.9 it is 10e^−9 ≈ 0.00123 (outside), at 1.0 11e^−10 ≈ 0.0005.
        XCTAssertEqual(SpringSolution(stiffness: 100, damping: 20).settlingDuration, 1.0, accuracy: 1e-9)
    }

    func testOverdampedSettlesOnTheTenthOfASecondGrid() {
        // ζ = 2.5, ω₀ = 10: r₁ = −10(2.5 − √5.25) ≈ −2.0871, C₁ ≈ −1.04554; the slow term reaches 0.001 at
        // ln(1045.54)/2.0871 ≈ 3.331 s, so the first sample inside is 3.4 (3.3 gives 0.00107).
        XCTAssertEqual(SpringSolution(stiffness: 100, damping: 50, allowsOverdamping: true).settlingDuration, 3.4,
                       accuracy: 1e-9)
    }

    func testUndampedSpringNeverSettles() {
        XCTAssertEqual(SpringSolution(damping: 0).settlingDuration, .infinity)
    }

    func testMotionStaysWithinEpsilonAfterSettling() {
        let springs = [
            SpringSolution(),
            SpringSolution(initialVelocity: 5),
            SpringSolution(initialVelocity: -5),
            SpringSolution(mass: 2, stiffness: 50, damping: 4),
            SpringSolution(stiffness: 100, damping: 20),
            SpringSolution(stiffness: 100, damping: 20, initialVelocity: 8),
            SpringSolution(stiffness: 100, damping: 50, allowsOverdamping: true),
            SpringSolution(duration: 0.5, bounce: 0.3),
            SpringSolution(duration: 0.5, bounce: -0.5),
        ]
        for spring in springs {
            let settle = spring.settlingDuration
            XCTAssertTrue(settle.isFinite && settle > 0, "\(spring)")
            for step in 0...5000 {
                let t = settle + Double(step) * 0.001
                XCTAssertLessThan(abs(1 - spring.value(at: t)), SpringSolution.settlingEpsilon, "\(spring) at t = \(t)")
            }
        }
    }

    func testSettlingBoundIsTightWithinHalfAPeriod() {
        // The envelope bound is not loose: in the half period (π/ω_d ≈ 0.363 s) before the settling time the
        // default spring still swings outside the band (envelope there 0.001·e^(5·0.363) ≈ 0.0061, and a
        // peak of the oscillation reaches at least 1/(1 + 1/√3) ≈ 0.63 of it).
        let spring = SpringSolution()
        let settle = spring.settlingDuration
        let halfPeriod = Double.pi / (5 * 3.0.squareRoot())
        let largest = stride(from: settle - halfPeriod, through: settle, by: 0.0005).map { abs(1 - spring.value(at: $0)) }.max()!
        XCTAssertGreaterThan(largest, SpringSolution.settlingEpsilon)
    }

    func testSmallerEpsilonTakesLonger() {
        let spring = SpringSolution()
        // ln(1e5·(1 + 1/√3)) / 5 ≈ 2.3937
        XCTAssertEqual(spring.settlingDuration(epsilon: 0.00001), log(1e5 * (1 + 1 / 3.0.squareRoot())) / 5, accuracy: 1e-9)
        // Epsilon is floored at 1e-6, as Core Animation floors it.
        XCTAssertEqual(spring.settlingDuration(epsilon: 1e-9), spring.settlingDuration(epsilon: 1e-6))
    }
}
