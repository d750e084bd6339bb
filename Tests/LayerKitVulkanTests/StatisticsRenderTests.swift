import Foundation
import LayerKit
@testable import LayerKitVulkan
import XCTest

/// `CARenderer.lastFrameStatistics`: counts worked out by hand, fragments shaded as the pipeline-
/// statistics query counts them, GPU and CPU times present. Validation on.
///
/// Lavapipe (llvmpipe) counts fragment-shader invocations per 4×4 block it shades, 16 for a block
/// however few of its pixels a triangle covers (Mesa notes "not very accurate would need a popcount on
/// the mask"). A quad is two triangles, so the blocks along its diagonal count twice: a quad covering
/// W×H pixels counts between W·H and W·H + 16 · (W/4 + H/4) (the blocks one diagonal can cross). A device
/// that counts exactly gives W·H, which these bounds accept too.
final class StatisticsRenderTests: CARendererTestCase {
    /// The fragments a quad covering `width`×`height` whole pixels may count (see the type's note).
    private func quadFragments(_ width: Int, _ height: Int) -> ClosedRange<Int> {
        (width * height)...(width * height + 16 * (width / 4 + height / 4))
    }

    func testSingleFullTargetOpaqueQuadShadesEveryPixelOnceUpToItsDiagonalBlocks() throws {
        // Unequal sides, so a swapped width and height would show; one column of the 65×48 target stays
        // uncovered, so the quad is drawn rather than made the clear.
        let root = makeRoot(width: 65, height: 48)
        makeLayer(CGRect(x: 0, y: 0, width: 64, height: 48), .testRed, in: root)
        let renderer = try makeRenderer(width: 65, height: 48)
        renderer.layer = root
        _ = try renderFrame(renderer)
        let statistics = renderer.lastFrameStatistics
        let fragments = try XCTUnwrap(statistics.fragmentsShaded, "lavapipe has pipeline statistics")
        XCTAssertTrue(quadFragments(64, 48).contains(fragments), "\(fragments) fragments for 64×48 pixels")
        XCTAssertEqual(statistics.targetPixels, 65 * 48)
        XCTAssertEqual(statistics.overdraw ?? 0, Double(fragments) / 3120, accuracy: 1e-12)
        XCTAssertLessThanOrEqual(statistics.overdraw ?? 9, 1.13)
    }

    func testOverlappingTranslucentQuadsShadeTheirWholeAreas() throws {
        let root = makeRoot()
        let translucent = CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)
        makeLayer(CGRect(x: 0, y: 0, width: 32, height: 32), translucent, in: root)
        makeLayer(CGRect(x: 16, y: 16, width: 32, height: 32), translucent, in: root)
        let renderer = try makeRenderer()
        renderer.layer = root
        _ = try renderFrame(renderer)
        let fragments = try XCTUnwrap(renderer.lastFrameStatistics.fragmentsShaded)
        let one = quadFragments(32, 32)
        XCTAssertTrue((2 * one.lowerBound...2 * one.upperBound).contains(fragments), "\(fragments): both quads shaded fully, neither culled")
    }

    func testStackWithoutCullingShadesSixtyFourQuadsWhereCullingShadesNone() throws {
        // With culling the 63 hidden layers are dropped and the top one, opaque and flat over the whole
        // target, is the frame's clear: nothing is shaded. Without culling, 64 identical quads are.
        let root = makeRoot()
        for j in 0..<64 { makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), CGColor(red: CGFloat(j) / 64, green: 0, blue: 0, alpha: 1), in: root) }
        let renderer = try makeRenderer()
        renderer.layer = root
        let culledImage = try renderFrame(renderer)
        XCTAssertEqual(renderer.lastFrameStatistics.fragmentsShaded, 0, "the top layer is the clear")
        XCTAssertEqual(renderer.lastFrameStatistics.quadsDrawnAsClear, 1)
        renderer.debugOptions = .disableCulling
        let drawnImage = try renderFrame(renderer, atTime: 1)
        let all = try XCTUnwrap(renderer.lastFrameStatistics.fragmentsShaded)
        XCTAssertEqual(all % 64, 0, "painter's order, no depth test: 64 identical quads")
        XCTAssertTrue(quadFragments(64, 64).contains(all / 64), "\(all / 64) fragments per quad")
        XCTAssertEqual(renderer.lastFrameStatistics.overdraw ?? 0, Double(all) / 4096, accuracy: 1e-9)
        assertPixels(culledImage, "clear vs drawn") { x, y in PixelRGBA(drawnImage, x, y) }
    }

    func testCountsOfAKnownScene() throws {
        // Backdrop (opaque, full), a hidden layer, an off-target layer, a group needing a surface, two
        // images of one kind: worked out below.
        let root = makeRoot()
        makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), .testBlue, in: root)
        makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), .testWhite, in: root)       // hides the backdrop
        makeLayer(CGRect(x: 100, y: 0, width: 8, height: 8), .testRed, in: root)         // off target
        let group = makeLayer(CGRect(x: 8, y: 8, width: 20, height: 20), nil, in: root)
        group.opacity = 0.5
        makeLayer(CGRect(x: 0, y: 0, width: 12, height: 12), .testRed, in: group)
        makeLayer(CGRect(x: 8, y: 8, width: 12, height: 12), .testGreen, in: group)
        let image = makeQuadrantImage()
        for x in [36, 50] as [CGFloat] { makeLayer(CGRect(x: x, y: 40, width: 10, height: 10), nil, in: root).contents = image }
        let renderer = try makeRenderer()
        renderer.resolvesGroupsByDepth = false  // the group through its surface, as counted below
        renderer.layer = root
        _ = try renderFrame(renderer)
        let first = renderer.lastFrameStatistics
        // Visible: white, the group (its composite), red and green (in the surface), two image layers.
        XCTAssertEqual(first.layersVisible, 6)
        XCTAssertEqual(first.layersCulled, 2, "the backdrop and the off-target layer")
        XCTAssertEqual(first.quadsCulledOccluded, 1)
        XCTAssertEqual(first.quadsCulledOffTarget, 1)
        XCTAssertEqual(first.quadsDrawnAsClear, 1, "white: opaque, flat, over the whole target, first drawn")
        XCTAssertEqual(first.layerQuads, 5, "composite, two images; red and green in the surface")
        XCTAssertEqual(first.passes, 2)
        XCTAssertEqual(first.offscreenReasons, [.groupOpacity])
        // Surface: red and green share a batch. Frame, opaque phase: the two opaque images (one atlas
        // page, one batch); translucent phase: the composite.
        XCTAssertEqual(first.batches, 1 + 1 + 1)
        XCTAssertEqual(first.drawCalls, first.batches)
        XCTAssertEqual(first.instances, 5)
        XCTAssertEqual(first.imagesUploaded, 1, "the image, once, into the atlas")
        XCTAssertEqual(first.bytesUploaded, 16 * 8 * 4)
        XCTAssertEqual(first.offscreenTargetBytes, 64 * 64 * 4, "a 20×20 surface from the 64-pixel bucket")
        XCTAssertNotNil(first.gpuTime)
        XCTAssertGreaterThan(first.gpuTime ?? 0, 0)
        XCTAssertGreaterThan(first.cpuTime.record, 0)
        XCTAssertGreaterThan(first.cpuTime.graphBuild, 0)
        // The second frame uploads nothing.
        _ = try renderFrame(renderer, atTime: 1)
        XCTAssertEqual(renderer.lastFrameStatistics.imagesUploaded, 0)
        XCTAssertEqual(renderer.lastFrameStatistics.bytesUploaded, 0)
    }

    func testFragmentsOfEveryPassAreCountedInFramesOfMorePassesThanThePoolFirstHolds() throws {
        // Five nested groups, each at half opacity over a translucent leaf of its whole size and its
        // inner group 4 px in: every group overlaps, so each needs a surface of its own, one pass per
        // nesting level (a surface is drawn before the surface that samples it), six passes in all — more
        // than the statistics pool first holds (one query per pass). Counted per pass, summed:
        // the frame draws g1's composite (40×40); surface k its leaf (s×s) and g(k+1)'s composite;
        // the innermost its leaf (8×8) and a second leaf (4×4) over it.
        let root = makeRoot()
        let translucent = CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)
        let sizes: [CGFloat] = [40, 32, 24, 16, 8]
        var parent = root
        var groups: [CALayer] = []
        for size in sizes {
            let group = makeLayer(CGRect(x: 4, y: 4, width: size, height: size), nil, in: parent)
            group.opacity = 0.5
            groups.append(group)
            makeLayer(CGRect(x: 0, y: 0, width: size, height: size), translucent, in: group)
            parent = group
        }
        let innermost = makeLayer(CGRect(x: 2, y: 2, width: 4, height: 4), translucent, in: parent)
        let renderer = try makeRenderer()
        renderer.resolvesGroupsByDepth = false
        renderer.layer = root
        // First a frame of one pass (the groups hidden), which sizes the pools for it.
        groups[0].isHidden = true
        _ = try renderFrame(renderer)
        XCTAssertEqual(renderer.lastFrameStatistics.passes, 1)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        groups[0].isHidden = false
        CATransaction.commit()
        _ = try renderFrame(renderer, atTime: 1)
        let statistics = renderer.lastFrameStatistics
        XCTAssertEqual(statistics.passes, 6)
        XCTAssertEqual(statistics.offscreenReasons, Array(repeating: .groupOpacity, count: 5))
        let sides = sizes.map(Int.init)
        var quads = [quadFragments(40, 40), quadFragments(8, 8), quadFragments(4, 4)]
        for k in 0..<4 { quads += [quadFragments(sides[k], sides[k]), quadFragments(sides[k + 1], sides[k + 1])] }
        let expected = quads.map(\.lowerBound).reduce(0, +)...quads.map(\.upperBound).reduce(0, +)
        let fragments = try XCTUnwrap(statistics.fragmentsShaded)
        XCTAssertTrue(expected.contains(fragments), "\(fragments) fragments, \(expected) expected over all six passes")
        XCTAssertGreaterThan(statistics.gpuTime ?? 0, 0, "from the first pass's start to the last pass's end")
        // The next frame (something changed, so it is drawn) reuses the pools, reset again, the grown one included.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        innermost.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 0.5)
        CATransaction.commit()
        _ = try renderFrame(renderer, atTime: 2)
        XCTAssertEqual(renderer.lastFrameStatistics.passes, 6)
        let again = try XCTUnwrap(renderer.lastFrameStatistics.fragmentsShaded)
        XCTAssertTrue(expected.contains(again), "\(again) fragments in the second frame, \(expected) expected")
    }

    func testStatisticsPrintNotAvailableWhereNothingWasMeasured() {
        var statistics = FrameStatistics()
        statistics.targetPixels = 100
        XCTAssertNil(statistics.overdraw)
        XCTAssertTrue(statistics.description.contains("fragments n/a · overdraw n/a"), statistics.description)
        XCTAssertTrue(statistics.description.contains("gpu ms n/a"), statistics.description)
        statistics.fragmentsShaded = 150
        XCTAssertEqual(statistics.overdraw, 1.5)
        XCTAssertTrue(statistics.description.contains("fragments 150 · overdraw 1.50"), statistics.description)
    }
}
