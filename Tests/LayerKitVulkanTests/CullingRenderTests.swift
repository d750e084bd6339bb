import Foundation
import LayerKit
@testable import LayerKitVulkan
import XCTest

/// Culling, depth ordering, batching and the atlas must not change a pixel: a frame drawn with them
/// equals the frame drawn with them switched off (`DebugOptions.disableCulling`, `.disableBatching`),
/// and what they save shows in the statistics. Validation on.
final class CullingRenderTests: CARendererTestCase {
    /// Everything at once in 96×96: an opaque backdrop, an opaque top band hiding what lies under it
    /// (wholly or in part), a rotated opaque layer, translucent, rounded and bordered layers, a clip,
    /// opaque and translucent images (nearest and linear, scaled), a group that needs a surface, and
    /// layers partly and wholly off the target.
    private func makeMixedScene() -> CALayer {
        let root = makeRoot(width: 96, height: 96)
        makeLayer(CGRect(x: 0, y: 0, width: 96, height: 96), .testBlue, in: root)
        // Under the band: hidden wholly (two), and in part.
        makeLayer(CGRect(x: 4, y: 4, width: 20, height: 20), .testRed, in: root)
        let hiddenImage = makeLayer(CGRect(x: 30, y: 10, width: 20, height: 20), nil, in: root)
        hiddenImage.contents = makeQuadrantImage()
        makeLayer(CGRect(x: 60, y: 30, width: 20, height: 40), .testGreen, in: root)
        makeLayer(CGRect(x: 80, y: 60, width: 30, height: 12), .testGreen, in: root)          // partly off
        makeLayer(CGRect(x: 100, y: 100, width: 10, height: 10), .testGreen, in: root)        // off target
        let rotated = makeLayer(CGRect(x: 20, y: 50, width: 24, height: 24), .testWhite, in: root)
        rotated.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        let rounded = makeLayer(CGRect(x: 2, y: 70, width: 22, height: 22), CGColor(red: 1, green: 1, blue: 0, alpha: 1), in: root)
        rounded.cornerRadius = 6
        rounded.borderWidth = 2
        rounded.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0.5)
        makeLayer(CGRect(x: 10, y: 60, width: 50, height: 10), CGColor(red: 0, green: 1, blue: 1, alpha: 0.5), in: root)
        let clipper = makeLayer(CGRect(x: 70, y: 74, width: 16, height: 16), nil, in: root)
        clipper.masksToBounds = true
        let clipped = makeLayer(CGRect(x: -4, y: -4, width: 24, height: 24), nil, in: clipper)
        clipped.contents = makeQuadrantImage()
        clipped.magnificationFilter = .nearest
        let translucentImage = makeImage(width: 4, height: 4, opaque: false) { x, _ in
            PixelRGBA(premultiplied: 0.5, 0, Double(x) / 8, 0.5)
        }
        makeLayer(CGRect(x: 50, y: 60, width: 12, height: 12), nil, in: root).contents = translucentImage
        let group = makeLayer(CGRect(x: 40, y: 76, width: 16, height: 16), nil, in: root)
        group.opacity = 0.5
        makeLayer(CGRect(x: 0, y: 0, width: 10, height: 10), .testRed, in: group)
        makeLayer(CGRect(x: 6, y: 6, width: 10, height: 10), .testGreen, in: group)
        // The band: opaque, 96×48 (an occluder), then a translucent veil over everything.
        makeLayer(CGRect(x: 0, y: 0, width: 96, height: 48), CGColor(red: 0.9, green: 0.6, blue: 0.1, alpha: 1), in: root)
        makeLayer(CGRect(x: 0, y: 0, width: 96, height: 96), CGColor(red: 0.2, green: 0.3, blue: 0.4, alpha: 0.25), in: root)
        return root
    }

    private func render(_ root: CALayer, size: Int = 64, options: DebugOptions) throws -> (CGImage, FrameStatistics, CARenderer) {
        let renderer = try makeRenderer(width: size, height: size)
        renderer.debugOptions = options
        renderer.layer = root
        let image = try renderFrame(renderer)
        return (image, renderer.lastFrameStatistics, renderer)
    }

    func testCullingAndDepthOrderDoNotChangeAPixel() throws {
        let root = makeMixedScene()
        let (culled, statistics, renderer) = try render(root, size: 96, options: [])
        let (reference, referenceStatistics, _) = try render(root, size: 96, options: .disableCulling)
        let graph = renderer.lastGraph.map(String.init(describing:)) ?? ""
        XCTAssertEqual(statistics.quadsCulledOccluded, 2, "the red layer and the image under the band\n\(graph)")
        XCTAssertEqual(statistics.quadsCulledOffTarget, 1, graph)
        XCTAssertEqual(referenceStatistics.quadsCulled, 0)
        XCTAssertEqual(renderer.lastGraph?.passes.last?.depthOrdered, true)
        XCTAssertLessThan(statistics.fragmentsShaded ?? .max, referenceStatistics.fragmentsShaded ?? 0)
        assertPixels(culled, "culled vs disableCulling") { x, y in PixelRGBA(reference, x, y) }
    }

    func testBatchingReorderingAndTheAtlasDoNotChangeAPixel() throws {
        // Two images only the atlas can batch, alternating, overlapping their neighbours, each shown at
        // twice its size (an integer scale: no pixel centre falls on a texel edge, where nearest sampling
        // would be a tie), every third one nearest-filtered.
        let root = makeRoot()
        let quadrants = makeQuadrantImage()  // 16×8
        let gradient = makeImage(width: 8, height: 8, opaque: false) { x, y in
            PixelRGBA(premultiplied: Double(x) / 16, Double(y) / 16, 0.25, 0.5)
        }
        for i in 0..<8 {
            let image = i % 2 == 0 ? quadrants : gradient
            let layer = makeLayer(CGRect(x: CGFloat(6 * i), y: CGFloat(5 * i), width: CGFloat(2 * image.width), height: CGFloat(2 * image.height)),
                                  nil, in: root)
            layer.contents = image
            layer.magnificationFilter = i % 3 == 0 ? .nearest : .linear
        }
        let (batched, statistics, renderer) = try render(root, options: [])
        let (reference, referenceStatistics, _) = try render(root, options: .disableBatching)
        XCTAssertEqual(referenceStatistics.drawCalls, 8)
        XCTAssertLessThan(statistics.drawCalls, referenceStatistics.drawCalls, "\(renderer.lastGraph.map(String.init(describing:)) ?? "")")
        // Exact. (Sampling a placement in an atlas page computes the same texel coordinates through other
        // float operations, so at a tie — a pixel centre on a texel edge with nearest filtering, a linear
        // weight on a step of the sampler's fixed-point weights — the last bit could go either way; the
        // integer scale keeps this scene off such ties.)
        assertPixels(batched, "batched vs disableBatching") { x, y in PixelRGBA(reference, x, y) }
    }

    /// A small `city`: opaque tiles rotated by different angles, overlapping several deep at a pitch
    /// smaller than their size, flat-coloured (`textured` false) or showing an image.
    private func makeOverlappingTiles(textured: Bool) -> CALayer {
        let root = makeRoot(width: 96, height: 96)
        let image = makeQuadrantImage()
        for i in 0..<64 {
            let (column, row) = (i % 8, i / 8)
            let tile = makeLayer(CGRect(x: CGFloat(4 + 10 * column), y: CGFloat(3 + 11 * row), width: 24, height: 24),
                                 textured ? nil : CGColor(red: CGFloat(i % 4) / 3, green: CGFloat(i % 7) / 6, blue: CGFloat(i) / 63, alpha: 1),
                                 in: root)
            if textured {
                tile.contents = image
                tile.magnificationFilter = .linear
            }
            tile.isOpaque = true
            tile.allowsEdgeAntialiasing = false
            tile.transform = CATransform3DMakeRotation(0.1 * CGFloat(i), 0, 0, 1)
            // Every tile animated (holding its angle), as `city`'s are: too many for the next frame to patch.
            let hold = CABasicAnimation(keyPath: "transform.rotation.z")
            hold.fromValue = 0.1 * Double(i)
            hold.toValue = 0.1 * Double(i)
            hold.duration = 100
            tile.add(hold, forKey: "hold")
        }
        return root
    }

    func testOnlyACPUDeviceTrimsByDefault() throws {
        let renderer = try makeRenderer(width: 96, height: 96)
        XCTAssertEqual(renderer.trimsOccludedParts, renderer.rendersOnCPU)
    }

    func testTrimmingHiddenPartsOfOpaqueTilesDoesNotChangeAPixel() throws {
        for textured in [false, true] {
            let root = makeOverlappingTiles(textured: textured)
            let renderer = try makeRenderer(width: 96, height: 96)
            renderer.trimsOccludedParts = true  // on a GPU it is off by default
            renderer.layer = root
            let trimmed = try renderFrame(renderer)
            let statistics = renderer.lastFrameStatistics
            let (reference, referenceStatistics, _) = try render(root, size: 96, options: .disableCulling)
            let untrimmedRenderer = try makeRenderer(width: 96, height: 96)
            untrimmedRenderer.trimsOccludedParts = false
            untrimmedRenderer.layer = root
            let untrimmed = try renderFrame(untrimmedRenderer)
            let graph = renderer.lastGraph.map(String.init(describing:)) ?? ""
            XCTAssertGreaterThan(statistics.quadsTrimmed, 32, graph)
            XCTAssertEqual(referenceStatistics.quadsTrimmed, 0)
            XCTAssertEqual(untrimmedRenderer.lastFrameStatistics.quadsTrimmed, 0)
            // Both depth-ordered, the second frame of each (lavapipe reported exactly half the count for a
            // renderer's first frame of this scene as for the same frame drawn again):
            // the trimmed frame rasterizes fewer. The tiles are small for their pitch, so the quads' bounds
            // spare about a fifth here (city, 40-pixel tiles at a 12-pixel pitch: three quarters).
            _ = try renderFrame(renderer, atTime: 1)
            _ = try renderFrame(untrimmedRenderer, atTime: 1)
            // Only a CPU device counts fragments before the depth test; a GPU's early depth test spares the
            // hidden ones from shading already, trimmed or not.
            let (fragments, untrimmedFragments) = (renderer.lastFrameStatistics.fragmentsShaded ?? .max,
                                                   untrimmedRenderer.lastFrameStatistics.fragmentsShaded ?? 0)
            if renderer.rendersOnCPU {
                XCTAssertLessThan(Double(fragments), 0.85 * Double(untrimmedFragments), graph)
            }
            assertPixels(untrimmed, "untrimmed vs disableCulling, textured \(textured)") { x, y in PixelRGBA(reference, x, y) }
            // Exact for flat colours. A trimmed image's texture coordinates are interpolated from other
            // corners, so a linear weight on a step of the sampler's fixed-point weights may round the other
            // way: one level at most.
            assertPixels(trimmed, "trimmed vs disableCulling, textured \(textured)", tolerance: textured ? 1 : 0) { x, y in
                PixelRGBA(reference, x, y)
            }
        }
        // And independently of the renderer, for flat colours: each pixel is the colour of the topmost tile
        // whose rotated square holds its centre (transparent where none does), away from the tiles' edges
        // (within 0.01 px the rasterizer's rounding decides). Within one level: some of these colours fall
        // on half levels (5/6 of 255 is 212.5), which the GPU's float-to-unorm conversion may round down.
        let renderer = try makeRenderer(width: 96, height: 96)
        renderer.trimsOccludedParts = true
        renderer.layer = makeOverlappingTiles(textured: false)
        let trimmed = try renderFrame(renderer)
        XCTAssertGreaterThan(renderer.lastFrameStatistics.quadsTrimmed, 32)
        let tiles = (0..<64).map { (i: Int) -> RotatedRectShape in
            let (column, row) = (Double(i % 8), Double(i / 8))
            return RotatedRectShape(centerX: 16 + 10 * column, centerY: 15 + 11 * row, width: 24, height: 24, angle: 0.1 * Double(i))
        }
        assertPixels(trimmed, "trimmed vs the topmost tile at each pixel centre", tolerance: 1) { x, y in
            let (px, py) = (Double(x) + 0.5, Double(y) + 0.5)
            guard tiles.allSatisfy({ abs($0.signedDistance(px, py)) >= 0.01 }) else { return nil }
            guard let top = tiles.indices.last(where: { tiles[$0].contains(px, py) }) else { return PixelRGBA(0, 0, 0, 0) }
            let (red, green, blue) = (Double(top % 4) / 3, Double(top % 7) / 6, Double(top) / 63)
            return PixelRGBA(straight: red, green, blue, 1)
        }
    }

    func testStackOfSixtyFourFullWindowOpaqueLayersShadesEachPixelAboutOnce() throws {
        // SCENES.md `stack`: 64 opaque 1280×720 layers; only the top one can show.
        let root = makeRoot(width: 1280, height: 720)
        for j in 0..<64 {
            let layer = makeLayer(CGRect(x: 0, y: 0, width: 1280, height: 720),
                                  CGColor(red: CGFloat(4 * j) / 255, green: CGFloat(255 - 4 * j) / 255, blue: 128.0 / 255, alpha: 1), in: root)
            layer.isOpaque = true
        }
        let renderer = try makeRenderer(width: 1280, height: 720)
        renderer.layer = root
        let image = try renderFrame(renderer)
        let statistics = renderer.lastFrameStatistics
        XCTAssertEqual(statistics.quadsCulledOccluded, 63)
        XCTAssertEqual(statistics.layersCulled, 63)
        // The top layer covers the window opaquely: the frame's clear paints it, no fragment is shaded.
        XCTAssertEqual(statistics.quadsDrawnAsClear, 1)
        XCTAssertEqual(statistics.drawCalls, 0)
        XCTAssertEqual(statistics.targetPixels, 1280 * 720)
        let overdraw = try XCTUnwrap(statistics.overdraw, "lavapipe counts fragments")
        XCTAssertEqual(overdraw, 0)
        assertPixels(image, "stack", probes: [Probe("top layer", 640, 360, PixelRGBA(252, 3, 128, 255))])
    }

    func testDepthOrderedFrameEqualsPaintersOrderWhereTheCPUCannotCull() throws {
        // A rotated opaque square over an opaque backdrop and under a translucent layer: no axis-aligned
        // occluder, so all are drawn — the opaque ones front to back with depth writes (the backdrop's
        // fragments under the square fail the depth test), then the translucent one with a depth test.
        // (Lavapipe counts fragment-shader invocations before its depth test, so the rejected fragments
        // still count in `fragmentsShaded` there; the pixels must be the painter's either way.)
        let root = makeRoot()
        // One row short of the target, so the backdrop is drawn, not made the clear.
        makeLayer(CGRect(x: 0, y: 0, width: 64, height: 63), .testBlue, in: root)
        let square = makeLayer(CGRect(x: 8, y: 8, width: 48, height: 48), .testRed, in: root)
        square.transform = CATransform3DMakeRotation(0.05, 0, 0, 1)
        makeLayer(CGRect(x: 20, y: 0, width: 24, height: 64), CGColor(red: 0, green: 1, blue: 0, alpha: 0.5), in: root)
        let (depth, statistics, renderer) = try render(root, options: [])
        let (painter, _, _) = try render(root, options: .disableCulling)
        XCTAssertEqual(statistics.quadsCulled, 0)
        let frame = try XCTUnwrap(renderer.lastGraph?.passes.last)
        XCTAssertTrue(frame.depthOrdered)
        XCTAssertEqual(frame.batches.map(\.key.depth), [.opaque, .translucent])
        XCTAssertEqual(frame.drawOrder, [1, 0, 2], "the square before the backdrop, the veil last")
        assertPixels(depth, "depth-ordered vs painter's") { x, y in PixelRGBA(painter, x, y) }
    }

    func testAnOpaqueRootBackgroundIsTheClearAndDrawsTheSamePixels() throws {
        // A root with an opaque background over the whole target, a translucent and a rounded layer on it:
        // the background becomes the frame's clear (no draw), and every pixel equals the frame drawn
        // without culling (where nothing is promoted), and the worked-out source-over at sample points.
        let root = makeRoot()
        root.backgroundColor = .testBlue
        makeLayer(CGRect(x: 8, y: 8, width: 24, height: 24), CGColor(red: 1, green: 0, blue: 0, alpha: 0.5), in: root)
        makeLayer(CGRect(x: 36, y: 36, width: 20, height: 20), .testGreen, in: root).cornerRadius = 6
        let (promoted, statistics, renderer) = try render(root, options: [])
        let (drawn, _, _) = try render(root, options: .disableCulling)
        XCTAssertEqual(statistics.quadsDrawnAsClear, 1)
        XCTAssertEqual(renderer.lastGraph?.passes.last?.clearPaintsLayer, root.layerID)
        XCTAssertEqual(statistics.layerQuads, 2, "the two layers on it")
        assertPixels(promoted, "promoted clear vs drawn background") { x, y in PixelRGBA(drawn, x, y) }
        // Blue under half-transparent red: (0.5·255, 0, 0.5·255) rounded; plain blue outside.
        assertPixels(promoted, "worked out", tolerance: 1, probes: [Probe("background", 2, 2, PixelRGBA(0, 0, 255, 255)),
                                                      Probe("red over blue", 20, 20, PixelRGBA(128, 0, 128, 255)),
                                                      Probe("green", 46, 46, PixelRGBA(0, 255, 0, 255))])
    }
}
