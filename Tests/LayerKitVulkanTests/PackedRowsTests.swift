@testable import LayerKitVulkan
import XCTest

/// `PackedRows`: rows read at the source's pitch land back to back, the padding between them left out.
final class PackedRowsTests: XCTestCase {
    func testPaddedRowsArePackedWithoutTheirPadding() {
        // Three rows of 4 bytes, 6 bytes apart: bytes 4 and 5 of each row are padding (0xEE).
        let source: [UInt8] = [1, 2, 3, 4, 0xEE, 0xEE, 5, 6, 7, 8, 0xEE, 0xEE, 9, 10, 11, 12, 0xEE, 0xEE]
        var packed = [UInt8](repeating: 0, count: 12)
        source.withUnsafeBytes { source in
            packed.withUnsafeMutableBytes { packed in
                PackedRows.copy(rows: 3, of: 4, from: source.baseAddress!, bytesPerRow: 6, to: packed.baseAddress!)
            }
        }
        XCTAssertEqual(packed, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    }

    func testUnpaddedRowsAreCopiedWhole() {
        let source: [UInt8] = Array(1...8)
        var packed = [UInt8](repeating: 0, count: 10)  // two bytes past the image stay untouched
        source.withUnsafeBytes { source in
            packed.withUnsafeMutableBytes { packed in
                PackedRows.copy(rows: 2, of: 4, from: source.baseAddress!, bytesPerRow: 4, to: packed.baseAddress!)
            }
        }
        XCTAssertEqual(packed, [1, 2, 3, 4, 5, 6, 7, 8, 0, 0])
    }
}
