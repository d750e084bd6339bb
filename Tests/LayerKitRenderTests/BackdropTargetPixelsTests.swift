import XCTest
@testable import LayerKitRender

/// Background filters over a target that keeps an app's pixels (`TargetContents`), without a GPU: which
/// backdrops start from a copy of the target's pixels (`RenderGraph.targetPixelCopies`), which say they
/// cannot (`backdropsWithoutTargetPixels`), and that the graph stays well formed either way.
///
/// The scene: a 64×64 target, an opaque red layer at (0, 0, 32, 64) and a transparent panel at
/// (16, 16, 32, 32) blurring its backdrop by CIGaussianBlur radius 2 (σ = 2 px, reach 3σ = 6 px). The
/// panel's backdrop region is its footprint grown by the reach, (10, 10)–(54, 54) (a pixel wider where
/// the footprint's float bounds round outward), inside the target: copied whole.
final class BackdropTargetPixelsTests: XCTestCase {
    func scene(_ contents: TargetContents, panelInGroup: Bool = false) -> (TinyScene, CALayer) {
        var scene = TinyScene()
        scene.targetContents = contents
        scene.cachesGroups = false
        scene.layer(CGRect(x: 0, y: 0, width: 32, height: 64), TinyScene.red)
        var parent = scene.root
        if panelInGroup {
            // A group at opacity 0.5 over two overlapping children is drawn in a surface of its own.
            parent = scene.layer(CGRect(x: 0, y: 0, width: 64, height: 64))
            parent.opacity = 0.5
            scene.layer(CGRect(x: 40, y: 40, width: 20, height: 20), TinyScene.blue, in: parent)
            scene.layer(CGRect(x: 44, y: 44, width: 20, height: 20), TinyScene.green, in: parent)
        }
        let panel = scene.layer(CGRect(x: 16, y: 16, width: 32, height: 32), nil, in: parent)
        panel.backgroundFilters = [CIFilter(name: "CIGaussianBlur", parameters: ["inputRadius": 2])!]
        return (scene, panel)
    }

    func testABackdropOverCopyableAppPixelsDrawsTheirCopyFirst() throws {
        let graph = scene(.appPixels(copyable: true)).0.compiled()
        XCTAssertEqual(graph.targetPixelCopies.count, 1, "\(graph)")
        let copy = try XCTUnwrap(graph.targetPixelCopies.first)
        let core = PixelRect(minX: 10, minY: 10, maxX: 54, maxY: 54)
        XCTAssertEqual(copy.region.intersection(core), core, "the footprint grown by 3σ: \(copy.region)")
        XCTAssertEqual(copy.region.intersection(PixelRect(minX: 0, minY: 0, maxX: 64, maxY: 64)), copy.region)
        // The backdrop's pass draws the copy before the red layer behind the panel: first in painter's order.
        let backdrop = try XCTUnwrap(graph.passes.first { pass in pass.items.contains { $0.texture?.surface == copy.surface } })
        XCTAssertEqual(backdrop.reason, .backgroundFilter)
        XCTAssertEqual(backdrop.items.first?.texture?.surface, copy.surface)
        XCTAssertEqual(backdrop.items.count, 2, "the copy, then the red layer")
        XCTAssertEqual(graph.backdropsWithoutTargetPixels, [])
        XCTAssertTrue(graph.description.contains("copied · target pixels"), "\(graph)")
    }

    func testAClearedTargetHasNothingToCopy() {
        let graph = scene(.cleared).0.compiled()
        XCTAssertEqual(graph.targetPixelCopies, [])
        XCTAssertEqual(graph.backdropsWithoutTargetPixels, [])
        XCTAssertEqual(graph.offscreenPasses.first?.items.count, 1, "the red layer only")
    }

    func testInsideTheAppsRenderPassTheBackdropHoldsLayerKitsDrawsAndSaysSo() {
        let (scene, panel) = scene(.appPixels(copyable: false))
        let graph = scene.compiled()
        XCTAssertEqual(graph.targetPixelCopies, [])
        XCTAssertEqual(graph.backdropsWithoutTargetPixels, [panel.layerID])
        XCTAssertEqual(graph.offscreenPasses.first?.items.count, 1, "the red layer only")
    }

    func testABackdropInsideAGroupSeesTheGroupsSurfaceNotTheTarget() {
        let graph = scene(.appPixels(copyable: true), panelInGroup: true).0.compiled()
        XCTAssertEqual(graph.targetPixelCopies, [], "\(graph)")
        XCTAssertEqual(graph.backdropsWithoutTargetPixels, [])
    }

    func testDegradingDropsTheCopiesAndTheirDraws() {
        let degraded = scene(.appPixels(copyable: true)).0.compiled().drawingSurfacesDirectly()
        XCTAssertEqual(degraded.targetPixelCopies, [])
        XCTAssertEqual(degraded.invariantViolations, [], "\(degraded)")
    }
}
