import Foundation
import LayerKit
@testable import LayerKitSDL
@testable import LayerKitVulkan
import XCTest

/// Shadows and filters in a window: the same passes and the same pixels as headless rendering of the
/// same tree (one frame-recording path), on a white root so the window's opaque pixels compare directly.
final class LayerWindowEffectsTests: LayerWindowTestCase {
    /// A rounded card with an analytic shadow, a layer blurred by a filter, a sublayer-shaped shadow and an
    /// inverted layer, 160×120 points.
    private func buildScene(in root: CALayer) {
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let card = addLayer(CGRect(x: 10, y: 10, width: 50, height: 40), CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1), in: root)
        card.cornerRadius = 8
        card.shadowOpacity = 0.6
        card.shadowRadius = 4
        card.shadowOffset = CGSize(width: 0, height: 6)
        let blurred = addLayer(CGRect(x: 80, y: 10, width: 30, height: 30), CGColor(red: 1, green: 0, blue: 0, alpha: 1), in: root)
        blurred.filters = [CIFilter(name: "CIGaussianBlur", parameters: ["inputRadius": 3])!]
        let holder = addLayer(CGRect(x: 10, y: 70, width: 40, height: 40), nil, in: root)
        _ = addLayer(CGRect(x: 5, y: 5, width: 20, height: 20), CGColor(red: 0, green: 0.6, blue: 0, alpha: 1), in: holder)
        holder.shadowOpacity = 1
        holder.shadowRadius = 0
        holder.shadowOffset = CGSize(width: 8, height: 8)
        let inverted = addLayer(CGRect(x: 80, y: 70, width: 30, height: 30), CGColor(red: 0.25, green: 0.5, blue: 1, alpha: 1), in: root)
        inverted.filters = [CIFilter(name: "CIColorInvert")!]
    }

    func testTheWindowDrawsShadowsAndFiltersAsHeadlessDoes() throws {
        let window = try makeWindow(width: 160, height: 120)
        buildScene(in: window.rootLayer)
        let image = try window.snapshot()
        let statistics = window.lastFrameStatistics

        let (renderer, headless) = try renderHeadless(buildScene)

        // Headless, the first frame draws the effects: the blurred layer's content, x and y, the holder's
        // shadow content (its blur is 0), and a cached bitmap for each of the two. The card's rounded
        // shadow is analytic; the inverted layer's fill takes the matrix itself. The window has drawn frames
        // before its snapshot: everything settled, it composites the bitmaps alone.
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons.sorted { $0.rawValue < $1.rawValue },
                       [.rasterize, .rasterize, .shadow, .filter, .filter, .filter].sorted { $0.rawValue < $1.rawValue })
        XCTAssertEqual(statistics.offscreenReasons, [])

        XCTAssertEqual(differingPixels(image, headless), 0, "pixels that differ between the window and headless rendering")
        XCTAssertEqual(image.rgb(95, 25), RGB(1, 0, 0), "the blurred square's middle stays red")
        XCTAssertEqual(image.rgb(95, 85), RGB(0.75, 0.5, 0), "inverted: 1 − (0.25, 0.5, 1)")
        XCTAssertEqual(image.rgb(40, 100), RGB(0, 0, 0), "the holder's hard shadow: the green square (15…35, 75…95) moved by (8, 8)")
        XCTAssertEqual(image.rgb(20, 80), RGB(0, 0.6, 0), "the green square over its own shadow")
        XCTAssertLessThan(image.rgb(35, 53).r, 200, "the card's shadow darkens the white below the card")
    }

    /// A replicator (three tinted instances) and an emitter (three particles of known flight) in a
    /// window draw what headless rendering draws.
    private func buildReplicatorAndEmitter(in root: CALayer) {
        root.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let replicator = CAReplicatorLayer()
        replicator.frame = CGRect(x: 0, y: 0, width: 160, height: 40)
        replicator.instanceCount = 3
        replicator.instanceTransform = CATransform3DMakeTranslation(30, 0, 0)
        replicator.instanceGreenOffset = -0.5
        let square = CALayer()
        square.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        square.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        replicator.addSublayer(square)
        root.addSublayer(replicator)

        let emitter = CAEmitterLayer()
        emitter.frame = CGRect(x: 0, y: 40, width: 160, height: 80)
        emitter.emitterPosition = CGPoint(x: 10, y: 20)
        emitter.beginTime = CACurrentMediaTime() - 2.5  // 2.5 s in: three particles in flight
        emitter.speed = 0  // … and held there, so both renderers see the same instant
        emitter.timeOffset = 2.5
        let cell = CAEmitterCell()
        cell.birthRate = 1
        cell.lifetime = 10
        cell.velocity = 20
        cell.contents = CGImage(width: 4, height: 4, bytesPerRow: 16, premultipliedRGBA: [UInt8](repeating: 255, count: 64),
                                alphaInfo: .premultipliedLast)!
        emitter.emitterCells = [cell]
        root.addSublayer(emitter)
    }

    func testTheWindowDrawsReplicatorsAndEmittersAsHeadlessDoes() throws {
        let window = try makeWindow(width: 160, height: 120)
        buildReplicatorAndEmitter(in: window.rootLayer)
        let image = try window.snapshot()
        let (renderer, headless) = try renderHeadless(buildReplicatorAndEmitter)
        XCTAssertEqual(window.lastFrameStatistics.replicatedInstances, 2)
        XCTAssertEqual(window.lastFrameStatistics.particlesDrawn, renderer.lastFrameStatistics.particlesDrawn)
        XCTAssertEqual(differingPixels(image, headless), 0, "pixels that differ between the window and headless rendering")
        XCTAssertEqual(image.rgb(20, 20), RGB(1, 1, 1), "instance 0")
        XCTAssertEqual(image.rgb(50, 20), RGB(1, 0.5, 1), "instance 1: green × 0.5")
        XCTAssertEqual(image.rgb(80, 20), RGB(1, 0, 1), "instance 2: green × 0")
        // Particles of ages 2.5, 1.5, 0.5 at x = 10 + 20a in the emitter: 60, 40, 20; y 40 + 20 = 60.
        for x in [60, 40, 20] { XCTAssertEqual(image.rgb(x, 60), RGB(1, 1, 1), "particle at x = \(x)") }
        XCTAssertEqual(image.rgb(30, 60), RGB(0, 0, 0), "between particles")
    }
}
