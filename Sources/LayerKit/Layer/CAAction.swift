/// Something a layer runs in response to an event (`action(forKey:)`): usually an animation.
///
/// Core Animation's `CAAction` protocol. `NSNull` in `actions` or from a delegate stops the action
/// search, as in Core Animation.
public protocol CAAction: AnyObject {
    /// Runs the action for `event` on `anObject` (a layer). `arguments` is nil for property changes.
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?)
}

import Foundation

/// `NSNull` is the "no action" marker: found in `actions`, `style` or returned by a delegate, it stops the
/// search and nothing runs.
extension NSNull: CAAction {
    public func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {}
}
