import Foundation
import XCTest
@testable import LayerKit
import LayerKitTestSupport

/// PNG decoding and encoding (`CGImage+PNG.swift`, `PNGDecoder`, `PNGEncoder`).
///
/// Fixtures come from Tools/make-png-fixtures.py, which writes PNGs itself (no libpng) from the
/// formulas in its header. `PNGFixtureFormula` restates those formulas, so every expected pixel is
/// computed here, independently of libpng and of the decoder under test.
final class CGImagePNGTests: XCTestCase {

    // MARK: - Every variant decodes to the formula

    func testGrayscaleAtEveryBitDepthDecodesOpaque() throws {
        for depth in [1, 2, 4, 8, 16] {
            try assertFixtureMatchesFormula(.init(.gray, depth), alphaInfo: .noneSkipLast)
        }
    }

    func testGrayscaleTransparentKeyMakesMatchingPixelsClear() throws {
        for depth in [1, 2, 4, 8, 16] {
            try assertFixtureMatchesFormula(.init(.gray, depth, trns: true), alphaInfo: .premultipliedLast)
        }
    }

    func testGrayAlphaDecodesPremultiplied() throws {
        for depth in [8, 16] {
            try assertFixtureMatchesFormula(.init(.grayAlpha, depth), alphaInfo: .premultipliedLast)
        }
    }

    func testSixteenBitAdam7WithAlphaIsWithinOneAndRarelyOff() throws {
        // The one inexact case (PNGDecoder.readAdam7SixteenBit): libpng only hands these over
        // premultiplied at 16 bits. 12,288 samples bound how far and how often the result may differ.
        try assertFixtureMatchesFormula(.init(.rgba, 16, adam7: true, width: 64, height: 48), alphaInfo: .premultipliedLast)
        try assertFixtureMatchesFormula(.init(.grayAlpha, 16, adam7: true, width: 64, height: 48), alphaInfo: .premultipliedLast)
    }

    func testRGBDecodesOpaque() throws {
        for depth in [8, 16] {
            try assertFixtureMatchesFormula(.init(.rgb, depth), alphaInfo: .noneSkipLast)
        }
    }

    func testRGBTransparentKeyMakesMatchingPixelsClear() throws {
        for depth in [8, 16] {
            try assertFixtureMatchesFormula(.init(.rgb, depth, trns: true), alphaInfo: .premultipliedLast)
        }
    }

    func testRGBADecodesPremultiplied() throws {
        for depth in [8, 16] {
            try assertFixtureMatchesFormula(.init(.rgba, depth), alphaInfo: .premultipliedLast)
        }
    }

    func testPaletteAtEveryBitDepthDecodesOpaque() throws {
        for depth in [1, 2, 4, 8] {
            try assertFixtureMatchesFormula(.init(.palette, depth), alphaInfo: .noneSkipLast)
        }
    }

    func testPaletteWithShortTRNSUsesItsAlphaAndOpaqueBeyondIt() throws {
        for depth in [1, 2, 4, 8] {
            try assertFixtureMatchesFormula(.init(.palette, depth, trns: true), alphaInfo: .premultipliedLast)
        }
    }

    func testSixteenBitSamplesRoundToNearestNotTruncateNorLinearize() throws {
        // The exact comparison in testRGBDecodesOpaque already pins round(v / 257); this makes sure the
        // fixture can tell the candidates apart, so that comparison could fail.
        let samples = PNGFixtureFormula.pixels(width: 7, height: 5).flatMap { p in (0..<3).map { PNGFixtureFormula.sample(p.x, p.y, $0, bits: 16) } }
        XCTAssertTrue(samples.contains { PNGFixtureFormula.to8Bits($0, from: 16) != $0 >> 8 },
                      "rgb16 has no sample where rounding differs from truncation")
        XCTAssertTrue(samples.contains { abs(PNGFixtureFormula.to8Bits($0, from: 16) - Self.linearToSRGB8($0)) > 2 },
                      "rgb16 has no sample where treating 16-bit data as linear would show")
    }

    func testGammaChunkIsIgnored() throws {
        // gAMA 1.0 would make libpng re-encode every sample; LayerKit keeps them as stored.
        try assertFixtureMatchesFormula(.init(.rgb, 8), file: "rgb8_gamma1", alphaInfo: .noneSkipLast)
    }

    func testAlphaChannelThatIsAllOpaqueDecodesAsNoneSkipLast() throws {
        try assertFixtureMatchesFormula(.init(.rgb, 8), file: "rgba8_opaque", alphaInfo: .noneSkipLast)
    }

    func testImageDataSplitOverManyIDATChunksAmongAncillaryChunks() throws {
        try assertFixtureMatchesFormula(.init(.rgb, 8), file: "rgb8_chunky", alphaInfo: .noneSkipLast)
    }

    func testAncillaryChunkWithBadCRCIsSkipped() throws {
        try assertFixtureMatchesFormula(.init(.rgb, 8), file: "rgb8_bad_text_crc", alphaInfo: .noneSkipLast)
    }

    func testBytesAfterIENDAreIgnored() throws {
        let data = try fixtureData("rgba8_adam7") + Data("trailing garbage".utf8)
        try assertImage(try CGImage(pngData: data), matches: .init(.rgba, 8, adam7: true), name: "rgba8_adam7 + garbage",
                        alphaInfo: .premultipliedLast)
    }

    func testEveryFixtureFileIsExercised() throws {
        let directory = try XCTUnwrap(Bundle.module.url(forResource: "png", withExtension: nil, subdirectory: "Fixtures"))
        let onDisk = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".png") }.map { String($0.dropLast(4)) })
        let exercised = Set(PNGFixtureFormula.Variant.all.map(\.name) + ["rgba16_adam7_64x48", "graya16_adam7_64x48"]
            + Self.specialFixtures + Self.invalidFixtures.map(\.name))
        XCTAssertEqual(onDisk.subtracting(exercised), [], "fixtures no test reads; add tests or remove them")
        XCTAssertEqual(exercised.subtracting(onDisk), [], "fixtures the tests expect; run Tools/make-png-fixtures.py")
    }

    func testContentsOfPNGFileReadsAFixture() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "palette4_trns_adam7", withExtension: "png", subdirectory: "Fixtures/png"))
        try assertImage(try CGImage(contentsOfPNGFile: url), matches: .init(.palette, 4, trns: true, adam7: true),
                        name: url.lastPathComponent, alphaInfo: .premultipliedLast)
    }

    // MARK: - Encoding round trips

    func testOpaqueImageRoundTripsExactlyAndIsWrittenAsRGB() throws {
        var random = SplitMix64(seed: 1)
        let (width, height) = (61, 37)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for i in pixels.indices where i % 4 != 3 { pixels[i] = random.nextByte() }
        let image = try XCTUnwrap(CGImage(width: width, height: height, bytesPerRow: width * 4, premultipliedRGBA: pixels, alphaInfo: .noneSkipLast))

        let png = image.pngData()
        XCTAssertEqual(Self.ihdr(of: png)?.colorType, 2, "opaque images are written as RGB")
        XCTAssertEqual(Self.ihdr(of: png)?.bitDepth, 8)
        let decoded = try CGImage(pngData: png)
        XCTAssertEqual(decoded.alphaInfo, .noneSkipLast)
        XCTAssertEqual(Self.tightPixels(decoded), pixels)
    }

    func testEveryValidPremultipliedPixelRoundTripsExactly() throws {
        // All 33,153 pairs c <= a. Un-premultiplying rounds to within 1/2 of c * 255 / a; scaling that
        // error back by a / 255 < 1 keeps it under 1/2, so re-premultiplying returns c (PNGEncoder).
        var pixels: [UInt8] = []
        for a in 0...255 {
            for c in 0...a {
                pixels += [UInt8(c), UInt8(a - c), UInt8(c / 2), UInt8(a)]
            }
        }
        let width = 256
        let height = (pixels.count / 4 + width - 1) / width
        pixels += [UInt8](repeating: 0, count: width * height * 4 - pixels.count)
        let image = try XCTUnwrap(CGImage(width: width, height: height, bytesPerRow: width * 4, premultipliedRGBA: pixels))

        let png = image.pngData()
        XCTAssertEqual(Self.ihdr(of: png)?.colorType, 6, "images with alpha are written as RGBA")
        let decoded = try CGImage(pngData: png)
        XCTAssertEqual(decoded.alphaInfo, .premultipliedLast)
        let roundTripped = Self.tightPixels(decoded)
        let mismatches = stride(from: 0, to: pixels.count, by: 4).filter { pixels[$0..<$0 + 4] != roundTripped[$0..<$0 + 4] }
        XCTAssertEqual(mismatches.count, 0, "first mismatch at byte \(mismatches.first ?? -1)")
    }

    func testEncoderRetriesWhenItsFirstBufferIsTooSmall() throws {
        let image = try fixtureImage("rgba8")
        let retried = PNGEncoder.encode(image, initialCapacity: 16)
        XCTAssertEqual(retried, image.pngData())
        XCTAssertEqual(Self.tightPixels(try CGImage(pngData: retried)), Self.tightPixels(image))
    }

    func testEncodedColorIsStraightAlpha() throws {
        // (64, 32, 0) at alpha 128 is (128, 64, 0) straight: round(64 * 255 / 128) = round(127.5) = 128.
        // Alpha 0 writes color 0. Alpha 255 keeps the color.
        let pixels: [UInt8] = [64, 32, 0, 128, 0, 0, 0, 0, 10, 20, 30, 255, 1, 1, 1, 2]
        let image = try XCTUnwrap(CGImage(width: 2, height: 2, bytesPerRow: 8, premultipliedRGBA: pixels))
        let file = try Self.straightRGBA(ofPNG: image.pngData())
        XCTAssertEqual(file, [128, 64, 0, 128, 0, 0, 0, 0, 10, 20, 30, 255, 128, 128, 128, 2])
    }

    func testNoneSkipLastIgnoresTheFourthByteWhenEncoding() throws {
        let pixels: [UInt8] = [1, 2, 3, 0, 4, 5, 6, 77]
        let image = try XCTUnwrap(CGImage(width: 2, height: 1, bytesPerRow: 8, premultipliedRGBA: pixels, alphaInfo: .noneSkipLast))
        let png = image.pngData()
        XCTAssertEqual(Self.ihdr(of: png)?.colorType, 2)
        XCTAssertEqual(try Self.straightRGBA(ofPNG: png), [1, 2, 3, 255, 4, 5, 6, 255])
    }

    func testRowPaddingIsNotEncoded() throws {
        // bytesPerRow 12 for a 2-pixel row: 4 bytes of padding that must not reach the file.
        let pixels: [UInt8] = [10, 0, 0, 255, 0, 20, 0, 255, 99, 99, 99, 99,
                               0, 0, 30, 255, 40, 40, 40, 255, 99, 99, 99, 99]
        let image = try XCTUnwrap(CGImage(width: 2, height: 2, bytesPerRow: 12, premultipliedRGBA: pixels, alphaInfo: .premultipliedLast))
        let decoded = try CGImage(pngData: image.pngData())
        XCTAssertEqual(decoded.alphaInfo, .noneSkipLast, "every alpha is 255")
        XCTAssertEqual(Self.tightPixels(decoded), [10, 0, 0, 255, 0, 20, 0, 255, 0, 0, 30, 255, 40, 40, 40, 255])
    }

    func testDecodedFixtureReencodesToTheSamePixels() throws {
        for name in ["rgba16_adam7", "palette2_trns", "graya8_adam7"] {
            let image = try fixtureImage(name)
            let again = try CGImage(pngData: image.pngData())
            XCTAssertEqual(Self.tightPixels(again), Self.tightPixels(image), name)
            XCTAssertEqual(again.alphaInfo, image.alphaInfo, name)
        }
    }

    func testPremultiplyIsRoundOfProductOver255ForEveryPair() {
        for a in 0...255 {
            for c in 0...255 {
                let expected = UInt8((Double(c * a) / 255).rounded())
                let actual = PNGDecoder.premultiply(UInt8(c), by: UInt8(a))
                if actual != expected { return XCTFail("premultiply(\(c), by: \(a)) = \(actual), expected \(expected)") }
            }
        }
    }

    func testUnpremultiplyThenPremultiplyIsIdentityForEveryValidPair() {
        for a in 0...255 {
            for c in 0...a {
                let back = PNGDecoder.premultiply(PNGEncoder.unpremultiply(UInt8(c), by: UInt8(a)), by: UInt8(a))
                if back != UInt8(c) { return XCTFail("c \(c), a \(a) came back as \(back)") }
            }
        }
    }

    // MARK: - Bad input: each failure has its own error

    func testEmptyDataThrowsEmptyData() {
        XCTAssertEqual(decodeError(Data())?.caseName, "emptyData")
    }

    func testTextFileThrowsNotPNG() {
        XCTAssertEqual(decodeError(Data("Hello, this is a text file.\nNot an image.\n".utf8)), .notPNG)
    }

    func testOtherImageFormatThrowsNotPNG() {
        let jpegStart: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01]
        XCTAssertEqual(decodeError(Data(jpegStart)), .notPNG)
        XCTAssertEqual(decodeError(Data([0x89])), .truncated(reason: "data ends inside the 8-byte PNG signature, after 1 bytes"))
        XCTAssertEqual(decodeError(Data([0x88])), .notPNG, "one wrong byte is enough")
    }

    func testSignatureOnlyThrowsTruncated() throws {
        let error = decodeError(try fixtureData("rgb8").prefix(8))
        guard case .truncated(let reason)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("before the IHDR chunk"), reason)
    }

    func testTruncatedInsideIHDRThrowsTruncated() throws {
        let error = decodeError(try fixtureData("rgb8").prefix(8 + 8 + 5))
        guard case .truncated(let reason)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("'IHDR'"), reason)
    }

    func testTruncatedInsideIDATThrowsTruncated() throws {
        let data = try fixtureData("rgba8_adam7")
        let idat = try XCTUnwrap(data.range(of: Data("IDAT".utf8))).lowerBound
        let error = decodeError(data.prefix(idat + 20))
        guard case .truncated(let reason)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("'IDAT'"), reason)
    }

    func testMissingIENDThrowsTruncated() throws {
        let data = try fixtureData("rgb8")
        let error = decodeError(data.prefix(data.count - 12))
        guard case .truncated(let reason)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("before the IEND chunk"), reason)
    }

    func testEveryPrefixOfAValidFileThrowsTruncated() throws {
        for name in ["rgba8_adam7", "palette1_trns"] {
            let data = try fixtureData(name)
            for count in 1..<data.count {
                let kind = decodeError(data.prefix(count))?.caseName
                if kind != "truncated" { return XCTFail("\(name) cut to \(count) of \(data.count) bytes: \(kind ?? "decoded")") }
            }
        }
    }

    func testGarbageAfterSignatureThrowsCorruptOnceAChunkHeaderFits() {
        var random = SplitMix64(seed: 7)
        for length in [1, 7, 8, 64, 1000] {
            let data = Data(PNGDecoder.signature + (0..<length).map { _ in random.nextByte() })
            let kind = decodeError(data)?.caseName
            // Fewer than 8 bytes cannot even hold a chunk header, so those read as a cut stream.
            XCTAssertEqual(kind, length < 8 ? "truncated" : "corrupt", "\(length) garbage bytes")
        }
    }

    func testHugeDimensionsThrowTooLarge() throws {
        XCTAssertEqual(try fixtureError("invalid_huge_dimensions"), .tooLarge(width: 20000, height: 20000))
        XCTAssertEqual(try fixtureError("invalid_wide"), .tooLarge(width: 1_000_001, height: 1))
        XCTAssertEqual(try fixtureError("invalid_max_dimensions"), .tooLarge(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF))
    }

    func testZeroWidthThrowsCorrupt() throws {
        guard case .corrupt(let reason)? = try fixtureError("invalid_zero_width") else { return XCTFail() }
        XCTAssertTrue(reason.contains("0 x 5"), reason)
    }

    func testIHDRWithBadCRCThrowsCorrupt() throws {
        guard case .corrupt(let reason)? = try fixtureError("invalid_ihdr_crc") else { return XCTFail() }
        XCTAssertTrue(reason.contains("IHDR") && reason.contains("CRC"), reason)
    }

    func testIDATWithBadCRCThrowsCorruptWithLibpngMessage() throws {
        guard case .corrupt(let reason)? = try fixtureError("invalid_idat_crc") else { return XCTFail() }
        XCTAssertTrue(reason.hasPrefix("libpng: ") && reason.contains("CRC"), reason)
    }

    func testMalformedStreamsThrowCorrupt() throws {
        for fixture in Self.invalidFixtures where fixture.kind == "corrupt" {
            let error = try fixtureError(fixture.name)
            guard case .corrupt(let reason)? = error else { XCTFail("\(fixture.name): got \(String(describing: error))"); continue }
            XCTAssertTrue(reason.contains(fixture.reasonContains), "\(fixture.name): \(reason)")
        }
    }

    func testChunkLengthOverPNGLimitThrowsCorrupt() throws {
        var data = try fixtureData("rgb8")
        let afterIHDR = 8 + 25
        data.replaceSubrange(afterIHDR..<(afterIHDR + 4), with: [0xFF, 0xFF, 0xFF, 0xF0])
        guard case .corrupt(let reason)? = decodeError(data) else { return XCTFail() }
        XCTAssertTrue(reason.contains("2^31 - 1"), reason)
    }

    func testDamagedImageDataWithValidCRCNeverCrashes() throws {
        // Every byte of the zlib stream flipped in turn, CRC fixed up so libpng decompresses and
        // unfilters it: each must decode to some image or throw .corrupt, never trap or hang.
        for name in ["rgba16_adam7", "palette2_trns_adam7"] {
            let data = [UInt8](try fixtureData(name))
            let idat = try XCTUnwrap(Data(data).range(of: Data("IDAT".utf8))).lowerBound
            let length = Int(data[idat - 4]) << 24 | Int(data[idat - 3]) << 16 | Int(data[idat - 2]) << 8 | Int(data[idat - 1])
            var failures = 0
            for i in (idat + 4)..<(idat + 4 + length) {
                var damaged = data
                damaged[i] ^= 0xFF
                let crc = damaged[idat..<(idat + 4 + length)].withUnsafeBytes { CRC32.checksum($0) }
                damaged.replaceSubrange((idat + 4 + length)..<(idat + 8 + length),
                                        with: [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)])
                do {
                    let image = try CGImage(pngData: Data(damaged))
                    XCTAssertEqual(image.width * image.height, 7 * 5)
                } catch let error as CGImageError {
                    guard case .corrupt = error else { return XCTFail("\(name) byte \(i): \(error)") }
                    failures += 1
                }
            }
            XCTAssertGreaterThan(failures, 0, "\(name): no damaged stream was rejected; is the damage reaching libpng?")
        }
    }

    func testMissingFileThrowsFileUnreadable() {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-no-such-file-\(UUID().uuidString).png")
        XCTAssertThrowsError(try CGImage(contentsOfPNGFile: url)) { error in
            guard case .fileUnreadable(let path, let reason)? = error as? CGImageError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, url.path)
            XCTAssertEqual(reason, "no such file")
        }
    }

    func testDirectoryThrowsFileUnreadable() {
        let directory = FileManager.default.temporaryDirectory
        XCTAssertThrowsError(try CGImage(contentsOfPNGFile: directory)) { error in
            XCTAssertEqual(error as? CGImageError, .fileUnreadable(path: directory.path, reason: "is a directory"))
        }
    }

    func testNonFileURLThrowsFileUnreadable() throws {
        let url = try XCTUnwrap(URL(string: "https://example.com/image.png"))
        XCTAssertThrowsError(try CGImage(contentsOfPNGFile: url)) { error in
            XCTAssertEqual(error as? CGImageError, .fileUnreadable(path: "https://example.com/image.png", reason: "not a file URL"))
        }
    }

    func testErrorDescriptionsNameTheProblem() {
        XCTAssertEqual(CGImageError.notPNG.description, "data is not a PNG image (signature mismatch)")
        XCTAssertEqual(CGImageError.emptyData.description, "data is empty (0 bytes), not a PNG image")
        XCTAssertEqual(CGImageError.truncated(reason: "r").description, "PNG data is truncated: r")
        XCTAssertEqual(CGImageError.corrupt(reason: "r").description, "PNG data is corrupt: r")
        XCTAssertEqual(CGImageError.fileUnreadable(path: "a.png", reason: "r").description, "cannot read PNG file 'a.png': r")
        XCTAssertTrue(CGImageError.tooLarge(width: 20000, height: 20000).description.contains("20000 x 20000"))
    }

    // MARK: - Fixture tables

    static let specialFixtures = ["rgb8_gamma1", "rgba8_opaque", "rgb8_chunky", "rgb8_bad_text_crc"]

    struct InvalidFixture {
        var name: String
        var kind: String
        var reasonContains: String
    }

    /// Each invalid fixture with the error case it must raise and a word its reason must contain.
    static let invalidFixtures: [InvalidFixture] = [
        .init(name: "invalid_huge_dimensions", kind: "tooLarge", reasonContains: ""),
        .init(name: "invalid_wide", kind: "tooLarge", reasonContains: ""),
        .init(name: "invalid_max_dimensions", kind: "tooLarge", reasonContains: ""),
        .init(name: "invalid_zero_width", kind: "corrupt", reasonContains: "at least 1"),
        .init(name: "invalid_ihdr_crc", kind: "corrupt", reasonContains: "CRC"),
        .init(name: "invalid_idat_crc", kind: "corrupt", reasonContains: "CRC"),
        .init(name: "invalid_bit_depth", kind: "corrupt", reasonContains: "IHDR"),
        .init(name: "invalid_deflate", kind: "corrupt", reasonContains: "libpng: "),
        .init(name: "invalid_short_image_data", kind: "corrupt", reasonContains: "libpng: "),
        .init(name: "invalid_no_idat", kind: "corrupt", reasonContains: "libpng: "),
        .init(name: "invalid_missing_plte", kind: "corrupt", reasonContains: "PLTE"),
        .init(name: "invalid_first_chunk", kind: "corrupt", reasonContains: "must start with IHDR"),
    ]

    func testEveryInvalidFixtureThrowsItsCase() throws {
        for fixture in Self.invalidFixtures {
            XCTAssertEqual(try fixtureError(fixture.name)?.caseName, fixture.kind, fixture.name)
        }
    }

    // MARK: - Helpers

    private func fixtureData(_ name: String) throws -> Data {
        let url = try XCTUnwrap(Bundle.module.url(forResource: name, withExtension: "png", subdirectory: "Fixtures/png"),
                                "missing fixture \(name).png; run Tools/make-png-fixtures.py")
        return try Data(contentsOf: url)
    }

    private func fixtureImage(_ name: String) throws -> CGImage {
        try CGImage(pngData: try fixtureData(name))
    }

    private func fixtureError(_ name: String) throws -> CGImageError? {
        decodeError(try fixtureData(name))
    }

    /// The `CGImageError` decoding `data` throws; fails the test when it decodes or throws another type.
    private func decodeError(_ data: Data, line: UInt = #line) -> CGImageError? {
        do {
            _ = try CGImage(pngData: data)
            XCTFail("decoded \(data.count) bytes that should have been rejected", line: line)
        } catch let error as CGImageError {
            return error
        } catch {
            XCTFail("threw \(error), not a CGImageError", line: line)
        }
        return nil
    }

    private func assertFixtureMatchesFormula(_ variant: PNGFixtureFormula.Variant, file: String? = nil,
                                             alphaInfo: CGImageAlphaInfo, line: UInt = #line) throws {
        let name = file ?? variant.name
        let data = try fixtureData(name)
        // Guards against a fixture that does not hold what its name says (and so proves nothing).
        if file == nil {
            let header = try XCTUnwrap(Self.ihdr(of: data))
            XCTAssertEqual(header.bitDepth, variant.depth, "\(name) bit depth", line: line)
            XCTAssertEqual(header.colorType, variant.kind.colorType, "\(name) color type", line: line)
            XCTAssertEqual(header.interlaced, variant.adam7, "\(name) interlace", line: line)
            XCTAssertEqual(data.range(of: Data("tRNS".utf8)) != nil, variant.trns, "\(name) tRNS", line: line)
        }
        try assertImage(try CGImage(pngData: data), matches: variant, name: name, alphaInfo: alphaInfo, line: line)
        if file == nil && !variant.adam7 {
            var interlaced = variant
            interlaced.adam7 = true
            try assertImage(try fixtureImage(interlaced.name), matches: interlaced, name: interlaced.name, alphaInfo: alphaInfo, line: line)
        }
    }

    private func assertImage(_ image: CGImage, matches variant: PNGFixtureFormula.Variant, name: String,
                             alphaInfo: CGImageAlphaInfo, line: UInt = #line) throws {
        XCTAssertEqual(image.width, variant.width, name, line: line)
        XCTAssertEqual(image.height, variant.height, name, line: line)
        XCTAssertEqual(image.alphaInfo, alphaInfo, name, line: line)
        guard image.width == variant.width, image.height == variant.height else { return }
        let pixels = PNGFixtureFormula.pixels(width: variant.width, height: variant.height)
        var mismatches: [String] = []
        var offByOne = 0
        for (x, y) in pixels {
            let expected = PNGFixtureFormula.premultipliedRGBA(variant, x: x, y: y)
            let p = image.pixel(x: x, y: y)
            let actual = [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
            guard actual != expected else { continue }
            // 16-bit Adam7 with an alpha channel: color may be 1 off (PNGDecoder.readAdam7SixteenBit).
            if variant.isDecodedWithinOne, actual[3] == expected[3], zip(actual, expected).allSatisfy({ abs($0 - $1) <= 1 }) {
                offByOne += zip(actual, expected).filter { $0 != $1 }.count
                continue
            }
            mismatches.append("(\(x), \(y)) got \(actual) expected \(expected)")
        }
        XCTAssertTrue(mismatches.isEmpty, "\(name): \(mismatches.count) pixels differ: \(mismatches.prefix(4).joined(separator: "; "))", line: line)
        // Measured: 1 of 105 color samples in rgba16_adam7, 12 of 9,216 in rgba16_adam7_64x48, none in
        // the gray+alpha ones. 1% leaves room without excusing a real regression.
        XCTAssertLessThanOrEqual(offByOne, pixels.count * 3 / 100, "\(name): \(offByOne) samples 1 off", line: line)
        if alphaInfo == .premultipliedLast {
            XCTAssertTrue(pixels.contains { PNGFixtureFormula.premultipliedRGBA(variant, x: $0.x, y: $0.y)[3] < 255 },
                          "\(name) expects alpha but the formula makes every pixel opaque", line: line)
        }
    }

    struct IHDR {
        var width: Int, height: Int, bitDepth: Int, colorType: Int, interlaced: Bool
    }

    /// Reads the header fields straight from the bytes (PNG puts IHDR first, at byte 8).
    static func ihdr(of png: Data) -> IHDR? {
        let b = [UInt8](png.prefix(33))
        guard b.count == 33, Array(b[12..<16]) == Array("IHDR".utf8) else { return nil }
        func u32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        return IHDR(width: u32(16), height: u32(20), bitDepth: Int(b[24]), colorType: Int(b[25]), interlaced: b[28] == 1)
    }

    /// The file's samples as straight RGBA8, read by libpng without LayerKit's premultiply step.
    static func straightRGBA(ofPNG png: Data) throws -> [UInt8] {
        try png.withUnsafeBytes { bytes in
            let structure = try PNGDecoder.scan(bytes)
            return try PNGDecoder.readStraightRGBA(bytes, structure).rgba
        }
    }

    static func tightPixels(_ image: CGImage) -> [UInt8] {
        (0..<image.height).flatMap { y in image.pixelData[(y * image.bytesPerRow)..<(y * image.bytesPerRow + image.width * 4)] }
    }

    /// What libpng's default would make of a 16-bit sample: linear light re-encoded as 8-bit sRGB.
    static func linearToSRGB8(_ v: Int) -> Int {
        let l = Double(v) / 65535
        let s = l <= 0.0031308 ? 12.92 * l : 1.055 * pow(l, 1 / 2.4) - 0.055
        return Int((s * 255).rounded())
    }
}

private extension CGImageError {
    /// The case without its payload, for assertions that only care which failure it was.
    var caseName: String {
        switch self {
        case .emptyData: return "emptyData"
        case .notPNG: return "notPNG"
        case .truncated: return "truncated"
        case .corrupt: return "corrupt"
        case .tooLarge: return "tooLarge"
        case .fileUnreadable: return "fileUnreadable"
        }
    }
}
