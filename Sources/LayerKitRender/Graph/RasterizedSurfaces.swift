/// Names one entry of the rasterization cache: the bitmap of one `shouldRasterize` layer. Stable across
/// frames (unlike `SurfaceID`), so the backend keeps the entry's image from frame to frame.
package struct RasterizationEntryID: Hashable, Sendable, CustomStringConvertible {
    package var layer: LayerID

    package init(layer: LayerID) {
        self.layer = layer
    }

    package var description: String { "rasterized layer \(layer.rawValue)" }
}

/// A surface of this frame that is, or becomes, a rasterization cache entry, and the entry's size in
/// pixels.
package struct RasterizedSurface: Hashable, Sendable {
    package var entry: RasterizationEntryID
    package var width: Int
    package var height: Int

    package init(entry: RasterizationEntryID, width: Int, height: Int) {
        self.entry = entry
        self.width = width
        self.height = height
    }
}

/// How a frame uses the rasterization cache, for the backend that holds the entries' images.
///
/// - `rendered`: surfaces a pass of this graph draws (reason `rasterize`) that the backend keeps as the
///   named entry afterwards, replacing the entry's previous image.
/// - `reused`: surfaces the graph samples without drawing them: the entry's image from an earlier frame.
/// - `uncached`: surfaces drawn for rasterized layers this frame but not kept (the cache's byte bound
///   left no room); ordinary surfaces otherwise.
/// - `released`: entries the cache dropped; the backend frees their images.
/// Hits are `reused.count`, misses `rendered.count + uncached.count`.
package struct RasterizedSurfaces: Sendable, Equatable {
    package var rendered: [SurfaceID: RasterizedSurface] = [:]
    package var reused: [SurfaceID: RasterizedSurface] = [:]
    package var uncached = Set<SurfaceID>()
    package var released: [RasterizationEntryID] = []

    package init() {}

    package var isEmpty: Bool { rendered.isEmpty && reused.isEmpty && uncached.isEmpty && released.isEmpty }

    /// Whether `surface` was drawn this frame for a rasterized layer (a cache miss).
    package func isMiss(_ surface: SurfaceID) -> Bool { rendered[surface] != nil || uncached.contains(surface) }
}
