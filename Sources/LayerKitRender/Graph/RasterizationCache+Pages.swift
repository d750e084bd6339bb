import LayerKit

/// Shared cache pages: cached bitmaps (of `shouldRasterize` layers and of cached groups) packed as
/// sub-rectangles of a few large textures, so the composites of many cached layers sample one texture
/// and batch into one draw call (DESIGN.md §4: "pack small images into atlases").
///
/// Input: a bitmap drawn this frame (`storeInPage`: the entry and the draws that made it, in its own
/// surface's clip space), entries released or forgotten, and at the end of the frame the pages its
/// composites sampled (`pageFrame`).
/// Output: each paged entry's place (`PagePlacement`); per page and frame, whether it is redrawn (one
/// pass drawing every bitmap it holds, each moved into its place) or reused as the backend holds it.
/// Policy: pages are `pageSide` square (or what the device allows) and hold bitmaps of one reason
/// (`rasterize` or `groupOpacity`), so each page's pass reports why it exists; places come from a shelf
/// allocator (`AtlasAllocator`) with one pixel of gutter right of and below each bitmap, so linear
/// sampling at a bitmap's edge reads transparent pixels, never a neighbour's. A released entry frees its
/// place; a page left empty is released (the backend frees its image), so pages do not grow while the
/// set of cached layers stays the same. Adding a bitmap redraws its whole page: the backend keeps no
/// per-place updates, and a page holds only still content, so this happens when layers settle, not
/// every frame. A redraw also places the page's bitmaps afresh, so the places of released bitmaps come
/// back (the shelf allocator returns a shelf's space only once all of it is free). A bitmap is kept on
/// a page only when its draws sample no offscreen surface (it lives one frame) and no image atlas (a
/// placement may move), since a later redraw replays them; others stay images of their own.
/// Cost: O(pages) to place; a page redraw is O(draws of its bitmaps).
extension RasterizationCache {
    /// Where a paged bitmap lies: the page and its pixel rect there (without the gutter).
    package struct PagePlacement: Hashable, Sendable {
        package var page: Int
        package var allocation: Int
        package var rect: PixelRect
    }

    /// One shared page.
    package struct Page: Sendable {
        /// The reason of the passes that draw it.
        package var reason: OffscreenReason
        var allocator: AtlasAllocator
        package var members: Set<RasterizationEntryID> = []
        /// Whether a bitmap was added since the page was last drawn.
        package var needsRedraw = true
        /// The size the backend's image was last drawn at; nil before the first draw.
        package var drawnSize: (width: Int, height: Int)?
    }

    /// The side of a shared page unless the device allows less.
    package static let defaultPageSide = 2_048
    /// Pixels left empty to the right of and below each paged bitmap.
    package static let pageGutter = 1

    /// Records `id` as drawn this frame as `entry`, on a shared page of `reason`, redrawn from `items`
    /// (the bitmap's draws in its own `entry.width`×`entry.height` clip space). Nil when it is not paged
    /// (too large for a page of `pageSide`, or beyond the byte bound); the entry is then not stored.
    package func storeInPage(_ id: RasterizationEntryID, _ entry: RasterizationCache.Entry, items: [DrawItem],
                             reason: OffscreenReason, pageSide: Int) -> RasterizationCache.Entry? {
        let (width, height) = (entry.width + Self.pageGutter, entry.height + Self.pageGutter)
        guard width <= pageSide, height <= pageSide else { return nil }
        if entries[id] != nil { release(id) }
        guard store(id, entry) else { return nil }
        var placed: PagePlacement?
        for (number, page) in pages.sorted(by: { $0.key < $1.key }) where page.reason == reason {
            var allocator = page.allocator
            guard let allocation = allocator.allocate(width: width, height: height) else { continue }
            pages[number]!.allocator = allocator
            placed = PagePlacement(page: number, allocation: allocation.id, rect: Self.bitmapRect(allocation.rect))
            break
        }
        if placed == nil {
            var allocator = AtlasAllocator(width: pageSide, height: pageSide)
            guard let allocation = allocator.allocate(width: width, height: height) else {
                release(id)
                return nil
            }
            let number = nextPage
            nextPage += 1
            pages[number] = Page(reason: reason, allocator: allocator)
            placed = PagePlacement(page: number, allocation: allocation.id, rect: Self.bitmapRect(allocation.rect))
        }
        let placement = placed!
        pages[placement.page]!.members.insert(id)
        pages[placement.page]!.needsRedraw = true
        entries[id]!.placement = placement
        pagedItems[id] = items
        return entries[id]
    }

    /// The page's pass for this frame when it needs one, else nil; and the size its image has this
    /// frame (the composites' uv are fractions of it). Marks the page drawn.
    package func pageFrame(_ number: Int, surface: SurfaceID) -> (pass: RenderPass?, width: Int, height: Int)? {
        guard let page = pages[number] else { return nil }
        if !page.needsRedraw, let size = page.drawnSize { return (nil, size.width, size.height) }
        repack(number)
        let rects = page.members.compactMap { entries[$0]?.placement?.rect }
        let width = rects.map(\.maxX).max() ?? 1, height = rects.map(\.maxY).max() ?? 1
        var items: [DrawItem] = []
        for id in page.members.sorted(by: { (entries[$0]?.placement?.allocation ?? 0) < (entries[$1]?.placement?.allocation ?? 0) }) {
            guard let entry = entries[id], let rect = entry.placement?.rect else { continue }
            let own = RenderTarget.offscreen(surface, width: entry.width, height: entry.height)
            for item in pagedItems[id] ?? [] {
                items.append(SurfacePacker.moved(item, from: own, to: rect, inWidth: width, height: height))
            }
        }
        pages[number]!.needsRedraw = false
        pages[number]!.drawnSize = (width, height)
        let pass = RenderPass(name: "rasterization cache page \(number) · \(page.members.count) bitmaps",
                              target: .offscreen(surface, width: width, height: height), clearColor: .zero,
                              items: items, reason: page.reason)
        return (pass, width, height)
    }

    /// Places the page's bitmaps afresh, in their present order (top to bottom, left to right), so the
    /// places freed since the last redraw come back (a shelf's space returns only when all of it is
    /// freed). Kept as it is in the unlikely case the fresh placing does not fit.
    private func repack(_ number: Int) {
        guard let page = pages[number] else { return }
        var allocator = AtlasAllocator(width: page.allocator.width, height: page.allocator.height)
        var placements: [(RasterizationEntryID, PagePlacement)] = []
        func corner(_ entry: RasterizationCache.Entry) -> (Int, Int) { (entry.placement?.rect.minY ?? 0, entry.placement?.rect.minX ?? 0) }
        let members = page.members.compactMap { id in entries[id].map { (id, $0) } }.sorted { corner($0.1) < corner($1.1) }
        for (id, entry) in members {
            let (width, height) = (entry.width + Self.pageGutter, entry.height + Self.pageGutter)
            guard let allocation = allocator.allocate(width: width, height: height) else { return }
            placements.append((id, PagePlacement(page: number, allocation: allocation.id, rect: Self.bitmapRect(allocation.rect))))
        }
        pages[number]!.allocator = allocator
        for (id, placement) in placements { entries[id]!.placement = placement }
    }

    /// Frees `id`'s place on its page (the entry itself is already gone); an emptied page is released.
    func removeFromPage(_ id: RasterizationEntryID, _ entry: RasterizationCache.Entry) {
        pagedItems[id] = nil
        guard let placement = entry.placement, var page = pages[placement.page] else { return }
        page.allocator.deallocate(placement.allocation)
        page.members.remove(id)
        if page.members.isEmpty {
            pages[placement.page] = nil
            if page.drawnSize != nil { releases.append(.page(placement.page)) }
        } else {
            pages[placement.page] = page
        }
    }

    /// Drops a page the backend does not hold, and every bitmap on it (they are drawn again when next
    /// needed). A page drawn in an earlier frame may still have an image there, so it goes out as a
    /// release.
    func forgetPage(_ number: Int) {
        guard let page = pages.removeValue(forKey: number) else { return }
        for id in page.members {
            entries[id] = nil
            pagedItems[id] = nil
        }
        if page.drawnSize != nil { releases.append(.page(number)) }
    }

    /// The bitmap's part of an allocation (which includes the gutter).
    private static func bitmapRect(_ allocation: PixelRect) -> PixelRect {
        PixelRect(x: allocation.minX, y: allocation.minY, width: allocation.width - pageGutter, height: allocation.height - pageGutter)
    }
}
