/// What every render graph must satisfy before a backend executes it, checked without a GPU.
///
/// The builder asserts them in debug builds (`RenderGraphBuilder.build`); tests call
/// `invariantViolations` directly. Rules: each surface is drawn by exactly one pass, with a positive
/// size; every surface an item samples was drawn by an earlier pass, or is a rasterization cache entry
/// reused from an earlier frame (`rasterization.reused`, which no pass draws), or is copied from the frame
/// target's kept pixels (`targetPixelCopies`: no pass draws it, it has pixels and is sampled); every surface drawn is sampled by
/// a later pass (an unread pass is wasted work); an offscreen pass says why it exists, a pass into the
/// frame does not; a compiled pass's draw plan draws every item exactly once, each batch of one key;
/// stencil clip commands nest (a push at the current level, a pop at the level below, every other item
/// at the current level, back to level 0 at the end of the pass). (Several passes may draw the frame, each clearing it; the builder makes one, last.)
/// Cost: O(passes + items).
extension RenderGraph {
    package enum InvariantViolation: Hashable, Sendable, CustomStringConvertible {
        /// Pass `pass` samples `surface`, which no earlier pass drew.
        case sampledBeforeRendered(pass: Int, surface: SurfaceID)
        /// Pass `pass` draws `surface`, which no later pass samples.
        case neverSampled(pass: Int, surface: SurfaceID)
        /// Pass `pass` draws `surface` again.
        case renderedTwice(pass: Int, surface: SurfaceID)
        /// Pass `pass` draws an offscreen target of no pixels.
        case emptySurface(pass: Int, surface: SurfaceID)
        /// Offscreen pass `pass` has no reason, or the frame's pass `pass` has one.
        case reasonMismatch(pass: Int)
        /// Pass `pass`'s draw plan is not every item once, in batches that tile it, each of the items' key.
        case malformedDrawPlan(pass: Int)
        /// Pass `pass`'s stencil clip commands do not nest, or an item's level is not the one in force.
        case unbalancedStencilClips(pass: Int)
        /// `surface`, copied from the frame target's pixels, is copied twice, has no pixels, or no pass samples it.
        case malformedTargetPixelCopy(surface: SurfaceID)

        package var description: String {
            switch self {
            case let .sampledBeforeRendered(pass, surface): "pass \(pass) samples \(surface), which no earlier pass draws"
            case let .neverSampled(pass, surface): "pass \(pass) draws \(surface), which no later pass samples"
            case let .renderedTwice(pass, surface): "pass \(pass) draws \(surface) a second time"
            case let .emptySurface(pass, surface): "pass \(pass) draws \(surface) with no pixels"
            case let .reasonMismatch(pass): "pass \(pass): an offscreen pass needs a reason, the frame's pass has none"
            case let .malformedDrawPlan(pass): "pass \(pass): the draw order and batches do not draw every item once with its own key"
            case let .unbalancedStencilClips(pass): "pass \(pass): stencil clip pushes and pops do not nest, or an item's stencil level is not the one in force"
            case let .malformedTargetPixelCopy(surface): "\(surface) is copied from the target's pixels twice, with no pixels, or never sampled"
            }
        }
    }

    /// Every broken rule, in pass order; empty for a well-formed graph.
    package var invariantViolations: [InvariantViolation] {
        var violations: [InvariantViolation] = []
        var drawnBy: [SurfaceID: Int] = [:]
        var lastSampledBy: [SurfaceID: Int] = [:]
        let copied = Set(targetPixelCopies.map(\.surface))
        for (index, pass) in passes.enumerated() {
            for case let surface? in pass.items.lazy.map({ $0.texture?.surface }) {
                if drawnBy[surface] == nil && lastSampledBy[surface] != index && rasterization.reused[surface] == nil && !copied.contains(surface) {
                    violations.append(.sampledBeforeRendered(pass: index, surface: surface))
                }
                lastSampledBy[surface] = index
            }
            if !pass.batches.isEmpty && !pass.hasWellFormedDrawPlan { violations.append(.malformedDrawPlan(pass: index)) }
            if !pass.hasNestedStencilClips { violations.append(.unbalancedStencilClips(pass: index)) }
            switch pass.target {
            case let .offscreen(surface, width, height):
                if drawnBy[surface] != nil || rasterization.reused[surface] != nil || copied.contains(surface) {
                    violations.append(.renderedTwice(pass: index, surface: surface))
                } else {
                    drawnBy[surface] = index
                }
                if width <= 0 || height <= 0 { violations.append(.emptySurface(pass: index, surface: surface)) }
                if pass.reason == nil { violations.append(.reasonMismatch(pass: index)) }
            case .frame:
                if pass.reason != nil { violations.append(.reasonMismatch(pass: index)) }
            }
        }
        // Sampled by a later pass (a pass sampling its own target was reported above).
        for (surface, pass) in drawnBy.sorted(by: { $0.value < $1.value }) where (lastSampledBy[surface] ?? -1) <= pass {
            violations.append(.neverSampled(pass: pass, surface: surface))
        }
        var copiedBefore = Set<SurfaceID>()
        for copy in targetPixelCopies where !copiedBefore.insert(copy.surface).inserted || copy.region.isEmpty
            || lastSampledBy[copy.surface] == nil || rasterization.reused[copy.surface] != nil {
            violations.append(.malformedTargetPixelCopy(surface: copy.surface))
        }
        return violations
    }
}

extension RenderPass {
    /// Whether the items' stencil clip commands nest and every item is at the level in force (see
    /// `StencilClipCommand`), in painter's order. O(items).
    var hasNestedStencilClips: Bool {
        var level: UInt8 = 0
        for item in items {
            switch item.stencilCommand {
            case nil:
                guard item.stencilLevel == level else { return false }
            case .push?:
                guard item.stencilLevel == level, level < .max else { return false }
                level += 1
            case .pop?:
                guard level > 0, item.stencilLevel == level - 1 else { return false }
                level -= 1
            }
        }
        return level == 0
    }

    /// Whether `drawOrder` holds every item index once and `batches` cut it into consecutive runs whose
    /// items have the batch's texture and blend mode. O(items).
    var hasWellFormedDrawPlan: Bool {
        guard drawOrder.count == items.count else { return false }
        var seen = [Bool](repeating: false, count: items.count)
        for index in drawOrder {
            guard items.indices.contains(index), !seen[index] else { return false }
            seen[index] = true
        }
        var next = 0
        for batch in batches {
            guard batch.range.lowerBound == next, batch.range.upperBound <= drawOrder.count, !batch.range.isEmpty else { return false }
            for position in batch.range {
                let item = items[drawOrder[position]]
                guard item.texture == batch.key.texture, item.blend == batch.key.blend else { return false }
            }
            next = batch.range.upperBound
        }
        return next == drawOrder.count
    }
}
