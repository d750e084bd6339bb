import LayerKit

/// The render server's tree: every committed layer by ID.
///
/// Input: commit packets, in commit order (`apply(_:)`). Output: nodes for the graph builder.
/// Cost of a commit: O(changed properties). Layers the packet mentions for the first time are created;
/// layers no longer reachable stay (they may be re-attached later, as a model layer can be) until the
/// model layer is deallocated (`CommitPacket.released`). Every layer
/// a packet touches is recorded in `dirtyLayers`, and every layer whose `sublayers` or `mask` it edits
/// (the only way a layer joins or leaves a tree) in `structureEdits`, so the frame after it knows what to
/// recompute (`RetainedFrame`). Commits are process-wide: the tree holds every host's layers, and a
/// producer tells its own by what is reachable from its root.
package struct RenderTree: Sendable {
    package internal(set) var nodes: [LayerID: RenderNode] = [:] {
        didSet { membership &+= 1 }
    }
    /// Counts changes to which layers the tree holds (a node added or removed; any write of `nodes`
    /// counts): a node's resolved sublayers are valid while it stays the same (`RenderNode.sublayerNodes`).
    package private(set) var membership: UInt64 = 0
    /// Layers that have animations, so a frame need not scan the whole tree to know if it animates.
    package private(set) var animatedLayers = Set<LayerID>() {
        didSet { animatedLayersRevision &+= 1 }
    }
    /// Counts writes of `animatedLayers` (any write counts): a list of their nodes made at one count
    /// holds them while it stays (`RetainedFrame.animatedNodes`).
    package private(set) var animatedLayersRevision: UInt64 = 0
    /// Animations that arrived in commits since this was last cleared (the render server reports their start).
    package var newAnimations = Set<AnimationID>()
    /// Counts changes to nodes; each change stamps its node with the count (`RenderTree+ChangeStamps.swift`).
    package internal(set) var changeCounter: UInt64 = 0
    /// Layers changed since the last `takeChanges()`: committed to, or animations removed.
    package private(set) var dirtyLayers = Set<LayerID>()
    /// Layers whose `sublayers` or `mask` were edited since the last `takeChanges()`.
    package private(set) var structureEdits = Set<LayerID>()

    package init() {}

    package subscript(id: LayerID) -> RenderNode? { nodes[id] }

    /// Applies a commit packet.
    package mutating func apply(_ packet: CommitPacket) {
        // Animations the packet adds are found before any of its changes land: a transition among them
        // animates from what its layer drew until now, so its snapshot is taken first.
        var snapshots: [LayerID: TransitionSnapshot] = [:]
        for change in packet.changes {
            for case (.animations, .animations(let records)) in change.values {
                let known = Set(nodes[change.layer]?.animations.map(\.id) ?? [])
                let added = records.filter { !known.contains($0.id) }
                for record in added { newAnimations.insert(record.id) }
                if added.contains(where: \.isTransition) { snapshots[change.layer] = transitionSnapshot(of: change.layer) }
            }
        }
        for change in packet.changes {
            let node: RenderNode
            if let existing = nodes[change.layer] {
                node = existing
            } else {
                // A new layer changes no drawn tree until a sublayers or mask edit attaches it.
                node = RenderNode(id: change.layer)
                nodes[change.layer] = node
            }
            dirtyLayers.insert(change.layer)
            for (key, value) in change.values {
                if key == .sublayers || key == .mask { structureEdits.insert(change.layer) }
                node.apply(key, value)
            }
            for (key, value) in change.customValues { node.customProperties[key] = value }
            if let snapshot = snapshots[change.layer] { node.transitionSnapshot = snapshot }
            if !node.animations.contains(where: \.isTransition) { node.transitionSnapshot = nil }
            stampChange(of: node, keys: change.values.lazy.map(\.0), hasCustomValues: !change.customValues.isEmpty)
            if node.animations.isEmpty { animatedLayers.remove(change.layer) } else { animatedLayers.insert(change.layer) }
        }
        for layer in packet.released {
            nodes[layer] = nil
            animatedLayers.remove(layer)
            dirtyLayers.remove(layer)
        }
    }

    /// The layers reachable from `root` through sublayers and masks, `root` included. O(reachable).
    package func layers(reachableFrom root: LayerID) -> Set<LayerID> {
        var reachable = Set<LayerID>()
        var stack = [root]
        while let id = stack.popLast() {
            guard reachable.insert(id).inserted, let node = nodes[id] else { continue }
            stack.append(contentsOf: node.sublayers)
            if let mask = node.mask { stack.append(mask) }
        }
        return reachable
    }

}

// MARK: - Animations

extension RenderTree {
    /// Drops animations `ids` from `layer` (those removed on completion only, when asked).
    package mutating func removeAnimations(_ ids: Set<AnimationID>, from layer: LayerID, onlyIfRemovedOnCompletion: Bool) {
        guard let node = nodes[layer] else { return }
        node.animations.removeAll { ids.contains($0.id) && (!onlyIfRemovedOnCompletion || $0.removedOnCompletion) }
        dirtyLayers.insert(layer)
        if !node.animations.contains(where: \.isTransition) { node.transitionSnapshot = nil }
        if node.animations.isEmpty { animatedLayers.remove(layer) }
        // What the node shows no longer includes the removed animations' values.
        stampChange(of: node, keys: [.animations], hasCustomValues: false)
    }

    /// The layers changed and those whose sublayers or mask were edited since the last call, and
    /// forgets them.
    package mutating func takeChanges() -> (dirty: Set<LayerID>, structureEdits: Set<LayerID>) {
        defer {
            dirtyLayers.removeAll(keepingCapacity: true)
            structureEdits.removeAll()
        }
        return (dirtyLayers, structureEdits)
    }

    /// Whether any node (of `layers`, when given) has an animation that has not finished.
    package func hasAnimations(excludingFinished finished: Set<AnimationID>, among layers: Set<LayerID>?) -> Bool {
        animatedLayers.contains { id in
            (layers?.contains(id) ?? true) && (nodes[id]?.animations.contains { !finished.contains($0.id) } ?? false)
        }
    }
}
