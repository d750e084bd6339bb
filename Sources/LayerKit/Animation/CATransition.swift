import Foundation

/// The kind of a transition.
public struct CATransitionType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The new state fades in over the old (the default).
    public static let fade = Self(rawValue: "fade")
    /// The new state slides in over the old.
    public static let moveIn = Self(rawValue: "moveIn")
    /// The new state pushes the old one out.
    public static let push = Self(rawValue: "push")
    /// The old state slides out, revealing the new.
    public static let reveal = Self(rawValue: "reveal")
}

/// The direction of a moving transition.
public struct CATransitionSubtype: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let fromRight = Self(rawValue: "fromRight")
    public static let fromLeft = Self(rawValue: "fromLeft")
    public static let fromTop = Self(rawValue: "fromTop")
    public static let fromBottom = Self(rawValue: "fromBottom")
}

/// The key under which Core Animation adds transitions.
public let kCATransition = "transition"
/// The action event of a layer joining a visible tree (its built-in action: a fade in).
public let kCAOnOrderIn = "onOrderIn"
/// The action event of a layer leaving a tree (its built-in action: a fade, which a layer no longer
/// in any drawn tree does not show).
public let kCAOnOrderOut = "onOrderOut"

/// Animates a layer from its previous state to its new one: `CATransition`.
///
/// Add it in the same transaction that changes the layer (`layer.add(transition, forKey: kCATransition)`):
/// whatever that transaction changed of the layer and its subtree — sublayers added, removed or
/// replaced, contents, any property, the layer hidden or shown — is drawn as a transition from how the
/// layer looked before the transaction to how it looks now. The model holds the new state at once.
/// The progress runs from `startProgress` to `endProgress` with the animation's timing.
///
/// - `fade`: the two states cross-dissolve (old × (1 − p) + new × p).
/// - `moveIn`: the new state slides in over the old; `push`: it slides in while the old slides out;
///   `reveal`: the old state slides out, uncovering the new. They travel the layer's width or height from
///   the `subtype`'s side, named as on iOS (y up: `fromTop` enters from the maximum y).
///
/// The moving states are not clipped; a layer that masks to its bounds keeps both inside them.
/// A fade of states whose layers overlap costs offscreen passes (reason `transition`); slides cost none.
open class CATransition: CAAnimation {
    public var type: CATransitionType = .fade
    public var subtype: CATransitionSubtype?
    public var startProgress: Float = 0
    public var endProgress: Float = 1

    public override init() { super.init() }

    public required init(copying other: CAAnimation) {
        super.init(copying: other)
        guard let other = other as? CATransition else { return }
        type = other.type
        subtype = other.subtype
        startProgress = other.startProgress
        endProgress = other.endProgress
    }

    override package func makeRecord(id: AnimationID, layer: CALayer) -> AnimationRecord.Content? {
        guard [startProgress, endProgress].allSatisfy(\.isFinite) else {
            LayerKitDiagnostics.emit(.valueTypeMismatch(keyPath: kCATransition, expected: "finite start and end progress",
                                                        got: "\(startProgress)…\(endProgress)"))
            return nil
        }
        return .transition(TransitionRecord(type: type, subtype: subtype ?? .fromLeft, startProgress: Double(startProgress),
                                            endProgress: Double(endProgress), timingFunction: timingFunction))
    }
}

/// A committed transition.
package struct TransitionRecord: Sendable {
    package let type: CATransitionType
    package let subtype: CATransitionSubtype
    package let startProgress: Double
    package let endProgress: Double
    package let timingFunction: CAMediaTimingFunction?

    /// The transition's progress (0 = the old state, 1 = the new) at animation progress `p`.
    package func progress(at p: Double) -> Double {
        let eased = timingFunction?.value(at: p) ?? p
        return min(max(startProgress + (endProgress - startProgress) * eased, 0), 1)
    }
}
