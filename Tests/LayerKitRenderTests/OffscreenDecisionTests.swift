import XCTest
@testable import LayerKitRender
import LayerKitTestSupport

/// When the graph builder draws a subtree offscreen and when it folds instead (DESIGN.md §4): counts of
/// offscreen passes, their reasons and their surface sizes, worked out by hand for tiny scenes in a
/// 64×64 target at one pixel per point. No GPU.
final class OffscreenDecisionTests: XCTestCase {
    // MARK: - Scene building

    private func makeRoot() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        return root
    }

    @discardableResult
    private func makeLayer(_ frame: CGRect, _ color: CGColor? = nil, in parent: CALayer? = nil) -> CALayer {
        let layer = CALayer()
        layer.frame = frame
        layer.backgroundColor = color
        parent?.addSublayer(layer)
        return layer
    }

    private let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    private let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)

    /// The graph of `root` as it is now, at time 0; its invariants are checked on the way.
    private func graph(_ root: CALayer, width: Int = 64, height: Int = 64, file: StaticString = #filePath, line: UInt = #line) -> RenderGraph {
        var tree = RenderTree()
        tree.apply(CommitPacket.snapshot(of: root))
        var builder = RenderGraphBuilder(targetWidth: width, targetHeight: height,
                                         viewport: CGRect(x: 0, y: 0, width: width, height: height), scale: 1)
        builder.cachesGroups = false  // the per-frame surfaces are under test (GroupCacheRenderTests: cached ones)
        let graph = builder.build(tree: tree, root: root.layerID)
        XCTAssertEqual(graph.invariantViolations, [], "\(graph)", file: file, line: line)
        return graph
    }

    /// A group at (16, 16) with opacity 0.5 holding two red/blue children at the given frames.
    private func makeGroup(_ first: CGRect, _ second: CGRect, opacity: Float = 0.5) -> (root: CALayer, group: CALayer) {
        let root = makeRoot()
        let group = makeLayer(CGRect(x: 16, y: 16, width: 32, height: 32), nil, in: root)
        group.opacity = opacity
        makeLayer(first, red, in: group)
        makeLayer(second, blue, in: group)
        return (root, group)
    }

    // MARK: - Group opacity

    func testGroupOpacityOverNonOverlappingChildrenMakesNoOffscreenPass() {
        // Side by side, touching along x = 16 (pixels 0..<16 and 16..<32 of the group): no shared pixel.
        let (root, _) = makeGroup(CGRect(x: 0, y: 0, width: 16, height: 16), CGRect(x: 16, y: 0, width: 16, height: 16))
        let graph = graph(root)
        XCTAssertEqual(graph.passes.count, 1, "\(graph)")
        XCTAssertEqual(graph.offscreenPasses.count, 0)
        // The opacity is folded into both draws: premultiplied red and blue at 0.5.
        XCTAssertEqual(graph.passes[0].items.map(\.instance.color), [SIMD4(0.5, 0, 0, 0.5), SIMD4(0, 0, 0.5, 0.5)])
    }

    func testGroupOpacityOverOverlappingChildrenMakesOneGroupOpacityPass() {
        // Red (16, 16)..<(40, 40), blue (24, 24)..<(48, 48) in the target: the surface is their union,
        // (16, 16) 32×32, composited by one quad at the group's opacity.
        let (root, group) = makeGroup(CGRect(x: 0, y: 0, width: 24, height: 24), CGRect(x: 8, y: 8, width: 24, height: 24))
        let graph = graph(root)
        XCTAssertEqual(graph.passes.count, 2, "\(graph)")
        XCTAssertEqual(graph.passes.map(\.reason), [.groupOpacity, nil])
        let surfacePass = graph.passes[0]
        guard case let .offscreen(surface, width, height) = surfacePass.target else { return XCTFail("\(graph)") }
        XCTAssertEqual([width, height], [32, 32])
        // Inside the surface the children are drawn at full opacity.
        XCTAssertEqual(surfacePass.items.map(\.instance.color), [SIMD4(1, 0, 0, 1), SIMD4(0, 0, 1, 1)])
        let composite = graph.passes[1].items
        XCTAssertEqual(composite.count, 1)
        XCTAssertEqual(composite.first?.texture?.surface, surface)
        XCTAssertEqual(composite.first?.instance.color, SIMD4(repeating: 0.5))
        XCTAssertEqual(composite.first?.instance.quad, SIMD4(16, 16, 48, 48))
        XCTAssertEqual(graph.description, """
            RenderGraph · 2 passes · 1 offscreen (groupOpacity 1)
            pass 1 · frame → frame 64×64 · 1 item
              pass 0 · group opacity of layer \(group.layerID) → surface 0 32×32 · groupOpacity · 2 items
            """)
    }

    func testSurfaceDrawsPutTheLayersAtTheSurfacesPixels() {
        // The red child's corner (16, 16) in the target is the surface's pixel (0, 0): its clip-space
        // image of layer-space (0, 0) is (-1, -1); its far corner (40, 40) is 24 of 32 pixels in: 0.5.
        let (root, _) = makeGroup(CGRect(x: 0, y: 0, width: 24, height: 24), CGRect(x: 8, y: 8, width: 24, height: 24))
        let red = graph(root).passes[0].items[0].instance
        func clip(_ x: Float, _ y: Float) -> SIMD2<Float> {
            let (c0, c1, _, c3) = red.localToClip
            let h = c0 * x + c1 * y + c3
            return SIMD2(h.x / h.w, h.y / h.w)
        }
        XCTAssertEqual(clip(red.shape.x, red.shape.y), SIMD2(-1, -1))
        XCTAssertEqual(clip(red.shape.z, red.shape.w), SIMD2(0.5, 0.5))
    }

    func testSingleChildFoldsItsGroupsOpacity() {
        let root = makeRoot()
        let group = makeLayer(CGRect(x: 16, y: 16, width: 32, height: 32), nil, in: root)
        group.opacity = 0.25
        makeLayer(CGRect(x: 0, y: 0, width: 32, height: 32), red, in: group)
        let graph = graph(root)
        XCTAssertEqual(graph.offscreenPasses.count, 0, "\(graph)")
        XCTAssertEqual(graph.passes.last?.items.map(\.instance.color), [SIMD4(0.25, 0, 0, 0.25)])
    }

    func testAFadingPlainLayerDrawsItsBackgroundAtItsOpacityWithoutIsolating() {
        // A leaf that can draw only its background is a group of one draw: 0.4 × premultiplied
        // (0.5, 1, 0, 0.5), straight into the frame, whatever layers sit around it.
        let root = makeRoot()
        let leaf = makeLayer(CGRect(x: 4, y: 4, width: 8, height: 8), CGColor(red: 1, green: 0, blue: 0, alpha: 0.5), in: root)
        leaf.opacity = 0.4
        makeLayer(CGRect(x: 6, y: 6, width: 8, height: 8), blue, in: root)
        let graph = graph(root)
        XCTAssertEqual(graph.offscreenPasses.count, 0, "\(graph)")
        XCTAssertEqual(graph.passes.last?.items.map(\.instance.color), [SIMD4(0.2, 0, 0, 0.2), SIMD4(0, 0, 1, 1)])

        var tree = RenderTree()
        tree.apply(CommitPacket.snapshot(of: root))
        let node = try! XCTUnwrap(tree[leaf.layerID])
        XCTAssertFalse(RenderGraphBuilder.needsIsolation(node, opacity: 0.4))
        // Anything more than a background may overlap it: a border, contents, a sublayer.
        for change in [{ (l: CALayer) in l.borderWidth = 1 }, { $0.contents = CGImage(width: 1, height: 1, bytesPerRow: 4,
                                                                                        premultipliedRGBA: [0, 0, 0, 255]) },
                       { $0.addSublayer(CALayer()) }, { $0.shadowOpacity = 0.5 }] {
            let other = makeLayer(CGRect(x: 0, y: 0, width: 8, height: 8), red, in: root)
            change(other)
            var otherTree = RenderTree()
            otherTree.apply(CommitPacket.snapshot(of: root))
            XCTAssertTrue(RenderGraphBuilder.needsIsolation(try! XCTUnwrap(otherTree[other.layerID]), opacity: 0.4))
        }
    }

    func testAllowsGroupOpacityFalseFoldsEvenWhereChildrenOverlap() {
        let (root, group) = makeGroup(CGRect(x: 0, y: 0, width: 24, height: 24), CGRect(x: 8, y: 8, width: 24, height: 24))
        group.allowsGroupOpacity = false
        let graph = graph(root)
        XCTAssertEqual(graph.offscreenPasses.count, 0, "\(graph)")
        XCTAssertEqual(graph.passes.last?.items.map(\.instance.color), [SIMD4(0.5, 0, 0, 0.5), SIMD4(0, 0, 0.5, 0.5)])
    }

    func testOpaqueGroupNeverGoesOffscreen() {
        let (root, _) = makeGroup(CGRect(x: 0, y: 0, width: 24, height: 24), CGRect(x: 8, y: 8, width: 24, height: 24), opacity: 1)
        XCTAssertEqual(graph(root).passes.count, 1)
    }

    func testChildrenClippedApartByMasksToBoundsDoNotOverlap() {
        // Two 40×40 children that would overlap, each clipped by its own 16×16 masksToBounds parent,
        // side by side: the clipped footprints are disjoint, so the opacity folds.
        let root = makeRoot()
        let group = makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), nil, in: root)
        group.opacity = 0.5
        for x in [0, 16] as [CGFloat] {
            let clipper = makeLayer(CGRect(x: x, y: 0, width: 16, height: 16), nil, in: group)
            clipper.masksToBounds = true
            makeLayer(CGRect(x: -12, y: -12, width: 40, height: 40), red, in: clipper)
        }
        XCTAssertEqual(graph(root).offscreenPasses.count, 0)
    }

    func testOneLayersBackgroundAndBorderOverlapEachOther() {
        // Group opacity is exact only if the border does not blend with the background under it.
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 8, y: 8, width: 16, height: 16), red, in: root)
        layer.borderWidth = 2
        layer.borderColor = blue
        layer.opacity = 0.5
        let graph = graph(root)
        XCTAssertEqual(graph.passes.map(\.reason), [.groupOpacity, nil], "\(graph)")
        XCTAssertEqual([graph.passes[0].target.width, graph.passes[0].target.height], [16, 16])
    }

    func testNestedOverlappingGroupsMakeTwoPassesInnerFirst() {
        // The inner group (red over blue, overlapping) sits in the outer group beside a third layer that
        // overlaps it.
        let (root, group) = makeGroup(CGRect(x: 0, y: 0, width: 24, height: 24), CGRect(x: 8, y: 8, width: 24, height: 24))
        let outer = makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), nil, in: root)
        outer.opacity = 0.5
        group.removeFromSuperlayer()
        outer.addSublayer(group)
        makeLayer(CGRect(x: 40, y: 40, width: 24, height: 24), red, in: outer)
        let graph = graph(root)
        XCTAssertEqual(graph.passes.map(\.reason), [.groupOpacity, .groupOpacity, nil], "\(graph)")
        // Inner: (16, 16) 32×32. Outer: the inner composite and the third layer, (16, 16)..<(64, 64).
        XCTAssertEqual(graph.passes.map { [$0.target.width, $0.target.height] }, [[32, 32], [48, 48], [64, 64]])
        XCTAssertEqual(graph.passes[1].items.first?.texture?.surface, graph.passes[0].target.surface)
    }

    func testHugeGroupAsksForNoSurfaceLargerThanTheTarget() {
        let root = makeRoot()
        let group = makeLayer(CGRect(x: -50_000, y: -50_000, width: 100_000, height: 100_000), nil, in: root)
        group.opacity = 0.5
        makeLayer(CGRect(x: 0, y: 0, width: 100_000, height: 100_000), red, in: group)
        makeLayer(CGRect(x: 10, y: 10, width: 99_990, height: 99_990), blue, in: group)
        let graph = graph(root)
        XCTAssertEqual(graph.passes.map(\.reason), [.groupOpacity, nil], "\(graph)")
        guard graph.passes.count == 2 else { return }
        XCTAssertEqual([graph.passes[0].target.width, graph.passes[0].target.height], [64, 64])
        XCTAssertEqual(graph.passes[1].items.first?.instance.quad, SIMD4(0, 0, 64, 64))
    }

    func testSurfacesNeverExceedTheMaximumSize() {
        let (root, _) = makeGroup(CGRect(x: 0, y: 0, width: 24, height: 24), CGRect(x: 8, y: 8, width: 24, height: 24))
        var tree = RenderTree()
        tree.apply(CommitPacket.snapshot(of: root))
        var builder = RenderGraphBuilder(targetWidth: 64, targetHeight: 64, viewport: CGRect(x: 0, y: 0, width: 64, height: 64), scale: 1)
        builder.maxSurfaceSize = 20
        let graph = builder.build(tree: tree, root: root.layerID)
        XCTAssertEqual([graph.passes[0].target.width, graph.passes[0].target.height], [20, 20])
        XCTAssertEqual(graph.invariantViolations, [])
    }

    func testGroupEntirelyOffTargetMakesNoOffscreenPass() {
        // Overlapping, but no pixel of either child is in the target: nothing to composite.
        let (root, group) = makeGroup(CGRect(x: 0, y: 0, width: 24, height: 24), CGRect(x: 8, y: 8, width: 24, height: 24))
        group.position = CGPoint(x: 500, y: 500)
        XCTAssertEqual(graph(root).offscreenPasses.count, 0)
    }

    // MARK: - Masks

    /// A red 32×32 layer at (16, 16) with a blue child, masked by a 16×24 layer at (8, 4) of its bounds.
    private func makeMaskedScene() -> (root: CALayer, masked: CALayer, mask: CALayer) {
        let root = makeRoot()
        let masked = makeLayer(CGRect(x: 16, y: 16, width: 32, height: 32), red, in: root)
        makeLayer(CGRect(x: 4, y: 4, width: 8, height: 8), blue, in: masked)
        let mask = makeLayer(CGRect(x: 8, y: 4, width: 16, height: 24), CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        masked.mask = mask
        return (root, masked, mask)
    }

    func testMaskMakesAMaskPassAndAMaskedContentPass() {
        let (root, masked, _) = makeMaskedScene()
        let graph = graph(root)
        XCTAssertEqual(graph.passes.map(\.reason), [.mask, .mask, nil], "\(graph)")
        // Both surfaces cover where content and mask meet: the mask's rect in the target,
        // (24, 20) 16×24, which lies inside the content's (16, 16) 32×32.
        for pass in graph.passes.dropLast() {
            XCTAssertEqual([pass.target.width, pass.target.height], [16, 24], pass.name)
        }
        let maskSurface = graph.passes[0].target.surface, contentSurface = graph.passes[1].target.surface
        // The content pass: the layer's background and its child, then the mask applied destination-in.
        XCTAssertEqual(graph.passes[1].items.map(\.blend), [.sourceOver, .sourceOver, .destinationIn])
        XCTAssertEqual(graph.passes[1].items.last?.texture?.surface, maskSurface)
        XCTAssertEqual(graph.passes[2].items.map(\.texture?.surface), [contentSurface])
        XCTAssertEqual(graph.passes[2].items.first?.instance.quad, SIMD4(24, 20, 40, 44))
        XCTAssertEqual(graph.description, """
            RenderGraph · 3 passes · 2 offscreen (mask 2)
            pass 2 · frame → frame 64×64 · 1 item
              pass 1 · masked layer \(masked.layerID) → surface 1 16×24 · mask · 3 items
                pass 0 · mask of layer \(masked.layerID) → surface 0 16×24 · mask · 1 item
            """)
    }

    func testMaskedLayersOpacityGoesOnTheComposite() {
        let (root, masked, _) = makeMaskedScene()
        masked.opacity = 0.5
        let graph = graph(root)
        XCTAssertEqual(graph.passes.map(\.reason), [.mask, .mask, nil], "\(graph)")
        XCTAssertEqual(graph.passes[1].items.first?.instance.color, SIMD4(1, 0, 0, 1))
        XCTAssertEqual(graph.passes[2].items.first?.instance.color, SIMD4(repeating: 0.5))
    }

    func testMaskOutsideTheContentLeavesNothingToDraw() {
        let (root, _, mask) = makeMaskedScene()
        mask.frame = CGRect(x: 100, y: 0, width: 10, height: 10)
        let graph = graph(root)
        XCTAssertEqual(graph.passes.count, 1, "\(graph)")
        XCTAssertEqual(graph.passes[0].items.count, 0)
    }

    func testHugeMaskedLayerAsksForNoSurfaceLargerThanTheTarget() {
        let root = makeRoot()
        let masked = makeLayer(CGRect(x: -50_000, y: -50_000, width: 100_000, height: 100_000), red, in: root)
        masked.mask = makeLayer(CGRect(x: 0, y: 0, width: 100_000, height: 100_000), CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        let graph = graph(root)
        XCTAssertEqual(graph.passes.map(\.reason), [.mask, .mask, nil], "\(graph)")
        for pass in graph.passes {
            XCTAssertEqual([pass.target.width, pass.target.height], [64, 64], pass.name)
        }
    }

    func testMaskGeometryIsInTheMaskedLayersBoundsSpace() {
        // The masked layer's bounds origin is (100, 100) and it has a sublayerTransform: the mask's
        // superlayer space is the bounds space itself, so a mask at frame (100, 100, 8, 8) covers the
        // layer's top-left 8×8 pixels, (16, 16)..<(24, 24), whatever the sublayer transform.
        let root = makeRoot()
        let masked = makeLayer(CGRect(x: 16, y: 16, width: 32, height: 32), red, in: root)
        masked.bounds.origin = CGPoint(x: 100, y: 100)
        masked.sublayerTransform = CATransform3DMakeTranslation(7, 3, 0)
        masked.mask = makeLayer(CGRect(x: 100, y: 100, width: 8, height: 8), CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        let graph = graph(root)
        XCTAssertEqual(graph.passes.last?.items.first?.instance.quad, SIMD4(16, 16, 24, 24), "\(graph)")
    }

    // MARK: - Overlap

    func testOverlapSweepAgreesWithComparingEveryPair() {
        var generator = SplitMix64(seed: 7)
        for trial in 0..<300 {
            let count = Int(generator.next() % 12) + 2
            let rects = (0..<count).map { _ -> PixelRect in
                let x = Int(generator.next() % 60), y = Int(generator.next() % 60)
                return PixelRect(x: x, y: y, width: Int(generator.next() % 10) + 1, height: Int(generator.next() % 10) + 1)
            }
            let bruteForce = rects.indices.contains { i in rects.indices.contains { j in i < j && rects[i].intersects(rects[j]) } }
            XCTAssertEqual(OffscreenDecision.anyOverlap(rects), bruteForce, "trial \(trial): \(rects)")
        }
    }

    func testTilesSharingOnlyEdgesDoNotOverlap() {
        let tiles = (0..<100).map { PixelRect(x: ($0 % 10) * 8, y: ($0 / 10) * 8, width: 8, height: 8) }
        XCTAssertFalse(OffscreenDecision.anyOverlap(tiles.shuffled()))
        XCTAssertTrue(OffscreenDecision.anyOverlap(tiles + [PixelRect(x: 79, y: 79, width: 1, height: 1)]))
    }
}
