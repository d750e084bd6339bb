import Foundation

/// The tiling machinery of one `CATiledLayer`, on the model thread: its tile cache, its invalidations,
/// and the per-commit decision of what to draw and what to show.
///
/// Contract (`update`, once per commit from `TiledLayerScheduler`, after the display pass):
///   1. The grid (`TileGrid`) from the layer's tile size, levels, contentsScale and bounds. A change of
///      anything but the bounds drops every tile; a bounds change drops the tiles it cuts differently.
///   2. The visible regions (`TileVisibility`), and in each the tiles of the level its scale needs,
///      nearest the centre first, at most as many as fit in the cache (`tiledLayerTileLimit` when more
///      are visible).
///   3. Needed tiles that are missing or invalidated, and not being drawn, are queued for drawing
///      (replacing this layer's earlier queued requests); needed tiles and, under needed tiles still
///      missing, the nearest drawn coarser tile and the finer ones are marked used; then the cache
///      evicts down to its limit (`TileCache`).
///   4. The tiles to show (`TiledContents`): every drawn tile overlapping the visible region at the
///      target level, any coarser one or one level finer, coarsest first. When that differs from what was last committed, it is stored and recorded as a changed
///      property, so this very commit carries it.
/// Drawn tiles arrive through `accept` (also at the commit, before `update`); a tile invalidated after
/// its request (`invalidate`, from the layer's `display()`) or cut from an older grid is dropped, and
/// requested again if still needed. Cost per commit: O(visible tiles + cached tiles).
package final class TiledLayerState: @unchecked Sendable {
    /// Bytes of tile pixels a tiled layer keeps by default (64 MiB: 256 tiles of 256 × 256).
    package static let defaultByteLimit = 64 << 20

    package private(set) var cache = TileCache(byteLimit: TiledLayerState.defaultByteLimit)
    package private(set) var grid: TileGrid?
    /// Counts invalidations; a request remembers the epoch it was made in.
    private var epoch = 0
    /// Recent invalidations (nil rect: everything), oldest first.
    private var invalidations: [(epoch: Int, rect: CGRect?)] = []
    private static let retainedInvalidations = 64
    /// What the last commit carried.
    package private(set) var committed: TiledContents?
    /// The tiles the last update needed (the visible tiles of the needed levels).
    package private(set) var neededTiles: [TileKey] = []
    /// Whether the visible-tile limit has been reported (once per layer).
    private var reportedLimit = false

    package init() {}

    /// The most bytes of tile pixels kept.
    package var byteLimit: Int {
        get { cache.byteLimit }
        set { cache.byteLimit = max(0, newValue) }
    }

    // MARK: Invalidation and arrival

    /// Marks the tiles overlapping `rect` (every tile when nil) for redrawing; they stay shown until then.
    package func invalidate(_ rect: CGRect?) {
        epoch += 1
        invalidations.append((epoch, rect))
        if invalidations.count > Self.retainedInvalidations { invalidations.removeFirst() }
        cache.markStale(in: rect)
    }

    /// Takes a finished drawing requested at `requestEpoch`, unless it is out of date.
    package func accept(_ key: TileKey, image: CGImage?, rect: CGRect, requestEpoch: Int, serial: UInt64, tick: Int) {
        guard let grid, grid.rect(of: key) == rect else { return }
        if requestEpoch < epoch {
            // Invalidations older than those remembered are assumed to cover it.
            guard let oldest = invalidations.first, requestEpoch >= oldest.epoch - 1 else { return }
            let outdated = invalidations.contains { $0.epoch > requestEpoch && ($0.rect.map(rect.intersects) ?? true) }
            guard !outdated else { return }
        }
        cache.insert(TileCache.Entry(rect: rect, image: image, serial: serial, lastUsed: tick), for: key)
    }

    // MARK: The commit's update

    /// See the type's contract; `tick` numbers the commit, `queue` draws, `inProgress` are the tiles being
    /// drawn or drawn and not yet accepted (not to be requested again).
    package func update(_ layer: CATiledLayer, tick: Int, queue: TileDrawingQueue, inProgress: Set<TileKey>) {
        let grid = layer.tileGrid
        if let old = self.grid, !Self.sameTiling(old, grid) {
            cache.removeAll { _, _ in true }
            invalidate(nil)
        } else if let old = self.grid, old.bounds != grid.bounds {
            cache.removeAll { key, entry in grid.rect(of: key) != entry.rect }
        }
        self.grid = grid

        // What is on screen, and the tiles it needs.
        let regions = TileVisibility.regions(of: layer)
        let tileBytes = Int(grid.tileWidth) * Int(grid.tileHeight) * 4
        let limit = max(1, cache.byteLimit / max(tileBytes, 1))
        var needed: [TileKey] = []
        var neededSet = Set<TileKey>()
        var visible = CGRect.null
        var target = 0
        for (index, region) in regions.enumerated() {
            let level = grid.level(forScreenScale: region.pixelsPerPoint)
            target = index == 0 ? level : min(target, level)
            visible = visible.union(region.rect)
            let count = grid.count(covering: region.rect, atLevel: level)
            if count > limit - needed.count, !reportedLimit {
                reportedLimit = true
                LayerKitDiagnostics.emit(.tiledLayerTileLimit(layer: layer.diagnosticName, visible: count, limit: limit))
            }
            for key in grid.keys(covering: region.rect, atLevel: level, limit: max(0, limit - needed.count))
            where neededSet.insert(key).inserted {
                needed.append(key)
            }
        }
        neededTiles = needed

        // Requests, and what is in use.
        var toDraw: [TileKey] = []
        for key in needed {
            guard let entry = cache[key], !entry.isStale else {
                if !inProgress.contains(key) { toDraw.append(key) }
                touchStandIns(for: key, grid: grid, tick: tick)
                if cache[key] != nil { cache.touch(key, at: tick) }
                continue
            }
            cache.touch(key, at: tick)
        }
        let centre = visible.isNull ? .zero : CGPoint(x: visible.midX, y: visible.midY)
        cache.evict(protecting: neededSet, level: target, centre: centre)

        var jobs: [TileDrawingQueue.Job] = []
        if !toDraw.isEmpty {
            // One copy per commit, taken here on the model thread; workers only read it.
            let copy = layer.makeDrawingCopy()
            let opaque = layer.isOpaque
            let requestEpoch = epoch
            jobs = toDraw.map { key in
                TileDrawingQueue.Job(layer: layer.layerID, key: key, rect: grid.rect(of: key), epoch: requestEpoch) {
                    TileDrawing.draw(copy, key: key, grid: grid, isOpaque: opaque)
                }
            }
        }
        queue.replacePending(for: layer.layerID, with: jobs)

        // What to show.
        var shown: [TiledContents.Tile] = []
        if !visible.isNull {
            // Finer tiles stand in from one level down only (the level `touchStandIns` keeps).
            for (key, entry) in cache.entries where key.level >= target - 1 && entry.rect.intersects(visible) {
                shown.append(TiledContents.Tile(key: key, rect: entry.rect, image: entry.image, serial: entry.serial))
            }
        }
        shown.sort { a, b in
            let ra = Self.drawingRank(a.key.level, target: target), rb = Self.drawingRank(b.key.level, target: target)
            return ra != rb ? ra < rb : (a.key.row, a.key.column) < (b.key.row, b.key.column)
        }
        let contents = TiledContents(grid: grid, targetLevel: target, fadeDuration: type(of: layer).fadeDuration(),
                                     visibleRect: visible, tiles: shown)
        guard contents != committed else { return }
        committed = contents
        layer.storeTiledContents(contents)
    }

    /// Marks as used the drawn tiles that stand in for the missing `key`: the nearest coarser one, and
    /// the finer ones one level down.
    private func touchStandIns(for key: TileKey, grid: TileGrid, tick: Int) {
        if key.level < grid.coarsestLevel {
            for level in (key.level + 1)...grid.coarsestLevel {
                let shift = level - key.level
                let parent = TileKey(level: level, column: key.column >> shift, row: key.row >> shift)
                if cache[parent] != nil {
                    cache.touch(parent, at: tick)
                    break
                }
            }
        }
        if key.level > grid.finestLevel {
            for dy in 0..<2 {
                for dx in 0..<2 {
                    cache.touch(TileKey(level: key.level - 1, column: key.column * 2 + dx, row: key.row * 2 + dy), at: tick)
                }
            }
        }
    }

    /// Drawing order: coarser levels first, then finer ones, the target level last (on top).
    private static func drawingRank(_ level: Int, target: Int) -> Int {
        if level == target { return Int.max }
        return level > target ? -level : 1_000_000 - level
    }

    /// Whether two grids cut the same tiles (everything but the bounds equal).
    private static func sameTiling(_ a: TileGrid, _ b: TileGrid) -> Bool {
        a.tileWidth == b.tileWidth && a.tileHeight == b.tileHeight && a.contentsScale == b.contentsScale
            && a.finestLevel == b.finestLevel && a.coarsestLevel == b.coarsestLevel
    }
}
