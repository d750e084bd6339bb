import Foundation

/// One tile of a tiled layer: its level of detail and its column and row in that level's grid.
package struct TileKey: Hashable, Sendable, CustomStringConvertible {
    /// 0 draws at `contentsScale`; each level up halves the resolution, each level down (negative,
    /// `levelsOfDetailBias`) doubles it.
    package var level: Int
    package var column: Int
    package var row: Int

    package init(level: Int, column: Int, row: Int) {
        self.level = level
        self.column = column
        self.row = row
    }

    package var description: String { "L\(level)[\(column),\(row)]" }
}

/// The tile grids of a `CATiledLayer`: where each tile lies in the layer, at what resolution it is drawn,
/// and which level of detail an on-screen scale needs.
///
/// Grids are anchored at the layer's coordinate origin (not the bounds' origin, so scrolling by moving
/// `bounds.origin` keeps every tile), and a tile is cut to the bounds. At level `L` a tile is
/// `tileSize` pixels drawn at `contentsScale × 2^−L` pixels per point, so it covers
/// `tileSize / (contentsScale × 2^−L)` points: each coarser level's tile covers exactly 2 × 2 tiles of
/// the level below it.
///
/// Levels, as Apple documents them: `levelsOfDetail` levels of full and reduced detail (0, 1, …,
/// levelsOfDetail − 1; the coarsest is clamped so that the whole layer still has at least one pixel a
/// side) and `levelsOfDetailBias` magnified levels (−1 … −levelsOfDetailBias, at 2×, 4×, …). The level
/// chosen for an on-screen scale `s` (pixels per point) is the coarsest one whose resolution is at least
/// `s`, clamped to that range: `floor(log2(contentsScale / s))`.
/// Cost: O(1) per question; `keys(covering:)` is O(tiles returned).
package struct TileGrid: Equatable, Sendable {
    /// Pixels per tile side (width, height), at least 1.
    package var tileWidth: CGFloat
    package var tileHeight: CGFloat
    package var contentsScale: CGFloat
    package var bounds: CGRect
    /// The finest level (−levelsOfDetailBias) and the coarsest (levelsOfDetail − 1, clamped).
    package var finestLevel: Int
    package var coarsestLevel: Int

    /// A grid for the given (already validated: positive, finite) properties.
    package init(tileSize: CGSize, contentsScale: CGFloat, bounds: CGRect, levelsOfDetail: Int, levelsOfDetailBias: Int) {
        tileWidth = max(1, tileSize.width)
        tileHeight = max(1, tileSize.height)
        self.contentsScale = contentsScale
        self.bounds = bounds
        finestLevel = -max(0, levelsOfDetailBias)
        // The bottom level must keep at least one pixel in each dimension (and no level past 2^−64 can).
        var coarsest = min(max(1, levelsOfDetail), 65) - 1
        let smallerSide = min(bounds.width, bounds.height) * contentsScale
        while coarsest > 0 && smallerSide * Self.resolutionFactor(coarsest) < 1 { coarsest -= 1 }
        coarsestLevel = max(coarsest, 0)
    }

    /// `2^−level`: the resolution of `level` relative to level 0.
    package static func resolutionFactor(_ level: Int) -> CGFloat {
        CGFloat(scalbn(1.0, -level))
    }

    /// Pixels per point at which `level` is drawn.
    package func pixelsPerPoint(atLevel level: Int) -> CGFloat {
        contentsScale * Self.resolutionFactor(level)
    }

    /// The level for content shown at `scale` pixels per point (see the type's doc comment).
    package func level(forScreenScale scale: CGFloat) -> Int {
        guard scale.isFinite, scale > 0 else { return coarsestLevel }
        let exact = log2(Double(contentsScale / scale))
        // A scale a rounding error above a level's resolution still takes that level.
        let level = Int((exact + 1e-9).rounded(.down))
        return min(max(level, finestLevel), coarsestLevel)
    }

    /// The size in points of a whole tile at `level`.
    package func tileSizeInPoints(atLevel level: Int) -> CGSize {
        let density = pixelsPerPoint(atLevel: level)
        return CGSize(width: tileWidth / density, height: tileHeight / density)
    }

    /// The rectangle tile `key` covers, cut to the bounds (empty when it lies outside them).
    package func rect(of key: TileKey) -> CGRect {
        let size = tileSizeInPoints(atLevel: key.level)
        let whole = CGRect(x: CGFloat(key.column) * size.width, y: CGFloat(key.row) * size.height, width: size.width, height: size.height)
        let cut = whole.intersection(bounds)
        return cut.isNull ? .zero : cut
    }

    /// The pixel size of tile `key`'s image: its rect at its level's resolution, rounded up.
    package func pixelSize(of key: TileKey) -> (width: Int, height: Int) {
        let rect = rect(of: key)
        let density = pixelsPerPoint(atLevel: key.level)
        let w = (rect.width * density - 1e-6).rounded(.up), h = (rect.height * density - 1e-6).rounded(.up)
        return (max(1, Int(w)), max(1, Int(h)))
    }

    /// The columns and rows of the tiles at `level` that overlap `rect` (cut to the bounds) with a
    /// positive area; nil when there are none.
    package func range(covering rect: CGRect, atLevel level: Int) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>)? {
        let cut = rect.intersection(bounds)
        guard !cut.isNull, cut.width > 0, cut.height > 0 else { return nil }
        let size = tileSizeInPoints(atLevel: level)
        func span(_ low: CGFloat, _ high: CGFloat, _ step: CGFloat) -> ClosedRange<Int>? {
            let first = (low / step + 1e-9).rounded(.down), last = (high / step - 1e-9).rounded(.up) - 1
            guard first.isFinite, last.isFinite, abs(first) < 1e15, abs(last) < 1e15, last >= first else { return nil }
            return Int(first)...Int(last)
        }
        guard let columns = span(cut.minX, cut.maxX, size.width), let rows = span(cut.minY, cut.maxY, size.height) else { return nil }
        return (columns, rows)
    }

    /// The number of tiles at `level` overlapping `rect`.
    package func count(covering rect: CGRect, atLevel level: Int) -> Int {
        guard let (columns, rows) = range(covering: rect, atLevel: level) else { return 0 }
        let (c, r) = (columns.count, rows.count)
        return c > Int.max / max(r, 1) ? Int.max : c * r
    }

    /// The tiles at `level` overlapping `rect`, nearest `rect`'s centre first, at most `limit` of them
    /// (the ones nearest the centre). Cost: O(returned tiles), never O(tiles in the layer).
    package func keys(covering rect: CGRect, atLevel level: Int, limit: Int = .max) -> [TileKey] {
        guard limit > 0, var (columns, rows) = range(covering: rect, atLevel: level) else { return [] }
        let size = tileSizeInPoints(atLevel: level)
        let centre = (x: rect.intersection(bounds).midX / size.width - 0.5, y: rect.intersection(bounds).midY / size.height - 0.5)
        if columns.count > limit || rows.count > limit || columns.count * rows.count > limit {
            // Only a window around the centre can be returned: one that holds at least `limit` tiles, about
            // √limit a side unless one axis is shorter than that.
            let side = Int(Double(limit).squareRoot().rounded(.up)) + 1
            var (width, height) = (side, side)
            if rows.count < side {
                (width, height) = (limit / rows.count + 1, rows.count)
            } else if columns.count < side {
                (width, height) = (columns.count, limit / columns.count + 1)
            }
            func window(_ range: ClosedRange<Int>, _ length: Int, around middle: Double) -> ClosedRange<Int> {
                guard range.count > length else { return range }
                let low = min(max(Int(middle.rounded()) - length / 2, range.lowerBound), range.upperBound - length + 1)
                return low...(low + length - 1)
            }
            columns = window(columns, width, around: centre.x)
            rows = window(rows, height, around: centre.y)
        }
        var keys: [TileKey] = []
        keys.reserveCapacity(columns.count * rows.count)
        for row in rows {
            for column in columns { keys.append(TileKey(level: level, column: column, row: row)) }
        }
        keys.sort { a, b in
            let da = (Double(a.column) - centre.x) * (Double(a.column) - centre.x) + (Double(a.row) - centre.y) * (Double(a.row) - centre.y)
            let db = (Double(b.column) - centre.x) * (Double(b.column) - centre.x) + (Double(b.row) - centre.y) * (Double(b.row) - centre.y)
            return da != db ? da < db : (a.row, a.column) < (b.row, b.column)
        }
        return Array(keys.prefix(limit))
    }
}
