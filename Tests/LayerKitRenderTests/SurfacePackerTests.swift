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
}
