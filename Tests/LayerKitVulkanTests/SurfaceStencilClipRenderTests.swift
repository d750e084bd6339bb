import LayerKit
@testable import LayerKitVulkan
import XCTest

/// Clipping by stencil inside offscreen surfaces (`StencilClipCommand` in surface passes): the scene of
/// `StencilClipRenderTests` — the axis-aligned square S = (16, 16)…(48, 48) clipping a 32×32 clip rotated
/// by 45° about the same centre, the diamond D: |x − 32| + |y − 32| ≤ 16√2 ≈ 22.6, clipping green that
/// overflows both — drawn inside a group-opacity group, a masked layer and a rasterized layer. Each
/// surface pass carries the push and pop of S, so the green shows only where S and D overlap: S takes
/// the pixels whose centres it covers (its edges lie on pixel boundaries), D is analytic. Expectations come
/// from the two shapes; pixels within 0.75 px of D's edge (its antialiased ramp) are not checked.
final class SurfaceStencilClipRenderTests: CARendererTestCase {
    private let square = CGRect(x: 16, y: 16, width: 32, height: 32)

    /// Adds S holding D holding the green layer to `parent` (whose sublayer space is the target's).
    private func addClips(to parent: CALayer) {
        let outer = makeLayer(square, nil, in: parent)
        outer.masksToBounds = true
        let inner = makeLayer(CGRect(x: 0, y: 0, width: 32, height: 32), nil, in: outer)
        inner.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        inner.masksToBounds = true
        makeLayer(CGRect(x: -40, y: -40, width: 112, height: 112), .testGreen, in: inner)
    }

    /// What the clips let through at pixel (x, y): true inside S and D, false outside either, nil near
    /// D's edge.
    private func insideBothClips(_ x: Int, _ y: Int) -> Bool? {
        let (cx, cy) = (Double(x) + 0.5, Double(y) + 0.5)
        let toDiamond = (abs(cx - 32) + abs(cy - 32) - 16 * 2.0.squareRoot()) / 2.0.squareRoot()
        let inSquare = square.contains(CGPoint(x: cx, y: cy))
        if inSquare && abs(toDiamond) < 0.75 { return nil }
        return inSquare && toDiamond < 0
    }

    /// Sample points of each region: (x, y, inside both clips?). Centres worked out from the shapes:
    /// (46.5, 32.5) is 14.5 + 0.5 from the centre (in D) and in S; (49.5, 32.5) and (32.5, 12.5) are in D
    /// (18 and 20 < 22.6) but outside S; (46.5, 46.5) and (46.5, 17.5) are in S but 29 > 22.6 from the
    /// centre, outside D.
    private func probes(_ color: PixelRGBA) -> [Probe] {
        [
            Probe("centre, inside both", 32, 32, color),
            Probe("right, inside both", 46, 32, color),
            Probe("left, inside both", 20, 30, color),
            Probe("inner clip only, right", 49, 32, .clear),
            Probe("inner clip only, top", 32, 12, .clear),
            Probe("inner clip only, bottom", 31, 51, .clear),
            Probe("outer clip only, bottom-right corner", 46, 46, .clear),
            Probe("outer clip only, top-right corner", 46, 17, .clear),
        ]
    }

    func testStencilClipsInsideAGroupOpacitySurface() throws {
        // Group at opacity 0.5 over the clips and a blue square (0, 0)…(18, 18) overlapping S's corner:
        // the children overlap, so the group is drawn offscreen, and the blue lies over S only (outside D).
        let root = makeRoot()
        let group = makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), nil, in: root)
        group.opacity = 0.5
        addClips(to: group)
        makeLayer(CGRect(x: 0, y: 0, width: 18, height: 18), .testBlue, in: group)
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        let graph = try XCTUnwrap(renderer.lastGraph)
        XCTAssertEqual(graph.offscreenPasses.map(\.reason), [.groupOpacity])
        XCTAssertEqual(graph.offscreenPasses.first?.items.compactMap(\.stencilCommand), [.push, .pop])
        let halfGreen = PixelRGBA(premultiplied: 0, 0.5, 0, 0.5)
        let halfBlue = PixelRGBA(premultiplied: 0, 0, 0.5, 0.5)
        assertPixels(image, "group-probes", tolerance: 1, probes: probes(halfGreen))
        assertPixels(image, "group", tolerance: 1) { x, y in
            if x < 18 && y < 18 { return halfBlue }
            return self.insideBothClips(x, y).map { $0 ? halfGreen : .clear }
        }
        // The surface's stencil: one image of its 64×64 bucket, counted with the surface (S8: 1 byte a pixel,
        // or the frame's depth-stencil format where S8 cannot be an attachment).
        let stencilBytes = renderer.surfaceStencilBytesPerPixel * 64 * 64
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenTargetBytes, 64 * 64 * 4 + stencilBytes)
        XCTAssertEqual(renderer.surfaceStencilStatistics.created, 1)
    }

    func testStencilClipsInsideAMaskedLayer() throws {
        // The clips inside a layer masked to x < 40 by an opaque black mask layer.
        let root = makeRoot()
        let masked = makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), nil, in: root)
        addClips(to: masked)
        masked.mask = makeLayer(CGRect(x: 0, y: 0, width: 40, height: 64), .black)
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        let graph = try XCTUnwrap(renderer.lastGraph)
        XCTAssertEqual(graph.offscreenPasses.compactMap(\.reason), [.mask, .mask])
        XCTAssertEqual(graph.offscreenPasses.flatMap { $0.items.compactMap(\.stencilCommand) }, [.push, .pop])
        var expected = probes(.green).filter { $0.x < 40 }
        expected.append(Probe("inside both, masked off", 44, 32, .clear))
        assertPixels(image, "mask-probes", tolerance: 1, probes: expected)
        assertPixels(image, "mask", tolerance: 1) { x, y in
            x >= 40 ? .clear : self.insideBothClips(x, y).map { $0 ? .green : .clear }
        }
    }

    func testStencilClipsInsideARasterizedLayer() throws {
        let root = makeRoot()
        let rasterized = makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), nil, in: root)
        rasterized.shouldRasterize = true
        addClips(to: rasterized)
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        let graph = try XCTUnwrap(renderer.lastGraph)
        XCTAssertEqual(graph.offscreenPasses.compactMap(\.reason), [.rasterize])
        XCTAssertEqual(graph.offscreenPasses.first?.items.compactMap(\.stencilCommand), [.push, .pop])
        assertPixels(image, "rasterized-probes", tolerance: 1, probes: probes(.green))
        assertPixels(image, "rasterized", tolerance: 1) { x, y in
            self.insideBothClips(x, y).map { $0 ? .green : .clear }
        }
        // The next frame reuses the bitmap: no pass, the same pixels.
        let again = try renderFrame(renderer, atTime: 1)
        XCTAssertEqual(renderer.lastGraph?.offscreenPasses.count, 0)
        assertPixels(again, "rasterized-reused-probes", tolerance: 1, probes: probes(.green))
    }

    func testSurfaceStencilsAreReusedAcrossFrames() throws {
        // A group-opacity surface and a mask's content surface, both clipped by stencil, every frame for
        // 300 frames: both surfaces come from the 64-pixel bucket, so they share one stencil image, made in
        // the first frame; nothing grows afterwards.
        let root = makeRoot()
        let group = makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), nil, in: root)
        group.opacity = 0.5
        addClips(to: group)
        makeLayer(CGRect(x: 0, y: 0, width: 18, height: 18), .testBlue, in: group)
        let masked = makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), nil, in: root)
        addClips(to: masked)
        masked.mask = makeLayer(CGRect(x: 20, y: 40, width: 8, height: 8), .black)
        let renderer = try makeRenderer()
        renderer.layer = root
        _ = try renderFrame(renderer)
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.groupOpacity, .mask, .mask])
        let afterFirst = (surfaces: renderer.surfacePoolStatistics, stencils: renderer.surfaceStencilStatistics,
                          blocks: renderer.memoryBlockCount)
        XCTAssertEqual(afterFirst.stencils.created, 1)
        XCTAssertEqual(afterFirst.stencils.resident, 1)
        for frame in 1..<300 {
            renderer.beginFrame(atTime: Double(frame) / 60)
            renderer.render()
            renderer.endFrame()
        }
        XCTAssertEqual(renderer.surfacePoolStatistics.created, afterFirst.surfaces.created)
        XCTAssertEqual(renderer.surfacePoolStatistics.resident, afterFirst.surfaces.resident)
        XCTAssertEqual(renderer.surfaceStencilStatistics.created, 1)
        XCTAssertEqual(renderer.surfaceStencilStatistics.resident, 1)
        XCTAssertEqual(renderer.memoryBlockCount, afterFirst.blocks)
        let image = try renderer.snapshot()
        // The group at 0.5 (green inside both clips); the masked copy shows only in its mask's square
        // (20, 40)…(28, 48), away from the probes.
        assertPixels(image, "after-300-frames", tolerance: 1, probes: [
            Probe("inside both", 32, 32, PixelRGBA(premultiplied: 0, 0.5, 0, 0.5)),
            Probe("inner clip only", 49, 32, .clear),
            Probe("outer clip only", 46, 46, .clear),
        ])
    }
}
