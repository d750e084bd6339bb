/// Packs small images into shared texture pages, so draws of different images can share a batch.
///
/// Input: the images of a frame's textured draws (`placement(for:)`), frame by frame (`beginFrame()`).
/// Output: for each image at most `maxImageSide` texels a side, an `AtlasPlacement` — a page and the
/// rect of its texels there — kept across frames; the backend uploads a placement once, when a graph
/// first lists it (`RenderGraph.atlasPlacements`), into the page's texture.
/// Layout: every placement has a one-texel gutter repeating its edge texels (the backend fills it), and
/// draws clamp their texture coordinates to the centres of the edge texels (`LayerInstance.uvClamp`), so
/// nearest and linear filtering read exactly what a texture of the image alone would give with
/// clamp-to-edge. Mipmapped (trilinear) draws are not atlased. Pages are `pageSize` texels square, at
/// most `maxPages`; when they are full an image stays a texture of its own.
/// Partial redraws: an image that redraws part of an image placed before (`CGImage.partialUpdate`) whose
/// image is gone takes over that placement's rect, with the region it changed (`AtlasPlacement.update`).
/// Lifetime: an image is found by identity (as uploads are); a placement whose image has been
/// deallocated, or that no frame has used for `evictAfterFrames` frames, is freed (checked every 32
/// frames). Only the render thread uses an atlas. Cost: O(1) per lookup, O(pages × shelves) per new
/// placement, O(placements) per sweep.
package final class ImageAtlas: @unchecked Sendable {
    package let pageSize: Int
    package let maxPages: Int
    package let maxImageSide: Int
    package let evictAfterFrames: Int

    private var pages: [AtlasAllocator] = []
    private var entries: [ObjectIdentifier: Entry] = [:]
    private var frame = 0
    private var nextSerial = 0
    /// Placements freed since the last `takeFreedPlacements()`: the backend forgets their uploads.
    private var freed: [FreedAtlasPlacement] = []

    /// A placement, holding its image's lifetime, not the image (the atlas never keeps an image alive).
    private struct Entry {
        let image: ImageLifetime
        var page: AtlasPageID
        var serial: Int
        var rect: PixelRect
        var allocationID: Int
        var lastUsedFrame: Int
        /// For an image that is a partial redraw of the placement's previous image: what the backend may
        /// copy instead of the whole image.
        var update: AtlasPlacement.Update? = nil
    }

    package init(pageSize: Int = 1024, maxPages: Int = 8, maxImageSide: Int = 256, evictAfterFrames: Int = 120) {
        precondition(pageSize >= 3, "an atlas page holds at least one texel and its gutter")
        self.pageSize = pageSize
        self.maxPages = maxPages
        // An image and its gutter fit in a page.
        self.maxImageSide = min(maxImageSide, pageSize - 2)
        self.evictAfterFrames = evictAfterFrames
    }

    /// Pages in use (each `pageSize`² texels).
    package var pageCount: Int { pages.count }

    /// Images placed now.
    package var placementCount: Int { entries.count }

    /// Starts a frame: placements unused for too long, or whose image is gone, are freed.
    package func beginFrame() {
        frame += 1
        guard frame % 32 == 0 else { return }
        for (key, entry) in entries where !entry.image.isAlive || frame - entry.lastUsedFrame > evictAfterFrames {
            pages[entry.page.rawValue].deallocate(entry.allocationID)
            freed.append(FreedAtlasPlacement(page: entry.page, serial: entry.serial))
            entries[key] = nil
        }
    }

    /// The placements freed since the last call (evicted, or their image gone), for the graph to carry to
    /// the backend (`RenderGraph.freedAtlasPlacements`), which then forgets their uploads.
    package func takeFreedPlacements() -> [FreedAtlasPlacement] {
        defer { freed = [] }
        return freed
    }

    /// Whether `image` drawn with these filters may live in the atlas.
    package func accepts(_ image: CGImage, minification: TextureFilter, magnification: TextureFilter) -> Bool {
        image.width <= maxImageSide && image.height <= maxImageSide && minification != .trilinear && magnification != .trilinear
    }

    /// The placement of `image`, making one when it has none; nil when the pages are full.
    package func placement(for image: CGImage) -> AtlasPlacement? {
        let key = ObjectIdentifier(image)
        if var entry = entries[key] {
            if entry.image === image.lifetime {
                entry.lastUsedFrame = frame
                entries[key] = entry
                return AtlasPlacement(page: entry.page, serial: entry.serial, image: image, rect: entry.rect, pageSize: pageSize,
                                      update: entry.update)
            }
            // An image deallocated since; its identifier was reused.
            pages[entry.page.rawValue].deallocate(entry.allocationID)
            freed.append(FreedAtlasPlacement(page: entry.page, serial: entry.serial))
            entries[key] = nil
        }
        guard image.width <= maxImageSide, image.height <= maxImageSide else { return nil }
        if let update = image.partialUpdate, let base = entries[update.base], !base.image.isAlive,
           base.rect.width == image.width, base.rect.height == image.height {
            // A partial redraw of an image that is gone: take over its rect, so only the region changes.
            entries[update.base] = nil
            let region = PixelRect(x: update.x, y: update.y, width: update.width, height: update.height)
            let change = AtlasPlacement.Update(previousSerial: base.serial, region: region)
            let placement = AtlasPlacement(page: base.page, serial: nextSerial, image: image, rect: base.rect, pageSize: pageSize, update: change)
            nextSerial += 1
            entries[key] = Entry(image: image.lifetime, page: base.page, serial: placement.serial, rect: base.rect, allocationID: base.allocationID,
                                 lastUsedFrame: frame, update: change)
            return placement
        }
        for index in 0..<maxPages {
            if index == pages.count { pages.append(AtlasAllocator(width: pageSize, height: pageSize)) }
            guard let allocation = pages[index].allocate(width: image.width + 2, height: image.height + 2) else { continue }
            let inner = PixelRect(x: allocation.rect.minX + 1, y: allocation.rect.minY + 1, width: image.width, height: image.height)
            let placement = AtlasPlacement(page: AtlasPageID(index), serial: nextSerial, image: image, rect: inner, pageSize: pageSize)
            nextSerial += 1
            entries[key] = Entry(image: image.lifetime, page: placement.page, serial: placement.serial, rect: inner, allocationID: allocation.id,
                                 lastUsedFrame: frame)
            return placement
        }
        return nil
    }

    /// Makes `item`, which draws an image, draw it from its placement (`AtlasPlacement.texels`): the
    /// texture becomes the page, uv are remapped into the placement and clamped to its edge texels'
    /// centres. In place: a copy of the item would retain its texture and gradient. By the texels alone: a
    /// compile remaps every atlas-bound draw, and a copy of the placement retained and released its image
    /// per draw.
    static func remap(_ item: inout DrawItem, to texels: AtlasPlacement.Texels) {
        guard item.texture != nil else { return }
        let page = Float(texels.pageSize), rect = texels.rect
        let origin = SIMD2<Float>(Float(rect.minX), Float(rect.minY))
        let size = SIMD2<Float>(Float(rect.width), Float(rect.height))
        let uv = item.instance.uv
        let start = (origin + SIMD2(uv.x, uv.y) * size) / page
        let end = (origin + SIMD2(uv.z, uv.w) * size) / page
        item.instance.uv = SIMD4(start.x, start.y, end.x, end.y)
        item.instance.uvClamp = SIMD4((origin.x + 0.5) / page, (origin.y + 0.5) / page,
                                      (origin.x + size.x - 0.5) / page, (origin.y + size.y - 0.5) / page)
        item.instance.flags.insert(.clampUV)
        item.texture?.sampleAtlasPage(texels.page)
    }
}

/// A placement an `ImageAtlas` freed: its texels are no longer any image's.
package struct FreedAtlasPlacement: Hashable, Sendable {
    package var page: AtlasPageID
    package var serial: Int
}

/// Names one page of an `ImageAtlas`.
package struct AtlasPageID: Hashable, Sendable, Comparable, CustomStringConvertible {
    package var rawValue: Int

    package init(_ rawValue: Int) {
        self.rawValue = rawValue
    }

    package static func < (lhs: AtlasPageID, rhs: AtlasPageID) -> Bool { lhs.rawValue < rhs.rawValue }

    package var description: String { "atlas page \(rawValue)" }
}

/// Where an image lives in an atlas: its page and the rect of its texels there (the one-texel gutter
/// around it excluded). `serial` is unique for the atlas's life, so a backend knows a placement it has
/// uploaded even when a freed rect is handed to another image.
package struct AtlasPlacement: Sendable {
    package var page: AtlasPageID
    package var serial: Int
    package var image: CGImage
    package var rect: PixelRect
    /// The page's side in texels.
    package var pageSize: Int
    /// Set when the image is a partial redraw (`CGImage.partialUpdate`) of the image placed here before:
    /// a backend holding that placement's texels may copy only the region.
    package var update: Update?

    /// Where the placement's texels lie, without the image: what a draw is remapped by.
    struct Texels {
        let page: AtlasPageID
        let rect: PixelRect
        let pageSize: Int
    }

    var texels: Texels { Texels(page: page, rect: rect, pageSize: pageSize) }

    package init(page: AtlasPageID, serial: Int, image: CGImage, rect: PixelRect, pageSize: Int, update: Update? = nil) {
        self.page = page
        self.serial = serial
        self.image = image
        self.rect = rect
        self.pageSize = pageSize
        self.update = update
    }

    /// What changed from the placement's previous image.
    package struct Update: Sendable, Equatable {
        /// The serial the same rect had with the previous image.
        package var previousSerial: Int
        /// The redrawn texels, in the image's pixels.
        package var region: PixelRect
    }
}
