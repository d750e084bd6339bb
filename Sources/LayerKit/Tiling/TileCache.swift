import Foundation

/// One tiled layer's drawn tiles, bounded in bytes, evicted least recently used first.
///
/// Input: tiles as they are drawn (`insert`), the tiles each commit uses (`touch`), the invalidated
/// ones (`markStale`). Output: `evict(protecting:…)` drops tiles until the cache fits `byteLimit`: the
/// least recently used first; among tiles last used at the same commit, those at levels farthest from
/// the one in use, then those farthest from the visible region's centre. Tiles the current commit needs
/// are never evicted (the caller requests no more of them than fit). Cost: O(tiles) per insert-free
/// pass, O(tiles · log tiles) when it evicts; the cache never holds more than `byteLimit` bytes of
/// pixels after `evict`.
package struct TileCache {
    package struct Entry {
        /// The area the tile covers in the layer (cut to the bounds when it was drawn).
        package var rect: CGRect
        /// Nil when the drawing left the tile empty.
        package var image: CGImage?
        package var serial: UInt64
        /// The commit that last needed it.
        package var lastUsed: Int
        /// Invalidated: shown until its redrawing arrives, then replaced.
        package var isStale = false

        /// Pixel bytes; an empty tile counts a token amount, so the number of tiles is bounded too.
        package var bytes: Int { image.map { $0.bytesPerRow * $0.height } ?? 64 }
    }

    package private(set) var entries: [TileKey: Entry] = [:]
    /// Pixel bytes held.
    package private(set) var bytes = 0
    package var byteLimit: Int

    package init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    package subscript(key: TileKey) -> Entry? { entries[key] }

    package mutating func insert(_ entry: Entry, for key: TileKey) {
        remove(key)
        entries[key] = entry
        bytes += entry.bytes
    }

    package mutating func remove(_ key: TileKey) {
        guard let old = entries.removeValue(forKey: key) else { return }
        bytes -= old.bytes
    }

    package mutating func removeAll(where shouldRemove: (TileKey, Entry) -> Bool) {
        for (key, entry) in entries where shouldRemove(key, entry) { remove(key) }
    }

    package mutating func touch(_ key: TileKey, at tick: Int) {
        entries[key]?.lastUsed = tick
    }

    /// Marks the tiles overlapping `rect` (every tile when nil) as invalidated.
    package mutating func markStale(in rect: CGRect?) {
        for (key, entry) in entries where rect.map(entry.rect.intersects) ?? true {
            entries[key]?.isStale = true
        }
    }

    /// Evicts until the cache fits (see the type's contract); returns the evicted keys.
    @discardableResult
    package mutating func evict(protecting protected: Set<TileKey>, level: Int, centre: CGPoint) -> [TileKey] {
        guard bytes > byteLimit else { return [] }
        func distance(_ entry: Entry) -> CGFloat { hypot(entry.rect.midX - centre.x, entry.rect.midY - centre.y) }
        let candidates = entries.filter { !protected.contains($0.key) }.sorted { a, b in
            if a.value.lastUsed != b.value.lastUsed { return a.value.lastUsed < b.value.lastUsed }
            let la = abs(a.key.level - level), lb = abs(b.key.level - level)
            if la != lb { return la > lb }
            let da = distance(a.value), db = distance(b.value)
            if da != db { return da > db }
            // A total order, so eviction never depends on the dictionary's order.
            return (a.key.level, a.key.row, a.key.column) < (b.key.level, b.key.row, b.key.column)
        }
        var evicted: [TileKey] = []
        for (key, _) in candidates where bytes > byteLimit {
            remove(key)
            evicted.append(key)
        }
        return evicted
    }
}
