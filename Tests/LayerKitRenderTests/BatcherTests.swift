import XCTest
@testable import LayerKitRender

/// Batching (DESIGN.md §4): how the draw-list compiler cuts a pass into instanced draws, with batch
/// counts and draw orders worked out by hand for tiny scenes. No GPU.
final class BatcherTests: XCTestCase {
    /// Two distinct 8×8 images with alpha (never occluders, so culling stays out of the way).
    private let imageA = TinyScene.solidImage(side: 8, (128, 0, 0, 128), opaque: false)
    private let imageB = TinyScene.solidImage(side: 8, (0, 0, 128, 128), opaque: false)

    /// Six 8×8 layers in a row, 10 points apart (no two overlap), showing A, B, A, B, A, B.
    private func alternatingRow() -> TinyScene {
        let scene = TinyScene()
        for i in 0..<6 {
            scene.imageLayer(CGRect(x: CGFloat(10 * i), y: 0, width: 8, height: 8), i % 2 == 0 ? imageA : imageB)
        }
        return scene
    }

    func testSixLayersAlternatingTwoImagesWithoutOverlapMakeTwoBatches() {
        let pass = alternatingRow().compiled().framePass
        XCTAssertEqual(pass.batches.count, 2)
        XCTAssertEqual(pass.drawOrder, [0, 2, 4, 1, 3, 5])
        XCTAssertEqual(pass.batches.map(\.range), [0..<3, 3..<6])
        XCTAssertTrue(pass.batches[0].key.texture?.image === imageA)
        XCTAssertTrue(pass.batches[1].key.texture?.image === imageB)
    }

    func testWithoutReorderingTheSameRowTakesSixDrawCalls() {
        // What the executor did before batching moved into the graph: consecutive equal keys only.
        let pass = alternatingRow().built().framePass
        XCTAssertEqual(Batcher.consecutiveBatches(pass.items).count, 6)
        XCTAssertEqual(pass.drawPlan.batches.count, 6, "an uncompiled pass batches consecutive items")
    }

    func testAtlasLetsTheTwoImagesShareOneBatch() {
        var compiler = DrawListCompiler()
        compiler.atlas = ImageAtlas(pageSize: 64)
        let graph = alternatingRow().compiled(compiler)
        let pass = graph.framePass
        XCTAssertEqual(pass.batches.count, 1, "\(graph)")
        XCTAssertEqual(pass.batches.first?.key.texture?.atlasPage, AtlasPageID(0))
        XCTAssertEqual(pass.drawOrder, Array(0..<6))
        XCTAssertEqual(graph.atlasPlacements.count, 2, "each image placed once")
        XCTAssertTrue(pass.items.allSatisfy { $0.instance.flags.contains(.clampUV) })
    }

    func testReorderIsRefusedWhereItWouldChangeTheResult() {
        // A at x 0…8, B at 10…18, A at 12…20 over B: the second A may not move before B.
        let scene = TinyScene()
        scene.imageLayer(CGRect(x: 0, y: 0, width: 8, height: 8), imageA)
        scene.imageLayer(CGRect(x: 10, y: 0, width: 8, height: 8), imageB)
        scene.imageLayer(CGRect(x: 12, y: 0, width: 8, height: 8), imageA)
        let pass = scene.compiled().framePass
        XCTAssertEqual(pass.batches.count, 3)
        XCTAssertEqual(pass.drawOrder, [0, 1, 2])
    }

    func testItemJoinsTheEarliestBatchItCanReachWithoutCrossingAnOverlap() {
        // A0, B1, A2 over B1, B3 apart: A2 cannot pass B1 (new batch); B3 passes A2 (no overlap) to join B1.
        let scene = TinyScene()
        scene.imageLayer(CGRect(x: 0, y: 0, width: 8, height: 8), imageA)
        scene.imageLayer(CGRect(x: 10, y: 0, width: 8, height: 8), imageB)
        scene.imageLayer(CGRect(x: 12, y: 4, width: 8, height: 8), imageA)
        scene.imageLayer(CGRect(x: 40, y: 40, width: 8, height: 8), imageB)
        let pass = scene.compiled().framePass
        XCTAssertEqual(pass.batches.count, 3)
        XCTAssertEqual(pass.drawOrder, [0, 1, 3, 2])
        XCTAssertEqual(pass.batches.map(\.range), [0..<1, 1..<3, 3..<4])
    }

    func testLookBackIsBoundedToTenBatches() {
        // Twelve distinct images, then the first again; nothing overlaps. Ten batches back from the
        // thirteenth item reach batches 2…11, not batch 0.
        let images = (0..<12).map { TinyScene.solidImage(side: 4, (UInt8($0 * 20), 0, 0, 255), opaque: false) }
        let scene = TinyScene()
        for (i, image) in (images + [images[0]]).enumerated() {
            scene.imageLayer(CGRect(x: CGFloat(8 * (i % 8)), y: CGFloat(8 * (i / 8)), width: 4, height: 4), image)
        }
        XCTAssertEqual(scene.compiled().framePass.batches.count, 13)
        var compiler = DrawListCompiler()
        compiler.batcher.lookBack = 12
        XCTAssertEqual(scene.compiled(compiler).framePass.batches.count, 12)
    }

    func testUntexturedLayersOfAnyColorShareOneBatch() {
        let scene = TinyScene()
        for (i, color) in [TinyScene.red, TinyScene.green, TinyScene.blue, TinyScene.halfRed].enumerated() {
            scene.layer(CGRect(x: CGFloat(12 * i), y: CGFloat(6 * i), width: 20, height: 20), color)
        }
        XCTAssertEqual(scene.compiled().framePass.batches.count, 1)
    }

    func testDepthOrderedPassDrawsOpaqueItemsFirstFrontToBackThenTheRest() {
        let scene = TinyScene()
        // 0: opaque, one column short of the 64×64 target so it stays a draw (not the clear)
        scene.layer(CGRect(x: 0, y: 0, width: 63, height: 64), TinyScene.red)
        scene.layer(CGRect(x: 8, y: 8, width: 16, height: 16), TinyScene.halfRed)   // 1: translucent
        scene.layer(CGRect(x: 40, y: 40, width: 16, height: 16), TinyScene.green)   // 2: opaque
        var compiler = DrawListCompiler()
        compiler.depthTesting = true
        let pass = scene.compiled(compiler).framePass
        XCTAssertTrue(pass.depthOrdered)
        XCTAssertEqual(pass.drawOrder, [2, 0, 1])
        XCTAssertEqual(pass.batches.map(\.key.depth), [.opaque, .translucent])
        XCTAssertEqual(pass.batches.map(\.range), [0..<2, 2..<3])
        // Item i of n = 3 at depth (n − i) / (n + 1): later items are nearer.
        XCTAssertEqual(pass.items.map(\.instance.depth), [0.75, 0.5, 0.25])
    }

    func testOpaqueItemsOverNothingDrawnBeforeThemKeepPaintersOrder() {
        // Opaque squares side by side over nothing: no depth order (and so no depth-stencil clear); one
        // more opaque square over a corner of the first turns it on.
        let scene = TinyScene()
        scene.layer(CGRect(x: 0, y: 0, width: 16, height: 16), TinyScene.red)
        scene.layer(CGRect(x: 20, y: 0, width: 16, height: 16), TinyScene.halfRed)
        scene.layer(CGRect(x: 40, y: 0, width: 16, height: 16), TinyScene.green)
        var compiler = DrawListCompiler()
        compiler.depthTesting = true
        let apart = scene.compiled(compiler).framePass
        XCTAssertFalse(apart.depthOrdered)
        XCTAssertEqual(apart.batches.map(\.key.depth), [.none])
        XCTAssertEqual(apart.drawOrder, [0, 1, 2])
        scene.layer(CGRect(x: 8, y: 8, width: 16, height: 16), TinyScene.green)
        XCTAssertTrue(scene.compiled(compiler).framePass.depthOrdered)
    }

    func testDepthOrderPaysOnlyForAnOpaqueItemOverAnEarlierOneOrAResolvedGroup() {
        let a = PixelRect(x: 0, y: 0, width: 10, height: 10), b = PixelRect(x: 20, y: 0, width: 10, height: 10)
        let overA = PixelRect(x: 5, y: 5, width: 10, height: 10)
        XCTAssertFalse(DrawListCompiler.depthOrderPays([.opaque, .opaque], footprints: [a, b]))
        XCTAssertFalse(DrawListCompiler.depthOrderPays([.opaque, .translucent], footprints: [a, overA]), "a translucent item hides nothing")
        XCTAssertTrue(DrawListCompiler.depthOrderPays([.translucent, .opaque], footprints: [a, overA]))
        XCTAssertFalse(DrawListCompiler.depthOrderPays([.opaque], footprints: [a]))
        // Against the bounding box of what came before: b's box with a spans the gap between them.
        XCTAssertTrue(DrawListCompiler.depthOrderPays([.opaque, .opaque, .opaque], footprints: [a, b, PixelRect(x: 12, y: 2, width: 4, height: 4)]))
        XCTAssertTrue(DrawListCompiler.depthOrderPays([.translucent, .resolvedGroup], footprints: [a, b]))
    }

    func testRoundedAntialiasedAndClippedLayersAreNotDepthOpaque() {
        let scene = TinyScene()
        scene.layer(CGRect(x: 0, y: 0, width: 16, height: 16), TinyScene.red).cornerRadius = 4
        scene.layer(CGRect(x: 20, y: 0, width: 16, height: 16), TinyScene.red).allowsEdgeAntialiasing = true
        let clipper = scene.layer(CGRect(x: 40, y: 0, width: 16, height: 16))
        clipper.masksToBounds = true
        scene.layer(CGRect(x: 0, y: 0, width: 16, height: 16), TinyScene.red, in: clipper)
        var compiler = DrawListCompiler()
        compiler.depthTesting = true
        let pass = scene.compiled(compiler).framePass
        // No item can hide another: the pass is drawn in painter's order, without a depth test.
        XCTAssertFalse(pass.depthOrdered)
        XCTAssertEqual(pass.batches.map(\.key.depth), [.none])
    }

    func testDisableBatchingGivesEveryItemItsOwnDrawCallInPaintersOrder() {
        var compiler = DrawListCompiler()
        compiler.options = [.disableBatching]
        compiler.atlas = ImageAtlas(pageSize: 64)
        let graph = alternatingRow().compiled(compiler)
        XCTAssertEqual(graph.framePass.batches.count, 6)
        XCTAssertEqual(graph.framePass.drawOrder, Array(0..<6))
        XCTAssertTrue(graph.atlasPlacements.isEmpty, "no atlas while batching is off")
        XCTAssertEqual(graph.statistics.batches, 6)
    }

    func testMalformedDrawPlanBreaksTheGraphInvariants() {
        var graph = alternatingRow().compiled()
        graph.passes[0].drawOrder.swapAt(0, 3)  // an A item inside B's batch
        XCTAssertEqual(graph.invariantViolations, [.malformedDrawPlan(pass: 0)])
    }
}
