import Foundation

// Name, style, actions and delegate.

extension CALayer {
    /// The layer's name: used by `CAConstraint` and to find layers; shown in diagnostics.
    public var name: String? {
        get { value(of: .name) }
        set { setValue(newValue, of: .name) }
    }

    /// A dictionary of default property values and actions, searched after the layer's own (keys
    /// "actions" and "style" nest, as in Core Animation).
    public var style: [AnyHashable: Any]? {
        get { value(of: .style) }
        set { setValue(newValue, of: .style) }
    }

    /// Actions by event key (property key or `onOrderIn`, `onOrderOut`, `sublayers`, `contents`).
    public var actions: [String: CAAction]? {
        get { value(of: .actions) }
        set { setValue(newValue, of: .actions) }
    }

    /// The layer's delegate. Held weakly, as in Core Animation.
    public var delegate: CALayerDelegate? {
        get { (storage[.builtin(.delegate)] as? WeakDelegate)?.delegate }
        set { storage[.builtin(.delegate)] = newValue.map(WeakDelegate.init) }
    }
}

/// A weak reference to a delegate, stored only on layers that have one.
private struct WeakDelegate {
    weak var delegate: CALayerDelegate?
    init(_ delegate: CALayerDelegate) { self.delegate = delegate }
}
