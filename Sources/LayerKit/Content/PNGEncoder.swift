import CPNG
import Foundation

/// `CGImage` → PNG bytes.
///
/// Input: a `CGImage` (premultiplied RGBA8). Output: an 8-bit PNG, RGB when every pixel is opaque,
/// else RGBA with straight (un-premultiplied) alpha as PNG requires; non-interlaced; tagged sRGB by
/// libpng.
///
/// Algorithm: un-premultiply into a packed buffer (`round(c * 255 / a)`, clamped; color 0 where
/// `a == 0`), then one `png_image_write_to_memory` call into a buffer sized for incompressible data.
/// libpng reports the exact size when a buffer is too small, so a second call covers the rest.
///
/// Un-premultiplying then premultiplying again returns every valid premultiplied pixel (`c <= a`)
/// exactly: with `u = c * 255 / a + e`, `|e| <= 1/2`, re-premultiplying gives `c + e * a / 255`, within
/// 1/2 of `c` (strictly, as `e = 0` when `a = 255`), which rounds back to `c`. So decode(encode(image))
/// is the identity on pixels.
///
/// Cost: one pass over the pixels; libpng's filter and deflate; peak memory about twice the packed
/// image.
///
/// Does not: write 16-bit, palette or interlaced PNGs, or metadata chunks beyond what libpng adds.
enum PNGEncoder {
    /// Packed straight samples: RGB (3 bytes a pixel) when `hasAlpha` is false, else RGBA.
    struct StraightSamples {
        var bytes: [UInt8]
        var hasAlpha: Bool
    }

    /// `initialCapacity` replaces the estimate below, so tests can force the second call.
    static func encode(_ image: CGImage, initialCapacity: Int? = nil) -> Data {
        precondition(image.width <= Int(PNG_USER_WIDTH_MAX) && image.height <= Int(PNG_USER_HEIGHT_MAX),
                     "pngData(): a \(image.width) x \(image.height) image is over libpng's limit of "
                     + "\(PNG_USER_WIDTH_MAX) x \(PNG_USER_HEIGHT_MAX) pixels")
        let samples = straightSamples(of: image)

        // Incompressible input: deflate adds 5 bytes per stored block of up to 64 KiB, libpng 12 bytes
        // of framing per IDAT chunk of 8 KiB, one filter byte per row, and a few header chunks.
        var capacity = initialCapacity ?? samples.bytes.count + samples.bytes.count / 256 + image.height + 1024
        var message = ""
        for _ in 0..<2 {
            var png = png_image()
            png.version = png_uint_32(PNG_IMAGE_VERSION)
            png.width = png_uint_32(image.width)
            png.height = png_uint_32(image.height)
            png.format = samples.hasAlpha ? PNGDecoder.libpngFormatRGBA : png_uint_32(PNG_FORMAT_RGB)
            defer { png_image_free(&png) }

            var output = Data(count: capacity)
            var size = capacity
            let written = output.withUnsafeMutableBytes { out in
                samples.bytes.withUnsafeBytes { pixels in
                    png_image_write_to_memory(&png, out.baseAddress, &size, 0, pixels.baseAddress, 0, nil)
                }
            }
            if written != 0 {
                output.count = size
                return output
            }
            message = withUnsafeBytes(of: png.message) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            // libpng leaves `size` alone on real errors and raises it when only the buffer was too small.
            guard size > capacity else { break }
            capacity = size
        }
        // Only allocation failure gets here: the sizes were checked above and the formats are fixed.
        preconditionFailure("pngData(): libpng could not encode a \(image.width) x \(image.height) image: \(message)")
    }

    /// Packs the image as PNG wants it: straight alpha, rows without padding. Opaque images (declared
    /// `.noneSkipLast`, or every alpha 255) drop the alpha channel.
    static func straightSamples(of image: CGImage) -> StraightSamples {
        let width = image.width, height = image.height, stride = image.bytesPerRow
        return image.pixelData.withUnsafeBufferPointer { source in
            var opaque = image.alphaInfo == .noneSkipLast
            if !opaque {
                opaque = true
                rows: for y in 0..<height {
                    for x in 0..<width where source[y * stride + x * 4 + 3] != 255 {
                        opaque = false
                        break rows
                    }
                }
            }
            let channels = opaque ? 3 : 4
            var bytes = [UInt8](repeating: 0, count: width * height * channels)
            bytes.withUnsafeMutableBufferPointer { out in
                var o = 0
                for y in 0..<height {
                    var s = y * stride
                    for _ in 0..<width {
                        if opaque {
                            out[o] = source[s]; out[o + 1] = source[s + 1]; out[o + 2] = source[s + 2]
                        } else {
                            let a = source[s + 3]
                            out[o] = unpremultiply(source[s], by: a)
                            out[o + 1] = unpremultiply(source[s + 1], by: a)
                            out[o + 2] = unpremultiply(source[s + 2], by: a)
                            out[o + 3] = a
                        }
                        o += channels
                        s += 4
                    }
                }
            }
            return StraightSamples(bytes: bytes, hasAlpha: !opaque)
        }
    }

    /// `round(c * 255 / a)` (halves up), clamped to 255 for invalid input `c > a`; 0 when `a == 0`.
    @inline(__always)
    static func unpremultiply(_ c: UInt8, by a: UInt8) -> UInt8 {
        guard a != 0 else { return 0 }
        guard a != 255 else { return c }
        return UInt8(min(255, (UInt32(c) * 255 + UInt32(a) / 2) / UInt32(a)))
    }
}
