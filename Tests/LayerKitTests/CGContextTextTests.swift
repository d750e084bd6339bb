import LayerKitTestSupport
import XCTest

@testable import LayerKit

// Text through Pango. Expectations come from DejaVu Sans's own tables (read from DejaVuSans.ttf, units
// per em 2048): hhea ascender 1901, descender −483; advances H 1540, e 1260, l 569, o 1253; glyph boxes
// H x 201…1339, y 0…1493; l y 0…1556; e and o y −29…1147, o x 113…1141.

/// DejaVu Sans font units at `size` user-space units per em.
private func units(_ value: Double, size: Double = 20) -> Double { value / 2048 * size }

final class CGContextTextTests: XCTestCase {
    private func dejaVu() throws -> CGFont { try XCTUnwrap(CGFont("DejaVu Sans")) }

    func testMetricsMatchTheFontTables() throws {
        let font = try dejaVu()
        let metrics = font.lineMetrics(of: "Hello", size: 20)
        XCTAssertEqual(Double(metrics.advance), units(1540 + 1260 + 569 + 569 + 1253), accuracy: 0.05)
        XCTAssertEqual(Double(metrics.ascent), units(1901), accuracy: 0.05)
        XCTAssertEqual(Double(metrics.descent), units(483), accuracy: 0.05)
        // Advance scales with size: no hinting.
        XCTAssertEqual(Double(font.lineMetrics(of: "Hello", size: 7).advance), units(5191, size: 7), accuracy: 0.05)
    }

    func testHelloInkLiesInTheBoxTheFontTablesPredict() throws {
        let context = try makeTestContext(120, 40)
        context.setFillColor(.opaqueRed)
        let origin = CGPoint(x: 10, y: 10)
        context.draw("Hello", at: origin, font: try dejaVu(), size: 20)
        let image = try XCTUnwrap(context.makeImage())
        let ink = try XCTUnwrap(image.inkBounds())
        // Ink from H's left bearing to o's right edge, from the baseline (e/o overshoot 0.28 below it)
        // up to l's top. Raw context: y up, so row = 40 − y.
        let left = 10 + units(201), right = 10 + units(1540 + 1260 + 569 + 569 + 1141)
        let top = 40 - (10 + units(1556)), bottom = 40 - (10 - units(29))
        XCTAssertEqual(Double(ink.minX), left.rounded(.down), accuracy: 1)
        XCTAssertEqual(Double(ink.maxX + 1), right.rounded(.up), accuracy: 1)
        XCTAssertEqual(Double(ink.minRow), top.rounded(.down), accuracy: 1)
        XCTAssertEqual(Double(ink.maxRow + 1), bottom.rounded(.up), accuracy: 1)
        // Width and height sanity, independent of the exact tables: five glyphs at 20 pt.
        XCTAssertGreaterThan(ink.maxX - ink.minX, 20)
        XCTAssertLessThan(Double(ink.maxX - ink.minX), 20 * 5 * 0.8)
        // H's stems are solid: the pixel in the middle of its left stem (x 201…?) is fully inked red.
        let stemX = Int((10 + units(201) + 1).rounded(.down)), stemRow = Int(40 - (10 + units(700)))
        XCTAssertEqual(image.bytes(stemX, stemRow), [255, 0, 0, 255])
        // The text position advanced by the string's advance.
        XCTAssertEqual(Double(context.textPosition.x), 10 + units(5191), accuracy: 0.05)
        XCTAssertEqual(context.textPosition.y, 10)
    }

    func testFlippedContextWithAFlippedTextMatrixDrawsTheSamePixels() throws {
        let raw = try makeTestContext(80, 40)
        raw.draw("Hello", at: CGPoint(x: 10, y: 10), font: try dejaVu(), size: 20)
        let flipped = try makeTestContext(80, 40)
        flipped.flipForLayerDrawing()
        flipped.textMatrix = CGAffineTransform(scaleX: 1, y: -1)
        // Baseline 30 from the top is y 10 from the bottom.
        flipped.draw("Hello", at: CGPoint(x: 10, y: 30), font: try dejaVu(), size: 20)
        let a = try XCTUnwrap(raw.makeImage()), b = try XCTUnwrap(flipped.makeImage())
        XCTAssertGreaterThan(a.coveredArea, 50)
        XCTAssertEqual(a.pixelData, b.pixelData)
    }

    func testIdentityTextMatrixInAFlippedContextIsUpsideDownAsOnIOS() throws {
        let context = try makeTestContext(80, 60)
        context.flipForLayerDrawing()
        context.draw("Hello", at: CGPoint(x: 10, y: 20), font: try dejaVu(), size: 20)
        let ink = try XCTUnwrap(try XCTUnwrap(context.makeImage()).inkBounds())
        // Glyphs hang below the baseline row 20 instead of rising above it.
        XCTAssertGreaterThanOrEqual(ink.minRow, 19)
        XCTAssertGreaterThan(ink.maxRow, 32)
    }

    func testUnknownFamilyFallsBackToDejaVuSansWithADiagnostic() throws {
        let capture = DiagnosticCapture()
        let font = try XCTUnwrap(CGFont(name: "NoSuchFamilyLayerKit"))
        XCTAssertEqual(capture.diagnostics, [.unknownFont(requested: "NoSuchFamilyLayerKit", fallback: "DejaVu Sans")])
        XCTAssertEqual(font.familyName, "DejaVu Sans")
        // It draws exactly what DejaVu Sans draws.
        func render(_ font: CGFont) throws -> [UInt8] {
            let context = try makeTestContext(60, 30)
            context.draw("Ag", at: CGPoint(x: 5, y: 8), font: font, size: 16)
            return try XCTUnwrap(context.makeImage()).pixelData
        }
        XCTAssertEqual(try render(font), try render(dejaVu()))
    }

    func testInstalledFamiliesAndStylesResolveWithoutDiagnostics() throws {
        let capture = DiagnosticCapture()
        let bold = try XCTUnwrap(CGFont("DejaVu Serif Bold"))
        let lower = try XCTUnwrap(CGFont("dejavu sans"))
        let generic = try XCTUnwrap(CGFont("monospace"))
        XCTAssertEqual(capture.names, [])
        XCTAssertEqual(bold.familyName, "DejaVu Serif")
        XCTAssertTrue(bold.fullName?.contains("Bold") ?? false, "\(bold.fullName ?? "nil")")
        XCTAssertEqual(lower.familyName, "DejaVu Sans")
        XCTAssertFalse(generic.familyName.isEmpty)
        // Bold is wider than regular.
        XCTAssertGreaterThan(bold.lineMetrics(of: "Hello", size: 20).advance, try XCTUnwrap(CGFont("DejaVu Serif")).lineMetrics(of: "Hello", size: 20).advance)
    }

    func testEmptyStringDrawsNothing() throws {
        let context = try makeTestContext(20, 20)
        context.setShadow(offset: CGSize(width: 2, height: 2), blur: 2)
        context.draw("", at: CGPoint(x: 5, y: 5), font: try dejaVu(), size: 20)
        XCTAssertEqual(try XCTUnwrap(context.makeImage()).pixelData, [UInt8](repeating: 0, count: 20 * 20 * 4))
        XCTAssertEqual(context.textPosition, .zero)
    }

    func testShowTextUsesTheStateFontSizeAndTextPosition() throws {
        let a = try makeTestContext(80, 30)
        a.setFont(try dejaVu())
        a.setFontSize(14)
        a.textPosition = CGPoint(x: 4, y: 9)
        a.showText("Hi")
        a.showText("!")
        let b = try makeTestContext(80, 30)
        b.draw("Hi!", at: CGPoint(x: 4, y: 9), font: try dejaVu(), size: 14)
        let pa = try XCTUnwrap(a.makeImage()), pb = try XCTUnwrap(b.makeImage())
        XCTAssertEqual(pa.coveredArea, pb.coveredArea, accuracy: 2)
        XCTAssertEqual(Double(a.textPosition.x), Double(b.textPosition.x), accuracy: 0.01)
    }

    func testTextFollowsTheFillColorAndAlpha() throws {
        let context = try makeTestContext(40, 30)
        context.setFillColor(.opaqueBlue)
        context.setAlpha(0.5)
        context.draw("I", at: CGPoint(x: 10, y: 5), font: try dejaVu(), size: 20)
        let image = try XCTUnwrap(context.makeImage())
        let maxAlpha = image.pixelData.enumerated().filter { $0.offset % 4 == 3 }.map(\.element).max()
        XCTAssertEqual(Int(maxAlpha ?? 0), 128, accuracy: 1)
        let redMax = image.pixelData.enumerated().filter { $0.offset % 4 == 0 }.map(\.element).max()
        XCTAssertEqual(redMax, 0)
    }
}
