import CSinCos
import Foundation

/// The motion of `CASpringAnimation`: a mass on a damped spring, released at the start value and pulled
/// to the end value, in closed form.
///
/// Contract:
/// - input: mass m, stiffness k, damping c and initial velocity v₀ (Core Animation's parameters and
///   defaults: 1, 100, 10, 0), or a perceptual duration and bounce;
/// - output: `value(at:)`, the fraction of the way from `fromValue` to `toValue` at t seconds of the
///   spring's own time (0 at t = 0, tending to 1, overshooting when underdamped), and `settlingDuration`;
/// - algorithm: the displacement from the target x(t) = value − 1 solves m·x″ + c·x′ + k·x = 0 with
///   x(0) = −1 and x′(0) = v₀. With ω₀ = √(k/m) and ζ = c / (2√(k·m)):
///   - underdamped (ζ < 1): x = e^(−ζω₀t)·(A·cos ω_d t + B·sin ω_d t), ω_d = ω₀√(1 − ζ²), A = −1,
///     B = (v₀ − ζω₀) / ω_d;
///   - critically damped (ζ = 1, within 1e-9): x = e^(−ω₀t)·(−1 + (v₀ − ω₀)·t);
///   - overdamped (ζ > 1): x = C₁e^(r₁t) + C₂e^(r₂t), r₁,₂ = −ω₀(ζ ∓ √(ζ² − 1)),
///     C₂ = (v₀ + r₁) / (r₂ − r₁), C₁ = −1 − C₂.
///   Unless overdamping is allowed, ζ > 1 is treated as ζ = 1, as Core Animation does by default
///   (`CASpringAnimation.allowsOverdamping` is false);
/// - cost: `value(at:)` is one or two `exp` plus at most a `sin`/`cos` pair, no allocation; the
///   coefficients are computed once in `init`.
///
/// `initialVelocity` is in units of the whole distance per second, as Core Animation defines it: moving
/// 10 points per second toward the target on a 100-point move is 0.1; negative is away from the target.
///
/// Does not know about `duration`, `speed` or the animated values: `CASpringAnimation` evaluates this
/// at `progress × duration` and interpolates from → to by the result.
package struct SpringSolution: Sendable, Equatable {
    /// The settling threshold Core Animation's `settlingDuration` uses: 0.001 of the distance.
    package static let settlingEpsilon = 0.001

    package let mass: Double
    package let stiffness: Double
    package let damping: Double
    package let initialVelocity: Double
    package let allowsOverdamping: Bool

    /// ω₀ = √(k/m), the undamped angular frequency in radians per second.
    package let naturalFrequency: Double
    /// ζ = c / (2√(k·m)) as the motion uses it: at most 1 unless overdamping is allowed.
    package let dampingRatio: Double

    private let motion: Motion

    /// The displacement x(t) = value − 1 in one of its closed forms.
    private enum Motion: Sendable, Equatable {
        /// e^(−decay·t)·(cosine·cos(frequency·t) + sine·sin(frequency·t)).
        case underdamped(decay: Double, frequency: Double, cosine: Double, sine: Double)
        /// e^(−rate·t)·(constant + linear·t).
        case critical(rate: Double, constant: Double, linear: Double)
        /// first·e^(firstRate·t) + second·e^(secondRate·t).
        case overdamped(firstRate: Double, first: Double, secondRate: Double, second: Double)
        /// An infinitely stiff spring: at the target as soon as t > 0.
        case instant
    }

    /// A spring with Core Animation's parameters. Invalid values are replaced as `CASpringAnimation`'s
    /// setters replace them: mass ≤ 0 by 1, stiffness ≤ 0 by 100, damping < 0 by 10 (NaN likewise).
    package init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0,
                 allowsOverdamping: Bool = false) {
        let m = mass > 0 ? mass : 1
        let k = stiffness > 0 ? stiffness : 100
        let c = damping >= 0 ? damping : 10
        let v0 = initialVelocity.isFinite ? initialVelocity : 0
        self.mass = m
        self.stiffness = k
        self.damping = c
        self.initialVelocity = v0
        self.allowsOverdamping = allowsOverdamping

        let omega = (k / m).squareRoot()
        let rawRatio = c / (2 * (k * m).squareRoot())
        let zeta = allowsOverdamping ? rawRatio : min(rawRatio, 1)
        naturalFrequency = omega
        dampingRatio = zeta

        if !omega.isFinite || !zeta.isFinite {
            motion = .instant
        } else if abs(zeta - 1) <= 1e-9 {
            motion = .critical(rate: omega, constant: -1, linear: v0 - omega)
        } else if zeta < 1 {
            let frequency = omega * (1 - zeta * zeta).squareRoot()
            motion = .underdamped(decay: zeta * omega, frequency: frequency, cosine: -1,
                                  sine: (v0 - zeta * omega) / frequency)
        } else {
            let spread = omega * (zeta * zeta - 1).squareRoot()
            let r1 = -zeta * omega + spread, r2 = -zeta * omega - spread
            let second = (v0 + r1) / (r2 - r1)
            motion = .overdamped(firstRate: r1, first: -1 - second, secondRate: r2, second: second)
        }
    }

    /// The spring `CASpringAnimation(perceptualDuration:bounce:)` makes (SwiftUI's `Spring(duration:bounce:)`):
    /// mass 1, stiffness (2π / duration)², damping 4π(1 − bounce) / duration for bounce ≥ 0 and
    /// 4π / (duration·(1 + bounce)) for bounce < 0, overdamping allowed. The damping ratio is then exactly
    /// 1 − bounce, or 1 / (1 + bounce) when bounce is negative.
    ///
    /// `bounce` is clamped to −0.999…1 (−1 would need infinite damping); a duration ≤ 0 gives an
    /// infinitely stiff spring that is at its target at once.
    package init(duration: Double, bounce: Double, initialVelocity: Double = 0) {
        let b = min(max(bounce, -0.999), 1)
        guard duration > 0 else {
            self.init(mass: 1, stiffness: .infinity, damping: 0, initialVelocity: initialVelocity, allowsOverdamping: true)
            return
        }
        let omega = 2 * Double.pi / duration
        let ratio = b >= 0 ? 1 - b : 1 / (1 + b)
        self.init(mass: 1, stiffness: omega * omega, damping: ratio * 4 * Double.pi / duration,
                  initialVelocity: initialVelocity, allowsOverdamping: true)
    }

    /// The period of the undamped spring, 2π√(m/k): `CASpringAnimation.perceptualDuration`.
    package var perceptualDuration: Double {
        stiffness.isFinite ? 2 * Double.pi * (mass / stiffness).squareRoot() : 0
    }

    /// `CASpringAnimation.bounce`: 1 − ζ for ζ ≤ 1, 1/ζ − 1 above (with ζ from the parameters as given,
    /// not clamped).
    package var bounce: Double {
        let zeta = damping / (2 * (stiffness * mass).squareRoot())
        return zeta <= 1 ? 1 - zeta : 1 / zeta - 1
    }

    /// The fraction of the way from the start to the target at `t` seconds (t < 0 reads as 0).
    package func value(at t: Double) -> Double {
        1 + displacement(at: max(t, 0))
    }

    private func displacement(at t: Double) -> Double {
        switch motion {
        case let .underdamped(decay, frequency, cosine, sine):
            // Sine and cosine from one call (`lk_sincos`: the same bits as `sin` and `cos`), and no
            // exponential for an undamped spring, whose decay factor is exactly 1 at any finite time: a
            // periodic motion made of springs (the benchmarks' bobbing tiles) evaluates one per layer per frame.
            var sinePart = 0.0, cosinePart = 0.0
            lk_sincos(frequency * t, &sinePart, &cosinePart)
            let oscillation = cosine * cosinePart + sine * sinePart
            return decay == 0 && t.isFinite ? oscillation : exp(-decay * t) * oscillation
        case let .critical(rate, constant, linear):
            return exp(-rate * t) * (constant + linear * t)
        case let .overdamped(firstRate, first, secondRate, second):
            return first * exp(firstRate * t) + second * exp(secondRate * t)
        case .instant:
            return t > 0 ? 0 : -1
        }
    }

    /// How long the spring takes to come to rest: `settlingDuration(epsilon: 0.001)`, what
    /// `CASpringAnimation.settlingDuration` reports for speed 1 (Core Animation divides by |speed| and
    /// caps the result at `Float.greatestFiniteMagnitude`; the caller does that).
    package var settlingDuration: Double {
        settlingDuration(epsilon: Self.settlingEpsilon)
    }

    /// The time after which the motion stays within `epsilon` (at least 1e-6) of the target, computed
    /// as Core Animation computes it:
    /// - underdamped: where the envelope (|A| + |B|)·e^(−ζω₀t) falls to epsilon, an upper bound on the
    ///   displacement from then on: ln((|A| + |B|) / ε) / (ζω₀), or 0 if already inside;
    ///   infinite for an undamped spring (ζ = 0);
    /// - critically and overdamped: sampling every 0.1 s from 0, the first sample at which the motion
    ///   entered the band |1 − value| < ε for good, "for good" meaning the samples stay inside it for more
    ///   than a further second. Cost: one `value(at:)` per 0.1 s up to the result plus 1.1 s (capped at
    ///   10⁶ samples, beyond which the spring counts as never settling: infinity).
    package func settlingDuration(epsilon: Double) -> Double {
        let eps = max(epsilon, 1e-6)
        switch motion {
        case .instant:
            return 0
        case let .underdamped(decay, _, cosine, sine):
            guard decay > 0 else { return .infinity }
            return max(log((abs(cosine) + abs(sine)) / eps) / decay, 0)
        case .critical, .overdamped:
            var entered = -1.0
            var closest = Double.infinity
            for step in 0..<1_000_000 {
                let t = Double(step) * 0.1
                let deviation = abs(1 - value(at: t))
                guard deviation.isFinite else { return 0 }
                if closest >= eps {
                    if deviation < closest {
                        entered = t
                        closest = deviation
                    }
                } else if deviation >= eps {
                    closest = .infinity
                } else if t - entered > 1 {
                    return entered
                }
            }
            return .infinity
        }
    }
}
