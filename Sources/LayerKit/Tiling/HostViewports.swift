import Foundation

/// What each host (a `CARenderer`, a window) shows of one root layer: the region of the root's
/// superlayer space in the target (points), and the target's pixels per point.
///
/// The model side needs this to know what is on screen without asking the render thread (data flows one
/// way): a `CATiledLayer` requests only the tiles inside it. Hosts publish their viewport on the model
/// thread before they commit (`CARenderer.beginFrame(atTime:)`, the window before each commit) with
/// `publish(_:root:for:leaving:)`, and leave when they go away. A tree that no host shows has nothing on
/// screen.
///
/// Ownership: each root layer owns its table (`CALayer.hostViewports`, made on the model thread by the
/// first host that publishes), so a tree's viewports live with the tree and no table is process-wide.
/// Each host writes only its own entry; it keeps the table it published to and leaves it from whatever
/// thread it is released on, so the entries are behind a lock (`Locked`; hence checked `Sendable`).
/// Cost: O(hosts of the root) per lookup.
package final class HostViewports: Sendable {
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

    private let entries = Locked<[ObjectIdentifier: Viewport]>([:])

    package init() {}

    /// Records that `host` shows the table's root through `viewport` (replacing what it showed before).
    package func set(_ viewport: Viewport, for host: AnyObject) {
        let id = ObjectIdentifier(host)
        entries.withLock { $0[id] = viewport }
    }

    /// Forgets `host`. Any thread.
    package func remove(_ host: AnyObject) {
        let id = ObjectIdentifier(host)
        entries.withLock { $0[id] = nil }
    }

    /// The viewports through which hosts show the root.
    package var viewports: [Viewport] {
        entries.withLock { Array($0.values) }
    }

    /// Publishes that `host` shows `root` (nil: nothing) through `viewport`, on the model thread, leaving
    /// `previous` — the table it published to before — when that was another root's. Returns the table
    /// the host is in now, for it to pass next time and to leave when it goes away.
    package static func publish(_ viewport: Viewport, root: CALayer?, for host: AnyObject,
                                leaving previous: HostViewports?) -> HostViewports? {
        let table = root?.hostViewports
        if let previous, previous !== table { previous.remove(host) }
        table?.set(viewport, for: host)
        return table
    }
}

extension CALayer {
    /// The viewports through which hosts show this layer as their root (`HostViewports`), made on first
    /// use. Model thread.
    package var hostViewports: HostViewports {
        if let table = storedHostViewports { return table }
        let table = HostViewports()
        storedHostViewports = table
        return table
    }
}
