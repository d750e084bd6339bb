/// Methods a layer's delegate can implement. Every method is optional (default implementations do
/// nothing), as in Core Animation. Drawing and layout callbacks arrive with the content and layout work.
public protocol CALayerDelegate: AnyObject {
    /// The action for `event`: nil to continue the search, `NSNull()` to stop it with no action.
    func action(for layer: CALayer, forKey event: String) -> CAAction?
}

public extension CALayerDelegate {
    func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
}
