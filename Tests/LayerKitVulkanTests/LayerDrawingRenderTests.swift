import Foundation
import LayerKit
@testable import LayerKitVulkan
import XCTest

/// Layers that draw their contents with `draw(in:)` or a delegate, through CARenderer: crisp at the
/// display's scale, partial redraws, redraws on bounds changes, and a drawn property animated frame by
/// frame. Expected pixels come from the drawing calls (whole-pixel rectangles, a curve's apex worked out
/// from its control points).
final class LayerDrawingRenderTests: CARendererTestCase {
    /// Fills `fills` (layer space) in `draw(in:)`.
    final class FillLayer: CALayer {
        var fills: [(CGRect, CGColor)] = []
        override init() { super.init() }
        required init(layer: Any) {
            super.init(layer: layer)
            fills = (layer as? FillLayer)?.fills ?? []
        }
        override func draw(in ctx: CGContext) {
            for (rect, color) in fills {
                ctx.setFillColor(color)
                ctx.fill(rect)
            }
        }
    }

    /// Strokes a quadratic Bézier from (4, 32) to (60, 32) whose control point is an animatable custom
    /// property, 2 points wide, in white.
    final class CurveLayer: CALayer {
        var controlPoint: CGPoint {
            get { value(forKey: "controlPoint") as? CGPoint ?? .zero }
            set { setValue(newValue, forKey: "controlPoint") }
        }
        override class func needsDisplay(forKey key: String) -> Bool {
            key == "controlPoint" || super.needsDisplay(forKey: key)
        }
        override class func defaultValue(forKey key: String) -> Any? {
            key == "controlPoint" ? CGPoint(x: 32, y: 32) : super.defaultValue(forKey: key)
        }
        override func draw(in ctx: CGContext) {
            ctx.move(to: CGPoint(x: 4, y: 32))
            ctx.addQuadCurve(to: CGPoint(x: 60, y: 32), control: controlPoint)
            ctx.setStrokeColor(.testWhite)
            ctx.setLineWidth(2)
            ctx.strokePath()
        }
    }

    private final class Delegate: CALayerDelegate {
        func draw(_ layer: CALayer, in ctx: CGContext) {
            ctx.setFillColor(.testBlue)
            ctx.fill(CGRect(x: 4, y: 2, width: 8, height: 6))
        }
    }

    private func inside(_ rect: CGRect, _ x: Int, _ y: Int) -> Bool {
        rect.contains(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5))
    }

    func testDrawnContentsAreCrispAtTheDisplaysScale() throws {
        // 2 pixels per point and contentsScale 2: the backing store maps 1:1 onto the target.
        let root = makeRoot()
        let layer = FillLayer()
        layer.frame = CGRect(x: 8, y: 8, width: 24, height: 16)
        layer.contentsScale = 2
        layer.fills = [(CGRect(x: 2, y: 2, width: 10, height: 5), .testRed), (CGRect(x: 0, y: 0, width: 0.5, height: 0.5), .testGreen)]
        layer.setNeedsDisplay()
        root.addSublayer(layer)
        let image = try render(root, width: 128, height: 128, scale: 2)
        assertPixels(image, "crisp") { x, y in
            if (16..<17).contains(x) && (16..<17).contains(y) { return .green }
            return self.inside(CGRect(x: 20, y: 20, width: 20, height: 10), x, y) ? .red : .clear
        }
    }

    func testADelegatesDrawingIsShown() throws {
        let root = makeRoot()
        let delegate = Delegate()
        let layer = CALayer()
        layer.frame = CGRect(x: 10, y: 20, width: 30, height: 20)
        layer.delegate = delegate
        layer.setNeedsDisplay()
        root.addSublayer(layer)
        let image = try render(root)
        assertPixels(image, "delegate") { x, y in self.inside(CGRect(x: 14, y: 22, width: 8, height: 6), x, y) ? .blue : .clear }
    }

    func testPartialRedrawChangesAndReuploadsOnlyItsRect() throws {
        let root = makeRoot()
        let layer = FillLayer()
        layer.frame = CGRect(x: 16, y: 16, width: 32, height: 32)
        layer.fills = [(layer.bounds, .testRed)]
        layer.setNeedsDisplay()
        root.addSublayer(layer)
        let renderer = try makeRenderer()
        renderer.layer = root
        _ = try renderFrame(renderer)
        layer.fills = [(layer.bounds, .testGreen)]
        layer.setNeedsDisplay(CGRect(x: 8, y: 4, width: 12, height: 6))
        let image = try renderFrame(renderer, atTime: 1)
        assertPixels(image, "partial") { x, y in
            guard self.inside(CGRect(x: 16, y: 16, width: 32, height: 32), x, y) else { return .clear }
            return self.inside(CGRect(x: 24, y: 20, width: 12, height: 6), x, y) ? .green : .red
        }
        // Only the redrawn rect goes to the GPU: 12 × 6 pixels × 4 bytes.
        XCTAssertEqual(renderer.lastFrameStatistics.bytesUploaded, 12 * 6 * 4)
    }

    func testNeedsDisplayOnBoundsChangeRedrawsAtTheNewSize() throws {
        // A 4×4 square at the top-left corner: redrawn it stays 4×4; stretched it would grow with the layer.
        func scene(redraws: Bool) throws -> CGImage {
            let root = makeRoot()
            let layer = FillLayer()
            layer.anchorPoint = .zero
            layer.position = CGPoint(x: 8, y: 8)
            layer.bounds = CGRect(x: 0, y: 0, width: 16, height: 16)
            layer.fills = [(CGRect(x: 0, y: 0, width: 4, height: 4), .testRed)]
            layer.needsDisplayOnBoundsChange = redraws
            layer.magnificationFilter = .nearest  // a stretched image shows whole texels
            layer.setNeedsDisplay()
            root.addSublayer(layer)
            let renderer = try makeRenderer()
            renderer.layer = root
            _ = try renderFrame(renderer)
            withoutAnimation { layer.bounds = CGRect(x: 0, y: 0, width: 32, height: 32) }
            return try renderFrame(renderer, atTime: 1)
        }
        assertPixels(try scene(redraws: true), "redrawn") { x, y in self.inside(CGRect(x: 8, y: 8, width: 4, height: 4), x, y) ? .red : .clear }
        assertPixels(try scene(redraws: false), "stretched") { x, y in self.inside(CGRect(x: 8, y: 8, width: 8, height: 8), x, y) ? .red : .clear }
    }

    func testAnAnimatedControlPointRedrawsEachFrameWithPresentationValues() throws {
        // The curve's apex (t = ½) is at y = ¼·32 + ½·cy + ¼·32, at x = 32. The control point's y runs
        // from 32 to −32 over 100…102 s: cy = 16 at 100.5 s (apex 24), 0 at 101 s (apex 16). The 2-point
        // stroke covers rows apex − 1 and apex there (within Cairo's 0.1-pixel curve flattening).
        let root = makeRoot()
        let curve = CurveLayer()
        curve.frame = root.bounds
        curve.setNeedsDisplay()
        root.addSublayer(curve)
        let renderer = try makeRenderer()
        renderer.layer = root
        let flat = try renderFrame(renderer)
        XCTAssertEqual(PixelRGBA(flat, 32, 31), .white, "the model's control point: a straight line at y = 32")
        let bend = CABasicAnimation(keyPath: "controlPoint")
        bend.fromValue = CGPoint(x: 32, y: 32)
        bend.toValue = CGPoint(x: 32, y: -32)
        bend.beginTime = 100
        bend.duration = 2
        bend.timingFunction = CAMediaTimingFunction(name: .linear)
        curve.add(bend, forKey: "bend")
        let first = try renderFrame(renderer, atTime: 100.5)
        assertPixels(first, "apex-24", tolerance: 12, probes: [
            Probe("apex row 23", 32, 23, .white), Probe("apex row 24", 32, 24, .white),
            Probe("above", 32, 21, .clear), Probe("below", 32, 26, .clear), Probe("model line gone", 32, 31, .clear),
        ])
        let second = try renderFrame(renderer, atTime: 101)
        assertPixels(second, "apex-16", tolerance: 12, probes: [
            Probe("apex row 15", 32, 15, .white), Probe("apex row 16", 32, 16, .white),
            Probe("previous apex", 32, 23, .clear),
        ])
        XCTAssertNotEqual(first.pixelData, second.pixelData)
        XCTAssertEqual(curve.controlPoint, CGPoint(x: 32, y: 32), "the model keeps its value")
    }
}
