import LayerKit

/// The render server's tree: every committed layer by ID.
///
/// Input: commit packets, in commit order (`apply(_:)`). Output: nodes for the graph builder.
/// Cost of a commit: O(changed properties). Layers the packet mentions for the first time are created;
/// layers no longer reachable stay until `prune(reachableFrom:)` (they may be re-attached later, as a
/// model layer can be). Every layer a packet touches is recorded in `dirtyLayers`, and a packet that
/// adds a layer or edits `sublayers` or `mask` sets `structureChanged`, so the frame after it knows what
/// to recompute (`RetainedFrame`).
package struct RenderTree: Sendable {
    package internal(set) var nodes: [LayerID: RenderNode] = [:]
    /// Layers that have animations, so a frame need not scan the whole tree to know if it animates.
    package private(set) var animatedLayers = Set<LayerID>()
    /// Animations that arrived in commits since this was last cleared (the render server reports their start).
    package var newAnimations = Set<AnimationID>()
    /// Counts changes to nodes; each change stamps its node with the count (`RenderTree+ChangeStamps.swift`).
    package internal(set) var changeCounter: UInt64 = 0
    /// Layers changed since the last `takeChanges()`: committed to, or animations removed.
    package private(set) var dirtyLayers = Set<LayerID>()
    /// Whether layers were added or `sublayers`/`mask` edited (or nodes pruned) since the last `takeChanges()`.
    package private(set) var structureChanged = true

    package init() {}

    package subscript(id: LayerID) -> RenderNode? { nodes[id] }

    /// Applies a commit packet.
    package mutating func apply(_ packet: CommitPacket) {
        for change in packet.changes {
            let node: RenderNode
            if let existing = nodes[change.layer] {
                node = existing
            } else {
                node = RenderNode(id: change.layer)
                nodes[change.layer] = node
                structureChanged = true
            }
            dirtyLayers.insert(change.layer)
            // A transition arriving with this change animates from the contents shown until now.
            for case (.animations, .animations(let records)) in change.values {
                let known = Set(node.animations.map(\.id))
                for record in records where !known.contains(record.id) {
                    newAnimations.insert(record.id)
                    if case .transition = record.content { node.transitionFromContents = node.contents }
                }
            }
            for (key, value) in change.values {
                if key == .sublayers || key == .mask { structureChanged = true }
                node.apply(key, value)
            }
            for (key, value) in change.customValues { node.customProperties[key] = value }
            stampChange(of: node, keys: change.values.lazy.map(\.0), hasCustomValues: !change.customValues.isEmpty)
            if node.animations.isEmpty { animatedLayers.remove(change.layer) } else { animatedLayers.insert(change.layer) }
        }
    }

    /// Drops nodes that cannot be reached from `root` (sublayers and masks).
    package mutating func prune(reachableFrom root: LayerID) {
        var reachable = Set<LayerID>()
        var stack = [root]
        while let id = stack.popLast() {
            guard reachable.insert(id).inserted, let node = nodes[id] else { continue }
            stack.append(contentsOf: node.sublayers)
            if let mask = node.mask { stack.append(mask) }
        }
        nodes = nodes.filter { reachable.contains($0.key) }
        structureChanged = true
        animatedLayers = animatedLayers.filter { reachable.contains($0) }
    }
}

// MARK: - Animations

extension RenderTree {
    /// Drops animations `ids` from `layer` (those removed on completion only, when asked).
    package mutating func removeAnimations(_ ids: Set<AnimationID>, from layer: LayerID, onlyIfRemovedOnCompletion: Bool) {
        guard let node = nodes[layer] else { return }
        node.animations.removeAll { ids.contains($0.id) && (!onlyIfRemovedOnCompletion || $0.removedOnCompletion) }
        dirtyLayers.insert(layer)
        if !node.animations.contains(where: { if case .transition = $0.content { return true } else { return false } }) {
            node.transitionFromContents = nil
        }
        if node.animations.isEmpty { animatedLayers.remove(layer) }
        // What the node shows no longer includes the removed animations' values.
        stampChange(of: node, keys: [.animations], hasCustomValues: false)
    }

    /// The layers changed and whether the structure changed since the last call, and forgets them.
    package mutating func takeChanges() -> (dirty: Set<LayerID>, structureChanged: Bool) {
        defer {
            dirtyLayers.removeAll(keepingCapacity: true)
            structureChanged = false
        }
        return (dirtyLayers, structureChanged)
    }

    /// Whether any node has an animation that has not finished.
    package func hasAnimations(excludingFinished finished: Set<AnimationID>) -> Bool {
        animatedLayers.contains { id in nodes[id]?.animations.contains { !finished.contains($0.id) } ?? false }
    }
}
