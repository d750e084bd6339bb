import Foundation
import Synchronization

/// What each host (a `CARenderer`, a window) shows of the layer tree it renders: the root, the region of
/// the root's superlayer space in the target (points), and the target's pixels per point.
///
/// The model side needs this to know what is on screen without asking the render thread (data flows one
/// way): a `CATiledLayer` requests only the tiles inside it. Hosts set their viewport on the model
/// thread before they commit (`CARenderer.beginFrame(atTime:)`, the window at creation and on resize)
/// and remove it when they go away. A tree that no host shows has nothing on screen.
/// Cost: O(hosts) per lookup.
///
/// Process-wide: a `CATiledLayer` does not know which hosts show it, and any host may show any tree, so
/// the table is the one place where both meet. Ownership: the table belongs to no thread; every access
/// goes through its `Mutex` (hence checked `Sendable`), and each host writes only its own entry.
package final class HostViewports: Sendable {
    package static let shared = HostViewports()

    /// One host's view of its root.
    package struct Viewport: Equatable, Sendable {
        /// The region of the root's superlayer space shown, in points.
        package var rect: CGRect
        /// Target pixels per point.
        package var scale: CGFloat

        package init(rect: CGRect, scale: CGFloat) {
            self.rect = rect
            self.scale = scale
        }
    }

    private let entries = Mutex<[ObjectIdentifier: (root: LayerID, viewport: Viewport)]>([:])

    /// Records that `host` shows `root` through `viewport` (replacing what it showed before); nil root:
    /// it shows nothing.
    package func set(_ viewport: Viewport, root: CALayer?, for host: AnyObject) {
        let entry = root.map { (root: $0.layerID, viewport: viewport) }
        entries.withLock { $0[ObjectIdentifier(host)] = entry }
    }

    /// Forgets `host`.
    package func remove(_ host: AnyObject) {
        let id = ObjectIdentifier(host)
        entries.withLock { $0[id] = nil }
    }

    /// The viewports through which hosts show the tree rooted at `root`.
    package func viewports(showing root: CALayer) -> [Viewport] {
        let id = root.layerID
        return entries.withLock { $0.values.filter { $0.root == id }.map(\.viewport) }
    }
}
