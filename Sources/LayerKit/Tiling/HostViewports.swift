import Foundation

/// What each host (a `CARenderer`, a window) shows of the layer tree it renders: the root, the region of
/// the root's superlayer space in the target (points), and the target's pixels per point.
///
/// The model side needs this to know what is on screen without asking the render thread (data flows one
/// way): a `CATiledLayer` requests only the tiles inside it. Hosts set their viewport on the model
/// thread before they commit (`CARenderer.beginFrame(atTime:)`, the window at creation and on resize)
/// and remove it when they go away. A tree that no host shows has nothing on screen.
/// Cost: O(hosts) per lookup.
package final class HostViewports: @unchecked Sendable {
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

    private let lock = NSLock()
    private var entries: [ObjectIdentifier: (root: LayerID, viewport: Viewport)] = [:]

    /// Records that `host` shows `root` through `viewport` (replacing what it showed before); nil root:
    /// it shows nothing.
    package func set(_ viewport: Viewport, root: CALayer?, for host: AnyObject) {
        lock.lock()
        entries[ObjectIdentifier(host)] = root.map { ($0.layerID, viewport) }
        lock.unlock()
    }

    /// Forgets `host`.
    package func remove(_ host: AnyObject) {
        lock.lock()
        entries[ObjectIdentifier(host)] = nil
        lock.unlock()
    }

    /// The viewports through which hosts show the tree rooted at `root`.
    package func viewports(showing root: CALayer) -> [Viewport] {
        lock.lock()
        defer { lock.unlock() }
        return entries.values.filter { $0.root == root.layerID }.map(\.viewport)
    }
}
