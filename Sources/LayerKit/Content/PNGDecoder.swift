import CPNG
import Foundation

/// PNG bytes → premultiplied RGBA8, the storage of `CGImage`.
///
/// Input: the bytes of a PNG file, any valid color type, bit depth and interlace method.
/// Output: width, height, premultiplied RGBA8 rows (top row first) and whether every pixel is opaque.
///
/// Algorithm:
/// 1. `scan` walks the chunk framing in Swift first: the signature, then every chunk's length and type
///    up to IEND, with IHDR checked (CRC, zero and oversized dimensions) before anything is allocated.
///    That is where `.emptyData`, `.notPNG`, `.truncated` and `.tooLarge` come from, with messages
///    libpng cannot give (libpng reports a short stream only as a failed read).
/// 2. libpng's simplified API (`png_image_begin_read_from_memory`, `png_image_finish_read`) decodes to
///    straight RGBA8. It catches its own errors internally (setjmp/longjmp never crosses a Swift frame)
///    and handles palette, tRNS, 1/2/4/16-bit samples and Adam7. Its failures become `.corrupt`.
///    Two of its defaults are overridden so the output is the file's sRGB-encoded samples as is:
///    16-bit samples are declared sRGB (`PNG_IMAGE_FLAG_16BIT_sRGB`; by default libpng treats them as
///    linear light and re-encodes), which makes 16 → 8 bits libpng's exact `round(v / 257)`; and gAMA
///    chunks are removed before libpng sees them, because Core Animation displays sRGB-encoded data
///    without gamma correction.
/// 3. Premultiply in place: `round(c * a / 255)`.
///
/// Cost: one pass over the chunk headers; one copy of the stream only when it has a gAMA chunk; libpng's
/// decode; one pass over the pixels.
///
/// Does not: honor gAMA, cHRM, sRGB or iCCP (no color management); decode APNG animation frames (only
/// the default image); keep text or other metadata.
enum PNGDecoder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// `PNG_FORMAT_RGBA`, which Swift does not import (a macro built from other macros).
    static let libpngFormatRGBA = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)

    struct DecodedImage {
        var width: Int
        var height: Int
        /// RGBA8, `width * 4` bytes a row, top row first: straight after step 2, premultiplied after 3.
        var rgba: [UInt8]
        var isOpaque: Bool
    }

    /// What `scan` learned from the chunk framing.
    struct Structure: Equatable {
        var width: Int
        var height: Int
        var bitDepth: Int
        /// Offset just past IEND. Bytes after it are ignored, as every PNG reader does.
        var end: Int
        /// Chunks removed before libpng reads the stream (gAMA, see the algorithm above).
        var droppedChunks: [Range<Int>]
    }

    static func decode(_ data: Data) throws -> DecodedImage {
        try data.withUnsafeBytes { bytes in
            let structure = try scan(bytes)
            var image: DecodedImage
            if structure.droppedChunks.isEmpty {
                image = try readStraightRGBA(UnsafeRawBufferPointer(rebasing: bytes[..<structure.end]), structure)
            } else {
                var kept = [UInt8]()
                kept.reserveCapacity(structure.end)
                var start = 0
                for dropped in structure.droppedChunks {
                    kept += bytes[start..<dropped.lowerBound]
                    start = dropped.upperBound
                }
                kept += bytes[start..<structure.end]
                image = try kept.withUnsafeBytes { try readStraightRGBA($0, structure) }
            }
            if !image.isOpaque {
                image.isOpaque = premultiplyInPlace(&image.rgba)
            }
            return image
        }
    }

    // MARK: - Step 1: chunk framing

    static func scan(_ bytes: UnsafeRawBufferPointer) throws -> Structure {
        guard !bytes.isEmpty else { throw CGImageError.emptyData }
        let signatureBytes = min(bytes.count, signature.count)
        guard bytes.prefix(signatureBytes).elementsEqual(signature.prefix(signatureBytes)) else {
            throw CGImageError.notPNG
        }
        guard bytes.count >= signature.count else {
            throw CGImageError.truncated(reason: "data ends inside the 8-byte PNG signature, after \(bytes.count) bytes")
        }

        var structure: Structure?
        var droppedChunks: [Range<Int>] = []
        var offset = signature.count
        while true {
            let remaining = bytes.count - offset
            guard remaining >= 8 else {
                let expected = structure == nil ? "the IHDR chunk" : "the IEND chunk"
                if remaining == 0 {
                    throw CGImageError.truncated(reason: "data ends after \(offset) bytes, before \(expected)")
                }
                throw CGImageError.truncated(reason: "data ends inside a chunk header at byte \(offset), before \(expected)")
            }
            let length = readUInt32(bytes, at: offset)
            let type = UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 8)])
            // PNG chunk types are four ASCII letters; anything else means we are reading garbage, and its
            // "length" would only produce a misleading "truncated".
            guard type.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw CGImageError.corrupt(reason: "invalid chunk type \(printable(type)) at byte \(offset + 4)")
            }
            let name = String(decoding: type, as: UTF8.self)
            if structure == nil && name != "IHDR" {
                throw CGImageError.corrupt(reason: "the first chunk is '\(name)'; a PNG stream must start with IHDR")
            }
            guard length <= Int(Int32.max) else {
                throw CGImageError.corrupt(reason: "chunk '\(name)' at byte \(offset) declares \(length) bytes, over PNG's limit of 2^31 - 1")
            }
            let chunkEnd = offset + 12 + length
            guard chunkEnd <= bytes.count else {
                throw CGImageError.truncated(reason: "data ends inside the '\(name)' chunk at byte \(offset): "
                    + "it needs \(12 + length) bytes, \(remaining) remain")
            }
            if structure == nil {
                structure = try readIHDR(UnsafeRawBufferPointer(rebasing: bytes[offset..<chunkEnd]))
            } else if name == "gAMA" {
                droppedChunks.append(offset..<chunkEnd)
            }
            offset = chunkEnd
            if name == "IEND" { break }
        }
        structure!.end = offset
        structure!.droppedChunks = droppedChunks
        return structure!
    }

    /// Checks the IHDR chunk (length, type, data, CRC) and returns its dimensions and bit depth.
    /// Validation of bit depth and color type is left to libpng, whose messages say it well.
    private static func readIHDR(_ chunk: UnsafeRawBufferPointer) throws -> Structure {
        guard chunk.count == 25 else {
            throw CGImageError.corrupt(reason: "the IHDR chunk holds \(chunk.count - 12) bytes; it must hold 13")
        }
        // Checked here, not left to libpng, so a damaged header is reported as damage rather than as
        // whatever dimensions the damaged bytes happen to spell.
        let crc = CRC32.checksum(UnsafeRawBufferPointer(rebasing: chunk[4..<21]))
        guard crc == UInt32(readUInt32(chunk, at: 21)) else {
            throw CGImageError.corrupt(reason: "the IHDR chunk's CRC does not match its contents")
        }
        let width = readUInt32(chunk, at: 8)
        let height = readUInt32(chunk, at: 12)
        guard width > 0, height > 0 else {
            throw CGImageError.corrupt(reason: "IHDR declares a \(width) x \(height) image; both sides must be at least 1")
        }
        guard width <= CGImage.maximumDecodedSide, height <= CGImage.maximumDecodedSide,
              width * height <= CGImage.maximumDecodedPixelCount else {
            throw CGImageError.tooLarge(width: width, height: height)
        }
        return Structure(width: width, height: height, bitDepth: Int(chunk[16]), end: 0, droppedChunks: [])
    }

    private static func readUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    }

    private static func printable(_ type: UnsafeRawBufferPointer) -> String {
        "'" + type.map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16) }.joined() + "'"
    }

    // MARK: - Step 2: libpng

    /// Decodes a stream that `scan` accepted into straight (not premultiplied) RGBA8. `isOpaque` is true
    /// when the file has neither an alpha channel nor tRNS, false when it may have transparency.
    static func readStraightRGBA(_ stream: UnsafeRawBufferPointer, _ structure: Structure) throws -> DecodedImage {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        // Safe after success, after failure (libpng already freed) and twice; finish_read frees too.
        defer { png_image_free(&image) }

        guard png_image_begin_read_from_memory(&image, stream.baseAddress, stream.count) != 0 else {
            throw CGImageError.corrupt(reason: libpngMessage(image))
        }
        // Must follow begin_read, which resets `flags`.
        image.flags |= png_uint_32(PNG_IMAGE_FLAG_16BIT_sRGB)
        // `format` now describes the file; tRNS counts as alpha.
        let fileHasAlpha = image.format & png_uint_32(PNG_FORMAT_FLAG_ALPHA) != 0
        image.format = libpngFormatRGBA

        let width = Int(image.width)
        let height = Int(image.height)
        guard width == structure.width, height == structure.height else {
            throw CGImageError.corrupt(reason: "libpng read a \(width) x \(height) header where the IHDR chunk says \(structure.width) x \(structure.height)")
        }
        let rowBytes = width * 4
        // Slack for 16-bit files: libpng before the fix for CVE-2025-65018 writes 16-bit rows into the
        // 8-bit buffer when reading interlaced 16-bit images, overrunning it by up to one such row.
        let slack = structure.bitDepth == 16 ? width * 8 : 0
        var pixels = [UInt8](repeating: 0, count: rowBytes * height + slack)
        let finished = pixels.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, nil, buffer.baseAddress, png_int_32(rowBytes), nil)
        }
        guard finished != 0 else {
            throw CGImageError.corrupt(reason: libpngMessage(image))
        }
        pixels.removeLast(slack)
        return DecodedImage(width: width, height: height, rgba: pixels, isOpaque: !fileHasAlpha)
    }

    private static func libpngMessage(_ image: png_image) -> String {
        let message = withUnsafeBytes(of: image.message) { bytes in
            String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return message.isEmpty ? "libpng failed without a message" : "libpng: \(message)"
    }

    // MARK: - Step 3: premultiply

    /// Premultiplies straight RGBA8 in place. Returns whether every alpha is 255 (then nothing changed).
    static func premultiplyInPlace(_ pixels: inout [UInt8]) -> Bool {
        var everyPixelOpaque = true
        pixels.withUnsafeMutableBufferPointer { p in
            var i = 0
            while i + 3 < p.count {
                let a = p[i + 3]
                if a != 255 {
                    everyPixelOpaque = false
                    p[i] = premultiply(p[i], by: a)
                    p[i + 1] = premultiply(p[i + 1], by: a)
                    p[i + 2] = premultiply(p[i + 2], by: a)
                }
                i += 4
            }
        }
        return everyPixelOpaque
    }

    /// `round(c * a / 255)` without a division: exact for every 8-bit `c` and `a` (tested exhaustively).
    @inline(__always)
    static func premultiply(_ c: UInt8, by a: UInt8) -> UInt8 {
        let t = UInt32(c) * UInt32(a) + 128
        return UInt8(truncatingIfNeeded: (t + (t >> 8)) >> 8)
    }
}

/// The CRC-32 of PNG chunks (ISO 3309, polynomial 0xEDB88320), used to vet IHDR before trusting it.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes { c = table[Int((c ^ UInt32(byte)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
