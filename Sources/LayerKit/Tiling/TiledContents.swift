import Foundation

/// The tiles a `CATiledLayer` shows, as its commit carries them to the render server: an immutable,
/// `Sendable` value.
///
/// The model side (`TiledLayerState`) decides which drawn tiles are worth showing — the tiles of the
/// level the current scale needs (`targetLevel`) that are drawn, plus drawn tiles of other levels that
/// overlap visible places whose target tiles are missing or still fading in — and sends them whenever
/// that list changes. The render side decides, frame by frame, which of them to draw and how opaque:
/// each tile fades in over `fadeDuration` from the first frame that shows it, and a tile of another
/// level is drawn only while some target tile it overlaps is missing or not yet fully faded in, so a
/// coarse tile stays until the finer ones over it are complete (no flash to empty).
///
/// Carried as a subclass property (`propertyKey`) through the commit's usual path, so a render tree
/// built from a snapshot receives it too.
package struct TiledContents: Sendable, Equatable {
    /// The key the value travels under in the layer's storage and in `CustomPropertyValues`.
    package static let propertyKey = "LayerKit.tiledContents"

    /// One drawn tile.
    package struct Tile: Sendable, Equatable {
        package var key: TileKey
        /// The area it covers, in the layer's coordinates (cut to the bounds).
        package var rect: CGRect
        /// Its pixels; nil when the drawing left the tile empty (it still counts as drawn).
        package var image: CGImage?
        /// Unique per drawing of a tile: the render side times each drawing's fade by it.
        package var serial: UInt64

        package init(key: TileKey, rect: CGRect, image: CGImage?, serial: UInt64) {
            self.key = key
            self.rect = rect
            self.image = image
            self.serial = serial
        }

        package static func == (lhs: Tile, rhs: Tile) -> Bool {
            lhs.key == rhs.key && lhs.rect == rhs.rect && lhs.serial == rhs.serial && lhs.image === rhs.image
        }
    }

    /// The grid the tiles were cut from (tile sizes, levels).
    package var grid: TileGrid
    /// The level the current on-screen scale needs.
    package var targetLevel: Int
    /// Seconds over which a newly drawn tile fades in (`CATiledLayer.fadeDuration()`).
    package var fadeDuration: Double
    /// The part of the layer on screen when the tiles were chosen, in its coordinates (null: none).
    package var visibleRect: CGRect
    /// Coarsest level first, the target level last, so finer detail draws over coarser.
    package var tiles: [Tile]

    package init(grid: TileGrid, targetLevel: Int, fadeDuration: Double, visibleRect: CGRect, tiles: [Tile]) {
        self.grid = grid
        self.targetLevel = targetLevel
        self.fadeDuration = fadeDuration
        self.visibleRect = visibleRect
        self.tiles = tiles
    }
}
