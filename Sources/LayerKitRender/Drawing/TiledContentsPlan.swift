import LayerKit

/// Which tiles of a tiled layer a frame draws, where, and how opaque.
///
/// Input: the layer's committed `TiledContents`, the frame's time, the fade clock (`TileFades`).
/// Output: one draw per tile image shown, in the committed order (coarsest first, the target level
/// last): its rect in the layer, the part of its image that covers the rect (a tile's image is its rect
/// at its level's resolution rounded up to whole pixels), and its opacity (its fade). And whether any
/// drawn tile is still fading in, so the host keeps rendering frames until it is done.
/// Rules: a tile of the target level is always drawn (once its fade has begun). A tile of another level
/// stands in for missing detail: it is drawn only while some target-level place it overlaps inside the
/// visible region is not settled — not drawn yet, or still fading in (an empty tile settles at once).
/// So a coarse tile stays under the finer ones until every one of them is fully in. Tiles with no image
/// draw nothing. Cost: O(tiles + visible target places); a stand-in covering more than 4,096 target
/// places is drawn without checking them.
package enum TiledContentsPlan {
    package struct Draw: Equatable {
        package var rect: CGRect
        package var image: CGImage
        /// Texture coordinates (0…1 over the image) of the rect's corners.
        package var uv: CGRect
        package var opacity: Double

        package static func == (lhs: Draw, rhs: Draw) -> Bool {
            lhs.rect == rhs.rect && lhs.image === rhs.image && lhs.uv == rhs.uv && lhs.opacity == rhs.opacity
        }
    }

    private static let maximumCheckedPlaces = 4_096

    package static func draws(of contents: TiledContents, at time: Double, fades: TileFades) -> (draws: [Draw], isFading: Bool) {
        let grid = contents.grid
        let target = contents.targetLevel
        var isFading = false
        var opacities: [UInt64: Double] = [:]
        var settled = Set<TileKey>()
        for tile in contents.tiles where tile.key.level == target {
            guard tile.image != nil else {
                settled.insert(tile.key)
                continue
            }
            let opacity = fades.opacity(of: tile.serial, at: time, fadeDuration: contents.fadeDuration)
            opacities[tile.serial] = opacity
            if opacity >= 1 { settled.insert(tile.key) } else { isFading = true }
        }
        /// Whether every target-level place overlapping `rect` is settled.
        func isSettled(_ rect: CGRect) -> Bool {
            guard let (columns, rows) = grid.range(covering: rect.intersection(contents.visibleRect), atLevel: target) else { return true }
            guard columns.count * rows.count <= maximumCheckedPlaces else { return false }
            for row in rows {
                for column in columns where !settled.contains(TileKey(level: target, column: column, row: row)) { return false }
            }
            return true
        }
        let everythingSettled = contents.visibleRect.isNull || isSettled(contents.visibleRect)

        var draws: [Draw] = []
        draws.reserveCapacity(contents.tiles.count)
        for tile in contents.tiles {
            guard let image = tile.image else { continue }
            let opacity: Double
            if tile.key.level == target {
                opacity = opacities[tile.serial] ?? 1
            } else {
                guard !everythingSettled, !isSettled(tile.rect) else { continue }
                opacity = fades.opacity(of: tile.serial, at: time, fadeDuration: contents.fadeDuration)
                if opacity < 1 { isFading = true }
            }
            guard opacity > 0 else { continue }
            let density = grid.pixelsPerPoint(atLevel: tile.key.level)
            let uv = CGRect(x: 0, y: 0, width: tile.rect.width * density / CGFloat(image.width),
                            height: tile.rect.height * density / CGFloat(image.height))
            draws.append(Draw(rect: tile.rect, image: image, uv: uv, opacity: opacity))
        }
        return (draws, isFading)
    }
}

extension RenderNode {
    /// The tiles a tiled layer shows, as last committed; nil for other layers.
    package var tiledContents: TiledContents? {
        guard case .discrete(let value)? = customProperties[TiledContents.propertyKey] else { return nil }
        return value.value as? TiledContents
    }
}
