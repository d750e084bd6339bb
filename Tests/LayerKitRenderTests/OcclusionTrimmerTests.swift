import XCTest
@testable import LayerKitRender

/// `OcclusionTrimmer` as the draw-list compiler applies it to a depth-ordered frame: the quads it shrinks
/// and drops in tiny scenes, worked out by hand on the 4×4 block grid. No GPU (the pixels are checked by
/// `CullingRenderTests.testTrimmingHiddenPartsOfOpaqueTilesDoesNotChangeAPixel`).
final class OcclusionTrimmerTests: XCTestCase {
    private var depthTesting: DrawListCompiler {
        var compiler = DrawListCompiler()
        compiler.depthTesting = true
        return compiler
    }

    private func item(of layer: CALayer, in graph: RenderGraph) -> DrawItem? {
        graph.framePass.items.first { $0.layer == layer.layerID }
    }

    func testAnOpaqueLayerHalfHiddenByANearerOneIsTrimmedToTheBlocksThatMayShow() throws {
        let scene = TinyScene()
        let back = scene.layer(CGRect(x: 0, y: 0, width: 48, height: 48), TinyScene.green)
        scene.layer(CGRect(x: 24, y: 0, width: 40, height: 48), TinyScene.red)
        let graph = scene.compiled(depthTesting)
        // Blocks from column 6 (pixels 24…27) on are painted by the red layer; the green one's pixel
        // centres up to 23.5 (and the 1/32 margin) may show.
        let trimmed = try XCTUnwrap(item(of: back, in: graph), "\(graph)")
        XCTAssertEqual(trimmed.instance.quad, SIMD4(0, 0, 23.53125, 48))
        XCTAssertEqual(graph.statistics.quadsTrimmed, 1)
        XCTAssertEqual(graph.statistics.quadsCulledOccluded, 0)
    }

    func testAnOpaqueLayerHiddenByTheUnionOfTwoNearerOnesIsDropped() {
        let scene = TinyScene()
        // Occluders under 64×64 pixels are too small for rect occlusion (`OcclusionCuller`).
        let hidden = scene.layer(CGRect(x: 12, y: 12, width: 24, height: 24), TinyScene.blue)
        scene.layer(CGRect(x: 0, y: 0, width: 24, height: 48), TinyScene.green)
        scene.layer(CGRect(x: 24, y: 0, width: 40, height: 48), TinyScene.red)
        let graph = scene.compiled(depthTesting)
        XCTAssertNil(item(of: hidden, in: graph), "\(graph)")
        XCTAssertEqual(graph.framePass.items.count, 2)
        XCTAssertEqual(graph.statistics.quadsCulledOccluded, 1)
        XCTAssertEqual(graph.statistics.layersCulled, 1)
        XCTAssertEqual(graph.statistics.layerQuads, 2)
    }

    func testOnlyABackendWhoseRasterizerPaysForHiddenFragmentsTrims() {
        // As the test above, through a producer: both layers animated (holding still), as `city`'s are, so
        // that the frame is one the next could not patch, which is where trimming runs.
        let scene = TinyScene()
        let back = scene.layer(CGRect(x: 0, y: 0, width: 48, height: 48), TinyScene.green)
        let front = scene.layer(CGRect(x: 24, y: 0, width: 40, height: 48), TinyScene.red)
        for layer in [back, front] {
            let hold = CABasicAnimation(keyPath: "transform.rotation.z")
            hold.fromValue = 0.0
            hold.toValue = 0.0
            hold.duration = 100
            layer.add(hold, forKey: "hold")
        }
        CATransaction.flush()
        for pays in [true, false] {
            var producer = FrameProducer(
                builder: RenderGraphBuilder(targetWidth: 64, targetHeight: 64, viewport: CGRect(x: 0, y: 0, width: 64, height: 64), scale: 1),
                capabilities: BackendCapabilities(frameDepth: true, rasterizerPaysForHiddenFragments: pays))
            producer.reset(root: scene.root.layerID, snapshot: .snapshot(of: scene.root))
            let graph = producer.produceFrame(at: 1).graph
            XCTAssertEqual(graph.statistics.quadsTrimmed, pays ? 1 : 0, "\(graph)")
            XCTAssertEqual(item(of: back, in: graph)?.instance.quad, pays ? SIMD4(0, 0, 23.53125, 48) : SIMD4(0, 0, 48, 48))
        }
    }

    func testTranslucentLayersHideNothingAndAreNotTrimmed() {
        let scene = TinyScene()
        let back = scene.layer(CGRect(x: 0, y: 0, width: 48, height: 48), TinyScene.green)
        let veil = scene.layer(CGRect(x: 8, y: 0, width: 56, height: 48), TinyScene.halfRed)
        scene.layer(CGRect(x: 40, y: 40, width: 8, height: 8), TinyScene.blue)
        let graph = scene.compiled(depthTesting)
        XCTAssertEqual(item(of: back, in: graph)?.instance.quad, SIMD4(0, 0, 48, 48), "\(graph)")
        XCTAssertEqual(item(of: veil, in: graph)?.instance.quad, SIMD4(0, 0, 56, 48))
        XCTAssertEqual(graph.statistics.quadsTrimmed, 0)
    }

    func testATrimmedImageKeepsTheTextureCoordinatesOfItsNewCorners() {
        XCTAssertEqual(OcclusionTrimmer.textureCoordinates(of: SIMD4(10, 0, 30, 20), in: SIMD4(0, 0, 40, 40), uv: SIMD4(0.5, 0, 1, 0.25)),
                       SIMD4(0.625, 0, 0.875, 0.125))
        XCTAssertEqual(OcclusionTrimmer.subRect(of: SIMD4(-8, 4, 24, 36), from: SIMD2(0, 0.25), to: SIMD2(0.5, 1)), SIMD4(-8, 12, 8, 36))
    }
}
