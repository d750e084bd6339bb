import LayerKit

/// Automatic caching of group-opacity surfaces: when a group whose subtree stays the same may be drawn
/// from a cached bitmap instead of an offscreen pass every frame (Chromium keeps render surfaces across
/// frames likewise).
///
/// Input: per frame, each group-opacity layer that needs a surface (its children overlap), with its
/// subtree's change stamp (`RenderTree.rasterizedState(of:)`) and the linear part of its map to the
/// target pixels.
/// Output: whether the group is cached this frame (`groupIsSettled`); the caller then draws it like a
/// `shouldRasterize` layer at its on-screen scale, sampled nearest (SCENES.md allows it for groups).
/// Rule: a group is cached when nothing inside it animates, its map to the target is affine, and
/// - it is seen for the first time (content that never changes is cached from its first frame), or
/// - its stamp and its map's linear part (scale, rotation, shear; within `scaleTolerance`) are the same
///   as in each of the last `settleFrames` frames it was seen.
/// So a group that changed is drawn through the per-frame (packable) surface until it has been still for
/// `settleFrames` frames: content that changes every frame (SCENES.md `groups_live`) costs one cached
/// bitmap at its first frame and then never churns the cache. A translation alone never counts as a
/// change: the cached bitmap is composited wherever the group is.
/// Cost: O(1) per group per frame; histories of groups not seen for `idleFramesBeforeRelease` frames are
/// forgotten at `beginFrame`.
extension RasterizationCache {
    /// When a group's subtree or map last changed.
    struct GroupHistory {
        var stamp: UInt64
        /// The map's linear part (a, b, c, d of the 2×2 block), target pixels per layer unit.
        var linear: SIMD4<Double>
        /// The frame of the last change; nil while nothing changed since it was first seen.
        var changedFrame: UInt64?
        var lastSeenFrame: UInt64
    }

    /// Frames a group must stay unchanged after a change before it is cached again.
    package static let settleFrames: UInt64 = 2

    /// Whether the group `layer` is drawn from the cache this frame (see the extension's contract).
    /// Call once per frame per group.
    package func groupIsSettled(_ layer: LayerID, stamp: UInt64, linear: SIMD4<Double>) -> Bool {
        guard var history = groupHistories[layer] else {
            groupHistories[layer] = GroupHistory(stamp: stamp, linear: linear, changedFrame: nil, lastSeenFrame: frame)
            return true
        }
        var scale = 1e-12, drift = 0.0
        for index in 0..<4 {
            scale = max(scale, abs(history.linear[index]))
            drift = max(drift, abs(history.linear[index] - linear[index]))
        }
        let sameMap = drift <= Double(scaleTolerance) * scale
        if history.stamp != stamp || !sameMap {
            history.stamp = stamp
            history.linear = linear
            history.changedFrame = frame
        }
        history.lastSeenFrame = frame
        groupHistories[layer] = history
        guard let changed = history.changedFrame else { return true }
        return frame - changed >= Self.settleFrames
    }

    /// Forgets groups not seen for `idleFramesBeforeRelease` frames.
    func forgetIdleGroupHistories() {
        guard !groupHistories.isEmpty else { return }
        groupHistories = groupHistories.filter { $0.value.lastSeenFrame + idleFramesBeforeRelease >= frame }
    }
}
