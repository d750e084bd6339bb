import CPNG
import Foundation

/// PNG bytes → premultiplied RGBA8, the storage of `CGImage`.
///
/// Input: the bytes of a PNG file, any valid color type, bit depth and interlace method.
/// Output: width, height, premultiplied RGBA8 rows (top row first) and whether every pixel is opaque.
///
/// Algorithm:
/// 1. `scan` walks the chunk framing in Swift: the signature, then every chunk's length and type up to
///    IEND, with IHDR checked (CRC, zero and oversized dimensions) before anything is allocated. That is
///    where `.emptyData`, `.notPNG`, `.truncated` and `.tooLarge` come from, with messages libpng cannot
///    give (to libpng a short stream is just a failed read).
/// 2. The color-management chunks (gAMA, sRGB, iCCP, cHRM) are cut from the stream: Core Animation
///    shows sRGB-encoded samples as they are, and without them libpng converts no gamma.
/// 3. libpng's simplified API (`png_image_begin_read_from_memory`, `png_image_finish_read`) decodes.
///    It catches its own errors internally (its setjmp/longjmp never crosses a Swift frame) and handles
///    palette, tRNS, 1/2/4/16-bit samples and Adam7. Its failures become `.corrupt`.
///    - Usually into straight RGBA8 (`readStraightRGBA`), with 16-bit samples declared sRGB
///      (`PNG_IMAGE_FLAG_16BIT_sRGB`; libpng's default takes them as linear light and re-encodes), which
///      makes 16 → 8 bits libpng's exact `round(v / 257)`. Then premultiply: `round(c * a / 255)`.
///    - 16-bit Adam7 images go through `readAdam7SixteenBit` instead: libpng's 16 → 8-bit path for
///      interlaced images copies stale rows (1.6.51 and later, and Debian's 1.6.39 with the fix for
///      CVE-2025-65018 backported; before that fix the same path overran the caller's buffer). So they
///      are read at 16 bits and reduced here; see that function for tRNS and alpha.
///
/// Cost: one pass over the chunk headers; one copy of the stream only when chunks are cut; libpng's
/// decode; one pass over the pixels.
///
/// Does not: honor gAMA, cHRM, sRGB or iCCP (no color management); decode APNG animation frames (only
/// the default image); keep text or other metadata.
enum PNGDecoder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// `PNG_FORMAT_RGBA` and `PNG_FORMAT_LINEAR_RGB_ALPHA`, which Swift does not import (macros built
    /// from other macros).
    static let libpngFormatRGBA = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
    static let libpngFormatLinearRGBA = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA | PNG_FORMAT_FLAG_LINEAR)

    /// Chunks cut before libpng reads the stream (step 2).
    static let colorManagementChunks: Set<String> = ["gAMA", "sRGB", "iCCP", "cHRM"]

    struct DecodedImage {
        var width: Int
        var height: Int
        /// RGBA8, `width * 4` bytes a row, top row first: straight from `readStraightRGBA`, premultiplied
        /// from `decode`.
        var rgba: [UInt8]
        var isOpaque: Bool
    }

    /// What `scan` learned from the chunk framing.
    struct Structure {
        var width = 0
        var height = 0
        var bitDepth = 0
        var colorType = 0
        var isInterlaced = false
        /// Offset just past IEND. Bytes after it are ignored, as every PNG reader does.
        var end = 0
        /// Color-management chunks, cut before libpng reads the stream.
        var colorManagementChunks: [Range<Int>] = []
        /// tRNS chunks (valid files have at most one).
        var transparencyChunks: [Range<Int>] = []
    }

    static func decode(_ data: Data) throws -> DecodedImage {
        try data.withUnsafeBytes { bytes in
            let structure = try scan(bytes)
            if structure.bitDepth == 16 && structure.isInterlaced {
                let cut = structure.colorManagementChunks + structure.transparencyChunks
                return try withStream(bytes, upTo: structure.end, cutting: cut) {
                    try readAdam7SixteenBit($0, structure, transparencyKey: transparencyKey(bytes, structure))
                }
            }
            var image = try withStream(bytes, upTo: structure.end, cutting: structure.colorManagementChunks) {
                try readStraightRGBA($0, structure)
            }
            if !image.isOpaque {
                image.isOpaque = premultiplyInPlace(&image.rgba)
            }
            return image
        }
    }

    /// Calls `body` with `bytes[..<end]` less the chunks in `cut` (disjoint), copying only when
    /// there is something to cut.
    private static func withStream<T>(_ bytes: UnsafeRawBufferPointer, upTo end: Int, cutting cut: [Range<Int>],
                                      _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        if cut.isEmpty {
            return try body(UnsafeRawBufferPointer(rebasing: bytes[..<end]))
        }
        var kept = [UInt8]()
        kept.reserveCapacity(end)
        var start = 0
        for range in cut.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            kept += bytes[start..<range.lowerBound]
            start = range.upperBound
        }
        kept += bytes[start..<end]
        return try kept.withUnsafeBytes(body)
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
            // Chunk types are four ASCII letters; anything else means we are reading garbage, whose
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
            } else if colorManagementChunks.contains(name) {
                structure!.colorManagementChunks.append(offset..<chunkEnd)
            } else if name == "tRNS" {
                structure!.transparencyChunks.append(offset..<chunkEnd)
            }
            offset = chunkEnd
            if name == "IEND" { break }
        }
        structure!.end = offset
        return structure!
    }

    /// Checks the IHDR chunk (length, CRC, dimensions) and returns what it declares. Bit depth and color
    /// type are validated by libpng, whose messages say it well.
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
        return Structure(width: width, height: height, bitDepth: Int(chunk[16]), colorType: Int(chunk[17]),
                         isInterlaced: chunk[20] == 1)
    }

    /// The 16-bit transparent color of a gray (1 sample) or RGB (3 samples) image, as its tRNS chunk
    /// gives it; nil without one, or where libpng would ignore it (wrong length, other color types).
    private static func transparencyKey(_ bytes: UnsafeRawBufferPointer, _ structure: Structure) -> [UInt16]? {
        guard let chunk = structure.transparencyChunks.first else { return nil }
        let samples = structure.colorType == 0 ? 1 : structure.colorType == 2 ? 3 : 0
        guard samples > 0, chunk.count == 12 + 2 * samples else { return nil }
        return (0..<samples).map { UInt16(bytes[chunk.lowerBound + 8 + 2 * $0]) << 8 | UInt16(bytes[chunk.lowerBound + 9 + 2 * $0]) }
    }

    private static func readUInt32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    }

    private static func printable(_ type: UnsafeRawBufferPointer) -> String {
        "'" + type.map { (0x20..<0x7F).contains($0) ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined() + "'"
    }

    // MARK: - Step 3: libpng

    /// Decodes a stream that `scan` accepted into straight (not premultiplied) RGBA8. `isOpaque` is true
    /// when the file has neither an alpha channel nor tRNS, false when it may have transparency.
    static func readStraightRGBA(_ stream: UnsafeRawBufferPointer, _ structure: Structure) throws -> DecodedImage {
        var pixels: [UInt8] = []
        let fileHasAlpha = try read(stream, structure, format: libpngFormatRGBA, sixteenBitIsSRGB: true) { image, rowSamples in
            pixels = [UInt8](repeating: 0, count: rowSamples * structure.height)
            return pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, png_int_32(rowSamples), nil) }
        }
        return DecodedImage(width: structure.width, height: structure.height, rgba: pixels, isOpaque: !fileHasAlpha)
    }

    /// Decodes a 16-bit Adam7 stream (color-management chunks and tRNS already cut) to premultiplied RGBA8.
    ///
    /// libpng reads it as 16-bit linear RGBA; with no gamma information left in the stream, "linear" in
    /// and out means the samples pass through untouched, except that libpng premultiplies them by alpha:
    /// `p = round(c * a / 65535)`. Then, per pixel:
    /// - a file without alpha channel has `a = 65535`, so `p = c` and the result is exact; the tRNS key,
    ///   cut from the stream, is applied here to those exact 16-bit samples, as libpng would.
    /// - with an alpha channel, `c` is known only to within `65535 / (2a)`: `round(p * 65535 / a)` is used.
    ///   The result equals `round(round(c / 257) * round(a / 257) / 255)` unless the uncertainty straddles
    ///   a rounding step, and is then 1 off (12 of 9,216 samples in the 64 x 48 RGBA test image).
    static func readAdam7SixteenBit(_ stream: UnsafeRawBufferPointer, _ structure: Structure,
                                    transparencyKey: [UInt16]?) throws -> DecodedImage {
        var samples: [UInt16] = []
        // Files without alpha read as a = 65535, so opacity is decided per pixel below.
        _ = try read(stream, structure, format: libpngFormatLinearRGBA, sixteenBitIsSRGB: false) { image, rowSamples in
            samples = [UInt16](repeating: 0, count: rowSamples * structure.height)
            return samples.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, png_int_32(rowSamples), nil) }
        }
        let key = transparencyKey.map { $0.count == 1 ? [$0[0], $0[0], $0[0]] : $0 }
        var rgba = [UInt8](repeating: 0, count: samples.count)
        var everyPixelOpaque = true
        for i in stride(from: 0, to: samples.count, by: 4) {
            let a16 = samples[i + 3]
            if let key, samples[i] == key[0], samples[i + 1] == key[1], samples[i + 2] == key[2] {
                everyPixelOpaque = false
                continue  // transparent black
            }
            let a = reduceTo8Bits(a16)
            for c in 0..<3 {
                rgba[i + c] = premultipliedSample(premultiplied16: samples[i + c], alpha16: a16, alpha8: a)
            }
            rgba[i + 3] = a
            everyPixelOpaque = everyPixelOpaque && a == 255
        }
        return DecodedImage(width: structure.width, height: structure.height, rgba: rgba, isOpaque: everyPixelOpaque)
    }

    /// The begin/finish protocol around one read. `finish` allocates the output for `rowSamples`
    /// components a row and calls `png_image_finish_read`. Returns whether the file has an alpha channel
    /// or tRNS.
    private static func read(_ stream: UnsafeRawBufferPointer, _ structure: Structure, format: png_uint_32,
                             sixteenBitIsSRGB: Bool,
                             finish: (inout png_image, _ rowSamples: Int) -> Int32) throws -> Bool {
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        // Safe after success, after failure (libpng has already freed) and twice.
        defer { png_image_free(&image) }

        guard png_image_begin_read_from_memory(&image, stream.baseAddress, stream.count) != 0 else {
            throw CGImageError.corrupt(reason: libpngMessage(image))
        }
        guard Int(image.width) == structure.width, Int(image.height) == structure.height else {
            throw CGImageError.corrupt(reason: "libpng read a \(image.width) x \(image.height) header where IHDR says \(structure.width) x \(structure.height)")
        }
        if sixteenBitIsSRGB {
            // After begin_read, which resets `flags`.
            image.flags |= png_uint_32(PNG_IMAGE_FLAG_16BIT_sRGB)
        }
        // `format` describes the file until we set ours; tRNS counts as alpha.
        let fileHasAlpha = image.format & png_uint_32(PNG_FORMAT_FLAG_ALPHA) != 0
        image.format = format
        guard finish(&image, structure.width * 4) != 0 else {
            throw CGImageError.corrupt(reason: libpngMessage(image))
        }
        return fileHasAlpha
    }

    private static func libpngMessage(_ image: png_image) -> String {
        let message = withUnsafeBytes(of: image.message) { bytes in
            String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return message.isEmpty ? "libpng failed without a message" : "libpng: \(message)"
    }

    // MARK: - Sample arithmetic

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

    /// `round(v / 257)`. No ties: `v / 257 = k + 1/2` would need the even `2v` to equal the odd `257 (2k + 1)`.
    @inline(__always)
    static func reduceTo8Bits(_ v: UInt16) -> UInt8 {
        UInt8(truncatingIfNeeded: (UInt32(v) * 2 + 257) / 514)
    }

    /// The premultiplied 8-bit sample for a 16-bit color `c` known only as libpng's
    /// `p = round(c * a / 65535)` (see `readAdam7SixteenBit`): `c` is taken as `round(p * 65535 / a)`.
    static func premultipliedSample(premultiplied16 p: UInt16, alpha16 a: UInt16, alpha8: UInt8) -> UInt8 {
        if a == 65535 { return reduceTo8Bits(p) }
        if a == 0 { return 0 }
        let c = min(65535, (UInt64(p) * 131_070 + UInt64(a)) / (2 * UInt64(a)))
        return premultiply(reduceTo8Bits(UInt16(c)), by: alpha8)
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
