import Foundation

/// Animates a property between two values: Core Animation's `CABasicAnimation`.
///
/// `fromValue`, `toValue` and `byValue` combine as Core Animation defines (at most two are used):
/// from+to; from+by (to = from + by); by+to (from = to − by); from alone (to = current value); to alone
/// (from = current value); by alone (from = current value, to = current + by); none (from the previous
/// presentation value to the current one — what implicit animations use).
open class CABasicAnimation: CAPropertyAnimation {
    public var fromValue: Any?
    public var toValue: Any?
    public var byValue: Any?

    public override init() { super.init() }

    public required init(copying other: CAAnimation) {
        super.init(copying: other)
        guard let other = other as? CABasicAnimation else { return }
        fromValue = other.fromValue
        toValue = other.toValue
        byValue = other.byValue
    }

    override package func makeRecord(id: AnimationID, layer: CALayer) -> AnimationRecord.Content? {
        guard let target = PropertyAnimationTarget(keyPath: keyPath, layer: layer) else { return nil }
        let values = [fromValue, toValue, byValue].map { AnimatableValue($0) }
        // With a value function the values are numbers, not the property's type.
        guard valueFunction != nil || target.accepts(values, layer: layer) else { return nil }
        return .property(PropertyAnimationRecord(
            target: target, additive: isAdditive, cumulative: isCumulative, timingFunction: timingFunction,
            kind: .basic(from: values[0], to: values[1], by: values[2]), valueFunction: valueFunction))
    }
}
