import XCTest
@testable import LayerKit
import LayerKitTestSupport

/// Filters as layer properties: Core Image names and defaults, key paths through the filter's name, and
/// parameter animation (drawing filters is the render graph's work).
final class FilterParameterTests: XCTestCase {
    private var root: CALayer!

    override func setUp() {
        CATransaction.flush()
        root = CALayer()
    }

    private func blurredLayer(radius: CGFloat) -> CALayer {
        let layer = CALayer()
        root.addSublayer(layer)
        let blur = CIFilter(name: "CIGaussianBlur")!
        blur.name = "blur"
        blur.setValue(radius, forKey: "inputRadius")
        layer.filters = [blur]
        return layer
    }

    func testKnownFiltersHaveCoreImageDefaultsAndUnknownOnesAreRefused() {
        XCTAssertEqual(CIFilter(name: "CIGaussianBlur")?.value(forKey: "inputRadius") as? CGFloat, 10)
        XCTAssertEqual(CIFilter(name: "CIColorControls")?.inputKeys, ["inputBrightness", "inputContrast", "inputSaturation"])
        XCTAssertNil(CIFilter(name: "CINoSuchFilter"))
    }

    func testKeyPathReadsAndWritesAParameterThroughTheFiltersName() {
        let layer = blurredLayer(radius: 4)
        XCTAssertEqual(layer.value(forKeyPath: "filters.blur.inputRadius") as? CGFloat, 4)
        layer.setValue(7.5, forKeyPath: "filters.blur.inputRadius")
        XCTAssertEqual(layer.value(forKeyPath: "filters.blur.inputRadius") as? CGFloat, 7.5)
        XCTAssertEqual((layer.filters?.first as? CIFilter)?.name, "blur")
    }

    func testSettingFiltersCopiesThem() {
        let blur = CIFilter(name: "CIGaussianBlur")!
        let layer = CALayer()
        layer.filters = [blur]
        blur.setValue(99, forKey: "inputRadius")
        XCTAssertEqual(layer.value(forKeyPath: "filters.CIGaussianBlur.inputRadius") as? CGFloat, 10)
    }

    func testAFiltersParameterAnimates() throws {
        let layer = blurredLayer(radius: 0)
        let animation = AnimationTestKit.basic("filters.blur.inputRadius", from: 0, to: 20, duration: 2)
        layer.add(animation, forKey: "blur")
        let records = AnimationTestKit.commit(layer)
        XCTAssertEqual(records.count, 1)
        // Linear: 20 · 0.5/2 = 5 at t = 1000.5.
        let store = AnimationTestKit.evaluate(records, on: layer, at: 1000.5)
        let filters = try XCTUnwrap(store.value("filters") as? [CIFilter])
        XCTAssertEqual(filters.first?.value(forKey: "inputRadius") as? CGFloat, 5)
    }

    func testAnUnknownFilterNameInAKeyPathIsRefused() {
        let layer = blurredLayer(radius: 3)
        let capture = DiagnosticCapture()
        layer.setValue(2, forKeyPath: "filters.sharpen.inputRadius")
        XCTAssertEqual(capture.names, ["unknownKeyPath"])
        XCTAssertEqual(layer.value(forKeyPath: "filters.blur.inputRadius") as? CGFloat, 3)
    }

    func testNonFiniteParametersAreRefused() {
        let blur = CIFilter(name: "CIGaussianBlur")!
        let capture = DiagnosticCapture()
        blur.setValue(CGFloat.nan, forKey: "inputRadius")
        XCTAssertEqual(capture.names, ["nonFiniteGeometry"])
        XCTAssertEqual(blur.value(forKey: "inputRadius") as? CGFloat, 10)
    }
}
