/// Why a `CGImage` could not be made from encoded image data or from a file.
///
/// Each case names one kind of failure so callers (and tests) can tell them apart; `description` is a
/// sentence meant for the person whose file it is.
public enum CGImageError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The data has zero bytes.
    case emptyData
    /// The data does not start with the 8-byte PNG signature, so it is some other kind of file.
    case notPNG
    /// The data is a PNG stream cut short; `reason` says where it ends and what was still expected.
    case truncated(reason: String)
    /// The data is a PNG stream, complete as far as its chunks go, but malformed. `reason` is LayerKit's
    /// own finding (bad IHDR, chunk framing) or libpng's message (CRC errors, bad zlib data, …).
    case corrupt(reason: String)
    /// The header declares an image larger than LayerKit decodes: more than `CGImage.maximumDecodedPixelCount`
    /// pixels, or a side longer than `CGImage.maximumDecodedSide`. Refused before anything is allocated.
    case tooLarge(width: Int, height: Int)
    /// The file could not be read at all (missing, a directory, no permission, …).
    case fileUnreadable(path: String, reason: String)

    public var description: String {
        switch self {
        case .emptyData:
            return "data is empty (0 bytes), not a PNG image"
        case .notPNG:
            return "data is not a PNG image (signature mismatch)"
        case .truncated(let reason):
            return "PNG data is truncated: \(reason)"
        case .corrupt(let reason):
            return "PNG data is corrupt: \(reason)"
        case .tooLarge(let width, let height):
            return "PNG image is too large to decode: \(width) x \(height) pixels; LayerKit decodes up to "
                + "\(CGImage.maximumDecodedPixelCount) pixels (2^28), at most \(CGImage.maximumDecodedSide) a side"
        case .fileUnreadable(let path, let reason):
            return "cannot read PNG file '\(path)': \(reason)"
        }
    }
}
