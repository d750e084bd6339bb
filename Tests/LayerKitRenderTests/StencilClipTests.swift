import XCTest
@testable import LayerKitRender

/// Stencil clips (`StencilClipCommand`): where nested `masksToBounds` clips cannot be one analytic clip,
/// the builder brackets the subtree with a push and a pop of the outer clip's shape; the compiler keeps
/// the bracket only where the target has a stencil, and the batcher never moves a draw across it.
/// Counts and levels worked out by hand for tiny scenes. No GPU.
final class StencilClipTests: XCTestCase {
    /// An axis-aligned 32×32 clip at (16, 16) holding a 32×32 clip rotated by 45° about the same centre
    /// (its corners stick out of the square, the square's corners stick out of it), holding a green
    /// layer that overflows both. Returns the scene and the inner clip layer.
    private func rotatedInsideSquare(innerSide: CGFloat = 32) -> (TinyScene, inner: CALayer) {
        let scene = TinyScene()
        let outer = scene.layer(CGRect(x: 16, y: 16, width: 32, height: 32))
        outer.masksToBounds = true
        let offset = (32 - innerSide) / 2
        let inner = scene.layer(CGRect(x: offset, y: offset, width: innerSide, height: innerSide), in: outer)
        inner.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        inner.masksToBounds = true
        scene.layer(CGRect(x: -40, y: -40, width: 112, height: 112), TinyScene.green, in: inner)
        return (scene, inner)
    }

    func testARotatedClipOverlappingItsOuterClipBracketsTheSubtreeWithAStencilPushAndPop() {
        let pass = rotatedInsideSquare().0.built().framePass
        // Items: push(outer square), the green layer (inside, level 1), pop.
        XCTAssertEqual(pass.items.map(\.stencilCommand), [.push, nil, .pop])
        XCTAssertEqual(pass.items.map(\.stencilLevel), [0, 1, 0])
        XCTAssertEqual(pass.items.map(\.stencilReference), [0, 1, 1])
        // The push draws the outer clip: the square (16, 16)…(48, 48) in its own space, which maps to
        // pixels by translation, so its quad is (0, 0, 32, 32) and no color.
        XCTAssertEqual(pass.items[0].instance.quad, SIMD4(0, 0, 32, 32))
        XCTAssertEqual(pass.items[0].instance.color, .zero)
        XCTAssertEqual(pass.items[0].instance, pass.items[2].instance, "the pop undoes the push under the same shape")
        // The green layer keeps the inner (rotated) clip analytically.
        XCTAssertTrue(pass.items[1].instance.flags.contains(.clip))
        XCTAssertEqual(pass.items[1].instance.clipRect, SIMD4(0, 0, 32, 32))
    }

    func testARotatedClipWhollyInsideItsOuterClipNeedsNoStencil() {
        // A 16×16 square rotated by 45° reaches 11.3 from the centre: inside the 32×32 square.
        let pass = rotatedInsideSquare(innerSide: 16).0.built().framePass
        XCTAssertEqual(pass.items.count, 1)
        XCTAssertNil(pass.items[0].stencilCommand)
        XCTAssertEqual(pass.items[0].stencilLevel, 0)
    }

    func testAxisAlignedNestedClipsStayOneAnalyticClip() {
        let scene = TinyScene()
        let outer = scene.layer(CGRect(x: 16, y: 16, width: 32, height: 32))
        outer.masksToBounds = true
        let inner = scene.layer(CGRect(x: 8, y: 8, width: 40, height: 8), in: outer)
        inner.masksToBounds = true
        scene.layer(CGRect(x: -40, y: -40, width: 112, height: 112), TinyScene.green, in: inner)
        let pass = scene.built().framePass
        XCTAssertEqual(pass.items.map(\.stencilCommand), [nil])
        // The intersection in the outer clip's space: (8, 8)…(32, 16).
        XCTAssertEqual(pass.items[0].instance.clipRect, SIMD4(8, 8, 32, 16))
    }

    func testStencilBracketsNestAndEachRaisesTheLevelsInsideIt() {
        // Two rotated clips, each overlapping the clip around it: two brackets, the second inside the first.
        let scene = TinyScene()
        let outer = scene.layer(CGRect(x: 16, y: 16, width: 32, height: 32))
        outer.masksToBounds = true
        let middle = scene.layer(CGRect(x: 0, y: 0, width: 32, height: 32), in: outer)
        middle.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        middle.masksToBounds = true
        let inner = scene.layer(CGRect(x: 0, y: 0, width: 32, height: 32), in: middle)
        inner.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)  // 90° in all: axis-aligned in the target again
        inner.masksToBounds = true
        scene.layer(CGRect(x: 4, y: 4, width: 24, height: 24), TinyScene.green, in: inner)
        let graph = scene.built()
        let pass = graph.framePass
        XCTAssertEqual(pass.items.map(\.stencilCommand), [.push, .push, nil, .pop, .pop])
        XCTAssertEqual(pass.items.map(\.stencilLevel), [0, 1, 2, 1, 0])
        XCTAssertEqual(pass.items.map(\.stencilReference), [0, 1, 2, 2, 1])
        XCTAssertEqual(graph.invariantViolations, [])
    }

    func testUnbalancedStencilCommandsBreakTheGraphInvariants() {
        var graph = rotatedInsideSquare().0.built()
        graph.passes[graph.passes.count - 1].items.removeLast()  // drop the pop
        XCTAssertEqual(graph.invariantViolations, [.unbalancedStencilClips(pass: graph.passes.count - 1)])
    }

    func testWithoutAStencilTheCompilerDropsTheBracketAndKeepsTheInnerClip() {
        let graph = rotatedInsideSquare().0.compiled()
        let pass = graph.framePass
        XCTAssertEqual(pass.items.map(\.stencilCommand), [nil])
        XCTAssertEqual(pass.items.map(\.stencilLevel), [0])
        XCTAssertTrue(pass.items[0].instance.flags.contains(.clip))
    }

    func testWithAStencilTheBracketIsNeverCulledNorBatchedAndTheClippedItemIsNotOpaque() {
        var compiler = DrawListCompiler()
        compiler.stencilClipping = true
        compiler.depthTesting = true
        let (scene, _) = rotatedInsideSquare()
        // An opaque red layer behind the clips and one in front, far from the clips, the front one over a
        // corner of the back one (so depth order pays): the same key on both sides of the bracket.
        scene.root.insertSublayer({
            let layer = CALayer()
            layer.frame = CGRect(x: 52, y: 52, width: 8, height: 8)
            layer.backgroundColor = TinyScene.red
            return layer
        }(), at: 0)
        scene.layer(CGRect(x: 56, y: 56, width: 8, height: 8), TinyScene.red)
        let pass = scene.compiled(compiler).framePass
        XCTAssertEqual(pass.items.map(\.stencilCommand), [nil, .push, nil, .pop, nil])
        XCTAssertEqual(pass.culled.total, 0)
        // The two red squares are opaque (one front-to-back batch); the green layer, clipped by the
        // stencil, is drawn with the translucent ones, between the push and the pop.
        XCTAssertEqual(pass.batches.map(\.key.depth), [.opaque, .translucent, .translucent, .translucent])
        XCTAssertEqual(pass.batches.map(\.key.stencilCommand), [nil, .push, nil, .pop])
        XCTAssertEqual(pass.batches.map(\.key.stencilReference), [0, 0, 1, 1])
        XCTAssertEqual(pass.batches.map { $0.range.map { pass.drawOrder[$0] } }, [[4, 0], [1], [2], [3]])
    }

    func testNoDrawMovesAcrossAStencilCommand() {
        // Painter's order without depth: red, push, green (inside), pop, red. The reds do not overlap
        // and share a key, so without the wall the last would join the first batch.
        var compiler = DrawListCompiler()
        compiler.stencilClipping = true
        let (scene, _) = rotatedInsideSquare()
        let image = TinyScene.solidImage(side: 8, (128, 0, 0, 128), opaque: false)
        scene.root.insertSublayer({
            let layer = CALayer()
            layer.frame = CGRect(x: 0, y: 0, width: 8, height: 8)
            layer.contents = image
            return layer
        }(), at: 0)
        scene.imageLayer(CGRect(x: 56, y: 56, width: 8, height: 8), image)
        let pass = scene.compiled(compiler).framePass
        XCTAssertEqual(pass.batches.count, 5)
        XCTAssertEqual(pass.drawOrder, [0, 1, 2, 3, 4])
    }

    func testOffscreenPassesLoseTheBracketWithoutSurfaceStencil() {
        // The same clips inside a group-opacity layer with two overlapping children: drawn offscreen,
        // where this backend has no stencil.
        var compiler = DrawListCompiler()
        compiler.stencilClipping = true
        let scene = groupOverClips()
        let built = scene.built()
        XCTAssertEqual(built.offscreenPasses.count, 1)
        XCTAssertEqual(built.offscreenPasses[0].items.compactMap(\.stencilCommand), [.push, .pop])
        let compiled = scene.compiled(compiler)
        XCTAssertEqual(compiled.offscreenPasses.count, 1)
        XCTAssertEqual(compiled.offscreenPasses[0].items.compactMap(\.stencilCommand), [])
        XCTAssertEqual(compiled.offscreenPasses[0].items.map(\.stencilLevel), [0, 0])
    }

    func testOffscreenPassesKeepTheBracketWithSurfaceStencil() {
        // Surfaces with a stencil: the group's pass keeps push, green at level 1, pop, then blue at 0, each
        // command a batch of its own; the frame pass (only the composite) has none.
        var compiler = DrawListCompiler()
        compiler.surfaceStencilClipping = true
        let compiled = groupOverClips().compiled(compiler)
        XCTAssertEqual(compiled.offscreenPasses.count, 1)
        let pass = compiled.offscreenPasses[0]
        XCTAssertEqual(pass.items.map(\.stencilCommand), [.push, nil, .pop, nil])
        XCTAssertEqual(pass.items.map(\.stencilLevel), [0, 1, 0, 0])
        XCTAssertEqual(pass.batches.map(\.key.stencilCommand), [.push, nil, .pop, nil])
        XCTAssertEqual(pass.batches.map(\.key.stencilReference), [0, 1, 1, 0])
        XCTAssertEqual(compiled.framePass.items.compactMap(\.stencilCommand), [])
    }

    /// A group at opacity 0.5 over the square-and-diamond clips and a blue square overlapping them.
    private func groupOverClips() -> TinyScene {
        let scene = TinyScene()
        let group = scene.layer(CGRect(x: 0, y: 0, width: 64, height: 64))
        group.opacity = 0.5
        let outer = scene.layer(CGRect(x: 16, y: 16, width: 32, height: 32), in: group)
        outer.masksToBounds = true
        let inner = scene.layer(CGRect(x: 0, y: 0, width: 32, height: 32), in: outer)
        inner.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        inner.masksToBounds = true
        scene.layer(CGRect(x: -40, y: -40, width: 112, height: 112), TinyScene.green, in: inner)
        scene.layer(CGRect(x: 0, y: 0, width: 20, height: 20), TinyScene.blue, in: group)
        return scene
    }
}
