import Foundation

/// The layers marked as needing layout, and the layout pass that settles them.
///
/// Input: `enqueue` from `CALayer.setNeedsLayout()` (once per marking: the layer's sticky `needsLayout`
/// bit says whether it is still marked). Output: `layoutSublayers()` run on each marked layer, at the
/// commit (`layOutPending()`, called by `TransactionContext` before the commit packet is built) or for one
/// subtree (`layOut(subtreeOf:)`, from `layoutIfNeeded()`).
///
/// Algorithm: take the marked layers, sort them by depth (ties in marking order) and lay out each one
/// still marked, so a layer lays out before its sublayers. Layers marked meanwhile (a layout that resizes
/// a sublayer) are laid out in a further round; after `maximumRounds` rounds the pass stops with a
/// `layoutDidNotSettle` diagnostic and what is still marked waits for the next pass.
///
/// Cost: O(m log m + m × depth) for m marked layers, independent of the size of the tree. Marked layers
/// are held strongly until they are laid out, as `LayerChangeLog` holds changed layers.
package final class LayoutQueue: @unchecked Sendable {
    /// The queue of the calling thread (`ThreadTransaction`): its commit lays out what it marked.
    package static var current: LayoutQueue { ThreadTransaction.current.layout }

    /// Rounds of layout one pass runs before giving up on layers that keep invalidating themselves.
    package static let maximumRounds = 32

    private let lock = NSLock()
    private var layers: [CALayer] = []

    /// Queues `layer`; called when it becomes marked.
    package func enqueue(_ layer: CALayer) {
        lock.lock()
        layers.append(layer)
        lock.unlock()
    }

    /// The number of queue entries: marked layers, and layers laid out since the last pass began.
    package var pendingLayerCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return layers.count
    }

    /// Lays out every marked layer: the commit's layout pass.
    package func layOutPending() {
        layOut(within: nil)
    }

    /// Lays out the marked layers of `root`'s subtree (`root` included); the others stay queued.
    package func layOut(subtreeOf root: CALayer) {
        layOut(within: root)
    }

    private func layOut(within root: CALayer?) {
        for _ in 0..<Self.maximumRounds {
            let batch = marked(within: root)
            guard !batch.isEmpty else { return }
            let ordered = batch.enumerated()
                .map { (layer: $0.element, depth: $0.element.layoutDepth, order: $0.offset) }
                .sorted { ($0.depth, $0.order) < ($1.depth, $1.order) }
            // A layout may lay out others first (`layoutIfNeeded()` inside `layoutSublayers()`), so the
            // flag is checked again before each one.
            for entry in ordered where entry.layer.needsLayout() {
                entry.layer.layOutMarkedLayer()
            }
        }
        let unsettled = marked(within: root)
        guard !unsettled.isEmpty else { return }
        LayerKitDiagnostics.emit(.layoutDidNotSettle(layers: unsettled.map(\.diagnosticName), rounds: Self.maximumRounds))
    }

    /// The marked layers within `root`'s subtree (all of them with nil), in marking order. They stay
    /// queued until laid out, so a nested `layoutIfNeeded()` finds them; here the queue drops the entries
    /// of layers no longer marked and the second entry of a layer marked again after it was laid out.
    private func marked(within root: CALayer?) -> [CALayer] {
        lock.lock()
        var seen = Set<ObjectIdentifier>()
        layers.removeAll { !$0.needsLayout() || !seen.insert(ObjectIdentifier($0)).inserted }
        let queued = layers
        lock.unlock()
        guard let root else { return queued }
        return queued.filter { root.isAncestor(of: $0) }
    }
}
