import LayerKitTestSupport
import XCTest

@testable import LayerKit

// Bitmap contexts: placement (y-up raw context, y-down layer drawing), state, transforms, images, blend
// modes, alpha, shadows. Every expectation is worked out from the geometry or the compositing formula.

/// A transparent sRGB bitmap context for tests.
func makeTestContext(_ width: Int, _ height: Int, file: StaticString = #filePath, line: UInt = #line) throws -> CGContext {
    try XCTUnwrap(
        CGContext(
            data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue
        ),
        file: file, line: line
    )
}

/// Premultiplied bytes of an sRGB color with alpha, as the tests expect them.
func expectedBytes(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) -> [Int] {
    [r * a, g * a, b * a, a].map { Int(($0 * 255).rounded()) }
}

extension CGImage {
    /// The premultiplied RGBA of column `x`, row `row` (0 at the top), as ints.
    func bytes(_ x: Int, _ row: Int) -> [Int] {
        let p = pixel(x: x, y: row)
        return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
    }

    /// The sum of all alpha values over 255: covered area in pixels.
    var coveredArea: Double {
        var sum = 0
        for y in 0 ..< height {
            for x in 0 ..< width { sum += Int(pixel(x: x, y: y).a) }
        }
        return Double(sum) / 255
    }

    /// Columns and rows (from the top) of every pixel with alpha above `threshold`; nil when none.
    func inkBounds(threshold: UInt8 = 0) -> (minX: Int, maxX: Int, minRow: Int, maxRow: Int)? {
        var result: (Int, Int, Int, Int)?
        for y in 0 ..< height {
            for x in 0 ..< width where pixel(x: x, y: y).a > threshold {
                if let r = result {
                    result = (min(r.0, x), max(r.1, x), min(r.2, y), max(r.3, y))
                } else {
                    result = (x, x, y, y)
                }
            }
        }
        return result.map { (minX: $0.0, maxX: $0.1, minRow: $0.2, maxRow: $0.3) }
    }
}

/// Asserts each channel within `tolerance`.
func assertBytes(_ actual: [Int], _ expected: [Int], tolerance: Int = 1, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
    let ok = actual.count == expected.count && zip(actual, expected).allSatisfy { abs($0 - $1) <= tolerance }
    XCTAssertTrue(ok, "got \(actual), expected \(expected) ±\(tolerance) \(message)", file: file, line: line)
}

extension CGColor {
    static let opaqueRed = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let opaqueGreen = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
    static let opaqueBlue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
}

final class CGContextTests: XCTestCase {
    // MARK: Placement

    func testRectAtYZeroFillsTheBottomRowsOfARawContext() throws {
        let context = try makeTestContext(20, 16)
        XCTAssertEqual(context.ctm, .identity)
        context.setFillColor(.opaqueRed)
        context.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        let image = try XCTUnwrap(context.makeImage())
        XCTAssertEqual(image.width, 20)
        XCTAssertEqual(image.height, 16)
        for row in 0 ..< 16 {
            for x in 0 ..< 20 {
                // y 0…10 is rows 6…15 counted from the top of a 16-row image.
                let inside = x < 10 && row >= 6
                XCTAssertEqual(image.bytes(x, row), inside ? [255, 0, 0, 255] : [0, 0, 0, 0], "pixel \(x), row \(row)")
            }
        }
    }

    func testLayerDrawingFlipPutsTheOriginAtTheTopLeft() throws {
        let context = try makeTestContext(20, 16)
        context.flipForLayerDrawing()
        XCTAssertEqual(context.ctm, CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 16))
        context.setFillColor(.opaqueRed)
        context.fill(CGRect(x: 2, y: 0, width: 10, height: 4))
        let image = try XCTUnwrap(context.makeImage())
        for row in 0 ..< 16 {
            for x in 0 ..< 20 {
                let inside = (2 ..< 12).contains(x) && row < 4
                XCTAssertEqual(image.bytes(x, row).last, inside ? 255 : 0, "pixel \(x), row \(row)")
            }
        }
    }

    func testUnequalScaleAndTranslationPlaceARect() throws {
        let context = try makeTestContext(30, 30)
        context.translateBy(x: 4, y: 1)
        context.scaleBy(x: 2, y: 3)
        XCTAssertEqual(context.ctm, CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 4, ty: 1))
        context.setFillColor(.opaqueRed)
        // User (1, 1, 2, 2) → base x 6…10, y 4…10 → rows 20…25 from the top.
        context.fill(CGRect(x: 1, y: 1, width: 2, height: 2))
        let image = try XCTUnwrap(context.makeImage())
        let ink = try XCTUnwrap(image.inkBounds())
        XCTAssertEqual(ink.minX, 6)
        XCTAssertEqual(ink.maxX, 9)
        XCTAssertEqual(ink.minRow, 20)
        XCTAssertEqual(ink.maxRow, 25)
        XCTAssertEqual(image.coveredArea, 24, accuracy: 0.01)
    }

    func testRotationTurnsXTowardY() throws {
        let context = try makeTestContext(20, 20)
        context.translateBy(x: 10, y: 10)
        context.rotate(by: .pi / 2)
        let p = context.convertToDeviceSpace(CGPoint(x: 5, y: 0))
        XCTAssertEqual(p.x, 10, accuracy: 1e-9)
        XCTAssertEqual(p.y, 15, accuracy: 1e-9)
        XCTAssertEqual(context.convertToUserSpace(p).x, 5, accuracy: 1e-9)
        context.concatenate(CGAffineTransform(translationX: 1, y: 0))
        XCTAssertEqual(context.convertToDeviceSpace(.zero).y, 11, accuracy: 1e-9)
    }

    // MARK: State

    func testRestoreGStateBringsBackColorTransformClipAndInterpolation() throws {
        let context = try makeTestContext(10, 10)
        context.setFillColor(.opaqueRed)
        context.saveGState()
        context.setFillColor(.opaqueBlue)
        context.translateBy(x: 5, y: 5)
        context.clip(to: CGRect(x: 0, y: 0, width: 1, height: 1))
        context.interpolationQuality = .none
        context.restoreGState()
        XCTAssertEqual(context.ctm, .identity)
        XCTAssertEqual(context.interpolationQuality, .default)
        XCTAssertEqual(context.boundingBoxOfClipPath, CGRect(x: 0, y: 0, width: 10, height: 10))
        context.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        let image = try XCTUnwrap(context.makeImage())
        XCTAssertEqual(image.bytes(0, 0), [255, 0, 0, 255])
        XCTAssertEqual(image.bytes(9, 9), [255, 0, 0, 255])
    }

    func testRestoreWithoutSaveIsRefusedWithADiagnostic() throws {
        let context = try makeTestContext(4, 4)
        let capture = DiagnosticCapture()
        context.translateBy(x: 1, y: 0)
        context.restoreGState()
        XCTAssertEqual(capture.names, ["invalidContextArgument"])
        XCTAssertEqual(context.ctm.tx, 1)
    }

    func testNonFiniteTransformsAndWidthsAreRefused() throws {
        let context = try makeTestContext(4, 4)
        let capture = DiagnosticCapture()
        context.translateBy(x: .nan, y: 0)
        context.scaleBy(x: .infinity, y: 1)
        context.setLineWidth(-1)
        context.setLineDash(phase: 0, lengths: [0, 0])
        XCTAssertEqual(capture.names, Array(repeating: "invalidContextArgument", count: 4))
        XCTAssertEqual(context.ctm, .identity)
    }

    // MARK: Creating

    func testUnsupportedBitmapParametersReturnNil() {
        let capture = DiagnosticCapture()
        let rgb = CGColorSpaceCreateDeviceRGB()
        XCTAssertNil(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 16, bytesPerRow: 0, space: rgb, bitmapInfo: 1))
        XCTAssertNil(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: CGColorSpaceCreateDeviceGray(), bitmapInfo: 1))
        XCTAssertNil(CGContext(data: nil, width: 0, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: rgb, bitmapInfo: 1))
        XCTAssertNil(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 8, space: rgb, bitmapInfo: 1))
        XCTAssertNil(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: rgb, bitmapInfo: 3))
        XCTAssertEqual(capture.names, Array(repeating: "invalidContextArgument", count: 5))
    }

    func testCallerBufferReceivesPixelsInItsByteOrderTopRowFirst() throws {
        // premultipliedFirst + byteOrder32Little: B, G, R, A in memory, as Cairo and most Linux code use.
        // Rows of 16 bytes (8 of pixels, 8 of padding) × 4 rows: the buffer must hold height × bytesPerRow.
        var buffer = [UInt8](repeating: 0, count: 16 * 4)
        let info = 2 | CGBitmapInfo.byteOrder32Little.rawValue
        try buffer.withUnsafeMutableBytes { raw in
            let context = try XCTUnwrap(CGContext(
                data: raw.baseAddress, width: 2, height: 4, bitsPerComponent: 8, bytesPerRow: 16,
                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: info
            ))
            context.setFillColor(CGColor(red: 1, green: 0.5, blue: 0, alpha: 1))
            context.fill(CGRect(x: 0, y: 3, width: 1, height: 1))  // the top row, first pixel
        }
        XCTAssertEqual(Array(buffer[0 ..< 4]), [0, 128, 255, 255])
        XCTAssertEqual(Array(buffer[4 ..< 16]), Array(repeating: 0, count: 12))  // the second pixel and the padding
        XCTAssertEqual(Array(buffer[16...]), Array(repeating: 0, count: 48))  // the three rows below
    }

    func testCallerBufferContentIsDrawnOver() throws {
        // premultipliedLast, default order: R, G, B, A. One opaque blue pixel, then 50 % red over it.
        var buffer: [UInt8] = [0, 0, 255, 255]
        let image = try buffer.withUnsafeMutableBytes { raw -> CGImage? in
            let context = try XCTUnwrap(CGContext(
                data: raw.baseAddress, width: 1, height: 1, bitsPerComponent: 8, bytesPerRow: 4,
                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue
            ))
            context.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 0.5))
            context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
            return context.makeImage()
        }
        assertBytes(buffer.map(Int.init), [128, 0, 128, 255])
        assertBytes(try XCTUnwrap(image).bytes(0, 0), [128, 0, 128, 255])
    }

    func testOpaqueContextStartsBlackAndMakesOpaqueImages() throws {
        let context = try XCTUnwrap(CGContext(
            data: nil, width: 2, height: 2, bitsPerComponent: 8, bytesPerRow: 0,
            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue
        ))
        context.setFillColor(CGColor(red: 1, green: 1, blue: 1, alpha: 0.5))
        context.fill(CGRect(x: 0, y: 0, width: 1, height: 2))
        let image = try XCTUnwrap(context.makeImage())
        XCTAssertTrue(image.isOpaque)
        assertBytes(image.bytes(0, 0), [128, 128, 128, 255])
        XCTAssertEqual(image.bytes(1, 1), [0, 0, 0, 255])
    }

    // MARK: Images

    func testDrawingAnImageAtItsSizeRoundTripsExactly() throws {
        // 3×2, premultiplied (each channel ≤ alpha), with translucent pixels.
        let pixels: [UInt8] = [
            255, 0, 0, 255, 0, 100, 0, 100, 10, 20, 30, 40,
            0, 0, 0, 0, 60, 60, 60, 60, 1, 2, 3, 255,
        ]
        let source = try XCTUnwrap(CGImage(width: 3, height: 2, bytesPerRow: 12, premultipliedRGBA: pixels))
        let context = try makeTestContext(3, 2)
        context.interpolationQuality = .none
        context.draw(source, in: CGRect(x: 0, y: 0, width: 3, height: 2))
        let image = try XCTUnwrap(context.makeImage())
        XCTAssertEqual(image.pixelData, pixels)
        XCTAssertEqual(image.alphaInfo, .premultipliedLast)
    }

    func testNearestInterpolationScalesTwoByTwoIntoUprightQuadrants() throws {
        let pixels: [UInt8] = [
            255, 0, 0, 255, 0, 255, 0, 255,  // top: red, green
            0, 0, 255, 255, 255, 255, 255, 255,  // bottom: blue, white
        ]
        let source = try XCTUnwrap(CGImage(width: 2, height: 2, bytesPerRow: 8, premultipliedRGBA: pixels))
        let context = try makeTestContext(8, 8)
        context.interpolationQuality = .none
        context.draw(source, in: CGRect(x: 0, y: 0, width: 8, height: 8))
        let image = try XCTUnwrap(context.makeImage())
        for row in 0 ..< 8 {
            for x in 0 ..< 8 {
                let sx = x / 4, sy = row / 4
                let o = (sy * 2 + sx) * 4
                XCTAssertEqual(image.bytes(x, row), pixels[o ..< o + 4].map(Int.init), "pixel \(x), row \(row)")
            }
        }
    }

    func testDefaultInterpolationBlendsAcrossTheQuadrantEdge() throws {
        let pixels: [UInt8] = [0, 0, 0, 255, 255, 255, 255, 255]  // black | white
        let source = try XCTUnwrap(CGImage(width: 2, height: 1, bytesPerRow: 8, premultipliedRGBA: pixels))
        let context = try makeTestContext(8, 1)
        context.draw(source, in: CGRect(x: 0, y: 0, width: 8, height: 1))
        let image = try XCTUnwrap(context.makeImage())
        // Pixel 3's centre (3.5) maps to source x 0.875, a quarter past the black texel's centre, so
        // bilinear sampling gives 0.375 white.
        let g = image.bytes(3, 0)[0]
        XCTAssertTrue((80 ... 110).contains(g), "got \(g)")
        XCTAssertEqual(image.bytes(0, 0), [0, 0, 0, 255])
        XCTAssertEqual(image.bytes(7, 0), [255, 255, 255, 255])
    }

    func testTiledImageRepeatsAcrossTheClip() throws {
        let pixels: [UInt8] = [255, 0, 0, 255, 0, 0, 255, 255]  // red | blue
        let source = try XCTUnwrap(CGImage(width: 2, height: 1, bytesPerRow: 8, premultipliedRGBA: pixels))
        let context = try makeTestContext(9, 2)
        context.interpolationQuality = .none
        context.clip(to: CGRect(x: 0, y: 0, width: 9, height: 1))
        context.draw(source, in: CGRect(x: 1, y: 0, width: 2, height: 1), byTiling: true)
        let image = try XCTUnwrap(context.makeImage())
        for x in 0 ..< 9 {
            // Tiles start at x 1: odd columns red, even columns blue (column 0 is the tile before).
            XCTAssertEqual(image.bytes(x, 1), x % 2 == 1 ? [255, 0, 0, 255] : [0, 0, 255, 255], "x \(x)")
            XCTAssertEqual(image.bytes(x, 0), [0, 0, 0, 0], "outside the clip, x \(x)")
        }
    }

    func testImageInAFlippedContextIsUpsideDownAsOnIOS() throws {
        let pixels: [UInt8] = [255, 0, 0, 255, 0, 0, 255, 255]  // 1×2: red on top, blue below
        let source = try XCTUnwrap(CGImage(width: 1, height: 2, bytesPerRow: 4, premultipliedRGBA: pixels))
        let context = try makeTestContext(1, 2)
        context.flipForLayerDrawing()
        context.interpolationQuality = .none
        context.draw(source, in: CGRect(x: 0, y: 0, width: 1, height: 2))
        let image = try XCTUnwrap(context.makeImage())
        XCTAssertEqual(image.bytes(0, 0), [0, 0, 255, 255])
        XCTAssertEqual(image.bytes(0, 1), [255, 0, 0, 255])
    }

    // MARK: Blend modes and alpha

    /// Fills a 4×4 context with `destination`, then a 2×2 square at the bottom-left with `source` in
    /// `mode`; returns the pixel inside the square and the one outside it.
    private func blend(_ mode: CGBlendMode, source: CGColor, destination: CGColor?) throws -> (inside: [Int], outside: [Int]) {
        let context = try makeTestContext(4, 4)
        if let destination {
            context.setFillColor(destination)
            context.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        }
        context.setBlendMode(mode)
        context.setFillColor(source)
        context.fill(CGRect(x: 0, y: 0, width: 2, height: 2))
        let image = try XCTUnwrap(context.makeImage())
        return (image.bytes(0, 3), image.bytes(3, 0))
    }

    func testMultiplyAndScreenMatchTheirFormulas() throws {
        let d = (0.8, 0.4, 0.2), s = (0.5, 0.6, 1.0)
        let dColor = CGColor(red: d.0, green: d.1, blue: d.2, alpha: 1)
        let sColor = CGColor(red: s.0, green: s.1, blue: s.2, alpha: 1)
        let multiply = try blend(.multiply, source: sColor, destination: dColor)
        assertBytes(multiply.inside, expectedBytes(s.0 * d.0, s.1 * d.1, s.2 * d.2), tolerance: 2)
        assertBytes(multiply.outside, expectedBytes(d.0, d.1, d.2))
        let screen = try blend(.screen, source: sColor, destination: dColor)
        func scr(_ a: Double, _ b: Double) -> Double { a + b - a * b }
        assertBytes(screen.inside, expectedBytes(scr(s.0, d.0), scr(s.1, d.1), scr(s.2, d.2)), tolerance: 2)
    }

    func testTranslucentMultiplyFollowsThePDFCompositingFormula() throws {
        // Opaque D, source alpha 0.5: R = (1 − αs)·D + αs·(S·D).
        let sa = 0.5
        let result = try blend(.multiply, source: CGColor(red: 0.2, green: 1, blue: 0.6, alpha: sa), destination: CGColor(red: 1, green: 0.5, blue: 0.5, alpha: 1))
        func r(_ s: Double, _ d: Double) -> Double { (1 - sa) * d + sa * s * d }
        assertBytes(result.inside, expectedBytes(r(0.2, 1), r(1, 0.5), r(0.6, 0.5)), tolerance: 2)
    }

    func testCopyReplacesOnlyInsideTheShape() throws {
        let result = try blend(.copy, source: CGColor(red: 1, green: 0, blue: 0, alpha: 0.5), destination: .opaqueBlue)
        assertBytes(result.inside, expectedBytes(1, 0, 0, 0.5))
        XCTAssertEqual(result.outside, [0, 0, 255, 255])
    }

    func testSourceInIsBoundedByTheShapeAsInCoreGraphics() throws {
        // Destination: blue in the left half only. Green sourceIn over a rect across the middle:
        // left∩rect → green·αd = green; right∩rect → 0; outside the rect → unchanged (Cairo alone would
        // clear the blue there).
        let context = try makeTestContext(8, 4)
        context.setFillColor(.opaqueBlue)
        context.fill(CGRect(x: 0, y: 0, width: 4, height: 4))
        context.setBlendMode(.sourceIn)
        context.setFillColor(.opaqueGreen)
        context.fill(CGRect(x: 2, y: 1, width: 4, height: 2))
        let image = try XCTUnwrap(context.makeImage())
        XCTAssertEqual(image.bytes(3, 1), [0, 255, 0, 255], "inside rect, over blue")
        XCTAssertEqual(image.bytes(4, 1), [0, 0, 0, 0], "inside rect, over nothing")
        XCTAssertEqual(image.bytes(0, 1), [0, 0, 255, 255], "outside rect, blue stays")
        XCTAssertEqual(image.bytes(3, 0), [0, 0, 255, 255], "above rect, blue stays")
    }

    func testDestinationOutAndClear() throws {
        let out = try blend(.destinationOut, source: CGColor(red: 0, green: 0, blue: 0, alpha: 0.25), destination: .opaqueRed)
        assertBytes(out.inside, expectedBytes(1, 0, 0, 0.75))
        let clear = try blend(.clear, source: .opaqueGreen, destination: .opaqueRed)
        XCTAssertEqual(clear.inside, [0, 0, 0, 0])
        XCTAssertEqual(clear.outside, [255, 0, 0, 255])
    }

    func testPlusLighterAddsAndPlusDarkerFallsBackToNormal() throws {
        let lighter = try blend(.plusLighter, source: CGColor(gray: 0.5, alpha: 1), destination: CGColor(gray: 0.4, alpha: 1))
        assertBytes(lighter.inside, expectedBytes(0.9, 0.9, 0.9), tolerance: 2)
        let capture = DiagnosticCapture()
        let darker = try blend(.plusDarker, source: .opaqueGreen, destination: .opaqueRed)
        XCTAssertEqual(capture.diagnostics, [.unsupportedBlendMode(mode: "plusDarker", fallback: "normal")])
        XCTAssertEqual(darker.inside, [0, 255, 0, 255])
    }

    func testEveryBlendModeButPlusDarkerLeavesPixelsOutsideTheShape() throws {
        for mode in CGBlendMode.allCases where mode != .plusDarker {
            let result = try blend(mode, source: CGColor(red: 0.3, green: 0.6, blue: 0.9, alpha: 0.7), destination: CGColor(red: 1, green: 0.5, blue: 0, alpha: 1))
            assertBytes(result.outside, expectedBytes(1, 0.5, 0), tolerance: 1, "\(mode)")
        }
    }

    func testGlobalAlphaScalesFillsAndImages() throws {
        let context = try makeTestContext(2, 1)
        context.setAlpha(0.5)
        context.setFillColor(.opaqueRed)
        context.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        let white = try XCTUnwrap(CGImage(width: 1, height: 1, bytesPerRow: 4, premultipliedRGBA: [255, 255, 255, 255]))
        context.draw(white, in: CGRect(x: 1, y: 0, width: 1, height: 1))
        let image = try XCTUnwrap(context.makeImage())
        assertBytes(image.bytes(0, 0), expectedBytes(1, 0, 0, 0.5))
        assertBytes(image.bytes(1, 0), expectedBytes(1, 1, 1, 0.5))
    }

    // MARK: Shadows

    func testUnblurredShadowIsTheShapeOffsetUpInARawContext() throws {
        let context = try makeTestContext(40, 40)
        context.setShadow(offset: CGSize(width: 5, height: 5), blur: 0, color: CGColor(gray: 0, alpha: 1))
        context.setFillColor(.opaqueRed)
        context.fill(CGRect(x: 10, y: 10, width: 10, height: 10))
        let image = try XCTUnwrap(context.makeImage())
        // Shape: x 10…20, y 10…20 → rows 20…29. Shadow: x 15…25, y 15…25 → rows 15…24.
        XCTAssertEqual(image.bytes(12, 25), [255, 0, 0, 255], "shape")
        XCTAssertEqual(image.bytes(17, 22), [255, 0, 0, 255], "shape over its shadow")
        XCTAssertEqual(image.bytes(22, 17), [0, 0, 0, 255], "shadow beside and above the shape")
        XCTAssertEqual(image.bytes(24, 15), [0, 0, 0, 255], "shadow's top-right pixel")
        XCTAssertEqual(image.bytes(25, 17), [0, 0, 0, 0], "right of the shadow")
        XCTAssertEqual(image.bytes(22, 14), [0, 0, 0, 0], "above the shadow")
        XCTAssertEqual(image.bytes(12, 29), [255, 0, 0, 255])
        XCTAssertEqual(image.coveredArea, 100 + 100 - 25, accuracy: 0.01)
    }

    func testShadowMovesDownAfterTheLayerDrawingFlip() throws {
        let context = try makeTestContext(40, 40)
        context.flipForLayerDrawing()
        context.setShadow(offset: CGSize(width: 0, height: 5), blur: 0, color: CGColor(gray: 0, alpha: 1))
        context.setFillColor(.opaqueRed)
        context.fill(CGRect(x: 10, y: 10, width: 10, height: 10))
        let image = try XCTUnwrap(context.makeImage())
        XCTAssertEqual(image.bytes(12, 22), [0, 0, 0, 255], "below the shape")
        XCTAssertEqual(image.bytes(12, 8), [0, 0, 0, 0], "above the shape")
    }

    func testBlurredShadowEdgeFollowsAGaussianOfHalfTheBlur() throws {
        // A shadow 40 pixels right of a tall shape; its left edge at x = 50. σ = blur / 2 = 3.
        let context = try makeTestContext(100, 60)
        context.setShadow(offset: CGSize(width: 40, height: 0), blur: 6, color: CGColor(gray: 0, alpha: 1))
        context.setFillColor(.opaqueRed)
        context.fill(CGRect(x: 10, y: -20, width: 20, height: 100))
        let image = try XCTUnwrap(context.makeImage())
        let sigma = 3.0
        for x in 40 ..< 62 {
            // Coverage of a step at 50 blurred by a Gaussian, at pixel centre x + 0.5 (and symmetric at 70).
            let d = Double(x) + 0.5
            let expected = 0.5 * (erf((d - 50) / (sigma * 2.0.squareRoot())) - erf((d - 70) / (sigma * 2.0.squareRoot())))
            let alpha = Double(image.bytes(x, 30)[3]) / 255
            XCTAssertEqual(alpha, expected, accuracy: 0.03, "x \(x)")
        }
    }

    func testShadowIsDisabledByANilColor() throws {
        let context = try makeTestContext(20, 20)
        context.setShadow(offset: CGSize(width: 5, height: 5), blur: 2)
        context.setShadow(offset: CGSize(width: 5, height: 5), blur: 2, color: nil)
        context.fill(CGRect(x: 0, y: 0, width: 5, height: 5))
        let image = try XCTUnwrap(context.makeImage())
        XCTAssertEqual(image.coveredArea, 25, accuracy: 0.01)
    }
}
