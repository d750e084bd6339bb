import Foundation

/// Methods an animation's delegate implements to learn when it starts and stops. Both are optional and
/// called on the main thread (delivered by the host at its next event-loop iteration or frame).
public protocol CAAnimationDelegate: AnyObject {
    func animationDidStart(_ anim: CAAnimation)
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}

public extension CAAnimationDelegate {
    func animationDidStart(_ anim: CAAnimation) {}
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// The abstract base of Core Animation's animations: timing (`CAMediaTiming`), a timing function, a
/// delegate, and whether it is removed when it completes.
///
/// `add(_:forKey:)` copies the animation, as Core Animation does: changing an animation after adding it
/// changes nothing on screen. A `beginTime` of 0 means "when committed".
open class CAAnimation: CAMediaTiming, CAAction {
    public var beginTime: CFTimeInterval = 0
    /// 0 takes the transaction's `animationDuration` when committed.
    public var duration: CFTimeInterval = 0
    public var speed: Float = 1
    public var timeOffset: CFTimeInterval = 0
    public var repeatCount: Float = 0
    public var repeatDuration: CFTimeInterval = 0
    public var autoreverses = false
    public var fillMode: CAMediaTimingFillMode = .removed
    /// The pacing of the animation; nil is linear.
    public var timingFunction: CAMediaTimingFunction?
    /// Receives start and stop messages. Held strongly, as Core Animation holds it.
    public var delegate: CAAnimationDelegate?
    /// Whether the animation is removed from its layer when its active duration ends. Default true.
    public var isRemovedOnCompletion = true

    public init() {}

    /// Copies every property of `other` (subclasses override to copy theirs, calling super).
    public required init(copying other: CAAnimation) {
        beginTime = other.beginTime
        duration = other.duration
        speed = other.speed
        timeOffset = other.timeOffset
        repeatCount = other.repeatCount
        repeatDuration = other.repeatDuration
        autoreverses = other.autoreverses
        fillMode = other.fillMode
        timingFunction = other.timingFunction
        delegate = other.delegate
        isRemovedOnCompletion = other.isRemovedOnCompletion
    }

    /// A copy of the animation (of the same class).
    public func copy() -> Any {
        type(of: self).init(copying: self)
    }

    /// The default value of the property named `key`, as Core Animation's class method.
    open class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "speed": return Float(1)
        case "isRemovedOnCompletion", "removedOnCompletion": return true
        case "fillMode": return CAMediaTimingFillMode.removed
        default: return nil
        }
    }

    /// `CAAction`: adds the animation to `anObject` (a layer) under `event`.
    open func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        (anObject as? CALayer)?.add(self, forKey: event)
    }

    /// The timing values as the evaluator reads them.
    package var timingParameters: MediaTimingParameters {
        MediaTimingParameters(beginTime: beginTime, timeOffset: timeOffset, speed: Double(speed), repeatCount: Double(repeatCount),
                              repeatDuration: repeatDuration, autoreverses: autoreverses, duration: duration, fillMode: fillMode)
    }

    /// The committed, immutable form of this animation for the render thread (nil when it can never
    /// produce a value, e.g. an unknown key path: a diagnostic says why).
    package func makeRecord(id: AnimationID, layer: CALayer) -> AnimationRecord.Content? { nil }
}

/// An animation of one property, addressed by key path.
open class CAPropertyAnimation: CAAnimation {
    /// The key path animated: `"position"`, `"position.x"`, `"transform.rotation.z"`, …
    public var keyPath: String?
    /// Whether the animated value is added to the current (model) value instead of replacing it.
    public var isAdditive = false
    /// Whether each repeat starts where the previous one ended.
    public var isCumulative = false
    /// Turns interpolated numbers into the transform set (for `transform` key paths).
    public var valueFunction: CAValueFunction?

    public override init() { super.init() }

    /// An animation of `path`.
    public convenience init(keyPath path: String?) {
        self.init()
        keyPath = path
    }

    public required init(copying other: CAAnimation) {
        super.init(copying: other)
        guard let other = other as? CAPropertyAnimation else { return }
        keyPath = other.keyPath
        isAdditive = other.isAdditive
        isCumulative = other.isCumulative
        valueFunction = other.valueFunction
    }
}
