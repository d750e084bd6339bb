import Foundation
import LayerKit
@testable import LayerKitVulkan
import XCTest

/// The debug views as pixels: tints and the overdraw heat map at points whose expectations are worked
/// out by hand (a half-strength premultiplied tint over what the frame shows there). Validation on.
final class DebugVisualizationRenderTests: CARendererTestCase {
    /// `tint` (straight RGB) at half strength over the opaque `color`, as the overlay blends it.
    private func halfTint(_ tint: (Double, Double, Double), over color: (Double, Double, Double)) -> PixelRGBA {
        PixelRGBA(premultiplied: 0.5 * tint.0 + 0.5 * color.0, 0.5 * tint.1 + 0.5 * color.1, 0.5 * tint.2 + 0.5 * color.2, 1)
    }

    func testOverdrawHeatMapColorsPixelsByHowOftenTheyWereShaded() throws {
        // Five opaque 40×40 layers on a diagonal, 8 points apart: pixel (4 + 8k, 4 + 8k) lies in layers
        // 0…k, so it is shaded k + 1 times; the top one there is layer k.
        let colors: [(Double, Double, Double)] = [(1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 1), (0.6, 0.6, 0.6)]
        let root = makeRoot()
        for (k, color) in colors.enumerated() {
            makeLayer(CGRect(x: 8 * k, y: 8 * k, width: 40, height: 40), CGColor(red: color.0, green: color.1, blue: color.2, alpha: 1), in: root)
        }
        let renderer = try makeRenderer()
        renderer.debugOptions = .overdraw
        renderer.layer = root
        let image = try renderFrame(renderer)
        let heat: [(Double, Double, Double)?] = [nil, (0, 0, 1), (0, 1, 0), (1, 0.5, 0.75), (1, 0, 0)]
        let probes = colors.indices.map { k -> Probe in
            let top = colors[k]
            let expected = heat[k].map { halfTint($0, over: top) } ?? PixelRGBA(premultiplied: top.0, top.1, top.2, 1)
            return Probe("shaded \(k + 1)×", 4 + 8 * k, 4 + 8 * k, expected)
        }
        assertPixels(image, "overdraw heat map", tolerance: 1, probes: probes + [Probe("never shaded", 2, 60, .clear)])
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.debugVisualization])
    }

    func testBlendedViewTintsOpaqueLayersGreenAndBlendedOnesRed() throws {
        let root = makeRoot()
        makeLayer(CGRect(x: 0, y: 0, width: 32, height: 64), .testWhite, in: root)
        makeLayer(CGRect(x: 32, y: 0, width: 32, height: 64), CGColor(red: 0, green: 0, blue: 0, alpha: 0.5), in: root)
        let renderer = try makeRenderer()
        renderer.debugOptions = .blended
        renderer.layer = root
        let image = try renderFrame(renderer)
        // Opaque white under a half green: (0.5, 1, 0.5, 1). Half black (0, 0, 0, 0.5) under a half red:
        // (0.5, 0, 0, 0.5 + 0.5 · 0.5).
        assertPixels(image, "blended view", tolerance: 1, probes: [
            Probe("opaque", 16, 32, PixelRGBA(premultiplied: 0.5, 1, 0.5, 1)),
            Probe("blended", 48, 32, PixelRGBA(premultiplied: 0.5, 0, 0, 0.75)),
        ])
    }

    func testOffscreenViewTintsTheGroupsCompositeYellow() throws {
        let root = makeRoot()
        let group = makeLayer(CGRect(x: 8, y: 8, width: 40, height: 40), nil, in: root)
        group.opacity = 0.5
        makeLayer(CGRect(x: 0, y: 0, width: 24, height: 24), .testRed, in: group)
        makeLayer(CGRect(x: 16, y: 16, width: 24, height: 24), .testRed, in: group)
        let renderer = try makeRenderer()
        renderer.debugOptions = .offscreen
        renderer.layer = root
        let image = try renderFrame(renderer)
        // The composite is red at 0.5: (0.5, 0, 0, 0.5); half yellow over it: (0.5 + 0.25, 0.5, 0, 0.5 + 0.25).
        assertPixels(image, "offscreen view", tolerance: 1, probes: [
            Probe("group", 12, 12, PixelRGBA(premultiplied: 0.75, 0.5, 0, 0.75)),
            Probe("outside", 60, 2, .clear),
        ])
    }

    func testDebugOptionsSwitchAtRunTime() throws {
        let root = makeRoot()
        makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), .testWhite, in: root)
        let renderer = try makeRenderer()
        renderer.layer = root
        let plain = try renderFrame(renderer)
        renderer.debugOptions = .blended
        let tinted = try renderFrame(renderer, atTime: 1)
        renderer.debugOptions = []
        let plainAgain = try renderFrame(renderer, atTime: 2)
        assertPixels(plain, "before", probes: [Probe("white", 10, 10, .white)])
        assertPixels(tinted, "with the view", tolerance: 1, probes: [Probe("white tinted green", 10, 10, PixelRGBA(premultiplied: 0.5, 1, 0.5, 1))])
        assertPixels(plainAgain, "after", probes: [Probe("white", 10, 10, .white)])
    }
}
