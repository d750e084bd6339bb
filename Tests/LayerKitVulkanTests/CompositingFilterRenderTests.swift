import Foundation
import LayerKit
import LayerKitTestSupport
@testable import LayerKitVulkan
import XCTest

/// `compositingFilter`: each blend mode's formula at sample pixels (W3C Compositing and Blending, on
/// premultiplied colours: source s, backdrop b), worked out here in Double.
///
/// The backdrop is opaque (0.2, 0.6, 0.8) over the whole target; the source layer, 32×32 at (16, 16), is
/// (0.5, 0.25, 1) at alpha `a`. Opaque source: multiply s·b, screen s + b − s·b, darken min, lighten max,
/// exclusion s + b − 2·s·b, addition min(s + b, 1). Translucent source (premultiplied s' = a·s):
/// multiply s'·b + b·(1 − a), screen s' + b − s'·b. Tolerance 1/255 (8-bit rounding of inputs and output).
final class CompositingFilterRenderTests: CARendererTestCase {
    let backdrop = (0.2, 0.6, 0.8)
    let source = (0.5, 0.25, 1.0)

    func scene(_ filter: Any?, alpha: Double = 1, sublayers: Bool = false) -> CALayer {
        let root = makeRoot()
        makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), CGColor(red: backdrop.0, green: backdrop.1, blue: backdrop.2, alpha: 1), in: root)
        let color = CGColor(red: source.0, green: source.1, blue: source.2, alpha: alpha)
        let layer = makeLayer(CGRect(x: 16, y: 16, width: 32, height: 32), sublayers ? nil : color, in: root)
        if sublayers {
            makeLayer(CGRect(x: 0, y: 0, width: 20, height: 32), color, in: layer)
            makeLayer(CGRect(x: 12, y: 0, width: 20, height: 32), color, in: layer)
        }
        layer.compositingFilter = filter
        return root
    }

    func assertBlend(_ filter: Any, alpha: Double = 1, _ formula: (Double, Double) -> Double, sublayers: Bool = false,
                     file: StaticString = #filePath, line: UInt = #line) throws {
        let image = try render(scene(filter, alpha: alpha, sublayers: sublayers))
        let s = [source.0, source.1, source.2].map { $0 * alpha }
        let b = [backdrop.0, backdrop.1, backdrop.2]
        let inside = PixelRGBA(premultiplied: formula(s[0], b[0]), formula(s[1], b[1]), formula(s[2], b[2]), 1)
        assertPixels(image, "\(filter)", tolerance: 1, file: file, line: line, probes: [
            Probe("inside", 30, 30, inside), Probe("outside", 8, 8, PixelRGBA(premultiplied: b[0], b[1], b[2], 1)),
        ])
    }

    func testMultiply() throws { try assertBlend("multiplyBlendMode") { s, b in s * b } }
    func testScreen() throws { try assertBlend("screenBlendMode") { s, b in s + b - s * b } }
    func testDarken() throws { try assertBlend("darkenBlendMode") { s, b in min(s, b) } }
    func testLighten() throws { try assertBlend("lightenBlendMode") { s, b in max(s, b) } }
    func testExclusion() throws { try assertBlend("exclusionBlendMode") { s, b in s + b - 2 * s * b } }
    func testAddition() throws { try assertBlend(CIFilter(name: "CIAdditionCompositing") as Any? ?? "CIAdditionCompositing") { s, b in min(s + b, 1) } }

    func testTranslucentMultiplyAndScreen() throws {
        try assertBlend("multiplyBlendMode", alpha: 0.5) { s, b in s * b + b * 0.5 }
        try assertBlend("screenBlendMode", alpha: 0.5) { s, b in s + b - s * b }
    }

    func testALayerOfSeveralDrawsBlendsItsComposite() throws {
        // Two overlapping opaque sublayers: multiplied once (their composite), not twice where they overlap.
        let renderer = try makeRenderer()
        renderer.layer = scene("multiplyBlendMode", sublayers: true)
        let image = try renderFrame(renderer)
        let multiplied = PixelRGBA(premultiplied: source.0 * backdrop.0, source.1 * backdrop.1, source.2 * backdrop.2, 1)
        assertPixels(image, "flattened-multiply", tolerance: 1, probes: [Probe("overlap", 30, 30, multiplied), Probe("one", 18, 30, multiplied)])
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.compositingFilter])
    }

    func testAModeThatNeedsTheBackdropIsReportedAndDrawnSourceOver() throws {
        let diagnostics = DiagnosticCapture()
        let image = try render(scene("overlayBlendMode"))
        XCTAssertEqual(diagnostics.names.filter { $0 == "filterNotDrawn" }.count, 1)
        XCTAssertEqual(PixelRGBA(image, 30, 30), PixelRGBA(premultiplied: source.0, source.1, source.2, 1))
    }
}
