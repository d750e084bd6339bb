import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKitRender

/// `shouldRasterize` as the render server decides it, without a GPU: frames built by a `FrameProducer`
/// from commits, counting rasterize passes, hits and misses by hand.
///
/// The scene: a 100 × 100 target; a group at (10, 10), 40 × 40, with `shouldRasterize`, holding opaque
/// red (0, 0) 30 × 30 and opaque green (10, 10) 30 × 30. The draws cover (0, 0)..(40, 40) of the group,
/// so its bitmap is 40 × 40 pixels at scale 1.
final class RasterizationCacheTests: XCTestCase {
    private let root = CALayer()
    private let group = CALayer()
    private let red = CALayer()
    private let green = CALayer()
    /// Receives the commits to `root`'s tree.
    /// (Read it through `takePackets()`: on the optional itself, `take()` would be `Optional.take()`.)
    private var inbox: CommitInbox?
    private var producer: FrameProducer!
    private var time = 0.0

    override func setUp() {
        super.setUp()
        CATransaction.flush()
        inbox = CommitInbox()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        group.frame = CGRect(x: 10, y: 10, width: 40, height: 40)
        group.shouldRasterize = true
        red.frame = CGRect(x: 0, y: 0, width: 30, height: 30)
        red.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        green.frame = CGRect(x: 10, y: 10, width: 30, height: 30)
        green.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        group.addSublayer(red)
        group.addSublayer(green)
        root.addSublayer(group)
        CATransaction.flush()
        producer = FrameProducer(builder: RenderGraphBuilder(targetWidth: 100, targetHeight: 100,
                                                             viewport: CGRect(x: 0, y: 0, width: 100, height: 100), scale: 1),
                                 debugOptions: [])
        producer.reset(root: root.layerID, snapshot: inbox?.show(root))
    }

    private func takePackets() -> [CommitPacket] {
        inbox.map { $0.take() } ?? []
    }

    override func tearDown() {
        producer = nil
        inbox = nil
        CATransaction.flush()
        super.tearDown()
    }

    /// Applies `changes` without implicit animations, then the commit.
    private func change(_ changes: () -> Void) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        changes()
        CATransaction.commit()
        for packet in takePackets() { producer.apply(packet) }
    }

    private func frame(file: StaticString = #filePath, line: UInt = #line) -> RenderGraph {
        time += 1.0 / 60
        let graph = producer.produceFrame(at: time).graph
        XCTAssertEqual(graph.invariantViolations, [], "\(graph)", file: file, line: line)
        return graph
    }

    /// The frame pixel the composite of the group maps its layer point `point` to.
    private func compositePixel(_ graph: RenderGraph, _ point: SIMD2<Float>) -> SIMD2<Float>? {
        guard let composite = graph.framePass.items.first(where: { $0.layer == group.layerID && $0.texture?.surface != nil })
        else { return nil }
        let (c0, c1, _, c3) = composite.instance.localToClip
        let clip = c0 * point.x + c1 * point.y + c3
        return SIMD2((clip.x / clip.w + 1) * 50, (clip.y / clip.w + 1) * 50)
    }

    private func assertPixel(_ graph: RenderGraph, _ point: SIMD2<Float>, _ expected: SIMD2<Float>,
                             file: StaticString = #filePath, line: UInt = #line) {
        guard let pixel = compositePixel(graph, point) else { return XCTFail("no composite", file: file, line: line) }
        XCTAssertEqual(pixel.x, expected.x, accuracy: 1e-4, file: file, line: line)
        XCTAssertEqual(pixel.y, expected.y, accuracy: 1e-4, file: file, line: line)
    }

    func testFirstFrameDrawsTheBitmapOnceAndLaterFramesReuseIt() {
        let first = frame()
        XCTAssertEqual(first.statistics.offscreenReasons, [.rasterize], "\(first)")
        XCTAssertEqual([first.statistics.rasterizeHits, first.statistics.rasterizeMisses], [0, 1])
        XCTAssertEqual(first.rasterization.rendered.count, 1)
        XCTAssertEqual(first.passes.first.map { [$0.target.width, $0.target.height] }, [40, 40])
        for _ in 2...5 {
            let next = frame()
            XCTAssertEqual(next.statistics.offscreenPasses, 0, "\(next)")
            XCTAssertEqual([next.statistics.rasterizeHits, next.statistics.rasterizeMisses], [1, 0])
            XCTAssertEqual(next.rasterization.reused.count, 1)
            // The composite still lands on the group's pixels (10, 10)..(50, 50).
            assertPixel(next, SIMD2(0, 0), SIMD2(10, 10))
            assertPixel(next, SIMD2(40, 40), SIMD2(50, 50))
        }
    }

    func testAChangeInsideTheSubtreeDrawsTheBitmapAgainOnce() {
        _ = frame()
        _ = frame()
        change { green.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1) }
        let changed = frame()
        XCTAssertEqual(changed.statistics.offscreenReasons, [.rasterize])
        XCTAssertEqual(changed.statistics.rasterizeMisses, 1)
        XCTAssertEqual(changed.passes[0].items.last?.instance.color, SIMD4(0, 0, 1, 1), "the new color is in the bitmap")
        XCTAssertEqual(frame().statistics.offscreenPasses, 0)
    }

    func testAChangeToAGrandchildOrTheLayersOwnContentInvalidatesToo() {
        let dot = CALayer()
        change {
            dot.frame = CGRect(x: 2, y: 2, width: 4, height: 4)
            red.addSublayer(dot)
        }
        _ = frame()
        XCTAssertEqual(frame().statistics.offscreenPasses, 0)
        change { dot.position = CGPoint(x: 20, y: 20) }
        XCTAssertEqual(frame().statistics.offscreenReasons, [.rasterize], "a moved grandchild changes the bitmap")
        change { group.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1) }
        XCTAssertEqual(frame().statistics.offscreenReasons, [.rasterize], "the layer's own background is in the bitmap")
    }

    func testTranslatingOrFadingTheRasterizedLayerReusesTheBitmap() {
        _ = frame()
        change { group.position = CGPoint(x: 60.5, y: 30) }
        let moved = frame()
        XCTAssertEqual(moved.statistics.offscreenPasses, 0, "\(moved)")
        XCTAssertEqual(moved.statistics.rasterizeHits, 1)
        // New top-left: (60.5 − 20, 30 − 20).
        assertPixel(moved, SIMD2(0, 0), SIMD2(40.5, 10))
        change { group.opacity = 0.25 }
        let faded = frame()
        XCTAssertEqual(faded.statistics.offscreenPasses, 0)
        XCTAssertEqual(faded.framePass.items.first { $0.layer == group.layerID }?.instance.color, SIMD4(repeating: 0.25))
    }

    func testScalingTheLayerOnScreenRedrawsTheBitmapAtTheNewScale() {
        _ = frame()
        change { group.transform = CATransform3DMakeScale(2, 2, 1) }
        let scaled = frame()
        XCTAssertEqual(scaled.statistics.offscreenReasons, [.rasterize])
        XCTAssertEqual(scaled.passes.first.map { [$0.target.width, $0.target.height] }, [80, 80])
        XCTAssertEqual(frame().statistics.offscreenPasses, 0)
        // rasterizationScale multiplies the on-screen scale.
        change { group.rasterizationScale = 0.5 }
        let coarse = frame()
        XCTAssertEqual(coarse.passes.first.map { [$0.target.width, $0.target.height] }, [40, 40])
    }

    func testAnAnimationInsideTheSubtreeDrawsEveryFrameWithoutKeepingTheBitmap() {
        _ = frame()
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.fromValue = 15
        slide.toValue = 25
        slide.duration = 100
        slide.beginTime = 0
        change { red.add(slide, forKey: "slide") }
        for _ in 0..<3 {
            let animated = frame()
            XCTAssertEqual(animated.statistics.offscreenReasons, [.rasterize])
            XCTAssertEqual(animated.rasterization.uncached.count, 1, "an animating subtree's bitmap is not kept")
        }
        // An animation of the rasterized layer's own position only moves the bitmap.
        change { red.removeAllAnimations() }
        _ = frame()
        let drift = CABasicAnimation(keyPath: "position.x")
        drift.fromValue = 20
        drift.toValue = 60
        drift.duration = 100
        drift.beginTime = 0
        change { group.add(drift, forKey: "drift") }
        _ = frame()
        for _ in 0..<3 { XCTAssertEqual(frame().statistics.offscreenPasses, 0) }
    }

    func testUnusedEntriesAreReleasedAndBytesStayBounded() {
        let cache = producer.builder.rasterizationCache
        _ = frame()
        XCTAssertEqual(cache.entries.count, 1)
        XCTAssertEqual(cache.bytes, 40 * 40 * 4)
        change { group.isHidden = true }
        var released: [RasterizationEntryID] = []
        for _ in 0...Int(cache.idleFramesBeforeRelease) { released += frame().rasterization.released }
        // The bitmap lived alone on the first shared page: the page goes, as the backend's image to free.
        XCTAssertEqual(released, [.page(0)])
        XCTAssertEqual(cache.entries.count, 0)

        // A bound below one bitmap: drawn every frame, never kept.
        cache.maxBytes = 40 * 40 * 4 - 1
        change { group.isHidden = false }
        for _ in 0..<3 {
            let graph = frame()
            XCTAssertEqual(graph.statistics.offscreenReasons, [.rasterize])
            XCTAssertEqual(graph.rasterization.uncached.count, 1)
        }
        XCTAssertEqual(cache.bytes, 0)
    }

    func testABitmapWhoseCompositeIsCulledIsNotCounted() {
        change { group.position = CGPoint(x: -500, y: -500) }
        let offTarget = frame()
        XCTAssertEqual(offTarget.passes.count, 1, "the bitmap's pass goes with its culled composite")
        XCTAssertEqual(producer.builder.rasterizationCache.entries.count, 0)
        change { group.position = CGPoint(x: 30, y: 30) }
        XCTAssertEqual(frame().statistics.offscreenReasons, [.rasterize])
    }

    func testTheRasterizeCacheViewTintsMissesRedAndHitsGreen() {
        producer.debugOptions = .rasterizeCache
        func tint(_ graph: RenderGraph) -> SIMD4<Float>? {
            let items = graph.framePass.items
            guard let index = items.firstIndex(where: { $0.layer == group.layerID && $0.texture?.surface != nil }),
                  index + 1 < items.count else { return nil }
            return items[index + 1].instance.color
        }
        XCTAssertEqual(tint(frame()), SIMD4(0.5, 0, 0, 0.5), "miss: half-way to red")
        XCTAssertEqual(tint(frame()), SIMD4(0, 0.5, 0, 0.5), "hit: half-way to green")
    }
}

/// Rasterized layers whose subtrees animate are drawn every frame; their bitmaps then share one pass.
final class AnimatedRasterizationPackingTests: XCTestCase {
    override func tearDown() {
        // The animations added here are pending in the implicit transaction: commit them now, while no
        // render server listens, so no later test's window receives them.
        CATransaction.flush()
        super.tearDown()
    }

    func testAnimatingRasterizedSiblingsShareOnePass() {
        let scene = TinyScene(width: 128, height: 128)
        for x in [0, 40, 80] {
            let layer = scene.layer(CGRect(x: x, y: 0, width: 30, height: 30))
            layer.shouldRasterize = true
            let child = scene.layer(CGRect(x: 0, y: 0, width: 20, height: 20), TinyScene.red, in: layer)
            let slide = CABasicAnimation(keyPath: "position.x")
            slide.fromValue = 10
            slide.toValue = 20
            slide.duration = 100
            child.add(slide, forKey: "slide")
        }
        let graph = scene.compiled()
        XCTAssertEqual(graph.statistics.offscreenReasons, [.rasterize], "\(graph)")
        XCTAssertEqual(graph.statistics.rasterizeMisses, 3)
        XCTAssertEqual(graph.rasterization.uncached.count, 1, "the shared page")
        XCTAssertEqual(graph.framePass.items.filter { $0.texture?.surface == graph.passes[0].target.surface }.count, 3)
    }
}

extension RasterizationCacheTests {
    func testTheOverdrawViewsSurfaceDoesNotCollideWithAReusedBitmap() {
        producer.debugOptions = .overdraw
        _ = frame()
        let reused = frame()
        XCTAssertEqual(reused.rasterization.reused.count, 1)
        XCTAssertEqual(reused.statistics.offscreenReasons, [.debugVisualization], "\(reused)")
    }
}
