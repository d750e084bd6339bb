import Foundation
import XCTest
@testable import LayerKit

/// `CASpringAnimation` against the closed-form solution of m·x″ + c·x′ + k·x = 0 worked out here.
///
/// Default spring: m = 1, k = 100, c = 10 → ω₀ = √(k/m) = 10, ζ = c / (2√(k·m)) = 0.5 (underdamped),
/// ω_d = ω₀√(1 − ζ²) = 5√3 ≈ 8.660. Released at rest one whole distance from the target:
/// fraction(τ) = 1 − e^(−ζω₀τ)·(cos ω_d τ + (ζω₀ − v₀)/ω_d · sin ω_d τ), τ the spring's own time.
///
/// The animation begins at absolute 1000, so τ = t − 1000 (duration only ends it).
final class SpringAnimationTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    /// The underdamped fraction of the way, in plain math.
    private func underdamped(_ tau: Double, mass: Double = 1, stiffness: Double = 100, damping: Double = 10, v0: Double = 0) -> Double {
        let omega = (stiffness / mass).squareRoot()
        let zeta = damping / (2 * (stiffness * mass).squareRoot())
        let omegaD = omega * (1 - zeta * zeta).squareRoot()
        return 1 - exp(-zeta * omega * tau) * (cos(omegaD * tau) + (zeta * omega - v0) / omegaD * sin(omegaD * tau))
    }

    private func spring(from: Any? = nil, to: Any? = nil, by: Any? = nil, keyPath: String = "cornerRadius",
                        duration: Double = 2) -> CASpringAnimation {
        let animation = CASpringAnimation(keyPath: keyPath)
        animation.fromValue = from
        animation.toValue = to
        animation.byValue = by
        animation.duration = duration
        animation.beginTime = 1000
        return animation
    }

    private func radii(_ animation: CASpringAnimation, at taus: [Double]) -> [Double] {
        let layer = CALayer()
        layer.cornerRadius = 3
        layer.add(animation, forKey: "spring")
        let records = AnimationTestKit.commit(layer)
        XCTAssertEqual(records.count, 1)
        return taus.map { AnimationTestKit.evaluate(records, on: layer, at: 1000 + $0).number("cornerRadius") ?? .nan }
    }

    func testDefaultParametersAreCoreAnimations() {
        let animation = CASpringAnimation()
        XCTAssertEqual(animation.mass, 1)
        XCTAssertEqual(animation.stiffness, 100)
        XCTAssertEqual(animation.damping, 10)
        XCTAssertEqual(animation.initialVelocity, 0)
    }

    func testDefaultSpringFollowsTheClosedForm() {
        let taus = [0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 1.99]
        let actual = radii(spring(from: 0, to: 100), at: taus)
        for (tau, value) in zip(taus, actual) {
            XCTAssertEqual(value, 100 * underdamped(tau), accuracy: 1e-9, "τ = \(tau)")
        }
    }

    func testDefaultSpringOvershootsByHand() {
        // τ = 0.3: e^−1.5 = 0.223130, ω_d τ = 2.598076, cos = −0.855895, sin = 0.517149,
        // (5/8.660254)·0.517149 = 0.298576 → 1 − 0.223130·(−0.855895 + 0.298576) = 1.124355 ≈ 112.44 %.
        // τ = 0.1: e^−0.5 = 0.606531, ω_d τ = 0.866025, cos = 0.647859, sin = 0.761760 → 0.439802:
        // 1 − 0.606531·1.087662 = 0.340300 ≈ 34.03 %.
        let actual = radii(spring(from: 0, to: 100), at: [0.1, 0.3, 1])
        XCTAssertEqual(actual[0], 34.03, accuracy: 0.01)
        XCTAssertEqual(actual[1], 112.44, accuracy: 0.01)
        XCTAssertEqual(actual[2], 100.22, accuracy: 0.01)  // e^−5 ≈ 0.0067: nearly settled, still a little over
    }

    func testInitialVelocityChangesTheSineTerm() {
        // v₀ = 5 (of the whole distance per second) cancels ζω₀ = 5: fraction = 1 − e^(−5τ)·cos ω_d τ.
        let animation = spring(from: 0, to: 100)
        animation.initialVelocity = 5
        let taus = [0.1, 0.3, 0.6]
        for (tau, value) in zip(taus, radii(animation, at: taus)) {
            XCTAssertEqual(value, 100 * (1 - exp(-5 * tau) * cos(75.0.squareRoot() * tau)), accuracy: 1e-9, "τ = \(tau)")
        }
    }

    func testCustomMassStiffnessDamping() {
        // m = 2, k = 50, c = 4: ω₀ = 5, ζ = 4 / (2·10) = 0.2.
        let animation = spring(from: 10, to: 30)
        animation.mass = 2
        animation.stiffness = 50
        animation.damping = 4
        let taus = [0.2, 0.7, 1.3]
        for (tau, value) in zip(taus, radii(animation, at: taus)) {
            XCTAssertEqual(value, 10 + 20 * underdamped(tau, mass: 2, stiffness: 50, damping: 4), accuracy: 1e-9, "τ = \(tau)")
        }
    }

    func testCriticallyDampedSpringDoesNotOvershoot() {
        // c = 20 → ζ = 1: fraction = 1 − e^(−10τ)·(1 + 10τ). τ = 0.3: 1 − e^−3·4 = 0.800852.
        let animation = spring(from: 0, to: 100)
        animation.damping = 20
        let taus = [0.1, 0.3, 1, 1.9]
        let actual = radii(animation, at: taus)
        for (tau, value) in zip(taus, actual) {
            XCTAssertEqual(value, 100 * (1 - exp(-10 * tau) * (1 + 10 * tau)), accuracy: 1e-9, "τ = \(tau)")
            XCTAssertLessThan(value, 100)
        }
        XCTAssertEqual(actual[1], 80.085, accuracy: 0.001)
    }

    func testSpringCombinesByValueLikeABasicAnimation() {
        // by alone: model 3 → 3 + 50.
        let taus = [0.2, 0.5]
        for (tau, value) in zip(taus, radii(spring(by: 50), at: taus)) {
            XCTAssertEqual(value, 3 + 50 * underdamped(tau), accuracy: 1e-9)
        }
    }

    func testSpringIgnoresTheTimingFunction() {
        let animation = spring(from: 0, to: 100)
        animation.timingFunction = CAMediaTimingFunction(name: .easeIn)
        XCTAssertEqual(radii(animation, at: [0.3])[0], 100 * underdamped(0.3), accuracy: 1e-9)
    }

    func testSpringMovesPointsAlongTheLineAndOvershoots() {
        let layer = CALayer()
        layer.add(spring(from: CGPoint(x: 0, y: 0), to: CGPoint(x: 100, y: 50), keyPath: "position"), forKey: "spring")
        let records = AnimationTestKit.commit(layer)
        let f = underdamped(0.3)
        let point = AnimationTestKit.evaluate(records, on: layer, at: 1000.3).value("position") as? CGPoint
        XCTAssertEqual(Double(point?.x ?? .nan), 100 * f, accuracy: 1e-9)
        XCTAssertEqual(Double(point?.y ?? .nan), 50 * f, accuracy: 1e-9)
        XCTAssertGreaterThan(Double(point?.x ?? 0), 100, "overshoots the target")
    }

    func testDurationEndsTheSpringWhereverItIs() {
        // Duration 0.3 cuts the motion at about 112 %: from then on (fill removed) the model (3) shows.
        let actual = radii(spring(from: 0, to: 100, duration: 0.3), at: [0.29, 0.31, 0.5])
        XCTAssertEqual(actual[0], 100 * underdamped(0.29), accuracy: 1e-9)
        XCTAssertGreaterThan(actual[0], 100)
        XCTAssertEqual(actual[1], 3)
        XCTAssertEqual(actual[2], 3)
    }

    func testSettlingDurationOfTheDefaultSpring() {
        // The envelope (|A| + |B|)·e^(−ζω₀t) with A = 1, B = ζω₀/ω_d = 1/√3 falls to 0.001 at
        // t = ln((1 + 1/√3) / 0.001) / 5 = 1.472700.
        XCTAssertEqual(CASpringAnimation().settlingDuration, log((1 + 1 / 3.0.squareRoot()) / 0.001) / 5, accuracy: 1e-9)
        XCTAssertEqual(CASpringAnimation().settlingDuration, 1.4727, accuracy: 1e-4)
    }

    func testPerceptualInitializer() {
        // duration 0.5, bounce 0.25: k = (2π/0.5)² = 16π², c = 4π(1 − 0.25)/0.5 = 6π, m = 1.
        let animation = CASpringAnimation(perceptualDuration: 0.5, bounce: 0.25)
        XCTAssertEqual(Double(animation.mass), 1, accuracy: 1e-9)
        XCTAssertEqual(Double(animation.stiffness), 16 * Double.pi * Double.pi, accuracy: 1e-6)
        XCTAssertEqual(Double(animation.damping), 6 * Double.pi, accuracy: 1e-6)
    }

    func testCopyKeepsTheSpringParameters() {
        let animation = spring(from: 0, to: 1)
        animation.mass = 3
        animation.stiffness = 40
        animation.damping = 2
        animation.initialVelocity = -1
        let copy = animation.copy() as? CASpringAnimation
        XCTAssertEqual(copy?.mass, 3)
        XCTAssertEqual(copy?.stiffness, 40)
        XCTAssertEqual(copy?.damping, 2)
        XCTAssertEqual(copy?.initialVelocity, -1)
        XCTAssertEqual(copy?.toValue as? Int, 1)
    }
}
