import LayerKit

/// The instances a `CAReplicatorLayer` draws its sublayers as.
///
/// Input: a (presented) replicator node's committed properties (`instanceCount`, `instanceTransform`,
/// `instanceDelay`, `instanceColor` and the four offsets; `CAReplicatorLayer`'s defaults for keys never
/// committed) and its bounds. Output: one `Instance` per copy, in drawing order (instance 0 first, so
/// later instances draw over earlier ones): the map applied to the sublayer space (the instance transform
/// to the power k, about the centre of the bounds), the time shift k × delay, and the colour multiplier
/// instanceColor + k × offsets, each channel clamped to 0…1, premultiplied for multiplying a draw's
/// premultiplied colour. A count below 1 draws nothing; it is capped at `maximumCount`.
/// Cost: O(count) 4×4 products per frame.
package struct ReplicatorInstances {
    package struct Instance {
        /// Applied to the replicator's sublayer space before its sublayer transform.
        package var transform: CATransform3D
        /// Subtracted from the replicator's local time for this instance's sublayers.
        package var delay: Double
        /// Premultiplied (r·a, g·a, b·a, a): multiplies each draw's premultiplied colour.
        package var colorMultiplier: SIMD4<Float>

        /// The sublayers as they are (every layer that is no replicator draws them once so).
        package static let original = Instance(transform: CATransform3DIdentity, delay: 0, colorMultiplier: SIMD4(repeating: 1))
    }

    /// The most instances a replicator draws (hostile counts are cut to it).
    package static let maximumCount = 10_000

    package let instances: [Instance]

    /// The instances of `node`, or nil when it is no replicator.
    package init?(of node: RenderNode) {
        guard node.renderKind == .replicator else { return nil }
        let properties = node.customProperties
        let requested = properties.number("instanceCount") ?? 1
        let count = requested.isFinite ? min(max(Int(requested.rounded(.down)), 0), Self.maximumCount) : 0
        let delay = properties.number("instanceDelay").flatMap { $0.isFinite ? $0 : nil } ?? 0
        var step = CATransform3DIdentity
        if case .transform(let t)? = properties["instanceTransform"] { step = t }
        let base = properties.contains("instanceColor") ? (properties.color("instanceColor") ?? SIMD4(1, 1, 1, 1)) : SIMD4(1, 1, 1, 1)
        func offset(_ key: String) -> Double { properties.number(key).flatMap { $0.isFinite ? $0 : nil } ?? 0 }
        let offsets = SIMD4(offset("instanceRedOffset"), offset("instanceGreenOffset"), offset("instanceBlueOffset"), offset("instanceAlphaOffset"))
        let center = CATransform3DMakeTranslation(node.bounds.midX, node.bounds.midY, 0)
        let toCenter = CATransform3DMakeTranslation(-node.bounds.midX, -node.bounds.midY, 0)
        var result: [Instance] = []
        result.reserveCapacity(count)
        var power = CATransform3DIdentity
        for k in 0..<count {
            var color = base + offsets * Double(k)
            color = SIMD4(min(max(color.x, 0), 1), min(max(color.y, 0), 1), min(max(color.z, 0), 1), min(max(color.w, 0), 1))
            let premultiplied = SIMD4<Float>(Float(color.x * color.w), Float(color.y * color.w), Float(color.z * color.w), Float(color.w))
            result.append(Instance(transform: CATransform3DConcat(CATransform3DConcat(toCenter, power), center),
                                   delay: Double(k) * delay, colorMultiplier: premultiplied))
            power = CATransform3DConcat(power, step)
        }
        instances = result
    }
}
