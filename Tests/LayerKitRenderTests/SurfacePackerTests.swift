import XCTest
@testable import LayerKitRender

/// Surface packing: offscreen surfaces that need no ordering between them share one target and one
/// pass; nested surfaces keep their order. Counts worked out by hand on tiny scenes.
final class SurfacePackerTests: XCTestCase {
    /// A group at `origin` with opacity 0.5 whose two 20 × 20 children overlap by 10 × 10 (red at (0, 0),
    /// green at (10, 10)), so it needs a 30 × 30 surface.
    @discardableResult
    private func overlappingGroup(_ scene: TinyScene, at origin: CGPoint, in parent: CALayer? = nil) -> CALayer {
        let group = scene.layer(CGRect(origin: origin, size: CGSize(width: 30, height: 30)), nil, in: parent)
        group.opacity = 0.5
        scene.layer(CGRect(x: 0, y: 0, width: 20, height: 20), TinyScene.red, in: group)
        scene.layer(CGRect(x: 10, y: 10, width: 20, height: 20), TinyScene.green, in: group)
        return group
    }

    func testFourSiblingGroupsShareOneOffscreenPass() throws {
        let scene = TinyScene(width: 128, height: 128)
        for (x, y) in [(0, 0), (64, 0), (0, 64), (64, 64)] { overlappingGroup(scene, at: CGPoint(x: x, y: y)) }
        let graph = scene.compiled()
        XCTAssertEqual(graph.statistics.offscreenReasons, [.groupOpacity], "\(graph)")
        XCTAssertEqual(graph.passes.count, 2)
        let shared = try XCTUnwrap(graph.passes.first)
        XCTAssertEqual(shared.items.count, 8, "two children per group")
        // Four 30 × 30 surfaces, each placed as 31 × 31 (1-pixel gutter), side by side on one shelf; the
        // page is cut to the last surface's edge: 3 · 31 + 30 = 123 wide, 30 tall.
        XCTAssertEqual([shared.target.width, shared.target.height], [4 * 31 - 1, 30])
        let composites = graph.framePass.items.filter { $0.texture?.surface == shared.target.surface }
        XCTAssertEqual(composites.count, 4)
        // Each composite samples its own 30-pixel-wide column of the page, 31 pixels apart.
        let uMins = composites.map { $0.instance.uv.x * Float(shared.target.width) }.sorted()
        XCTAssertEqual(uMins, [0, 31, 62, 93])
        for composite in composites {
            XCTAssertEqual((composite.instance.uv.z - composite.instance.uv.x) * Float(shared.target.width), 30, accuracy: 1e-4)
            XCTAssertEqual(composite.instance.uv.w, 1)
        }
    }

    func testWithoutPackingEachGroupHasItsOwnPass() {
        let scene = TinyScene(width: 128, height: 128)
        for (x, y) in [(0, 0), (64, 0), (0, 64), (64, 64)] { overlappingGroup(scene, at: CGPoint(x: x, y: y)) }
        var tree = RenderTree()
        tree.apply(CommitPacket.snapshot(of: scene.root))
        var builder = RenderGraphBuilder(targetWidth: 128, targetHeight: 128, viewport: CGRect(x: 0, y: 0, width: 128, height: 128), scale: 1)
        builder.packsSurfaces = false
        builder.cachesGroups = false  // the per-frame surfaces are under test, not cached ones
        XCTAssertEqual(builder.build(tree: tree, root: scene.root.layerID).offscreenPasses.count, 4)
    }

    func testPackedItemsLandInTheirSubRectangle() throws {
        let scene = TinyScene(width: 128, height: 128)
        overlappingGroup(scene, at: CGPoint(x: 0, y: 0))
        overlappingGroup(scene, at: CGPoint(x: 64, y: 64))
        let graph = scene.built()
        let shared = try XCTUnwrap(graph.passes.first)
        // The second group's green child covers its surface's (10, 10)..(30, 30), i.e. the page's
        // (31 + 10, 10)..(31 + 30, 30).
        let green = try XCTUnwrap(shared.items.last)
        let (c0, c1, _, c3) = green.instance.localToClip
        func pixel(_ x: Float, _ y: Float) -> SIMD2<Float> {
            let clip = c0 * x + c1 * y + c3
            return SIMD2((clip.x / clip.w + 1) * Float(shared.target.width) / 2, (clip.y / clip.w + 1) * Float(shared.target.height) / 2)
        }
        let quad = green.instance.quad
        XCTAssertEqual(pixel(quad.x, quad.y).x, 41, accuracy: 1e-3)
        XCTAssertEqual(pixel(quad.x, quad.y).y, 10, accuracy: 1e-3)
        XCTAssertEqual(pixel(quad.z, quad.w).x, 61, accuracy: 1e-3)
        XCTAssertEqual(pixel(quad.z, quad.w).y, 30, accuracy: 1e-3)
    }

    func testNestedGroupsRunInDependencyOrder() throws {
        // Outer group (opacity 0.5) holds an overlapping inner group and a child overlapping it; a
        // sibling group stands beside. Level 0: inner and sibling (packed into one pass); level 1:
        // outer, which samples the inner; then the frame.
        let scene = TinyScene(width: 128, height: 128)
        let outer = scene.layer(CGRect(x: 0, y: 0, width: 60, height: 60))
        outer.opacity = 0.5
        overlappingGroup(scene, at: CGPoint(x: 0, y: 0), in: outer)
        scene.layer(CGRect(x: 20, y: 20, width: 30, height: 30), TinyScene.blue, in: outer)
        overlappingGroup(scene, at: CGPoint(x: 80, y: 80))
        let graph = scene.compiled()
        XCTAssertEqual(graph.statistics.offscreenReasons, [.groupOpacity, .groupOpacity], "\(graph)")
        let (level0, level1) = (graph.passes[0], graph.passes[1])
        XCTAssertEqual(level0.items.count, 4, "both small groups' children")
        XCTAssertTrue(level1.items.contains { $0.texture?.surface == level0.target.surface }, "the outer group samples the shared page")
        XCTAssertTrue(graph.framePass.items.contains { $0.texture?.surface == level0.target.surface }, "so does the frame")
        XCTAssertTrue(graph.framePass.items.contains { $0.texture?.surface == level1.target.surface })
    }

    func testLargeGroupsAreCutToTheTargetAndNotPacked() {
        // 300 × 300 groups exceed the packable side: each is cut to the 128 × 128 target.
        let scene = TinyScene(width: 128, height: 128)
        for x in [-100, 0] {
            let group = scene.layer(CGRect(x: x, y: 0, width: 300, height: 300))
            group.opacity = 0.5
            scene.layer(CGRect(x: 0, y: 0, width: 200, height: 200), TinyScene.red, in: group)
            scene.layer(CGRect(x: 100, y: 100, width: 200, height: 200), TinyScene.green, in: group)
        }
        let graph = scene.compiled()
        XCTAssertEqual(graph.statistics.offscreenReasons, [.groupOpacity, .groupOpacity])
        XCTAssertTrue(graph.offscreenPasses.allSatisfy { $0.target.width <= 128 && $0.target.height <= 128 })
    }

    // MARK: - Confining a surface's items before packing

    /// A textured draw of `quad` (uv 0…1) into a `width`×`height` target whose layer point (x, y) lands on
    /// pixel (x + offset.x, y + offset.y), or with `quarterTurn` on pixel (offset.x − y, offset.y + x).
    private func draw(_ quad: SIMD4<Float>, offset: SIMD2<Float>, width: Float, height: Float, quarterTurn: Bool = false,
                      turn angle: Float = 0) -> DrawItem {
        // Clip = column0·x + column1·y + column3, clip = 2·pixel / size − 1.
        let (cosine, sine) = quarterTurn ? (Float(0), Float(1)) : (cos(angle), sin(angle))
        let c0 = SIMD4<Float>(2 * cosine / width, 2 * sine / height, 0, 0)
        let c1 = SIMD4<Float>(-2 * sine / width, 2 * cosine / height, 0, 0)
        let c3 = SIMD4<Float>(2 * offset.x / width - 1, 2 * offset.y / height - 1, 0, 1)
        return DrawItem(instance: LayerInstance(localToClip: (c0, c1, SIMD4(0, 0, 1, 0), c3), quad: quad, uv: SIMD4(0, 0, 1, 1),
                                                color: SIMD4(repeating: 1), shape: quad, flags: [.textured]))
    }

    func testAnItemInsideItsSurfaceIsKeptAsItIs() throws {
        let target = RenderTarget.offscreen(SurfaceID(1), width: 40, height: 30)
        let inside = draw(SIMD4(0, 0, 20, 10), offset: SIMD2(5, 5), width: 40, height: 30)
        XCTAssertEqual(SurfacePacker.confined(inside, to: target), inside)
    }

    func testAWideBackgroundIsCutToItsSurfaceWithItsTextureCoordinates() throws {
        // A 100×50 quad whose layer point (x, y) lands on pixel (x − 20, y − 10): the 40×30 target holds
        // layer x 20…60 and y 10…40, cut 1/64 pixel inside its edges (every pixel centre kept), i.e. u
        // 0.2…0.6 and v 0.2…0.8 as nearly.
        let target = RenderTarget.offscreen(SurfaceID(1), width: 40, height: 30)
        let wide = draw(SIMD4(0, 0, 100, 50), offset: SIMD2(-20, -10), width: 40, height: 30)
        let cut = try XCTUnwrap(SurfacePacker.confined(wide, to: target))
        // (Float clip coefficients: exact to a few units in the last place.)
        let inset: Float = 1.0 / 64
        for (got, expected) in zip([cut.instance.quad.x, cut.instance.quad.y, cut.instance.quad.z, cut.instance.quad.w],
                                   [20 + inset, 10 + inset, 60 - inset, 40 - inset]) {
            XCTAssertEqual(got, expected, accuracy: 1e-4)
        }
        XCTAssertEqual(cut.instance.uv.x, (20 + inset) / 100, accuracy: 1e-6)
        XCTAssertEqual(cut.instance.uv.y, (10 + inset) / 50, accuracy: 1e-6)
        XCTAssertEqual(cut.instance.uv.z, (60 - inset) / 100, accuracy: 1e-6)
        XCTAssertEqual(cut.instance.uv.w, (40 - inset) / 50, accuracy: 1e-6)
        XCTAssertEqual(cut.instance.shape, wide.instance.shape, "coverage still follows the layer's own shape")
        XCTAssertEqual(cut.instance.localToClip.0, wide.instance.localToClip.0)
    }

    func testAQuarterTurnedItemIsCutAlongItsTurnedAxes() throws {
        // Layer (x, y) lands on pixel (50 − y, −30 + x): pixel x 0…40 is layer y 10…50, pixel y 0…30 is
        // layer x 30…60, within the quad 0…100 × 0…100 (each cut 1/64 inside).
        let target = RenderTarget.offscreen(SurfaceID(1), width: 40, height: 30)
        let turned = draw(SIMD4(0, 0, 100, 100), offset: SIMD2(50, -30), width: 40, height: 30, quarterTurn: true)
        let cut = try XCTUnwrap(SurfacePacker.confined(turned, to: target))
        let inset: Float = 1.0 / 64
        XCTAssertEqual(cut.instance.quad.x, 30 + inset, accuracy: 1e-4)
        XCTAssertEqual(cut.instance.quad.y, 10 + inset, accuracy: 1e-4)
        XCTAssertEqual(cut.instance.quad.z, 60 - inset, accuracy: 1e-4)
        XCTAssertEqual(cut.instance.quad.w, 50 - inset, accuracy: 1e-4)
    }

    func testAnItemTurnedPastItsSurfaceCannotBeConfined() {
        let target = RenderTarget.offscreen(SurfaceID(1), width: 40, height: 30)
        let turned = draw(SIMD4(0, 0, 100, 100), offset: SIMD2(-20, -20), width: 40, height: 30, turn: .pi / 6)
        XCTAssertNil(SurfacePacker.confined(turned, to: target))
        // Turned but inside: kept.
        let small = draw(SIMD4(0, 0, 10, 10), offset: SIMD2(15, 5), width: 40, height: 30, turn: .pi / 6)
        XCTAssertEqual(SurfacePacker.confined(small, to: target), small)
    }

    func testAnItemWhollyOutsideItsSurfaceKeepsAQuadOfNoArea() throws {
        let target = RenderTarget.offscreen(SurfaceID(1), width: 40, height: 30)
        let outside = draw(SIMD4(0, 0, 10, 10), offset: SIMD2(60, -5), width: 40, height: 30)
        let cut = try XCTUnwrap(SurfacePacker.confined(outside, to: target))
        XCTAssertTrue(cut.instance.quad.z <= cut.instance.quad.x, "\(cut.instance.quad)")
        XCTAssertNil(OffscreenDecision.footprint(of: cut, targetWidth: 40, targetHeight: 30))
    }

    /// Two backdrops over one wide background share a page: each member's background is cut to its own
    /// sub-rectangle (uncut, the second one's painted over the first one's), and a background turned so
    /// that it cannot be cut leaves each backdrop its own pass.
    func testBackdropsOverAWideBackgroundArePackedWithTheirBackgroundsCut() throws {
        for turned in [false, true] {
            let scene = TinyScene(width: 128, height: 64)
            let background = scene.layer(CGRect(x: -64, y: -64, width: 256, height: 192), TinyScene.blue)
            if turned { background.transform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1) }
            for x in [40.0, 80.0] {
                let panel = scene.layer(CGRect(x: x, y: 16, width: 16, height: 32))
                panel.backgroundFilters = [CIFilter(name: "CIColorInvert")!]
            }
            let graph = scene.built()
            let backdrops = graph.offscreenPasses.filter { $0.reason == .backgroundFilter }
            // The backdrops come first (the invert's own step, which only samples them, packs after them).
            let first = try XCTUnwrap(backdrops.first)
            if turned {
                XCTAssertEqual(backdrops.prefix(2).map(\.target.width), [16, 16], "each backdrop keeps its own pass")
                continue
            }
            XCTAssertEqual([first.target.width, first.target.height], [16 + 1 + 16, 32], "two 16×32 backdrops side by side")
            // Each member's background (one draw each) lands within its own 16-pixel column: the first in
            // 0…16, the second in 17…33.
            XCTAssertEqual(first.items.count, 2)
            for (item, column) in zip(first.items, [0.0...16.0, 17.0...33.0]) {
                let (c0, c1, _, c3) = item.instance.localToClip
                let quad = item.instance.quad
                for (x, y) in [(quad.x, quad.y), (quad.z, quad.w)] {
                    let clip = c0 * x + c1 * y + c3
                    let pixel = (Double(clip.x / clip.w) + 1) * 33 / 2
                    XCTAssertTrue(column.lowerBound - 1e-3 <= pixel && pixel <= column.upperBound + 1e-3, "\(pixel) outside \(column)")
                }
            }
        }
    }
}
