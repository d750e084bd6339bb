import LayerKitTestSupport
import XCTest

@testable import LayerKit

// Gradients: stop interpolation, and linear/radial shading at pixel centres against the formulas, with
// and without the extend options.

final class CGGradientTests: XCTestCase {
    private func redToBlue() throws -> CGGradient {
        try XCTUnwrap(CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: [.opaqueRed, .opaqueBlue], locations: [0, 1]))
    }

    /// Bytes of the red → blue gradient at `t` (0…1).
    private func redBlue(_ t: Double) -> [Int] { expectedBytes(1 - t, 0, t) }

    // MARK: CGGradient

    func testNilLocationsSpreadColorsEvenly() throws {
        let gradient = try XCTUnwrap(CGGradient(colorsSpace: nil, colors: [.opaqueRed, .opaqueGreen, .opaqueBlue], locations: nil))
        let mid = gradient.color(at: 0.5)
        XCTAssertEqual([mid.r, mid.g, mid.b, mid.a], [0, 1, 0, 1])
        let quarter = gradient.color(at: 0.25)
        XCTAssertEqual(quarter.r, 0.5, accuracy: 1e-12)
        XCTAssertEqual(quarter.g, 0.5, accuracy: 1e-12)
    }

    func testColorsHoldBeyondTheFirstAndLastLocations() throws {
        let gradient = try XCTUnwrap(CGGradient(colorsSpace: nil, colors: [.opaqueRed, .opaqueBlue], locations: [0.25, 0.75]))
        XCTAssertEqual(gradient.color(at: 0.1).r, 1)
        XCTAssertEqual(gradient.color(at: 0.9).b, 1)
        XCTAssertEqual(gradient.color(at: 0.5).r, 0.5, accuracy: 1e-12)
    }

    func testUnsortedLocationsAreSorted() throws {
        let gradient = try XCTUnwrap(CGGradient(colorsSpace: nil, colors: [.opaqueBlue, .opaqueRed], locations: [1, 0]))
        XCTAssertEqual(gradient.color(at: 0).r, 1)
        XCTAssertEqual(gradient.color(at: 1).b, 1)
    }

    func testComponentInitializerReadsColorsInTheSpace() throws {
        let components: [CGFloat] = [1, 0, 0, 1, 0, 0, 1, 0.5]
        let locations: [CGFloat] = [0, 1]
        let gradient = try XCTUnwrap(CGGradient(colorSpace: CGColorSpaceCreateDeviceRGB(), colorComponents: components, locations: locations, count: 2))
        let end = gradient.color(at: 1)
        XCTAssertEqual([end.r, end.g, end.b, end.a], [0, 0, 1, 0.5])
        let gray = try XCTUnwrap(CGGradient(colorSpace: CGColorSpaceCreateDeviceGray(), colorComponents: [0.25, 1, 0.75, 1], locations: nil, count: 2))
        XCTAssertEqual(gray.color(at: 0.5).g, 0.5, accuracy: 1e-12)
    }

    func testInvalidGradientsAreNil() {
        XCTAssertNil(CGGradient(colorsSpace: nil, colors: [], locations: nil))
        XCTAssertNil(CGGradient(colorsSpace: nil, colors: [.opaqueRed, .opaqueBlue], locations: [0]))
        XCTAssertNil(CGGradient(colorsSpace: nil, colors: [.opaqueRed, .opaqueBlue], locations: [0, .nan]))
    }

    // MARK: Linear

    func testLinearGradientMatchesTheFormulaAtPixelCentres() throws {
        let context = try makeTestContext(100, 4)
        context.drawLinearGradient(try redToBlue(), start: CGPoint(x: 0, y: 0), end: CGPoint(x: 100, y: 0), options: [])
        let image = try XCTUnwrap(context.makeImage())
        for x in stride(from: 0, to: 100, by: 7) {
            assertBytes(image.bytes(x, 2), redBlue((Double(x) + 0.5) / 100), "x \(x)")
        }
    }

    func testLinearGradientAlongAnObliqueAxisUnderATransform() throws {
        // Axis (0, 0) → (10, 10) in user space, user space scaled by 4: t = (x + y) / 80 in base space.
        let context = try makeTestContext(40, 40)
        context.scaleBy(x: 4, y: 4)
        context.drawLinearGradient(try redToBlue(), start: .zero, end: CGPoint(x: 10, y: 10), options: [])
        let image = try XCTUnwrap(context.makeImage())
        for (x, y) in [(3, 5), (20, 20), (39, 1), (12, 30)] {
            let t = ((Double(x) + 0.5) + (Double(y) + 0.5)) / 80
            assertBytes(image.bytes(x, 39 - y), redBlue(t), "base (\(x), \(y))")
        }
    }

    func testLinearGradientExtendsOnlyWhereAsked() throws {
        func draw(_ options: CGGradientDrawingOptions) throws -> CGImage {
            let context = try makeTestContext(100, 2)
            context.drawLinearGradient(try redToBlue(), start: CGPoint(x: 25, y: 0), end: CGPoint(x: 75, y: 0), options: options)
            return try XCTUnwrap(context.makeImage())
        }
        let none = try draw([]), before = try draw(.drawsBeforeStartLocation), after = try draw(.drawsAfterEndLocation)
        let both = try draw([.drawsBeforeStartLocation, .drawsAfterEndLocation])
        let clear = [0, 0, 0, 0]
        XCTAssertEqual(none.bytes(10, 0), clear)
        XCTAssertEqual(none.bytes(90, 0), clear)
        assertBytes(none.bytes(50, 0), redBlue(25.5 / 50))
        XCTAssertEqual(before.bytes(10, 0), [255, 0, 0, 255])
        XCTAssertEqual(before.bytes(90, 0), clear)
        XCTAssertEqual(after.bytes(10, 0), clear)
        XCTAssertEqual(after.bytes(90, 0), [0, 0, 255, 255])
        XCTAssertEqual(both.bytes(0, 0), [255, 0, 0, 255])
        XCTAssertEqual(both.bytes(99, 1), [0, 0, 255, 255])
        XCTAssertEqual(none.bytes(24, 0), clear)
        XCTAssertNotEqual(none.bytes(25, 0), clear)
        XCTAssertNotEqual(none.bytes(74, 0), clear)
        XCTAssertEqual(none.bytes(75, 0), clear)
    }

    func testGradientFillsOnlyTheClip() throws {
        let context = try makeTestContext(20, 20)
        context.clip(to: CGRect(x: 5, y: 5, width: 10, height: 10))
        context.drawLinearGradient(try redToBlue(), start: .zero, end: CGPoint(x: 20, y: 0), options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
        let image = try XCTUnwrap(context.makeImage())
        XCTAssertEqual(image.coveredArea, 100, accuracy: 0.01)
        assertBytes(image.bytes(5, 10), redBlue(5.5 / 20))
    }

    func testInterpolationIsOfUnpremultipliedColors() throws {
        // Transparent black → opaque white: halfway is gray 0.5 at alpha 0.5, premultiplied 0.25.
        let gradient = try XCTUnwrap(CGGradient(colorsSpace: nil, colors: [CGColor(gray: 0, alpha: 0), CGColor(gray: 1, alpha: 1)], locations: nil))
        let context = try makeTestContext(2, 1)
        context.drawLinearGradient(gradient, start: CGPoint(x: -1, y: 0), end: CGPoint(x: 2, y: 0), options: [])
        // Pixel 0's centre 0.5 is t = 0.5.
        assertBytes(try XCTUnwrap(context.makeImage()).bytes(0, 0), expectedBytes(0.5, 0.5, 0.5, 0.5))
    }

    func testCopyModeLeavesPixelsOutsideTheUnextendedGradient() throws {
        let context = try makeTestContext(100, 1)
        context.setFillColor(.opaqueGreen)
        context.fill(CGRect(x: 0, y: 0, width: 100, height: 1))
        context.setBlendMode(.copy)
        context.drawLinearGradient(try redToBlue(), start: CGPoint(x: 25, y: 0), end: CGPoint(x: 75, y: 0), options: [])
        let image = try XCTUnwrap(context.makeImage())
        XCTAssertEqual(image.bytes(10, 0), [0, 255, 0, 255])
        assertBytes(image.bytes(50, 0), redBlue(25.5 / 50))
    }

    func testGradientWithGlobalAlpha() throws {
        let context = try makeTestContext(100, 1)
        context.setAlpha(0.5)
        context.drawLinearGradient(try redToBlue(), start: CGPoint(x: 25, y: 0), end: CGPoint(x: 75, y: 0), options: [])
        let image = try XCTUnwrap(context.makeImage())
        XCTAssertEqual(image.bytes(10, 0), [0, 0, 0, 0])
        let t = 25.5 / 50
        assertBytes(image.bytes(50, 0), expectedBytes(1 - t, 0, t, 0.5))
    }

    // MARK: Radial

    func testConcentricRadialGradientMatchesDistanceOverRadius() throws {
        let context = try makeTestContext(100, 100)
        context.drawRadialGradient(try redToBlue(), startCenter: CGPoint(x: 50, y: 50), startRadius: 0, endCenter: CGPoint(x: 50, y: 50), endRadius: 40, options: [])
        let image = try XCTUnwrap(context.makeImage())
        for (x, y) in [(50, 50), (60, 50), (70, 80), (20, 35), (55, 12)] {
            let dx = Double(x) + 0.5 - 50, dy = Double(y) + 0.5 - 50
            let d = (dx * dx + dy * dy).squareRoot()
            let bytes = image.bytes(x, 99 - y)
            if d <= 40 {
                assertBytes(bytes, redBlue(d / 40), "(\(x), \(y)) at distance \(d)")
            } else {
                XCTAssertEqual(bytes, [0, 0, 0, 0], "(\(x), \(y)) at distance \(d)")
            }
        }
        XCTAssertEqual(image.bytes(95, 5), [0, 0, 0, 0])
    }

    func testRadialGradientExtendsInsideTheStartCircleAndOutsideTheEndCircle() throws {
        func draw(_ options: CGGradientDrawingOptions) throws -> CGImage {
            let context = try makeTestContext(100, 100)
            context.drawRadialGradient(try redToBlue(), startCenter: CGPoint(x: 50, y: 50), startRadius: 10, endCenter: CGPoint(x: 50, y: 50), endRadius: 30, options: options)
            return try XCTUnwrap(context.makeImage())
        }
        let none = try draw([]), before = try draw(.drawsBeforeStartLocation), after = try draw(.drawsAfterEndLocation)
        // Pixel (50, 49) is 0.5 from the centre: inside the start circle. Pixel (90, 49): 40.5 out.
        XCTAssertEqual(none.bytes(50, 50), [0, 0, 0, 0])
        XCTAssertEqual(before.bytes(50, 50), [255, 0, 0, 255])
        XCTAssertEqual(after.bytes(50, 50), [0, 0, 0, 0])
        XCTAssertEqual(none.bytes(90, 50), [0, 0, 0, 0])
        XCTAssertEqual(after.bytes(90, 50), [0, 0, 255, 255])
        XCTAssertEqual(before.bytes(90, 50), [0, 0, 0, 0])
        // Between the circles, t = (d − 10) / 20.
        assertBytes(none.bytes(70, 50), redBlue((20.5 - 10) / 20))
    }

    func testTwoCircleRadialGradientOnItsAxis() throws {
        // Start: a point at (30, 50.5); end: radius 40 around (50, 50.5). On the axis right of the start,
        // x − (30 + 20t) = 40t, so t = (x − 30) / 60.
        let context = try makeTestContext(100, 101)
        context.drawRadialGradient(try redToBlue(), startCenter: CGPoint(x: 30, y: 50.5), startRadius: 0, endCenter: CGPoint(x: 50, y: 50.5), endRadius: 40, options: [])
        let image = try XCTUnwrap(context.makeImage())
        for x in [31, 45, 60, 80, 88] {
            assertBytes(image.bytes(x, 50), redBlue((Double(x) + 0.5 - 30) / 60), "x \(x)")
        }
        XCTAssertEqual(image.bytes(92, 50), [0, 0, 0, 0], "past the end circle at x 90")
    }

    func testNegativeRadiusIsRefused() throws {
        let context = try makeTestContext(4, 4)
        let capture = DiagnosticCapture()
        context.drawRadialGradient(try redToBlue(), startCenter: .zero, startRadius: -1, endCenter: .zero, endRadius: 3, options: [])
        XCTAssertEqual(capture.names, ["invalidContextArgument"])
        XCTAssertEqual(try XCTUnwrap(context.makeImage()).coveredArea, 0)
    }
}
