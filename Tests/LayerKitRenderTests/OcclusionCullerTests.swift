import XCTest
@testable import LayerKitRender
import LayerKitScenes

/// Culling (DESIGN.md §4, "within a pass"): what `TargetCuller` and `OcclusionCuller` drop, as the
/// draw-list compiler applies them, counted by hand for tiny scenes in a 64×64 target. No GPU.
final class OcclusionCullerTests: XCTestCase {
    private let full = CGRect(x: 0, y: 0, width: 64, height: 64)

    /// A compiler that takes occluders of any size (the default ignores those under 64×64 pixels).
    private var anyOccluder: DrawListCompiler {
        var compiler = DrawListCompiler()
        compiler.occlusion.minimumOccluderArea = 1
        return compiler
    }

    // MARK: - Occlusion

    func testSixtyFourStackedOpaqueFullTargetLayersLeaveOnlyTheTopOne() {
        let scene = TinyScene()
        var top: CALayer?
        for j in 0..<64 {
            top = scene.layer(full, CGColor(red: CGFloat(j) / 64, green: 0.5, blue: 0.25, alpha: 1))
        }
        let graph = scene.compiled()
        // The top layer is kept, and being opaque, flat and over the whole target, it is the clear.
        XCTAssertEqual(graph.framePass.items.count, 0, "\(graph)")
        XCTAssertEqual(graph.framePass.clearPaintsLayer, top?.layerID, "the top layer is the one kept")
        XCTAssertEqual(graph.framePass.clearColor, SIMD4(63.0 / 64, 0.5, 0.25, 1))
        XCTAssertEqual(graph.framePass.culled, CullCounts(offTarget: 0, occluded: 63))
        XCTAssertEqual(graph.statistics.quadsCulledOccluded, 63)
        XCTAssertEqual(graph.statistics.quadsDrawnAsClear, 1)
        XCTAssertEqual(graph.statistics.layersCulled, 63)
        XCTAssertEqual(graph.statistics.layersVisible, 1)
        XCTAssertEqual(graph.statistics.layerQuads, 0)
    }

    func testStackSceneCullsItsSixtyThreeHiddenLayers() {
        CATransaction.flush()
        let scene = StackScene(startTime: 0)
        CATransaction.flush()
        var producer = FrameProducer(builder: RenderGraphBuilder(targetWidth: 1280, targetHeight: 720,
                                                                 viewport: CGRect(x: 0, y: 0, width: 1280, height: 720), scale: 1),
                                     debugOptions: [])
        producer.reset(root: scene.root.layerID, snapshot: .snapshot(of: scene.root))
        let graph = producer.produceFrame(at: 0.25).graph
        XCTAssertEqual(graph.framePass.items.count, 0, "\(graph)")
        XCTAssertEqual(graph.framePass.clearPaintsLayer, scene.layers[63].layerID, "the top layer paints the clear")
        XCTAssertEqual(graph.statistics.quadsCulledOccluded, 63)
        XCTAssertEqual(graph.statistics.quadsDrawnAsClear, 1)
        XCTAssertEqual(graph.statistics.layersCulled, 63)
        XCTAssertEqual(graph.statistics.batches, 0)
    }

    func testTranslucentTopLayerHidesNothing() {
        let scene = TinyScene()
        let blue = scene.layer(full, TinyScene.blue)
        scene.layer(full, TinyScene.halfRed)
        let graph = scene.compiled()
        XCTAssertEqual(graph.framePass.items.count, 1, "the translucent layer is drawn")
        XCTAssertEqual(graph.framePass.clearPaintsLayer, blue.layerID, "over the blue one, drawn as the clear")
        XCTAssertEqual(graph.framePass.culled.total, 0)
    }

    func testLayerFadedByOpacityHidesNothing() {
        let scene = TinyScene()
        scene.layer(full, TinyScene.blue)
        scene.layer(full, TinyScene.red).opacity = 0.99
        XCTAssertEqual(scene.compiled().framePass.culled.total, 0)
    }

    func testRoundedOccluderHidesWhatLiesInsideItsCornersOnly() {
        // A 64×64 occluder with radius 8: its occluder rect is (8, 8)…(56, 56).
        let scene = TinyScene()
        let inside = scene.layer(CGRect(x: 8, y: 8, width: 48, height: 48), TinyScene.blue)
        let corner = scene.layer(CGRect(x: 0, y: 0, width: 6, height: 6), TinyScene.green)
        scene.layer(full, TinyScene.red).cornerRadius = 8
        let graph = scene.compiled(anyOccluder)
        XCTAssertEqual(graph.framePass.culled.occluded, 1, "\(graph)")
        XCTAssertFalse(graph.framePass.items.contains { $0.layer == inside.layerID })
        XCTAssertTrue(graph.framePass.items.contains { $0.layer == corner.layerID }, "corner pixels are not covered fully")
    }

    func testRotatedOccluderHidesNothing() {
        let scene = TinyScene()
        scene.layer(CGRect(x: 24, y: 24, width: 16, height: 16), TinyScene.blue)
        let big = scene.layer(CGRect(x: -32, y: -32, width: 128, height: 128), TinyScene.red)
        big.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        XCTAssertEqual(scene.compiled(anyOccluder).framePass.culled.occluded, 0)
    }

    func testOccludersSmallerThan64By64PixelsAreIgnored() {
        let scene = TinyScene()
        scene.layer(CGRect(x: 10, y: 10, width: 8, height: 8), TinyScene.blue)
        scene.layer(CGRect(x: 0, y: 0, width: 48, height: 48), TinyScene.red)  // 2304 pixels < 4096
        XCTAssertEqual(scene.compiled().framePass.culled.occluded, 0)
        XCTAssertEqual(scene.compiled(anyOccluder).framePass.culled.occluded, 1)
    }

    func testTwoOccludersTogetherHideWhatNeitherHidesAlone() {
        // Left half and right half, each 32×64 = 2048 pixels: allowed as occluders here; the middle item
        // straddles both.
        let scene = TinyScene()
        scene.layer(CGRect(x: 16, y: 16, width: 32, height: 32), TinyScene.blue)
        scene.layer(CGRect(x: 0, y: 0, width: 32, height: 64), TinyScene.red)
        scene.layer(CGRect(x: 32, y: 0, width: 32, height: 64), TinyScene.green)
        var compiler = DrawListCompiler()
        compiler.occlusion.minimumOccluderArea = 2048
        let graph = scene.compiled(compiler)
        XCTAssertEqual(graph.framePass.culled.occluded, 1, "\(graph)")
        XCTAssertEqual(graph.framePass.items.count, 2)
    }

    func testFractionalOccluderCoversOnlyItsWholePixels() {
        // Occluder (0.5, 0.5)…(63.5, 63.5): whole pixels (1, 1)…(63, 63). An item at (0, 0) 8×8 touches
        // pixel column 0, which the occluder only half covers.
        let scene = TinyScene()
        let edge = scene.layer(CGRect(x: 0, y: 0, width: 8, height: 8), TinyScene.blue)
        let inner = scene.layer(CGRect(x: 1, y: 1, width: 8, height: 8), TinyScene.green)
        scene.layer(CGRect(x: 0.5, y: 0.5, width: 63, height: 63), TinyScene.red)
        let graph = scene.compiled(anyOccluder)
        XCTAssertTrue(graph.framePass.items.contains { $0.layer == edge.layerID })
        XCTAssertFalse(graph.framePass.items.contains { $0.layer == inner.layerID })
    }

    func testOpaqueImageOccludesAndImageWithAlphaDoesNot() {
        let opaque = TinyScene.solidImage(side: 8, (0, 0, 255, 255), opaque: true)
        let withAlpha = TinyScene.solidImage(side: 8, (0, 0, 255, 255), opaque: false)
        for (image, hidden) in [(opaque, 1), (withAlpha, 0)] {
            let scene = TinyScene()
            scene.layer(CGRect(x: 8, y: 8, width: 16, height: 16), TinyScene.red)
            scene.imageLayer(full, image)
            XCTAssertEqual(scene.compiled().framePass.culled.occluded, hidden, "\(image.alphaInfo)")
        }
    }

    func testRectClipBoundsTheOccluderItMakes() {
        // A 128×128 opaque child clipped by a masksToBounds parent (8, 8)…(56, 56): the clip antialiases,
        // so the occluder is (9, 9)…(55, 55).
        let scene = TinyScene()
        let inside = scene.layer(CGRect(x: 9, y: 9, width: 46, height: 46), TinyScene.blue)
        let touchingEdge = scene.layer(CGRect(x: 8, y: 8, width: 4, height: 4), TinyScene.green)
        let clipper = scene.layer(CGRect(x: 8, y: 8, width: 48, height: 48))
        clipper.masksToBounds = true
        scene.layer(CGRect(x: -32, y: -32, width: 128, height: 128), TinyScene.red, in: clipper)
        let graph = scene.compiled(anyOccluder)
        XCTAssertFalse(graph.framePass.items.contains { $0.layer == inside.layerID }, "\(graph)")
        XCTAssertTrue(graph.framePass.items.contains { $0.layer == touchingEdge.layerID })
    }

    func testBorderIsNoOccluder() {
        let scene = TinyScene()
        scene.layer(CGRect(x: 24, y: 24, width: 16, height: 16), TinyScene.blue)
        let framed = scene.layer(full, nil)
        framed.borderWidth = 32
        framed.borderColor = TinyScene.red
        XCTAssertEqual(scene.compiled(anyOccluder).framePass.culled.occluded, 0)
    }

    // MARK: - Off target

    func testLayersOffTheTargetAreCulledAndPartlyVisibleOnesKept() {
        let scene = TinyScene()
        scene.layer(CGRect(x: 100, y: 0, width: 16, height: 16), TinyScene.red)     // right of the target
        scene.layer(CGRect(x: -40, y: 10, width: 40, height: 16), TinyScene.red)    // ends at x = 0
        scene.layer(CGRect(x: 10, y: 64, width: 16, height: 16), TinyScene.red)     // starts at y = 64
        let partly = scene.layer(CGRect(x: -8, y: -8, width: 16, height: 16), TinyScene.blue)
        let graph = scene.compiled()
        XCTAssertEqual(graph.framePass.culled, CullCounts(offTarget: 3, occluded: 0), "\(graph)")
        XCTAssertEqual(graph.framePass.items.map(\.layer), [partly.layerID])
        XCTAssertEqual(graph.statistics.quadsCulledOffTarget, 3)
    }

    func testSublayerClippedAwayByItsSuperlayerIsCulled() {
        let scene = TinyScene()
        let clipper = scene.layer(CGRect(x: 0, y: 0, width: 16, height: 16), TinyScene.blue)
        clipper.masksToBounds = true
        scene.layer(CGRect(x: 20, y: 20, width: 8, height: 8), TinyScene.red, in: clipper)
        let graph = scene.compiled()
        XCTAssertEqual(graph.framePass.culled.offTarget, 1, "\(graph)")
        XCTAssertEqual(graph.framePass.items.count, 1)
    }

    // MARK: - Offscreen passes and switches

    func testHiddenGroupCompositeTakesItsSurfacePassAlong() {
        // Group opacity over overlapping children needs a surface; an opaque layer above hides it all.
        let scene = TinyScene()
        let group = scene.layer(CGRect(x: 8, y: 8, width: 32, height: 32))
        group.opacity = 0.5
        scene.layer(CGRect(x: 0, y: 0, width: 24, height: 24), TinyScene.red, in: group)
        scene.layer(CGRect(x: 8, y: 8, width: 24, height: 24), TinyScene.blue, in: group)
        XCTAssertEqual(scene.compiled().passes.count, 2, "the group needs a surface while visible")
        scene.layer(full, TinyScene.green)
        let graph = scene.compiled()
        XCTAssertEqual(graph.passes.count, 1, "\(graph)")
        XCTAssertEqual(graph.statistics.offscreenPasses, 0)
        XCTAssertEqual(graph.statistics.quadsCulledOccluded, 3, "the composite and the two quads in its surface")
        XCTAssertEqual(graph.statistics.layersCulled, 3, "the group (its composite) and its children")
    }

    func testDisableCullingKeepsEveryItemInPaintersOrder() {
        let scene = TinyScene()
        for _ in 0..<4 { scene.layer(full, TinyScene.red) }
        scene.layer(CGRect(x: 100, y: 100, width: 8, height: 8), TinyScene.red)
        var compiler = DrawListCompiler()
        compiler.options = [.disableCulling]
        compiler.depthTesting = true
        let graph = scene.compiled(compiler)
        XCTAssertEqual(graph.framePass.items.count, 5)
        XCTAssertEqual(graph.framePass.culled.total, 0)
        XCTAssertFalse(graph.framePass.depthOrdered, "painter's order without a depth test")
    }

    func testCulledGraphDescribesWhatItDropped() {
        let scene = TinyScene()
        for _ in 0..<2 { scene.layer(full, TinyScene.red) }
        let top = scene.layer(full, TinyScene.red)
        scene.layer(CGRect(x: 100, y: 0, width: 8, height: 8), TinyScene.red)
        var compiler = DrawListCompiler()
        compiler.depthTesting = true
        XCTAssertEqual(scene.compiled(compiler).description, """
            RenderGraph · 1 pass · 0 offscreen
            pass 0 · frame → frame 64×64 · 0 items · clear paints \(top.layerID) · culled 1 off-target, 2 occluded
            """)
    }
}
