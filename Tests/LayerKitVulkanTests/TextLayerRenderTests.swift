import Foundation
import LayerKit
import LayerKitTestSupport
@testable import LayerKitVulkan
import XCTest

// Expectations from DejaVu Sans's tables (units per em 2048): ascender 1901; advances H 1540, e 1260,
// l 569, o 1253; H's ink starts at x 201; l's top is 1556 above the baseline; e and o overshoot it by 29;
// o's ink ends at 1141 of its advance.

/// DejaVu Sans font units at `size` points per em.
private func units(_ value: Double, size: Double = 20) -> Double { value / 2048 * size }

/// CATextLayer through CARenderer: the glyphs land in the box the font's tables predict, truncation
/// keeps them inside the bounds, and text is crisp at the display's scale.
final class TextLayerRenderTests: CARendererTestCase {
    private let frame = CGRect(x: 8, y: 6, width: 120, height: 30)

    private func makeText(_ string: Any?, in root: CALayer, frame: CGRect? = nil) -> CATextLayer {
        let text = CATextLayer()
        text.frame = frame ?? self.frame
        text.font = "DejaVu Sans"
        text.fontSize = 20
        text.string = string
        root.addSublayer(text)
        return text
    }

    /// The inked pixels' box: (minX, minY, maxX, maxY), inclusive.
    private func ink(_ image: CGImage) -> (Int, Int, Int, Int)? {
        var box: (Int, Int, Int, Int)?
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixel(x: x, y: y).a > 0 {
                box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
            }
        }
        return box
    }

    func testGlyphPixelsLieOnlyInsideTheExpectedBox() throws {
        let root = makeRoot(width: 160, height: 48)
        makeText("Hello", in: root)
        let image = try render(root, width: 160, height: 48)
        let box = try XCTUnwrap(ink(image))
        let baseline = 6 + units(1901)
        let left = 8 + units(201), right = 8 + units(1540 + 1260 + 569 + 569 + 1141)
        let top = baseline - units(1556), bottom = baseline + units(29)
        XCTAssertEqual(Double(box.0), left.rounded(.down), accuracy: 1)
        XCTAssertEqual(Double(box.2 + 1), right.rounded(.up), accuracy: 1)
        XCTAssertEqual(Double(box.1), top.rounded(.down), accuracy: 1)
        XCTAssertEqual(Double(box.3 + 1), bottom.rounded(.up), accuracy: 1)
        // Solid white in H's left stem.
        XCTAssertEqual(PixelRGBA(image, Int(left + 1), Int(baseline - units(700))), .white)
    }

    func testTruncatedTextEndsWithAnEllipsisInsideItsBounds() throws {
        let text = "Hello Hello Hello Hello"
        let narrow = CGRect(x: 8, y: 6, width: 100, height: 30)
        // Both layers in a wide target: what is drawn beyond the bounds would show.
        let root = makeRoot(width: 160, height: 80)
        let cut = makeText(text, in: root, frame: narrow)
        cut.truncationMode = .end
        let full = makeText(text, in: root, frame: narrow.offsetBy(dx: 0, dy: 40))
        let image = try render(root, width: 160, height: 80)
        var cutRight = 0, fullRight = 0
        for y in 0..<80 {
            for x in 0..<160 where image.pixel(x: x, y: y).a > 0 {
                if y < 40 { cutRight = max(cutRight, x) } else { fullRight = max(fullRight, x) }
            }
        }
        XCTAssertLessThan(cutRight, 107, "truncated: narrower than the bounds (their last column is 107)")
        XCTAssertGreaterThan(cutRight, 90, "the ellipsis reaches toward the edge")
        XCTAssertGreaterThanOrEqual(fullRight, 100, "untruncated text fills the bounds up to their edge")
        XCTAssertLessThanOrEqual(fullRight, 107, "contents never draw outside the bounds")
        XCTAssertTrue(CGContext.measureText(cut.textRuns(), in: cut.bounds, style: cut.layoutStyle).isEllipsized)
        _ = full
    }

    func testTextIsCrispAtTheDisplaysScale() throws {
        // At 2 pixels per point with contentsScale 2 the backing store maps 1:1 onto the target: the same
        // glyph box, doubled.
        let root = makeRoot(width: 80, height: 24)
        let text = makeText("Hello", in: root, frame: CGRect(x: 4, y: 3, width: 70, height: 20))
        text.contentsScale = 2
        let image = try render(root, width: 160, height: 48, scale: 2)
        let box = try XCTUnwrap(ink(image))
        XCTAssertEqual(Double(box.0), (2 * (4 + units(201))).rounded(.down), accuracy: 1)
        XCTAssertEqual(Double(box.2 + 1), (2 * (4 + units(1540 + 1260 + 569 + 569 + 1141))).rounded(.up), accuracy: 1)
        let stemX = Int(2 * (4 + units(201)) + 1.5), stemY = Int(2 * (3 + units(1901) - units(700)))
        XCTAssertEqual(PixelRGBA(image, stemX, stemY), .white, "a 2-pixel stem at 2× is solid")
    }

    func testEmptyStringsDrawNothingAndAnUnknownFontFallsBack() throws {
        let capture = DiagnosticCapture()
        let root = makeRoot(width: 160, height: 48)
        makeText("", in: root)
        makeText(nil, in: root)
        let unknown = makeText("Hello", in: root)
        unknown.font = "No Such Font For TextLayerRenderTests"
        let image = try render(root, width: 160, height: 48)
        XCTAssertTrue(capture.diagnostics.contains(.unknownFont(requested: "No Such Font For TextLayerRenderTests", fallback: "DejaVu Sans")))
        let box = try XCTUnwrap(ink(image), "the fallback font draws")
        XCTAssertEqual(Double(box.2 + 1), (8 + units(1540 + 1260 + 569 + 569 + 1141)).rounded(.up), accuracy: 1)
    }
}
