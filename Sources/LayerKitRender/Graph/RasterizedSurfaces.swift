/// Names one entry of the rasterization cache: the bitmap of one `shouldRasterize` layer or cached
/// group, or a shared page such bitmaps are packed into (`RasterizationCache+Pages.swift`). Stable
/// across frames (unlike `SurfaceID`), so the backend keeps the entry's image from frame to frame.
package struct RasterizationEntryID: Hashable, Sendable, CustomStringConvertible {
    private enum Key: Hashable, Sendable {
        case layer(LayerID)
        case page(Int)
    }

    private let key: Key

    /// The bitmap of the layer `layer`.
    package init(layer: LayerID) {
        key = .layer(layer)
    }

    /// The shared cache page numbered `page`.
    package static func page(_ page: Int) -> RasterizationEntryID { RasterizationEntryID(key: .page(page)) }

    private init(key: Key) {
        self.key = key
    }

    /// The page's number, for a shared cache page.
    package var page: Int? {
        if case let .page(page) = key { return page }
        return nil
    }

    package var description: String {
        switch key {
        case let .layer(layer): "rasterized layer \(layer.rawValue)"
        case let .page(page): "rasterization cache page \(page)"
        }
    }
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
/// - `rendered`: surfaces a pass of this graph draws (reason `rasterize`, or `groupOpacity` for cached
///   groups) that the backend keeps as the named entry afterwards, replacing the entry's previous image.
/// - `reused`: surfaces the graph samples without drawing them: the entry's image from an earlier frame.
/// - `uncached`: surfaces drawn for rasterized layers this frame but not kept (the cache's byte bound
///   left no room); ordinary surfaces otherwise.
/// - `released`: entries the cache dropped; the backend frees their images.
/// Surfaces in `rendered` and `reused` may name a shared page (`RasterizationEntryID.page`): one
/// surface then stands for every bitmap on it, so hits and misses are counted per bitmap (`hits`,
/// `misses`), for `shouldRasterize` layers and cached groups alike.
package struct RasterizedSurfaces: Sendable, Equatable {
    package var rendered: [SurfaceID: RasterizedSurface] = [:]
    package var reused: [SurfaceID: RasterizedSurface] = [:]
    package var uncached = Set<SurfaceID>()
    package var released: [RasterizationEntryID] = []
    /// Cached bitmaps composited from an earlier frame's drawing.
    package var hits = 0
    /// Bitmaps drawn this frame for `shouldRasterize` layers and cached groups (missing, out of date,
    /// or not kept).
    package var misses = 0

    package init() {}

    package var isEmpty: Bool { rendered.isEmpty && reused.isEmpty && uncached.isEmpty && released.isEmpty }

    /// Whether `surface` was drawn this frame for a rasterized layer (a cache miss).
    package func isMiss(_ surface: SurfaceID) -> Bool { rendered[surface] != nil || uncached.contains(surface) }
}
