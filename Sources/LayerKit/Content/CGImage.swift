import Foundation

/// How a `CGImage` stores alpha. LayerKit keeps every image as 8-bit RGBA with premultiplied alpha;
/// opaque images say so, which lets the renderer treat them as occluders.
public enum CGImageAlphaInfo: Sendable, Equatable {
    /// RGBA, alpha premultiplied into the color channels.
    case premultipliedLast
    /// RGBX: every pixel is opaque; the fourth byte is 255.
    case noneSkipLast
}

/// An immutable bitmap image: 8 bits per component, RGBA, premultiplied alpha, top row first.
///
/// Created from raw pixels (`init(width:height:bytesPerRow:premultipliedRGBA:alphaInfo:)`) or from PNG
/// data (`init(pngData:)`, see `CGImage+PNG.swift`). The same instance shown by many layers is uploaded to
/// the GPU once: identity is the image object itself.
public final class CGImage: Sendable {
    public let width: Int
    public let height: Int
    public let bytesPerRow: Int
    public let alphaInfo: CGImageAlphaInfo
    public var bitsPerComponent: Int { 8 }
    public var bitsPerPixel: Int { 32 }
    /// Premultiplied RGBA8 rows, `bytesPerRow` apart, top row first. Never mutated after init.
    package let pixelData: [UInt8]
    /// Set on an image made by redrawing part of another (`setNeedsDisplay(_:)`): the image it started
    /// from and the only pixels that differ, so the renderer can update that image's texture in place
    /// (`CGImage+PartialUpdate.swift`). Nil for every other image.
    package let partialUpdate: PartialImageUpdate?
    /// Ends when the image is deallocated: what caches that must not keep it alive hold (`ImageLifetime`).
    package let lifetime = ImageLifetime()

    /// Creates an image from premultiplied RGBA8 pixels. Returns nil when the sizes are not positive or
    /// the buffer is too small for `height` rows of `bytesPerRow` bytes.
    public init?(width: Int, height: Int, bytesPerRow: Int, premultipliedRGBA: [UInt8], alphaInfo: CGImageAlphaInfo = .premultipliedLast) {
        guard width > 0, height > 0, bytesPerRow >= width * 4, premultipliedRGBA.count >= bytesPerRow * (height - 1) + width * 4 else {
            return nil
        }
        self.width = width
        self.height = height
        self.bytesPerRow = bytesPerRow
        self.alphaInfo = alphaInfo
        self.pixelData = premultipliedRGBA
        self.partialUpdate = nil
    }

    /// `image`'s pixels, recorded as `base` with only `update`'s region changed (see `partialUpdate`).
    package init(_ image: CGImage, updating update: PartialImageUpdate) {
        width = image.width
        height = image.height
        bytesPerRow = image.bytesPerRow
        alphaInfo = image.alphaInfo
        pixelData = image.pixelData
        partialUpdate = update
    }

    deinit {
        lifetime.end()
    }

    /// Whether every pixel is opaque (`alphaInfo == .noneSkipLast`).
    public var isOpaque: Bool { alphaInfo == .noneSkipLast }

    /// The premultiplied RGBA of the pixel at column `x`, row `y` (row 0 is the top).
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)x\(height) image")
        let offset = y * bytesPerRow + x * 4
        return (pixelData[offset], pixelData[offset + 1], pixelData[offset + 2], pixelData[offset + 3])
    }
}
