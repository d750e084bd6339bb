import Foundation

// Actions: what runs when a property changes (implicit animations) or a layer enters or leaves a tree.
//
// A property setter of a layer that was already committed, outside `CATransaction.setDisableActions`,
// asks `action(forKey:)` *before* storing the new value (so the built-in animation starts from what is
// on screen now), stores it, then runs the action, which normally adds an animation under the key.

extension CALayer {
    /// Changes `key` through `body`, recording the change and running the implicit action if any.
    package func change(_ key: LayerPropertyKey, _ body: () -> Void) {
        let action = key.isAnimatable ? actionForChange(of: key.key) : nil
        body()
        didChange(key)
        action?.run(forKey: key.key, object: self, arguments: nil)
    }

    /// The action to run for a change of `key` now, or nil when actions are off for this change.
    package func actionForChange(of key: String) -> CAAction? {
        guard hasBeenCommitted, !isPresentationCopy, !CATransaction.disableActions() else { return nil }
        return action(forKey: key)
    }

    /// Runs the action for a tree event (`onOrderIn`, `onOrderOut`, `sublayers`) if the layer was
    /// committed and actions are on.
    package func runAction(forEvent event: String) {
        actionForChange(of: event)?.run(forKey: event, object: self, arguments: nil)
    }

    /// Runs the action for `onOrderIn` / `onOrderOut`: looked up even on a layer that was never
    /// committed (a new layer appearing in a committed tree), unless actions are disabled.
    package func runOrderAction(_ event: String) {
        guard !isPresentationCopy, !CATransaction.disableActions() else { return }
        action(forKey: event)?.run(forKey: event, object: self, arguments: nil)
    }

    /// `action(forKey:)`'s search.
    package func lookUpAction(forKey event: String) -> CAAction? {
        if let delegate, let found = delegate.action(for: self, forKey: event) {
            return found is NSNull ? nil : found
        }
        if let found = actions?[event] {
            return found is NSNull ? nil : found
        }
        var style = self.style
        while let current = style {
            if let styleActions = current["actions"] as? [String: Any], let found = styleActions[event] {
                return found is NSNull ? nil : found as? CAAction
            }
            style = current["style"] as? [AnyHashable: Any]
        }
        if let found = type(of: self).defaultAction(forKey: event) {
            return found is NSNull ? nil : found
        }
        return builtInAction(forKey: event)
    }

    /// Core Animation's implicit animations: a layer entering or leaving a tree fades (a `fade`
    /// `CATransition`); an animatable property animates from its presentation value (a basic animation);
    /// both with the transaction's duration and timing function.
    private func builtInAction(forKey event: String) -> CAAction? {
        if event == kCAOnOrderIn || event == kCAOnOrderOut {
            let fade = CATransition()
            fade.duration = CATransaction.animationDuration()
            fade.timingFunction = CATransaction.animationTimingFunction() ?? CAMediaTimingFunction(name: .default)
            return fade
        }
        let animatable = LayerPropertyKey(key: event).map { $0.isAnimatable && $0 != .sublayers }
            ?? (type(of: self) as? DeclaredLayerProperties.Type)?.implicitlyAnimatedKeys.contains(event) ?? false
        guard animatable else { return nil }
        let animation = CABasicAnimation(keyPath: event)
        animation.fromValue = presentationValue(forKey: event)
        animation.duration = CATransaction.animationDuration()
        animation.timingFunction = CATransaction.animationTimingFunction() ?? CAMediaTimingFunction(name: .default)
        return animation
    }
}
