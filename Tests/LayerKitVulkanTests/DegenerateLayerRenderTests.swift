import LayerKit
import LayerKitTestSupport
@testable import LayerKitVulkan
import XCTest

/// Degenerate layers — zero or negative size, a singular transform, refused non-finite values — draw
/// nothing wrong: the rest of the frame renders exactly and validation stays clean (checked in tearDown).
///
/// Each scene has a reference layer, a green 16×16 square at (40, 40), that must render untouched.
final class DegenerateLayerRenderTests: CARendererTestCase {
    func makeRootWithReference() -> CALayer {
        let root = makeRoot()
        makeLayer(CGRect(x: 40, y: 40, width: 16, height: 16), .testGreen, in: root)
        return root
    }

    func isReference(_ x: Int, _ y: Int) -> Bool { (40..<56).contains(x) && (40..<56).contains(y) }

    func testZeroSizeLayerDrawsNothingOfItsOwnButItsSublayersDraw() throws {
        // Core Animation does not clip to empty bounds unless asked: the sublayer still shows.
        let root = makeRootWithReference()
        let empty = makeLayer(CGRect(x: 8, y: 8, width: 0, height: 0), .testRed, in: root)
        empty.borderWidth = 3
        empty.cornerRadius = 4
        empty.contents = makeQuadrantImage(width: 2, height: 2)
        makeLayer(CGRect(x: 2, y: 2, width: 6, height: 4), .testBlue, in: empty)
        let zeroWidth = makeLayer(CGRect(x: 30, y: 8, width: 0, height: 20), .testRed, in: root)
        zeroWidth.borderWidth = 2
        let image = try render(root)
        assertPixels(image, "zero-size") { x, y in
            if self.isReference(x, y) { return .green }
            return (10..<16).contains(x) && (10..<14).contains(y) ? .blue : .clear
        }
    }

    func testZeroSizeLayerWithMasksToBoundsHidesItsSublayers() throws {
        let root = makeRootWithReference()
        let empty = makeLayer(CGRect(x: 8, y: 8, width: 0, height: 0), nil, in: root)
        empty.masksToBounds = true
        makeLayer(CGRect(x: 2, y: 2, width: 6, height: 4), .testBlue, in: empty)
        let image = try render(root)
        assertPixels(image, "empty-clip") { x, y in self.isReference(x, y) ? .green : .clear }
    }

    func testNegativeSizeLayerLeavesTheRestOfTheFrameIntact() throws {
        // Bounds with a negative width and height. What Core Animation draws inside the rectangle they
        // span is not pinned here; outside it nothing may appear, and the reference renders.
        let root = makeRootWithReference()
        let negative = CALayer()
        negative.bounds = CGRect(x: 0, y: 0, width: -12, height: -10)
        negative.position = CGPoint(x: 16, y: 16)
        negative.backgroundColor = .testRed
        negative.borderWidth = 2
        negative.cornerRadius = 3
        negative.contents = makeQuadrantImage(width: 2, height: 2)
        root.addSublayer(negative)
        let image = try render(root)
        // The standardized bounds (−12, −10) ..< (0, 0), anchor at their middle, placed at (16, 16):
        // (10, 11) ..< (22, 21). Allow one pixel around it.
        assertPixels(image, "negative-size") { x, y in
            if (9..<23).contains(x) && (10..<22).contains(y) { return nil }
            return self.isReference(x, y) ? .green : .clear
        }
    }

    func testSingularTransformDrawsNothingOfTheLayerOrItsSublayers() throws {
        let root = makeRootWithReference()
        let flatX = makeLayer(CGRect(x: 4, y: 4, width: 24, height: 24), .testRed, in: root)
        flatX.transform = CATransform3DMakeScale(0, 1, 1)
        makeLayer(CGRect(x: 0, y: 0, width: 8, height: 8), .testBlue, in: flatX)
        let flatAll = makeLayer(CGRect(x: 4, y: 36, width: 24, height: 24), .testRed, in: root)
        flatAll.transform = CATransform3DMakeScale(0, 0, 0)
        flatAll.borderWidth = 2
        let image = try render(root)
        assertPixels(image, "singular") { x, y in self.isReference(x, y) ? .green : .clear }
    }

    func testSingularSublayerTransformHidesOnlyTheSublayers() throws {
        let root = makeRootWithReference()
        let parent = makeLayer(CGRect(x: 4, y: 4, width: 24, height: 24), .testBlue, in: root)
        parent.sublayerTransform = CATransform3DMakeScale(1, 0, 1)
        makeLayer(CGRect(x: 0, y: 0, width: 24, height: 24), .testRed, in: parent)
        let image = try render(root)
        assertPixels(image, "singular-sublayer-transform") { x, y in
            if self.isReference(x, y) { return .green }
            return (4..<28).contains(x) && (4..<28).contains(y) ? .blue : .clear
        }
    }

    func testNonFiniteValuesAreRefusedAtTheModelAndTheLayerRendersWithItsPreviousValues() throws {
        let capture = DiagnosticCapture()
        let root = makeRootWithReference()
        let layer = makeLayer(CGRect(x: 8, y: 8, width: 16, height: 12), .testRed, in: root)
        layer.position = CGPoint(x: CGFloat.nan, y: 20)
        layer.bounds = CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 4)
        var transform = CATransform3DIdentity
        transform.m11 = .nan
        layer.transform = transform
        layer.opacity = .nan
        layer.cornerRadius = .infinity
        layer.borderWidth = -.infinity
        XCTAssertEqual(capture.names, Array(repeating: "nonFiniteGeometry", count: 6))
        XCTAssertEqual(layer.frame, CGRect(x: 8, y: 8, width: 16, height: 12))

        let image = try render(root)
        assertPixels(image, "refused-nan") { x, y in
            if self.isReference(x, y) { return .green }
            return (8..<24).contains(x) && (8..<20).contains(y) ? .red : .clear
        }
    }

    func testDegenerateLayersOnLaterFramesKeepValidationClean() throws {
        // Frame 1 normal; frame 2 the square collapses to zero size; frame 3 it comes back.
        let root = makeRootWithReference()
        let layer = makeLayer(CGRect(x: 8, y: 8, width: 16, height: 12), .testRed, in: root)
        let renderer = try makeRenderer()
        renderer.layer = root
        XCTAssertEqual(PixelRGBA(try renderFrame(renderer), 10, 10), .red)
        withoutAnimation { layer.bounds.size = .zero }
        let collapsed = try renderFrame(renderer, atTime: 1)
        assertPixels(collapsed, "collapsed") { x, y in self.isReference(x, y) ? .green : .clear }
        withoutAnimation { layer.bounds.size = CGSize(width: 16, height: 12) }
        XCTAssertEqual(PixelRGBA(try renderFrame(renderer, atTime: 2), 10, 10), .red)
    }
}
