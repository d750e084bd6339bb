import LayerKit

/// What a layer looked like before the commit that added a `CATransition` to it: copies of the layer and
/// everything it drew (sublayers and masks, to any depth) as they stood before that commit's changes,
/// without animations, so the "before" state stays as it was while the transition runs.
///
/// Taken by `RenderTree.apply(_:)` before it applies the packet that brings the transition; dropped when
/// the layer has no transition left. The copies keep their layer IDs: the snapshot is a small render
/// tree of its own, which the graph builder draws in place of the live one for the old state
/// (`RenderGraphBuilder+Transition.swift`). A layer that did not exist before the commit has an empty
/// snapshot: its old state draws nothing.
/// Cost: O(nodes in the subtree) per transition added, held until the transition ends.
package struct TransitionSnapshot: Sendable {
    /// The transitioning layer.
    package let root: LayerID
    /// The copies, by ID.
    package let tree: RenderTree

    /// The copy of the transitioning layer, nil when it did not exist before the commit.
    package var rootNode: RenderNode? { tree[root] }
}

extension RenderTree {
    /// The snapshot of `root`'s subtree as this tree holds it now.
    func transitionSnapshot(of root: LayerID) -> TransitionSnapshot {
        var copies = RenderTree()
        for id in layers(reachableFrom: root) {
            guard let node = nodes[id] else { continue }
            let copy = node.copy()
            copy.animations = []
            copy.transitionSnapshot = nil
            copies.nodes[id] = copy
        }
        return TransitionSnapshot(root: root, tree: copies)
    }
}
