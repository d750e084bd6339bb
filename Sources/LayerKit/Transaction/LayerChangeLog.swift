import Foundation

/// What changed on one layer since the last commit.
package struct LayerChange {
    package let layer: CALayer
    package let properties: LayerPropertySet
    /// Subclass-declared properties that changed, by key.
    package let customKeys: [String]
}

/// Records which layers changed, and which of their properties, so a commit packs exactly what changed.
///
/// Input: `markDirty` from property setters and hierarchy edits (once per layer per commit: the layer's
/// own `pendingChanges` holds which properties). Output: `drain()`, the changes in the order layers first
/// changed, clearing every layer's pending set. Cost: O(1) per change, O(changed layers) per drain,
/// independent of the size of the tree.
/// Sendable: each log belongs to one thread's transaction (`ThreadTransaction`) and is only touched by
/// that thread; the type crosses threads only as part of thread-local storage.
package final class LayerChangeLog: @unchecked Sendable {
    /// The log of the calling thread (`ThreadTransaction`): its changes go out with its own commit.
    package static var current: LayerChangeLog { ThreadTransaction.current.changes }

    // Filled by the owning thread; read by hosts on it (`pendingLayers`). The lock keeps a host that asks
    // from another thread (a misuse, but not a crash) consistent.
    private let lock = NSLock()
    private var dirtyLayers: [CALayer] = []
    private var customKeys: [ObjectIdentifier: [String]] = [:]

    /// Queues `layer`; called when its pending set goes from empty to non-empty.
    package func markDirty(_ layer: CALayer) {
        lock.lock()
        dirtyLayers.append(layer)
        lock.unlock()
    }

    /// Records a subclass property change (and queues the layer if it was clean).
    package func recordCustomChange(_ layer: CALayer, key: String, markDirty: Bool) {
        lock.lock()
        if markDirty { dirtyLayers.append(layer) }
        let id = ObjectIdentifier(layer)
        if customKeys[id]?.contains(key) != true { customKeys[id, default: []].append(key) }
        lock.unlock()
    }

    /// The number of layers with pending changes.
    package var pendingLayerCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return dirtyLayers.count
    }

    /// The layers with pending changes (a host asks whether any is in its tree).
    package var pendingLayers: [CALayer] {
        lock.lock()
        defer { lock.unlock() }
        return dirtyLayers
    }

    /// Returns every pending change and clears them.
    package func drain() -> [LayerChange] {
        lock.lock()
        let layers = dirtyLayers
        let custom = customKeys
        dirtyLayers = []
        customKeys = [:]
        lock.unlock()
        return layers.map { layer in
            let change = LayerChange(layer: layer, properties: layer.pendingChanges.changes, customKeys: custom[ObjectIdentifier(layer)] ?? [])
            layer.pendingChanges = layer.pendingChanges.intersection(.stickyState).union(.hasBeenCommitted)
            return change
        }
    }
}
