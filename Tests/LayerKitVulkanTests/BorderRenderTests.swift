import LayerKit
@testable import LayerKitVulkan
import XCTest

/// `borderWidth` and `borderColor`: a ring inside the bounds, drawn above the contents and the
/// sublayers, following the rounded corners (inner radius = corner radius − border width).
final class BorderRenderTests: CARendererTestCase {
    /// The layer: 48×40 at (8, 8).
    let layerFrame = CGRect(x: 8, y: 8, width: 48, height: 40)

    func isInRing(_ x: Int, _ y: Int, width: Int) -> Bool? {
        guard (8..<56).contains(x), (8..<48).contains(y) else { return nil }
        return x < 8 + width || x >= 56 - width || y < 8 + width || y >= 48 - width
    }

    func testBorderIsDrawnInsideTheBoundsOverTheBackground() throws {
        let root = makeRoot()
        let layer = makeLayer(layerFrame, .testBlue, in: root)
        layer.borderWidth = 4
        layer.borderColor = .testRed
        let image = try render(root)
        assertPixels(image, "border-4") { x, y in
            self.isInRing(x, y, width: 4).map { $0 ? .red : .blue } ?? .clear
        }
    }

    func testDefaultBorderColorIsOpaqueBlack() throws {
        let root = makeRoot()
        let layer = makeLayer(layerFrame, .testWhite, in: root)
        layer.borderWidth = 2
        let image = try render(root)
        assertPixels(image, "default-black") { x, y in
            self.isInRing(x, y, width: 2).map { $0 ? .black : .white } ?? .clear
        }
    }

    func testBorderCoversSublayersBeneathIt() throws {
        // A green sublayer larger than the layer: the border is drawn over it; outside the bounds the
        // sublayer still shows (no masksToBounds).
        let root = makeRoot()
        let layer = makeLayer(layerFrame, nil, in: root)
        layer.borderWidth = 3
        layer.borderColor = .testRed
        makeLayer(CGRect(x: -4, y: -4, width: 56, height: 48), .testGreen, in: layer)
        let image = try render(root)
        assertPixels(image, "border-over-sublayer") { x, y in
            if let ring = self.isInRing(x, y, width: 3) { return ring ? .red : .green }
            return (4..<60).contains(x) && (4..<52).contains(y) ? .green : .clear
        }
    }

    func testBorderCoversContents() throws {
        let root = makeRoot()
        let layer = makeLayer(layerFrame, nil, in: root)
        layer.contents = makeImage(width: 4, height: 4) { _, _ in .yellow }
        layer.borderWidth = 5
        layer.borderColor = .testBlue
        let image = try render(root)
        assertPixels(image, "border-over-contents") { x, y in
            self.isInRing(x, y, width: 5).map { $0 ? .blue : .yellow } ?? .clear
        }
    }

    func testTranslucentBorderBlendsOverTheBackground() throws {
        // Straight red at alpha 0.5 over opaque blue: (0.5, 0, 0.5, 1).
        let root = makeRoot()
        let layer = makeLayer(layerFrame, .testBlue, in: root)
        layer.borderWidth = 4
        layer.borderColor = CGColor(red: 1, green: 0, blue: 0, alpha: 0.5)
        let image = try render(root)
        assertPixels(image, "translucent-border", tolerance: 1) { x, y in
            self.isInRing(x, y, width: 4).map { $0 ? PixelRGBA(premultiplied: 0.5, 0, 0.5, 1) : .blue } ?? .clear
        }
    }

    func testRoundedBorderFollowsTheCorners() throws {
        // Radius 12, width 4: the ring between the rounded rect and its 4-point inset with radius 8.
        // Coverage tolerance 0.06 as in CornerRadiusRenderTests (a pixel meets one of the two edges).
        let root = makeRoot()
        let layer = makeLayer(layerFrame, nil, in: root)
        layer.cornerRadius = 12
        layer.borderWidth = 4
        layer.borderColor = .testWhite
        let image = try render(root)
        let outer = RoundedRectShape(layerFrame, radius: 12)
        let inner = RoundedRectShape(layerFrame.insetBy(dx: 4, dy: 4), radius: 8)
        assertPixels(image, "rounded-border-probes", probes: [
            Probe("outside the outer arc", 8, 8, .clear), Probe("straight top edge", 32, 9, .white),
            Probe("inside the inner arc", 15, 15, .clear), Probe("centre", 32, 28, .clear),
            Probe("ring across the arc", 12, 12, .white),
        ])
        struct Ring: PixelRegion {
            var outer, inner: RoundedRectShape
            func contains(_ x: Double, _ y: Double) -> Bool { outer.contains(x, y) && !inner.contains(x, y) }
            func signedDistance(_ x: Double, _ y: Double) -> Double {
                max(outer.signedDistance(x, y), -inner.signedDistance(x, y))
            }
        }
        let ring = Ring(outer: outer, inner: inner)
        assertCoverage(image, "rounded-border", tolerance: 0.06) { x, y in self.areaCoverage(x: x, y: y, of: ring) }
    }

    func testBorderWiderThanHalfTheLayerFillsIt() throws {
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 8, y: 8, width: 20, height: 10), .testBlue, in: root)
        layer.borderWidth = 30
        layer.borderColor = .testRed
        let image = try render(root)
        assertPixels(image, "wide-border") { x, y in
            (8..<28).contains(x) && (8..<18).contains(y) ? .red : .clear
        }
    }
}
