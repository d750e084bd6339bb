import LayerKit

/// Change stamps: how the rasterization cache learns, cheaply, whether a subtree changed since its
/// bitmap was drawn.
///
/// Input: every change a commit applies to a node (`apply(_:)`), and animations leaving a node.
/// Output: per node, `changeStamp` (the tree's change count when anything of it last changed) and
/// `contentStamp` (the same, ignoring changes that only place the layer: position, anchor point,
/// transform, zPosition, opacity, hidden). `rasterizedState(of:)` combines them over a subtree: the
/// largest stamp (the root counted by its content stamp, every descendant and mask by its change stamp),
/// and whether an animation runs inside it. A bitmap drawn when that stamp was `s` is still right while
/// the stamp is `s` and nothing inside animates.
/// Cost: O(changed keys) per change; O(subtree nodes) per `rasterizedState(of:)`, reading one integer
/// a node (no draws). Kept to this file so it can give way to dirty-subtree propagation once the render
/// tree keeps parent links.
extension RenderTree {
    /// Properties that move, fade or hide a layer without changing what its subtree looks like in its
    /// own space. A change of the transform's scale is caught by the on-screen scale check instead.
    static let placementKeys = LayerPlacementProperties.keys

    /// `placementKeys` as one bit per `LayerPropertyKey` raw value.
    static let placementKeyBits: UInt64 = placementKeys.reduce(0) { $0 | 1 << UInt64($1.rawValue) }

    /// Stamps `node` after a change of `keys` (and of subclass properties when `hasCustomValues`).
    mutating func stampChange(of node: RenderNode, keys: some Sequence<LayerPropertyKey>, hasCustomValues: Bool) {
        changeCounter &+= 1
        node.changeStamp = changeCounter
        if hasCustomValues || keys.contains(where: { !Self.placementKeys.contains($0) }) {
            node.contentStamp = changeCounter
        }
    }

    /// What a rasterized subtree's bitmap depends on: the newest stamp inside it, and whether an
    /// animation inside it may change it from frame to frame.
    package struct RasterizedState: Hashable, Sendable {
        package var stamp: UInt64
        package var isAnimating: Bool
    }

    /// The state of the subtree rooted at `root` (see the extension's contract). Animations on `root`
    /// itself count only when they drive more than its placement.
    package func rasterizedState(of root: LayerID) -> RasterizedState {
        guard let rootNode = nodes[root] else { return RasterizedState(stamp: 0, isAnimating: false) }
        var state = RasterizedState(stamp: rootNode.contentStamp,
                                    isAnimating: rootNode.animations.contains { !Self.onlyPlaces($0) })
        var stack = rootNode.sublayers
        if let mask = rootNode.mask { stack.append(mask) }
        while let id = stack.popLast() {
            guard let node = nodes[id] else { continue }
            state.stamp = max(state.stamp, node.changeStamp)
            if !node.animations.isEmpty { state.isAnimating = true }
            stack.append(contentsOf: node.sublayers)
            if let mask = node.mask { stack.append(mask) }
        }
        return state
    }

    /// Whether `animation` only moves, fades or hides its layer.
    private static func onlyPlaces(_ animation: AnimationRecord) -> Bool {
        switch animation.content {
        case let .property(record): record.target.property.map { placementKeys.contains($0) } ?? false
        case let .group(children): children.allSatisfy(onlyPlaces)
        case .transition: false
        }
    }
}
