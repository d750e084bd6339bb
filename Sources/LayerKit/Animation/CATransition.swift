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

/// Animates a layer from its previous state to its new one: `CATransition`.
///
/// Add it in the same transaction that changes the layer (`layer.add(transition, forKey: kCATransition)`).
/// The progress runs from `startProgress` to `endProgress` with the animation's timing. Drawing: a change of
/// `contents` is drawn as the transition (fade, moveIn, push, reveal in the subtype's direction, inside the
/// layer's bounds); transitions of sublayer changes need offscreen snapshots of the before and after
/// states, which arrive with the render graph's offscreen passes — until then those show the new state.
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
