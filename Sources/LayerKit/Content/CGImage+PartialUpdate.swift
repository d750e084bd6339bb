import Foundation

/// What a partial redraw changed: an image is another one with only a rectangle of pixels redrawn.
///
/// Made by the display pass when `setNeedsDisplay(_:)` redraws part of a backing store
/// (`BackingStoreDrawing`): the new image records the image it started from and the region it redrew, in
/// pixels. The record travels with the image through the commit (`contents`), the render node and the
/// draw item's texture binding to the backend's uploader, which — when the old image's texture is still
/// resident and nothing can show the old image any more (it has been deallocated) — copies only the region
/// into that texture and lets it stand for the new image. Anywhere else the image is an ordinary image.
/// The base is held by identity only, so the record never keeps an old backing store alive.
package struct PartialImageUpdate: Sendable, Equatable {
    /// The image the redraw started from, by identity (compared only while its texture is resident).
    package let base: ObjectIdentifier
    /// The redrawn pixels: columns x..<x + width, rows y..<y + height (row 0 the top).
    package let x: Int
    package let y: Int
    package let width: Int
    package let height: Int

    package init(base: CGImage, x: Int, y: Int, width: Int, height: Int) {
        self.base = ObjectIdentifier(base)
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
