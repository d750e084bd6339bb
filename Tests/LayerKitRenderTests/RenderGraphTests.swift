import XCTest
@testable import LayerKitRender

/// The render graph as a value: its printed tree and its invariants, on graphs written out by hand.
final class RenderGraphTests: XCTestCase {
    /// A unit quad item, sampling `surface` when given.
    private func item(sampling surface: Int? = nil, blend: BlendMode = .sourceOver) -> DrawItem {
        let identity = (SIMD4<Float>(1, 0, 0, 0), SIMD4<Float>(0, 1, 0, 0), SIMD4<Float>(0, 0, 1, 0), SIMD4<Float>(0, 0, 0, 1))
        let instance = LayerInstance(localToClip: identity, quad: SIMD4(0, 0, 1, 1), color: SIMD4(repeating: 1), shape: SIMD4(0, 0, 1, 1))
        return DrawItem(instance: instance, texture: surface.map { TextureBinding(surface: SurfaceID($0)) }, blend: blend)
    }

    private func offscreen(_ surface: Int, _ width: Int, _ height: Int, _ reason: OffscreenReason, name: String, items: [DrawItem]) -> RenderPass {
        RenderPass(name: name, target: .offscreen(SurfaceID(surface), width: width, height: height), clearColor: .zero,
                   items: items, reason: reason)
    }

    private func frame(_ items: [DrawItem]) -> RenderPass {
        RenderPass(name: "frame", target: .frame(width: 64, height: 64), clearColor: .zero, items: items)
    }

    /// A mask (surface 0) applied to masked content (surface 1), a group (surface 2) beside it, and the frame.
    private var smallGraph: RenderGraph {
        RenderGraph(passes: [
            offscreen(0, 16, 24, .mask, name: "mask of layer #3", items: [item()]),
            offscreen(1, 16, 24, .mask, name: "masked layer #3", items: [item(), item(), item(sampling: 0, blend: .destinationIn)]),
            offscreen(2, 32, 32, .groupOpacity, name: "group opacity of layer #5", items: [item(), item()]),
            frame([item(), item(sampling: 1), item(sampling: 2)]),
        ])
    }

    func testDescriptionPrintsPassesTargetsAndReasonsAsATree() {
        XCTAssertEqual(smallGraph.description, """
            RenderGraph · 4 passes · 3 offscreen (groupOpacity 1, mask 2)
            pass 3 · frame → frame 64×64 · 3 items
              pass 1 · masked layer #3 → surface 1 16×24 · mask · 3 items
                pass 0 · mask of layer #3 → surface 0 16×24 · mask · 1 item
              pass 2 · group opacity of layer #5 → surface 2 32×32 · groupOpacity · 2 items
            """)
    }

    func testDescriptionOfAFrameOnlyGraph() {
        XCTAssertEqual(RenderGraph(passes: [frame([item()])]).description, """
            RenderGraph · 1 pass · 0 offscreen
            pass 0 · frame → frame 64×64 · 1 item
            """)
    }

    func testWellFormedGraphHasNoViolations() {
        XCTAssertEqual(smallGraph.invariantViolations, [])
    }

    func testInvariantsCatchASurfaceThatNoPassRendered() {
        let graph = RenderGraph(passes: [frame([item(sampling: 7)])])
        XCTAssertEqual(graph.invariantViolations, [.sampledBeforeRendered(pass: 0, surface: SurfaceID(7))])
    }

    func testInvariantsCatchASurfaceSampledBeforeItsPass() {
        var graph = smallGraph
        graph.passes.swapAt(0, 1)  // the masked content now samples the mask before the mask is drawn
        XCTAssertEqual(graph.invariantViolations, [.sampledBeforeRendered(pass: 0, surface: SurfaceID(0)),
                                                   .neverSampled(pass: 1, surface: SurfaceID(0))])
    }

    func testInvariantsCatchAPassThatSamplesItsOwnSurface() {
        let graph = RenderGraph(passes: [
            offscreen(0, 8, 8, .groupOpacity, name: "loop", items: [item(sampling: 0)]),
            frame([item(sampling: 0)]),
        ])
        XCTAssertEqual(graph.invariantViolations, [.sampledBeforeRendered(pass: 0, surface: SurfaceID(0))])
    }

    func testInvariantsCatchAnOffscreenPassNobodyReads() {
        var graph = smallGraph
        graph.passes[3].items.removeLast()
        XCTAssertEqual(graph.invariantViolations, [.neverSampled(pass: 2, surface: SurfaceID(2))])
    }

    func testInvariantsCatchASurfaceDrawnTwiceAndAnEmptySurface() {
        // Two passes into the frame are allowed (each clears it); the builder makes one.
        let graph = RenderGraph(passes: [
            offscreen(0, 8, 8, .mask, name: "a", items: []),
            offscreen(0, 8, 8, .mask, name: "b", items: []),
            frame([item(sampling: 0)]),
            offscreen(1, 0, 8, .mask, name: "c", items: []),
            frame([item(sampling: 1)]),
        ])
        XCTAssertEqual(graph.invariantViolations, [
            .renderedTwice(pass: 1, surface: SurfaceID(0)), .emptySurface(pass: 3, surface: SurfaceID(1)),
        ])
    }

    func testInvariantsCatchAReasonlessOffscreenPass() {
        let graph = RenderGraph(passes: [
            RenderPass(name: "why", target: .offscreen(SurfaceID(0), width: 4, height: 4), clearColor: .zero, items: []),
            frame([item(sampling: 0)]),
        ])
        XCTAssertEqual(graph.invariantViolations, [.reasonMismatch(pass: 0)])
    }
}
