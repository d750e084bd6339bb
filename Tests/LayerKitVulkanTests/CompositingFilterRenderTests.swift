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

    func testAMaskedLayerBlendsItsMaskedCompositeWithTheBackdrop() throws {
        // Overlay reads the backdrop; the mask keeps the layer's left half (16 of its 32 pt). Left: W3C's
        // overlay of source and backdrop; right: the backdrop alone, untouched.
        let root = scene("overlayBlendMode")
        let layer = root.sublayers![1]
        let mask = CALayer()
        mask.frame = CGRect(x: 0, y: 0, width: 16, height: 32)
        mask.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        layer.mask = mask
        let overlay: (Double, Double) -> Double = { s, b in b <= 0.5 ? 2 * s * b : 1 - 2 * (1 - s) * (1 - b) }
        let image = try render(root)
        assertPixels(image, "masked-overlay", tolerance: 1, probes: [
            Probe("masked in", 24, 30, PixelRGBA(premultiplied: overlay(source.0, backdrop.0), overlay(source.1, backdrop.1),
                                                 overlay(source.2, backdrop.2), 1)),
            Probe("masked out", 40, 30, PixelRGBA(premultiplied: backdrop.0, backdrop.1, backdrop.2, 1)),
        ])
    }

    func testAnUnknownModeIsReportedAndDrawnSourceOver() throws {
        let diagnostics = DiagnosticCapture()
        let image = try render(scene("sparkleBlendMode"))
        XCTAssertEqual(diagnostics.names.filter { $0 == "filterNotDrawn" }.count, 1)
        // Vulkan converts a float to either of the two nearest 8-bit levels: 0.5 (127.5) may be 127 or 128.
        assertPixels(image, "unknown-mode", tolerance: 1, probes: [
            Probe("source over", 30, 30, PixelRGBA(premultiplied: source.0, source.1, source.2, 1)),
        ])
    }

    // MARK: Modes that read the backdrop (W3C's B(Cb, Cs) over an opaque backdrop: co = B, as = 1)

    func softLightD(_ x: Double) -> Double { x <= 0.25 ? ((16 * x - 12) * x + 4) * x : x.squareRoot() }

    func testSeparableModesThatReadTheBackdrop() throws {
        let modes: [(String, (Double, Double) -> Double)] = [
            ("overlayBlendMode", { s, b in b <= 0.5 ? 2 * s * b : 1 - 2 * (1 - s) * (1 - b) }),
            ("softLightBlendMode", { s, b in s <= 0.5 ? b - (1 - 2 * s) * b * (1 - b) : b + (2 * s - 1) * (self.softLightD(b) - b) }),
            ("hardLightBlendMode", { s, b in s <= 0.5 ? 2 * s * b : 1 - 2 * (1 - s) * (1 - b) }),
            ("colorDodgeBlendMode", { s, b in b == 0 ? 0 : (s >= 1 ? 1 : min(1, b / (1 - s))) }),
            ("colorBurnBlendMode", { s, b in b >= 1 ? 1 : (s <= 0 ? 0 : 1 - min(1, (1 - b) / s)) }),
            ("differenceBlendMode", { s, b in abs(b - s) }),
            ("subtractBlendMode", { s, b in max(b - s, 0) }),
            ("divideBlendMode", { s, b in s <= 0 ? 1 : min(b / s, 1) }),
            ("linearBurnBlendMode", { s, b in max(b + s - 1, 0) }),
            ("pinLightBlendMode", { s, b in s < 0.5 ? min(b, 2 * s) : max(b, 2 * s - 1) }),
        ]
        for (mode, formula) in modes {
            try assertBlend(mode, formula)
        }
    }

    func testATranslucentSourceOverlaysByTheGeneralFormula() throws {
        // co = cs·(1 − ab) + cb·(1 − as) + as·ab·B(Cb, Cs) with ab = 1, as = 0.5: cb·0.5 + 0.5·B.
        let image = try render(scene("overlayBlendMode", alpha: 0.5))
        func overlay(_ s: Double, _ b: Double) -> Double { b <= 0.5 ? 2 * s * b : 1 - 2 * (1 - s) * (1 - b) }
        let b = [backdrop.0, backdrop.1, backdrop.2], s = [source.0, source.1, source.2]
        let expected = (0..<3).map { b[$0] * 0.5 + 0.5 * overlay(s[$0], b[$0]) }
        XCTAssertLessThanOrEqual(PixelRGBA(image, 30, 30).difference(to: PixelRGBA(premultiplied: expected[0], expected[1], expected[2], 1)), 1,
                                 "\(PixelRGBA(image, 30, 30))")
    }

    func testNonSeparableModesKeepLuminanceAsW3CSays() throws {
        func lum(_ c: [Double]) -> Double { 0.3 * c[0] + 0.59 * c[1] + 0.11 * c[2] }
        func clipColor(_ c: [Double]) -> [Double] {
            let l = lum(c), n = c.min()!, x = c.max()!
            var c = c
            if n < 0 { c = c.map { l + ($0 - l) * l / (l - n) } }
            if x > 1 { c = c.map { l + ($0 - l) * (1 - l) / (x - l) } }
            return c
        }
        func setLum(_ c: [Double], _ l: Double) -> [Double] { clipColor(c.map { $0 + (l - lum(c)) }) }
        func sat(_ c: [Double]) -> Double { c.max()! - c.min()! }
        func setSat(_ c: [Double], _ s: Double) -> [Double] {
            let low = c.min()!, high = c.max()!
            return high > low ? c.map { ($0 - low) * s / (high - low) } : [0, 0, 0]
        }
        let s = [source.0, source.1, source.2], b = [backdrop.0, backdrop.1, backdrop.2]
        let modes: [(String, [Double])] = [
            ("hueBlendMode", setLum(setSat(s, sat(b)), lum(b))),
            ("saturationBlendMode", setLum(setSat(b, sat(s)), lum(b))),
            ("colorBlendMode", setLum(s, lum(b))),
            ("luminosityBlendMode", setLum(b, lum(s))),
        ]
        for (mode, expected) in modes {
            let renderer = try makeRenderer()
            renderer.layer = scene(mode)
            let image = try renderFrame(renderer)
            XCTAssertLessThanOrEqual(PixelRGBA(image, 30, 30).difference(to: PixelRGBA(premultiplied: expected[0], expected[1], expected[2], 1)), 1,
                                     "\(mode): \(PixelRGBA(image, 30, 30))")
            XCTAssertEqual(PixelRGBA(image, 8, 8), PixelRGBA(premultiplied: b[0], b[1], b[2], 1), "\(mode): outside the layer")
            XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.compositingFilter, .compositingFilter, .compositingFilter],
                           "\(mode): content, backdrop, pair")
        }
    }
}
