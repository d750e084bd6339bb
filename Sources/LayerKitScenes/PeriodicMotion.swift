import Foundation
import LayerKit

/// The repeating animations the benchmark scenes are made of: each one reproduces a SCENES.md formula of
/// `t` (seconds since `startTime`) on the render thread, so the main thread commits nothing per frame.
///
/// All of them begin at `startTime`, repeat forever, and take a phase through `timeOffset`: Core
/// Animation's active time is `(time − beginTime)·speed + timeOffset`, so an animation of period `T` with
/// `timeOffset = T·phase` shows at `t` what the unshifted one shows at `t + T·phase`.
///
/// - `sawtooth`: a linear ramp that wraps, `from + (to − from)·frac(t/T + phase)` — SCENES.md's
///   `… mod 1280` and `angle = 2π(t/4 + i/6000)`. Exact.
/// - `sine`: an additive offset `amplitude·sin(2π(t/T + phase))`, exact as well: an undamped
///   `CASpringAnimation` (damping 0) released from `amplitude` towards 0 with no initial velocity moves
///   as `amplitude·cos(ω·τ)`, `ω = √(stiffness/mass)`. With `ω = 2π/T` and `duration = T` each repeat
///   is one whole period, so the repeats join smoothly; the sine is the cosine a quarter period later.
/// - `keyframes`: any periodic function of `t` sampled at `samples` even steps over one period and
///   interpolated linearly — for what neither of the above expresses (SCENES.md's stack colour, whose
///   channels have different phases). The error of linear interpolation of a sinusoid of amplitude `A`
///   is at most `A·(2π/samples)²/8`.
public enum PeriodicMotion {
    /// A linear ramp from `from` to `to` over `period` seconds that starts again at `from`, shifted by
    /// `phase` periods: value `from + (to − from)·frac(t/period + phase)`.
    public static func sawtooth(_ keyPath: String, from: CGFloat, to: CGFloat, period: CFTimeInterval, phase: Double,
                                startTime: CFTimeInterval) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: keyPath)
        animation.fromValue = from
        animation.toValue = to
        configure(animation, period: period, phase: phase, startTime: startTime)
        return animation
    }

    /// An additive sinusoid: the animated property shows its model value plus
    /// `amplitude·sin(2π(t/period + phase))`.
    public static func sine(_ keyPath: String, amplitude: CGFloat, period: CFTimeInterval, phase: Double,
                            startTime: CFTimeInterval) -> CASpringAnimation {
        let animation = CASpringAnimation(keyPath: keyPath)
        animation.isAdditive = true
        animation.fromValue = amplitude
        animation.toValue = 0
        animation.mass = 1
        animation.damping = 0
        animation.initialVelocity = 0
        let omega = 2 * CGFloat.pi / CGFloat(period)
        animation.stiffness = omega * omega
        // amplitude·sin(2π(t/T + phase)) = amplitude·cos(2π(t/T + phase − 1/4)).
        configure(animation, period: period, phase: phase - 0.25, startTime: startTime)
        return animation
    }

    /// `value(t)` for one period, sampled at `samples` even steps (plus the closing sample) and played
    /// linearly, shifted by `phase` periods. `value` must be periodic with period `period`.
    public static func keyframes(_ keyPath: String, period: CFTimeInterval, samples: Int, phase: Double,
                                 startTime: CFTimeInterval, value: (CFTimeInterval) -> Any) -> CAKeyframeAnimation {
        precondition(samples > 0, "a keyframe animation needs at least one sample per period")
        let animation = CAKeyframeAnimation(keyPath: keyPath)
        animation.values = (0...samples).map { value(period * Double($0) / Double(samples)) }
        animation.calculationMode = .linear
        configure(animation, period: period, phase: phase, startTime: startTime)
        return animation
    }

    private static func configure(_ animation: CAAnimation, period: CFTimeInterval, phase: Double, startTime: CFTimeInterval) {
        animation.beginTime = startTime
        animation.duration = period
        animation.repeatCount = .infinity
        // frac keeps the offset within one period (the active duration is endless, nothing wraps it).
        animation.timeOffset = period * BenchmarkScenes.mod(phase, 1)
        animation.isRemovedOnCompletion = false
    }
}
