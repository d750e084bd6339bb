/// Places rectangles in a `width`×`height` texture page: a shelf allocator (as etagere's simple mode).
///
/// Input: sizes to place (`allocate`) and placements to free (`deallocate`).
/// Output: non-overlapping pixel rects inside the page, or nil when there is no room.
/// Algorithm: the page is cut into horizontal shelves stacked from the top. A request's height is
/// rounded up to a bucket (multiples of 8 up to 64, of 16 up to 256, of 32 beyond) and goes to the first
/// shelf of that bucket height, or taller by at most half, with room at its right end; else a new shelf
/// opens below the last; else an emptied shelf at least as tall is reused. A shelf's space is handed out
/// left to right and comes back only when every placement on it is freed (then the shelf starts over, and
/// the last shelf is removed so its height returns to the page). Cost: O(shelves) per allocation, O(1)
/// per deallocation; at most one bucket step of height and the right end of each shelf are wasted.
package struct AtlasAllocator: Sendable {
    package struct Allocation: Hashable, Sendable {
        package let id: Int
        package let rect: PixelRect
    }

    package let width: Int
    package let height: Int

    private struct Shelf {
        var y: Int
        var height: Int
        var nextX = 0
        var liveCount = 0
    }

    private var shelves: [Shelf] = []
    /// Live placements: id → (shelf index, rect).
    private var live: [Int: (shelf: Int, rect: PixelRect)] = [:]
    private var nextID = 0

    package init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "an atlas page has pixels")
        self.width = width
        self.height = height
    }

    /// Placements alive now.
    package var allocationCount: Int { live.count }

    /// Pixels of the live placements.
    package var allocatedArea: Int { live.values.reduce(0) { $0 + $1.rect.width * $1.rect.height } }

    /// The height of the shelf a request of `height` pixels goes to.
    package static func bucketHeight(_ height: Int) -> Int {
        let step = height <= 64 ? 8 : height <= 256 ? 16 : 32
        return (height + step - 1) / step * step
    }

    /// A `width`×`height` rect in the page, or nil when none is free.
    package mutating func allocate(width: Int, height: Int) -> Allocation? {
        guard width > 0, height > 0, width <= self.width, height <= self.height else { return nil }
        let bucket = min(Self.bucketHeight(height), self.height)
        var chosen: Int?
        for (index, shelf) in shelves.enumerated()
        where shelf.height >= bucket && shelf.height * 2 <= bucket * 3 && self.width - shelf.nextX >= width {
            chosen = index
            break
        }
        if chosen == nil {
            let top = shelves.last.map { $0.y + $0.height } ?? 0
            if top + bucket <= self.height {
                shelves.append(Shelf(y: top, height: bucket))
                chosen = shelves.count - 1
            } else if let empty = shelves.indices.first(where: { shelves[$0].liveCount == 0 && shelves[$0].height >= bucket }) {
                chosen = empty
            }
        }
        guard let index = chosen else { return nil }
        let rect = PixelRect(x: shelves[index].nextX, y: shelves[index].y, width: width, height: height)
        shelves[index].nextX += width
        shelves[index].liveCount += 1
        let id = nextID
        nextID += 1
        live[id] = (index, rect)
        return Allocation(id: id, rect: rect)
    }

    /// Frees a placement (an unknown or freed id is ignored).
    package mutating func deallocate(_ id: Int) {
        guard let (index, _) = live.removeValue(forKey: id) else { return }
        shelves[index].liveCount -= 1
        guard shelves[index].liveCount == 0 else { return }
        shelves[index].nextX = 0
        // Empty shelves at the bottom give their height back.
        while let last = shelves.last, last.liveCount == 0 { shelves.removeLast() }
    }

    /// Whether no two live placements overlap and all lie inside the page (tests and debug checks).
    package var placementsAreDisjoint: Bool {
        let rects = live.values.map(\.rect)
        let page = PixelRect(x: 0, y: 0, width: width, height: height)
        guard rects.allSatisfy({ page.contains($0) }) else { return false }
        return !OffscreenDecision.anyOverlap(rects)
    }
}
