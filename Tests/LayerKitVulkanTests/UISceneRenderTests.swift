import Foundation
import LayerKit
import LayerKitScenes
@testable import LayerKitVulkan
import XCTest

/// The `ui` benchmark scene (a game-style HUD) rendered headless: a handful of draw calls for its
/// ~245 interleaved layers, and pixels worked out from the scene's definition and `atlas.png`'s
/// formula (make_atlas.py) at points away from edges.
final class UISceneRenderTests: CARendererTestCase {
    func testTheHUDTakesAHandfulOfDrawCallsAndDrawsItsParts() throws {
        CATransaction.flush()
        let scene = UIScene(startTime: 1000)
        let renderer = try makeRenderer(width: 1280, height: 720)
        renderer.layer = scene.root
        let image = try renderFrame(renderer, atTime: 1000.25)
        let statistics = renderer.lastFrameStatistics
        XCTAssertLessThanOrEqual(statistics.drawCalls, 20, "\(renderer.lastGraph.map { "\($0)" } ?? "")")
        XCTAssertEqual(statistics.passes, 1, "no offscreen pass: clips are analytic, text and icons in the atlas")

        // Premultiplied, 0…1: the panel (0.1, 0.1, 0.12) at 0.7 over the transparent clear; a card (white at
        // 0.12) over the panel.
        let panel = SIMD4<Double>(0.07, 0.07, 0.084, 0.7)
        let card = SIMD4<Double>(0.12, 0.12, 0.12, 0.12) + panel * (1 - 0.12)
        func bytes(_ c: SIMD4<Double>) -> PixelRGBA {
            PixelRGBA(UInt8((c.x * 255).rounded()), UInt8((c.y * 255).rounded()), UInt8((c.z * 255).rounded()), UInt8((c.w * 255).rounded()))
        }
        assertPixels(image, "ui", tolerance: 1, probes: [
            Probe("outside the panel: the clear", 5, 5, PixelRGBA(0, 0, 0, 0)),
            Probe("the panel alone", 1000, 40, bytes(panel)),
            Probe("card (0, 0) beside its icon", 44, 90, bytes(card)),
            // Icon (0, 0) shows tile 0; its centre samples tile texels (32…33, 32…33): window (26 mod 13 < 8),
            // lit since (0 + 2 + 2) mod 3 ≠ 0.
            Probe("icon (0, 0): a lit window of tile 0", 74, 90, PixelRGBA(255, 236, 170, 255)),
            // The minimap's square corner lies outside its circle (distance 120 > 90): the panel shows.
            Probe("minimap clipped to its circle", 1065, 505, bytes(panel)),
            // Its centre samples atlas texels 128…129: the borders of tiles 9 and 10.
            Probe("minimap centre: tile borders", 1150, 590, PixelRGBA(24, 24, 24, 255)),
        ])
    }
}
