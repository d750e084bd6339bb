import Foundation

/// Animates a property with the motion of a damped spring: `CASpringAnimation`.
///
/// The value follows the closed-form solution of `mass·x'' + damping·x' + stiffness·x = 0` from
/// `fromValue` to `toValue` (combined with `byValue` as `CABasicAnimation` does), starting with
/// `initialVelocity` (in units of the whole distance per second). `settlingDuration` is how long the
/// motion takes to come to rest; set `duration` to it to see the whole motion.
open class CASpringAnimation: CABasicAnimation {
    public var mass: CGFloat = 1
    public var stiffness: CGFloat = 100
    public var damping: CGFloat = 10
    public var initialVelocity: CGFloat = 0
    /// Whether a damping ratio above 1 is honoured (false: treated as critically damped, as Core
    /// Animation does by default).
    public var allowsOverdamping = false
    /// How long the motion takes to settle within 0.1% of the distance, in the animation's own time
    /// (divided by its speed), as Core Animation computes it.
    public var settlingDuration: CFTimeInterval {
        let seconds = solution.settlingDuration / Double(max(abs(speed), .leastNonzeroMagnitude))
        return min(seconds, Double(Float.greatestFiniteMagnitude))
    }

    public override init() { super.init() }

    /// A spring animation described perceptually: `duration` (seconds) and `bounce` (−1…1; 0 is
    /// critically damped, positive overshoots), as iOS 17 defines them.
    public convenience init(perceptualDuration duration: CFTimeInterval, bounce: CGFloat) {
        self.init()
        let parameters = SpringSolution(duration: Double(duration), bounce: Double(bounce))
        mass = CGFloat(parameters.mass)
        stiffness = CGFloat(parameters.stiffness)
        damping = CGFloat(parameters.damping)
        allowsOverdamping = true
    }

    public required init(copying other: CAAnimation) {
        super.init(copying: other)
        guard let other = other as? CASpringAnimation else { return }
        mass = other.mass
        stiffness = other.stiffness
        damping = other.damping
        initialVelocity = other.initialVelocity
        allowsOverdamping = other.allowsOverdamping
    }

    private var solution: SpringSolution {
        SpringSolution(mass: Double(mass), stiffness: Double(stiffness), damping: Double(damping),
                       initialVelocity: Double(initialVelocity), allowsOverdamping: allowsOverdamping)
    }

    override package func makeRecord(id: AnimationID, layer: CALayer) -> AnimationRecord.Content? {
        guard case let .property(basic)? = super.makeRecord(id: id, layer: layer),
              case let .basic(from, to, by) = basic.kind else { return nil }
        guard mass > 0, stiffness > 0, damping >= 0, [mass, stiffness, damping, initialVelocity].allSatisfy(\.isFinite) else {
            LayerKitDiagnostics.emit(.valueTypeMismatch(keyPath: keyPath ?? "", expected: "positive finite spring parameters",
                                                        got: "mass \(mass), stiffness \(stiffness), damping \(damping)"))
            return nil
        }
        return .property(PropertyAnimationRecord(target: basic.target, additive: isAdditive, cumulative: isCumulative,
                                                 timingFunction: nil, kind: .spring(from: from, to: to, by: by, spring: solution)))
    }
}
