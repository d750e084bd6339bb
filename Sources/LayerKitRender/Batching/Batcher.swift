/// Plans how a pass's draws are recorded: in which order, and cut into which draw calls.
///
/// Input: the pass's items in painter's order (after culling) with their pixel footprints, and, for a
/// depth-ordered pass, each item's depth phase (`DepthPhase`).
/// Output: `drawOrder` (item indices in recording order) and `DrawBatch`es (contiguous runs of it that
/// share a `BatchKey`, one draw call each, drawn with the join of their draws' `Material`s).
/// Algorithm (WebRender's alpha batching): items are visited in painter's order. An item joins the last
/// batch when its key matches; otherwise it may join an earlier batch with its key, searching back at
/// most `lookBack` batches, provided no item of the batches it would jump over shares a pixel with it
/// (by footprint) — drawing it earlier then changes nothing, since only draws that touch the same pixel
/// depend on their order. Failing that it starts a new batch. Batches remember up to `rectsPerBatch`
/// footprints exactly and the rest as one bounding rect, so the overlap test may refuse a valid move
/// (more draw calls), never allow a wrong one. In a depth-ordered pass the opaque items come first, in
/// one batch per key regardless of overlap (the depth test resolves their order), each batch and the
/// batches themselves front to back so early depth tests reject hidden fragments; the other items follow,
/// batched as above among themselves. A stencil clip command (`StencilClipCommand`) is a batch of its
/// own and a wall: no item joins a batch across it, so every draw stays on its side of the stencil
/// change (the compiler keeps clipped items out of the opaque phase). `merge == false` (`DebugOptions.disableBatching`): one batch per
/// item, painter's order (opaque ones first, front to back, in a depth-ordered pass).
/// Cost: O(n · lookBack · rectsPerBatch) overlap tests at most; O(n) for the opaque phase.
package struct Batcher {
    /// How many batches back an item may move to join one with its key.
    package var lookBack = 10
    /// Footprints a batch keeps exactly for overlap tests; further ones are merged into one bounding rect.
    package var rectsPerBatch = 16
    /// Whether items share draw calls at all.
    package var merge = true

    package init() {}

    /// Consecutive items with equal keys, painter's order: the plan of a pass nobody compiled.
    package static func consecutiveBatches(_ items: [DrawItem]) -> [DrawBatch] {
        var batches: [DrawBatch] = []
        var start = 0
        while start < items.count {
            let key = BatchKey(items[start])
            var end = start + 1
            while end < items.count && key.stencilCommand == nil && BatchKey(items[end]) == key { end += 1 }
            batches.append(DrawBatch(key: key, range: start..<end, material: Material(of: start..<end, in: items)))
            start = end
        }
        return batches
    }

    /// The recording plan for `items` (see the type's contract). `phases` is nil for a pass drawn
    /// without a depth test.
    package func plan(_ items: [DrawItem], footprints: [PixelRect], phases: [DepthPhase]? = nil) -> (order: [Int], batches: [DrawBatch]) {
        precondition(footprints.count == items.count && (phases?.count ?? items.count) == items.count, "one footprint and phase per item")
        // Keys are made from the draws where they lie (`BatchKey(at:depth:)`).
        return items.withUnsafeBufferPointer { draws in
            guard let draws = draws.baseAddress else { return ([], []) }
            return plan(items, at: draws, footprints: footprints, phases: phases)
        }
    }

    /// `plan(_:footprints:phases:)` of `items`, which lie at `draws`.
    private func plan(_ items: [DrawItem], at draws: UnsafePointer<DrawItem>, footprints: [PixelRect],
                      phases: [DepthPhase]?) -> (order: [Int], batches: [DrawBatch]) {
        var building: [Building] = []
        building.reserveCapacity(merge ? 16 : items.count)

        // A draw's key is made only for a batch it starts or a lookup by hash; compared with a batch's
        // key where it lies (`BatchKey.matches`), a draw joining a batch copies and retains nothing.
        // Opaque phase: front to back, one batch per key.
        if let phases {
            var batchOfKey: [BatchKey: Int] = [:]
            // Neighbours mostly share a key: compared with the last one's, most items hash nothing.
            var last: Int?
            for index in items.indices.reversed() where phases[index] == .opaque {
                if merge, let last, BatchKey.drawsShareKey(draws + building[last].first, draws + index) {
                    building[last].add(index, at: draws)
                    continue
                }
                let key = BatchKey(at: draws + index, depth: .opaque)
                if merge, let existing = batchOfKey[key] {
                    building[existing].add(index, at: draws)
                    last = existing
                } else {
                    batchOfKey[key] = building.count
                    last = building.count
                    building.append(Building(key: key, first: index, at: draws, region: BatchRegion(limit: 0)))
                }
            }
        }
        // Painter's phase: back to front, moving items back past batches they do not overlap, never past
        // the last stencil clip command (`wall`).
        var wall = building.count
        for index in items.indices where phases?[index] != .opaque {
            let phase = phases?[index] ?? .none
            let footprint = footprints[index]
            if draws[index].stencilCommand != nil {
                building.append(Building(key: BatchKey(at: draws + index, depth: phase), first: index, at: draws, region: BatchRegion(limit: 0)))
                wall = building.count
                continue
            }
            guard merge else {
                building.append(Building(key: BatchKey(at: draws + index, depth: phase), first: index, at: draws, region: BatchRegion(limit: 0)))
                continue
            }
            var target: Int?
            var candidate = building.count - 1
            while candidate >= max(wall, building.count - lookBack) {
                if building[candidate].phase == phase && BatchKey.drawsShareKey(draws + building[candidate].first, draws + index) {
                    target = candidate
                    break
                }
                if building[candidate].regionIntersects(footprint, footprints: footprints) { break }
                candidate -= 1
            }
            if let target {
                building[target].add(index, at: draws)
            } else {
                building.append(Building(key: BatchKey(at: draws + index, depth: phase), first: index, at: draws,
                                         region: BatchRegion(limit: rectsPerBatch)))
            }
        }

        var order: [Int] = []
        order.reserveCapacity(items.count)
        var batches: [DrawBatch] = []
        batches.reserveCapacity(building.count)
        for batch in building {
            let start = order.count
            order.append(contentsOf: batch.items)
            batches.append(DrawBatch(key: batch.key, range: start..<order.count, material: batch.material))
        }
        return (order, batches)
    }

    /// A batch being built: its key, the draw that started it (later draws are compared with that one,
    /// `BatchKey.drawsShareKey`), its items in recording order, the join of their materials, and where
    /// they draw.
    ///
    /// The material is joined as each draw joins, while the draw is in the cache from its key's test: a
    /// second pass over the draws for it read 384 bytes a draw from memory again (`Material.init(at:)`'s
    /// first read was a tenth of planning a pass of 10,000 draws). Joining is a union and a maximum, so the
    /// order does not matter.
    ///
    /// The region takes its items' footprints when a later draw asks whether it may move past the batch,
    /// not as they join: most draws join the last batch and no draw ever asks (one batch of 10,000 draws
    /// in `animated-layers`), and the footprints are added in the same order either way.
    private struct Building {
        var key: BatchKey
        /// The key's phase, read without the key.
        let phase: DepthPhase
        let first: Int
        private(set) var items: [Int]
        private(set) var material: Material
        private var region: BatchRegion
        /// How many of `items` (the first ones) `region` holds.
        private var itemsInRegion = 0

        init(key: BatchKey, first: Int, at draws: UnsafePointer<DrawItem>, region: BatchRegion) {
            self.key = key
            phase = key.depth
            self.first = first
            items = [first]
            material = Material(at: draws + first)
            self.region = region
        }

        /// Adds the draw at `index` of `draws`.
        mutating func add(_ index: Int, at draws: UnsafePointer<DrawItem>) {
            items.append(index)
            material = material.joined(with: Material(at: draws + index))
        }

        /// Whether a draw with footprint `rect` shares a pixel with the batch's (`footprints` by item).
        mutating func regionIntersects(_ rect: PixelRect, footprints: [PixelRect]) -> Bool {
            while itemsInRegion < items.count {
                region.add(footprints[items[itemsInRegion]])
                itemsInRegion += 1
            }
            return region.intersects(rect)
        }
    }
}

/// The pixels a batch's items may touch: up to `limit` footprints kept exactly, the rest as one bounding
/// rect (conservative).
struct BatchRegion {
    private(set) var bounds: PixelRect?
    private var rects: [PixelRect] = []
    private var spill: PixelRect?
    let limit: Int

    init(limit: Int) {
        self.limit = limit
    }

    mutating func add(_ rect: PixelRect) {
        bounds = bounds.map { $0.union(rect) } ?? rect
        if rects.count < limit {
            rects.append(rect)
        } else {
            spill = spill.map { $0.union(rect) } ?? rect
        }
    }

    func intersects(_ rect: PixelRect) -> Bool {
        guard let bounds, bounds.intersects(rect) else { return false }
        if let spill, spill.intersects(rect) { return true }
        return rects.contains { $0.intersects(rect) }
    }
}
