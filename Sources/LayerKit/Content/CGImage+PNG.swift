import CPNG
import Foundation

/// Reading and writing PNG, through libpng (`PNGDecoder`, `PNGEncoder`).
///
/// Every PNG variant decodes to the same storage: 8-bit, premultiplied RGBA. Samples are taken as
/// sRGB-encoded and kept as they are: gAMA (and other color-management chunks) are ignored, as Core
/// Animation shows sRGB data without correction.
extension CGImage {
    /// The most pixels a decoded PNG may have (2^28, a 1 GiB RGBA buffer). Larger headers throw
    /// `CGImageError.tooLarge` before anything is allocated.
    public static let maximumDecodedPixelCount = 1 << 28

    /// The longest side a decoded PNG may have: libpng's compiled-in limit (1,000,000 in Debian's
    /// libpng 1.6), which also bounds `pngData()`.
    public static var maximumDecodedSide: Int { Int(min(PNG_USER_WIDTH_MAX, PNG_USER_HEIGHT_MAX)) }

    /// Decodes a PNG image.
    ///
    /// Accepts every PNG variant: grayscale, gray with alpha, RGB, RGBA and palette images; bit depths
    /// 1, 2, 4, 8 and 16; tRNS transparency; Adam7 interlacing. The result is premultiplied RGBA8:
    /// - 16-bit samples become `round(v / 257)`; 1-, 2- and 4-bit gray scales to 0...255; palette
    ///   entries are looked up; gray is copied to red, green and blue.
    /// - color is premultiplied as `round(c * a / 255)`.
    /// - `alphaInfo` is `.noneSkipLast` when the file has no alpha channel and no tRNS chunk, or when
    ///   every decoded alpha is 255; otherwise `.premultipliedLast`.
    /// - gAMA is ignored; samples are used as the file stores them.
    ///
    /// Bytes after the IEND chunk are ignored. Ancillary chunks with a bad CRC are skipped, as libpng
    /// does; a bad CRC in a critical chunk is an error.
    ///
    /// - Throws: `CGImageError`: `.emptyData` for zero bytes; `.notPNG` when the PNG signature is
    ///   missing; `.truncated` when the stream ends before IEND; `.tooLarge` when the header declares
    ///   more than `maximumDecodedPixelCount` pixels or a side over `maximumDecodedSide`; `.corrupt`
    ///   for everything else libpng or the chunk walk rejects.
    public convenience init(pngData data: Data) throws {
        let decoded = try PNGDecoder.decode(data)
        // The force unwrap cannot fail: the decoder returns positive sizes and exactly
        // `width * 4 * height` bytes, which is all the designated initializer checks.
        self.init(width: decoded.width, height: decoded.height, bytesPerRow: decoded.width * 4,
                  premultipliedRGBA: decoded.rgba,
                  alphaInfo: decoded.isOpaque ? .noneSkipLast : .premultipliedLast)!
    }

    /// Reads and decodes the PNG file at `url` (a file URL).
    ///
    /// - Throws: `CGImageError.fileUnreadable` when the file cannot be read (missing, a directory, not
    ///   permitted, not a file URL); otherwise what `init(pngData:)` throws.
    public convenience init(contentsOfPNGFile url: URL) throws {
        guard url.isFileURL else {
            throw CGImageError.fileUnreadable(path: url.absoluteString, reason: "not a file URL")
        }
        // Checked first because Foundation's errors for these read "The operation could not be completed".
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw CGImageError.fileUnreadable(path: url.path, reason: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw CGImageError.fileUnreadable(path: url.path, reason: "is a directory")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CGImageError.fileUnreadable(path: url.path, reason: Self.readFailureReason(error))
        }
        try self.init(pngData: data)
    }

    /// Encodes the image as an 8-bit, non-interlaced PNG.
    ///
    /// Opaque images (`.noneSkipLast`, or every alpha 255) are written as RGB, others as RGBA with the
    /// color un-premultiplied (`round(c * 255 / a)`; color 0 where alpha is 0). Decoding the result with
    /// `init(pngData:)` gives back exactly the same premultiplied pixels, for every pixel whose color
    /// components do not exceed its alpha (see `PNGEncoder` for why).
    ///
    /// - Precondition: both sides are at most `maximumDecodedSide` pixels, libpng's limit.
    public func pngData() -> Data {
        PNGEncoder.encode(self)
    }

    /// The POSIX cause where Foundation gives one (permission denied, I/O error), else its description.
    private static func readFailureReason(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        return error.localizedDescription
    }
}
