import XCTest
@testable import LayerKitRender

/// `LK_DEBUG` parsing and what each debug view adds to a compiled graph. No GPU.
final class DebugOptionsTests: XCTestCase {
    // MARK: - Parsing

    func testCommaSeparatedNamesParse() throws {
        XCTAssertEqual(try DebugOptions(parsing: "blended,overdraw"), [.blended, .overdraw])
        XCTAssertEqual(try DebugOptions(parsing: ""), [])
    }

    func testKebabCaseCamelCaseAnyCaseAndSpacesAllParse() throws {
        XCTAssertEqual(try DebugOptions(parsing: "flash-updates disableCulling"), [.flashUpdates, .disableCulling])
        XCTAssertEqual(try DebugOptions(parsing: "BATCHES, Rasterize-Cache ,disable_batching"), [.batches, .rasterizeCache, .disableBatching])
        XCTAssertEqual(try DebugOptions(parsing: "offscreen"), .offscreen)
    }

    func testEveryOptionParsesFromItsOwnName() throws {
        for (name, option) in DebugOptions.named {
            XCTAssertEqual(try DebugOptions(parsing: name), option, name)
        }
        XCTAssertEqual(DebugOptions.named.count, 8)
    }

    func testUnknownNamesAreReportedWithTheValidOnes() {
        XCTAssertThrowsError(try DebugOptions(parsing: "blended,overdrw,foo")) { error in
            XCTAssertEqual(error as? DebugOptions.ParseError, .unknownNames(["overdrw", "foo"]))
            XCTAssertEqual("\(error)", """
                LK_DEBUG: unknown options "overdrw", "foo"; valid options are blended, offscreen, overdraw, batches, \
                rasterize-cache, flash-updates, disable-batching, disable-culling
                """)
        }
    }

    func testEnvironmentKeepsTheValidNamesAndReportsTheOthers() {
        var reported: [DebugOptions.ParseError] = []
        let options = DebugOptions.fromEnvironment(["LK_DEBUG": "overdraw,nope"]) { reported.append($0) }
        XCTAssertEqual(options, .overdraw)
        XCTAssertEqual(reported, [.unknownNames(["nope"])])
        XCTAssertEqual(DebugOptions.fromEnvironment([:]), [])
    }

    func testDescriptionIsTheLKDebugSpelling() throws {
        let options: DebugOptions = [.disableCulling, .blended, .flashUpdates]
        XCTAssertEqual(options.description, "blended,flash-updates,disable-culling")
        XCTAssertEqual(try DebugOptions(parsing: options.description), options)
    }

    // MARK: - Views in the graph

    func testOverdrawViewCountsTheFramePassInASurfaceAndColorsTheFrameByIt() {
        let scene = TinyScene()
        scene.layer(CGRect(x: 0, y: 0, width: 32, height: 32), TinyScene.halfRed)
        scene.layer(CGRect(x: 16, y: 16, width: 32, height: 32), TinyScene.halfRed)
        var compiler = DrawListCompiler()
        compiler.options = .overdraw
        let graph = scene.compiled(compiler)
        XCTAssertEqual(graph.passes.map(\.reason), [.debugVisualization, nil], "\(graph)")
        let count = graph.passes[0]
        XCTAssertEqual(count.items.count, 2)
        XCTAssertTrue(count.items.allSatisfy { $0.blend == .additive && $0.instance.flags.contains(.countFragments) && $0.texture == nil })
        XCTAssertEqual(count.batches.count, 1)
        let heatMap = graph.framePass.items.last
        XCTAssertEqual(heatMap?.texture?.surface, count.target.surface)
        XCTAssertEqual(heatMap?.instance.flags.contains(.overdrawHeatMap), true)
        XCTAssertEqual(graph.framePass.items.count, 3)
        XCTAssertEqual(graph.statistics.offscreenReasons, [.debugVisualization])
    }

    func testHeatMapTintsFollowTheDocumentedScale() {
        XCTAssertEqual(DebugVisualization.heatMapTint(count: 0), .zero)
        XCTAssertEqual(DebugVisualization.heatMapTint(count: 1), .zero)
        XCTAssertEqual(DebugVisualization.heatMapTint(count: 2), SIMD4(0, 0, 0.5, 0.5))
        XCTAssertEqual(DebugVisualization.heatMapTint(count: 3), SIMD4(0, 0.5, 0, 0.5))
        XCTAssertEqual(DebugVisualization.heatMapTint(count: 4), SIMD4(0.5, 0.25, 0.375, 0.5))
        XCTAssertEqual(DebugVisualization.heatMapTint(count: 5), SIMD4(0.5, 0, 0, 0.5))
        XCTAssertEqual(DebugVisualization.heatMapTint(count: 9), SIMD4(0.5, 0, 0, 0.5))
    }

    func testBlendedViewTintsOpaqueQuadsGreenAndBlendedOnesRed() {
        let scene = TinyScene()
        scene.layer(CGRect(x: 0, y: 0, width: 16, height: 16), TinyScene.blue)
        scene.layer(CGRect(x: 20, y: 0, width: 16, height: 16), TinyScene.halfRed)
        var compiler = DrawListCompiler()
        compiler.options = .blended
        compiler.depthTesting = true
        let pass = scene.compiled(compiler).framePass
        XCTAssertEqual(pass.items.map(\.instance.color), [
            SIMD4(0, 0, 1, 1), SIMD4(0, 0.5, 0, 0.5),       // opaque blue, then its green tint
            SIMD4(0.5, 0, 0, 0.5), SIMD4(0.5, 0, 0, 0.5),   // half red, then its red tint
        ])
        XCTAssertEqual(pass.items[1].instance.shape, pass.items[0].instance.shape, "a tint has its quad's geometry")
        XCTAssertFalse(pass.depthOrdered, "views draw in painter's order")
    }

    func testOffscreenViewTintsSurfaceCompositesYellow() {
        let scene = TinyScene()
        let group = scene.layer(CGRect(x: 8, y: 8, width: 32, height: 32))
        group.opacity = 0.5
        scene.layer(CGRect(x: 0, y: 0, width: 24, height: 24), TinyScene.red, in: group)
        scene.layer(CGRect(x: 8, y: 8, width: 24, height: 24), TinyScene.blue, in: group)
        var compiler = DrawListCompiler()
        compiler.options = .offscreen
        let frame = scene.compiled(compiler).framePass
        XCTAssertEqual(frame.items.count, 2)
        XCTAssertNotNil(frame.items[0].texture?.surface)
        XCTAssertEqual(frame.items[1].instance.color, SIMD4(0.5, 0.5, 0, 0.5))
    }

    func testOffscreenViewTintsEffectCompositesByReason() {
        // A filtered layer's composite is violet; a shadow's (a sublayer-shaped one, drawn offscreen) brown.
        // (Uncached: cached, both would composite a rasterized bitmap, yellow.)
        var scene = TinyScene()
        scene.cachesGroups = false
        let blurred = scene.layer(CGRect(x: 4, y: 4, width: 16, height: 16), TinyScene.red)
        blurred.filters = [CIFilter(name: "CIGaussianBlur", parameters: ["inputRadius": 1])!]
        let holder = scene.layer(CGRect(x: 30, y: 30, width: 20, height: 20))
        scene.layer(CGRect(x: 0, y: 0, width: 8, height: 8), TinyScene.blue, in: holder)
        holder.shadowOpacity = 1
        holder.shadowRadius = 0
        var compiler = DrawListCompiler()
        compiler.options = .offscreen
        let frame = scene.compiled(compiler).framePass
        let tints = frame.items.indices.dropFirst().filter { frame.items[$0 - 1].texture?.surface != nil }.map { frame.items[$0].instance.color }
        XCTAssertEqual(tints, [SIMD4(DebugVisualization.offscreenTint(for: .filter) * 0.5, 0.5),
                               SIMD4(DebugVisualization.offscreenTint(for: .shadow) * 0.5, 0.5)])
        XCTAssertNotEqual(DebugVisualization.offscreenTint(for: .filter), DebugVisualization.offscreenTint(for: .groupOpacity))
    }

    func testBatchesViewTintsEachBatchWithItsOwnColor() {
        let a = TinyScene.solidImage(side: 4, (200, 0, 0, 200), opaque: false)
        let b = TinyScene.solidImage(side: 4, (0, 0, 200, 200), opaque: false)
        let scene = TinyScene()
        for i in 0..<4 { scene.imageLayer(CGRect(x: CGFloat(10 * i), y: 0, width: 8, height: 8), i % 2 == 0 ? a : b) }
        var compiler = DrawListCompiler()
        compiler.options = .batches
        let pass = scene.compiled(compiler).framePass
        let tints = stride(from: 1, to: pass.items.count, by: 2).map { pass.items[$0].instance.color }
        let palette = DebugVisualization.batchPalette
        let first = SIMD4(palette[0] * 0.5, 0.5), second = SIMD4(palette[1] * 0.5, 0.5)
        XCTAssertEqual(tints, [first, second, first, second], "A items in batch 0, B items in batch 1")
    }

    func testFlashUpdatesTintsOnlyTheLayersThatChanged() {
        let scene = TinyScene()
        let changed = scene.layer(CGRect(x: 0, y: 0, width: 16, height: 16), TinyScene.blue)
        scene.layer(CGRect(x: 20, y: 0, width: 16, height: 16), TinyScene.blue)
        var compiler = DrawListCompiler()
        compiler.options = .flashUpdates
        let graph = compiler.compile(scene.built(), updatedLayers: [changed.layerID])
        XCTAssertEqual(graph.framePass.items.count, 3)
        XCTAssertEqual(graph.framePass.items[1].instance.color, SIMD4(0.25, 0, 0.25, 0.25))
        XCTAssertNil(graph.framePass.items[1].layer, "a tint belongs to no layer")
    }

    func testFrameProducerFlashesCommittedAndAnimatedLayers() {
        let scene = TinyScene()
        let moved = scene.layer(CGRect(x: 0, y: 0, width: 16, height: 16), TinyScene.blue)
        let still = scene.layer(CGRect(x: 20, y: 0, width: 16, height: 16), TinyScene.blue)
        CATransaction.flush()
        let inbox = CommitInbox()
        var producer = FrameProducer(builder: RenderGraphBuilder(targetWidth: 64, targetHeight: 64,
                                                                 viewport: CGRect(x: 0, y: 0, width: 64, height: 64), scale: 1),
                                     debugOptions: .flashUpdates)
        producer.reset(root: scene.root.layerID, snapshot: .snapshot(of: scene.root))
        XCTAssertEqual(producer.produceFrame(at: 0).graph.framePass.items.count, 2, "nothing committed since the snapshot: no flash")
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        moved.position = CGPoint(x: 9, y: 8)
        CATransaction.commit()
        for packet in inbox.take() { producer.apply(packet) }
        let items = producer.produceFrame(at: 1).graph.framePass.items
        XCTAssertEqual(items.filter { $0.layer == nil }.count, 1, "one flash")
        XCTAssertEqual(items.firstIndex { $0.layer == nil }, (items.firstIndex { $0.layer == moved.layerID } ?? -2) + 1)
        XCTAssertFalse(items.isEmpty || items.contains { $0.layer == still.layerID && $0.instance.color.w < 1 })
    }
}
