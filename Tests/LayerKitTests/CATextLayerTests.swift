import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKit

// Expectations come from DejaVu Sans's own tables (units per em 2048), as in CGContextTextTests:
// hhea ascender 1901, descender −483; advances H 1540, e 1260, l 569, o 1253; glyph boxes H x 201…1339,
// y 0…1493; l y 0…1556; e and o y −29…1147, o x 113…1141.

/// DejaVu Sans font units at `size` points per em.
private func units(_ value: Double, size: Double) -> Double { value / 2048 * size }

/// CATextLayer drawn through the display mechanism: where the glyphs land, alignment, wrapping,
/// truncation, attributed strings, fonts, scale, and when it redraws.
final class CATextLayerTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    private func textLayer(_ string: Any?, width: CGFloat = 200, height: CGFloat = 40, size: CGFloat = 20) -> CATextLayer {
        let layer = CATextLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        layer.font = "DejaVu Sans"
        layer.fontSize = size
        layer.string = string
        CATransaction.flush()
        return layer
    }

    private func contents(_ layer: CALayer, file: StaticString = #filePath, line: UInt = #line) throws -> CGImage {
        try XCTUnwrap(layer.contents as? CGImage, "the text layer drew nothing", file: file, line: line)
    }

    // "Hello" at 20 pt: ink from H's left bearing to o's right edge, from l's top to the o's overshoot.
    private let helloAdvance = units(1540 + 1260 + 569 + 569 + 1253, size: 20)
    private let helloInkLeft = units(201, size: 20)
    private let helloInkRight = units(1540 + 1260 + 569 + 569 + 1141, size: 20)
    private let baseline = units(1901, size: 20)

    func testGlyphsLieInsideTheBoxTheFontTablesPredict() throws {
        let layer = textLayer("Hello")
        let image = try contents(layer)
        XCTAssertEqual([image.width, image.height], [200, 40])
        let ink = try XCTUnwrap(image.inkBounds())
        XCTAssertEqual(Double(ink.minX), helloInkLeft.rounded(.down), accuracy: 1)
        XCTAssertEqual(Double(ink.maxX + 1), helloInkRight.rounded(.up), accuracy: 1)
        XCTAssertEqual(Double(ink.minRow), (baseline - units(1556, size: 20)).rounded(.down), accuracy: 1)
        XCTAssertEqual(Double(ink.maxRow + 1), (baseline + units(29, size: 20)).rounded(.up), accuracy: 1)
        // The default color is opaque white: the middle of H's left stem.
        let stem = image.pixel(x: Int(helloInkLeft + 1), y: Int(baseline - units(700, size: 20)))
        XCTAssertEqual([stem.r, stem.g, stem.b, stem.a], [255, 255, 255, 255])
    }

    func testAlignmentPlacesTheLineWithinTheBounds() throws {
        let right = textLayer("Hello")
        right.alignmentMode = .right
        CATransaction.flush()
        let rightInk = try XCTUnwrap(try contents(right).inkBounds())
        // The advance ends at the right edge; o's ink stops 112 units before its advance.
        XCTAssertEqual(Double(rightInk.maxX + 1), (200 - units(1253 - 1141, size: 20)).rounded(.up), accuracy: 1)

        let center = textLayer("Hello")
        center.alignmentMode = .center
        CATransaction.flush()
        let centerInk = try XCTUnwrap(try contents(center).inkBounds())
        XCTAssertEqual(Double(centerInk.minX), ((200 - helloAdvance) / 2 + helloInkLeft).rounded(.down), accuracy: 1)
    }

    func testWrappingBreaksLinesAtTheWidth() throws {
        let unwrapped = textLayer("Hello Hello Hello", width: 120, height: 80)
        let wrapped = textLayer("Hello Hello Hello", width: 120, height: 80)
        wrapped.isWrapped = true
        CATransaction.flush()
        let one = try XCTUnwrap(try contents(unwrapped).inkBounds())
        let lines = try XCTUnwrap(try contents(wrapped).inkBounds())
        XCTAssertGreaterThan(one.maxX, 110, "unwrapped text runs to the edge of the bounds (and past it)")
        XCTAssertLessThan(lines.maxX, 120 - 10)
        // Three "Hello "s of 51 points each cannot share a 120-point line: at least two lines.
        XCTAssertGreaterThan(lines.maxRow - lines.minRow, 2 * Int(units(1901 + 483, size: 20)) - 10)
        XCTAssertGreaterThanOrEqual(CGContext.measureText(wrapped.textRuns(), in: wrapped.bounds, style: wrapped.layoutStyle).lineCount, 2)
    }

    func testTruncationEndsWithAnEllipsisInsideTheBounds() throws {
        let text = "Hello Hello Hello Hello"
        let full = textLayer(text, width: 100)
        let truncated = textLayer(text, width: 100)
        truncated.truncationMode = .end
        CATransaction.flush()
        let fullInk = try XCTUnwrap(try contents(full).inkBounds())
        let cutInk = try XCTUnwrap(try contents(truncated).inkBounds())
        let fullMetrics = CGContext.measureText(full.textRuns(), in: full.bounds, style: full.layoutStyle)
        XCTAssertGreaterThan(fullMetrics.size.width, 150, "four 'Hello's are about 220 points wide")
        XCTAssertGreaterThan(fullInk.maxX, 90, "the untruncated text runs to the edge and is cut there")
        let metrics = CGContext.measureText(truncated.textRuns(), in: truncated.bounds, style: truncated.layoutStyle)
        XCTAssertTrue(metrics.isEllipsized)
        XCTAssertLessThanOrEqual(metrics.size.width, 100, "the truncated string is narrower than the bounds")
        XCTAssertLessThan(cutInk.maxX, 100)
        // The ellipsis: three dots on the baseline at the end, so the last inked columns are low, short marks.
        let image = try contents(truncated)
        var lastColumnRows: [Int] = []
        for y in 0..<image.height where image.pixel(x: cutInk.maxX, y: y).a > 64 { lastColumnRows.append(y) }
        XCTAssertLessThanOrEqual(lastColumnRows.count, 4, "a dot, not a letter's stem")
        XCTAssertGreaterThan(lastColumnRows.min() ?? 0, Int(baseline - units(400, size: 20)), "on the baseline")
        XCTAssertFalse(CGContext.measureText(full.textRuns(), in: full.bounds, style: full.layoutStyle).isEllipsized)
    }

    func testAttributedStringRunsKeepTheirColors() throws {
        let string = NSMutableAttributedString(string: "HH")
        string.addAttribute(.foregroundColor, value: CGColor.opaqueRed, range: NSRange(location: 0, length: 1))
        string.addAttribute(.foregroundColor, value: CGColor.opaqueBlue, range: NSRange(location: 1, length: 1))
        let layer = textLayer(string)
        let image = try contents(layer)
        // Each H's left stem, fully inked: the first at its bearing, the second one advance later.
        let row = Int(baseline - units(700, size: 20))
        let first = image.pixel(x: Int(units(201, size: 20) + 1), y: row)
        let second = image.pixel(x: Int(units(1540 + 201, size: 20) + 1), y: row)
        XCTAssertEqual([first.r, first.g, first.b, first.a], [255, 0, 0, 255])
        XCTAssertEqual([second.r, second.g, second.b, second.a], [0, 0, 255, 255])
    }

    func testAnUnknownFontFallsBackWithADiagnostic() throws {
        let capture = DiagnosticCapture()
        let layer = CATextLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 40)
        layer.font = "No Such Font For CATextLayerTests"
        layer.fontSize = 20
        layer.string = "Hello"
        CATransaction.flush()
        XCTAssertTrue(capture.diagnostics.contains(.unknownFont(requested: "No Such Font For CATextLayerTests", fallback: "DejaVu Sans")))
        let ink = try XCTUnwrap(try contents(layer).inkBounds())
        XCTAssertEqual(Double(ink.maxX + 1), helloInkRight.rounded(.up), accuracy: 1, "drawn in DejaVu Sans")
    }

    func testAnEmptyStringDrawsNothing() throws {
        let layer = textLayer("Hello")
        XCTAssertNotNil(layer.contents)
        layer.string = ""
        CATransaction.flush()
        XCTAssertNil(layer.contents, "not the stale image")
        layer.string = nil
        CATransaction.flush()
        XCTAssertNil(layer.contents)
    }

    func testContentsScaleDrawsAtTheDisplaysScale() throws {
        let layer = textLayer("Hello", width: 100, height: 30)
        layer.contentsScale = 2
        CATransaction.flush()
        let image = try contents(layer)
        XCTAssertEqual([image.width, image.height], [200, 60])
        let ink = try XCTUnwrap(image.inkBounds())
        XCTAssertEqual(Double(ink.maxX + 1), (2 * helloInkRight).rounded(.up), accuracy: 1)
    }

    func testTextPropertiesRedrawAndSizeAndColorAnimateImplicitly() throws {
        let layer = textLayer("Hello")
        let first = try contents(layer)
        layer.foregroundColor = CGColor.opaqueRed
        layer.fontSize = 30
        XCTAssertTrue(layer.needsDisplay())
        XCTAssertEqual(Set(layer.animationKeys() ?? []), ["foregroundColor", "fontSize"])
        layer.isWrapped = true
        XCTAssertNil(layer.animation(forKey: "wrapped"))
        CATransaction.flush()
        XCTAssertFalse(try contents(layer) === first)
        // A bounds size change redraws (needsDisplayOnBoundsChange is on for text layers).
        XCTAssertTrue(layer.needsDisplayOnBoundsChange)
        layer.bounds = CGRect(x: 0, y: 0, width: 150, height: 40)
        XCTAssertTrue(layer.needsDisplay())
    }
}
