import LayerKit
@testable import LayerKitVulkan
import XCTest

/// `cornerRadius` and `maskedCorners`: rounded backgrounds, with coverage checked at pixel centres.
///
/// Expected coverage is the area of each pixel's square inside the rounded rectangle, sampled here on a
/// 64×64 grid. The renderer antialiases an arc over one pixel along its normal, which differs from the
/// true area by at most about 0.043 (a 45° edge through a pixel); with the 1/64 sampling error the
/// stated tolerance is 0.06 of coverage (16 of 255). Pixels well outside the arc must be exactly clear
/// and pixels well inside exactly the color.
final class CornerRadiusRenderTests: CARendererTestCase {
    /// The layer: 48×40 at (8, 8), opaque white.
    let layerFrame = CGRect(x: 8, y: 8, width: 48, height: 40)
    let coverageTolerance = 0.06

    func makeScene(radius: CGFloat, maskedCorners: CACornerMask? = nil) -> CALayer {
        let root = makeRoot()
        let layer = makeLayer(layerFrame, .testWhite, in: root)
        layer.cornerRadius = radius
        if let maskedCorners { layer.maskedCorners = maskedCorners }
        return root
    }

    func testRoundedBackgroundCoverageMatchesTheArcArea() throws {
        let image = try render(makeScene(radius: 12))
        // Corner pixel (8, 8): its centre is 12√2 − 12 − 0.5√2 ≈ 4.3 px outside the arc. Pixel (12, 12):
        // its centre (4.5, 4.5) from the corner is 7.5√2 ≈ 10.6 < 12 − 0.71 from the arc centre.
        assertPixels(image, "corners", probes: [
            Probe("top-left corner", 8, 8, .clear), Probe("top-right corner", 55, 8, .clear),
            Probe("bottom-left corner", 8, 47, .clear), Probe("bottom-right corner", 55, 47, .clear),
            Probe("inside top-left arc", 12, 12, .white), Probe("straight top edge", 32, 8, .white),
            Probe("straight left edge", 8, 28, .white), Probe("just outside", 7, 28, .clear),
        ])
        // An edge pixel the arc crosses: (10, 12), centre (2.5, 4.5) from the corner, 9.5 and 7.5 from the
        // arc centre: 12.10 − 12 = 0.10 outside, so roughly 0.4 covered.
        let shape = RoundedRectShape(layerFrame, radius: 12)
        let edge = areaCoverage(x: 10, y: 12, of: shape)
        XCTAssertGreaterThan(edge, 0.2)
        XCTAssertLessThan(edge, 0.8)
        XCTAssertEqual(coverage(image, 10, 12), edge, accuracy: coverageTolerance)
        assertCoverage(image, "rounded-12", tolerance: coverageTolerance) { x, y in self.areaCoverage(x: x, y: y, of: shape) }
    }

    func testMaskedCornersRoundOnlyTheChosenCorners() throws {
        // iOS naming, y down: layerMinXMinYCorner is the top-left, layerMaxXMaxYCorner the bottom-right.
        let image = try render(makeScene(radius: 12, maskedCorners: [.layerMinXMinYCorner, .layerMaxXMaxYCorner]))
        assertPixels(image, "masked-corners", probes: [
            Probe("top-left (rounded)", 8, 8, .clear), Probe("top-right (square)", 55, 8, .white),
            Probe("bottom-left (square)", 8, 47, .white), Probe("bottom-right (rounded)", 55, 47, .clear),
        ])
        let shape = RoundedRectShape(layerFrame, radii: (12, 0, 12, 0))
        assertCoverage(image, "masked-tl-br", tolerance: coverageTolerance) { x, y in self.areaCoverage(x: x, y: y, of: shape) }
    }

    func testMaskedCornersMaxXMinYAndMinXMaxYAreTopRightAndBottomLeft() throws {
        let image = try render(makeScene(radius: 12, maskedCorners: [.layerMaxXMinYCorner, .layerMinXMaxYCorner]))
        let shape = RoundedRectShape(layerFrame, radii: (0, 12, 0, 12))
        assertPixels(image, "masked-tr-bl-probes", probes: [
            Probe("top-left (square)", 8, 8, .white), Probe("top-right (rounded)", 55, 8, .clear),
            Probe("bottom-left (rounded)", 8, 47, .clear), Probe("bottom-right (square)", 55, 47, .white),
        ])
        assertCoverage(image, "masked-tr-bl", tolerance: coverageTolerance) { x, y in self.areaCoverage(x: x, y: y, of: shape) }
    }

    func testEmptyMaskedCornersRoundNothing() throws {
        let image = try render(makeScene(radius: 12, maskedCorners: []))
        assertPixels(image, "no-corners") { x, y in
            self.layerFrame.contains(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)) ? .white : .clear
        }
    }

    func testRadiusOfHalfTheShorterSideMakesACapsule() throws {
        // 48×40 with radius 20: the left and right ends are half discs.
        let image = try render(makeScene(radius: 20))
        let shape = RoundedRectShape(layerFrame, radius: 20)
        assertCoverage(image, "capsule", tolerance: coverageTolerance) { x, y in self.areaCoverage(x: x, y: y, of: shape) }
    }

    func testTranslucentRoundedBackgroundScalesByCoverage() throws {
        // Straight green at alpha 0.5: a pixel shows (0, 0.5, 0, 0.5) × coverage.
        let root = makeRoot()
        let layer = makeLayer(layerFrame, CGColor(red: 0, green: 1, blue: 0, alpha: 0.5), in: root)
        layer.cornerRadius = 12
        let image = try render(root)
        let shape = RoundedRectShape(layerFrame, radius: 12)
        assertPixels(image, "translucent-rounded", tolerance: 9) { x, y in
            PixelRGBA(premultiplied: 0, 0.5, 0, 0.5).scaled(by: self.areaCoverage(x: x, y: y, of: shape))
        }
    }

    func testCornerRadiusDoesNotClipContentsOrSublayersWithoutMasksToBounds() throws {
        // Core Animation rounds only the background and border unless masksToBounds is set.
        let root = makeRoot()
        let layer = makeLayer(layerFrame, nil, in: root)
        layer.cornerRadius = 12
        layer.contents = makeImage(width: 4, height: 4) { _, _ in .red }
        makeLayer(CGRect(x: 36, y: 28, width: 12, height: 12), .testBlue, in: layer)
        let image = try render(root)
        assertPixels(image, "unclipped", probes: [
            Probe("contents at the top-left corner", 8, 8, .red), Probe("contents at the top-right corner", 55, 8, .red),
            Probe("sublayer at the bottom-right corner", 55, 47, .blue),
        ])
    }
}
