import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKit

/// `CATiledLayer` on the model side: which tiles it asks for (counts and exact rects worked out from the
/// geometry), the level of detail for a scale, invalidation, drawing off the main thread, and the
/// bounded cache while panning a 100,000 × 100,000-point layer. No renderer: a test host publishes
/// the viewport (the root's `HostViewports`) as `CARenderer` does, and commits drive the tiling pass.
final class CATiledLayerTests: XCTestCase {
    /// Stands for a host (a renderer) in `HostViewports`.
    private final class TestHost {}
    private var host = TestHost()

    override func setUp() {
        super.setUp()
        CATransaction.flush()
        TiledLayerScheduler.waitForTiles()
        CATransaction.flush()
    }

    // MARK: - Fixtures

    /// Records every tile drawing: its clip box, its CTM's x scale, and whether it ran on the main thread.
    final class Recorder: @unchecked Sendable {
        struct Drawing: Equatable {
            var clip: CGRect
            var scale: CGFloat
            var onMainThread: Bool
        }
        private let lock = NSLock()
        private var recorded: [Drawing] = []

        func record(_ drawing: Drawing) {
            lock.lock()
            recorded.append(drawing)
            lock.unlock()
        }

        /// The drawings since the last call.
        func take() -> [Drawing] {
            lock.lock()
            defer { lock.unlock() }
            let taken = recorded
            recorded = []
            return taken
        }
    }

    /// Fills its whole clip and records the drawing.
    final class RecordingTiledLayer: CATiledLayer {
        var recorder = Recorder()
        override init() { super.init() }
        required init(layer: Any) {
            super.init(layer: layer)
            if let other = layer as? RecordingTiledLayer { recorder = other.recorder }
        }
        override func draw(in ctx: CGContext) {
            recorder.record(.init(clip: ctx.boundingBoxOfClipPath, scale: ctx.ctm.a, onMainThread: Thread.isMainThread))
            ctx.setFillColor(CGColor(red: 1, green: 0, blue: 0, alpha: 1))
            ctx.fill(ctx.boundingBoxOfClipPath)
        }
    }

    /// A root of `size` shown whole at one pixel per point by the test host.
    private func makeShownRoot(_ size: CGSize, scale: CGFloat = 1) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        root.hostViewports.set(.init(rect: CGRect(origin: .zero, size: size), scale: scale), for: host)
        return root
    }

    /// Commits until every requested tile has been drawn and delivered.
    private func settle() {
        for _ in 0..<4 {
            CATransaction.flush()
            TiledLayerScheduler.waitForTiles()
        }
        CATransaction.flush()
    }

    /// The rect of tile (column, row) of a grid whose tiles are `w` × `h` points, cut to `bounds`.
    private func tileRect(_ column: Int, _ row: Int, _ w: CGFloat, _ h: CGFloat, in bounds: CGRect) -> CGRect {
        CGRect(x: CGFloat(column) * w, y: CGFloat(row) * h, width: w, height: h).intersection(bounds)
    }

    private func sorted(_ rects: [CGRect]) -> [CGRect] {
        rects.sorted { ($0.minY, $0.minX) < ($1.minY, $1.minX) }
    }

    // MARK: - Defaults

    func testDefaultsAreCoreAnimations() {
        let layer = CATiledLayer()
        XCTAssertEqual(layer.tileSize, CGSize(width: 256, height: 256))
        XCTAssertEqual(layer.levelsOfDetail, 1)
        XCTAssertEqual(layer.levelsOfDetailBias, 0)
        XCTAssertEqual(CATiledLayer.fadeDuration(), 0.25)
    }

    func testInvalidPropertiesAreRefusedWithADiagnostic() {
        let capture = DiagnosticCapture()
        let layer = CATiledLayer()
        layer.tileSize = CGSize(width: 0, height: 64)
        layer.tileSize = CGSize(width: CGFloat.nan, height: 64)
        // A tile is one image: a side beyond 4,096 pixels (1e30 reached an Int conversion once) is refused.
        layer.tileSize = CGSize(width: 1e30, height: 64)
        layer.tileSize = CGSize(width: 64, height: 4_097)
        layer.levelsOfDetail = 0
        layer.levelsOfDetailBias = -1
        XCTAssertEqual(layer.tileSize, CGSize(width: 256, height: 256))
        XCTAssertEqual(layer.levelsOfDetail, 1)
        XCTAssertEqual(layer.levelsOfDetailBias, 0)
        XCTAssertEqual(capture.names, Array(repeating: "invalidTiledLayerProperty", count: 6))
        layer.tileSize = CGSize(width: 4_096, height: 4_096)
        XCTAssertEqual(layer.tileSize, CGSize(width: 4_096, height: 4_096), "the largest side is accepted")
        // So many levels that no coarse one keeps a pixel: the grid stops where one still does.
        layer.bounds = CGRect(x: 0, y: 0, width: 1_024, height: 1_024)
        layer.levelsOfDetail = Int.max
        XCTAssertEqual(layer.tileGrid.coarsestLevel, 10, "1,024 points at scale 1: level 10 is 1 pixel a side")
    }

    // MARK: - Visible tiles only

    func testOnlyTheVisibleTilesAreDrawnOffTheMainThread() {
        // A 200 × 120 viewport over a 1000 × 1000 layer placed at (−100, −20): the layer's visible part is
        // x 100…300, y 20…140. With 64-point tiles that is columns 1…4 (300 / 64 = 4.7) and rows 0…2
        // (140 / 64 = 2.2): 12 tiles.
        let root = makeShownRoot(CGSize(width: 200, height: 120))
        let layer = RecordingTiledLayer()
        layer.tileSize = CGSize(width: 64, height: 64)
        layer.frame = CGRect(x: -100, y: -20, width: 1000, height: 1000)
        root.addSublayer(layer)
        settle()

        let drawings = layer.recorder.take()
        var expected: [CGRect] = []
        for row in 0...2 { for column in 1...4 { expected.append(tileRect(column, row, 64, 64, in: layer.bounds)) } }
        XCTAssertEqual(drawings.count, 12)
        XCTAssertEqual(sorted(drawings.map(\.clip)), sorted(expected))
        XCTAssertTrue(drawings.allSatisfy { !$0.onMainThread }, "tiles must be drawn off the main thread")
        XCTAssertTrue(drawings.allSatisfy { $0.scale == 1 })

        // Nothing more is drawn while nothing changes, and every drawn tile is shown.
        settle()
        XCTAssertEqual(layer.recorder.take(), [])
        let shown = layer.tiling.committed?.tiles.map(\.rect) ?? []
        XCTAssertEqual(sorted(shown), sorted(expected))
    }

    func testAnAncestorsMasksToBoundsLimitsTheTiles() {
        // A masking parent at (50, 10) of size 40 × 30 holds the layer at its origin; the parent's bounds
        // are the only visible part: layer x 0…40, y 0…30. With 32 × 16-point tiles (unequal, to catch
        // swapped axes) that is columns 0…1 (40 / 32 = 1.25) and rows 0…1 (30 / 16 = 1.9): 4 tiles.
        let root = makeShownRoot(CGSize(width: 200, height: 200))
        let clip = CALayer()
        clip.frame = CGRect(x: 50, y: 10, width: 40, height: 30)
        clip.masksToBounds = true
        root.addSublayer(clip)
        let layer = RecordingTiledLayer()
        layer.tileSize = CGSize(width: 32, height: 16)
        layer.frame = CGRect(x: 0, y: 0, width: 500, height: 500)
        clip.addSublayer(layer)
        settle()

        let expected = [tileRect(0, 0, 32, 16, in: layer.bounds), tileRect(1, 0, 32, 16, in: layer.bounds),
                        tileRect(0, 1, 32, 16, in: layer.bounds), tileRect(1, 1, 32, 16, in: layer.bounds)]
        XCTAssertEqual(sorted(layer.recorder.take().map(\.clip)), sorted(expected))
    }

    func testEdgeTilesAreCutToTheBounds() {
        // A 100 × 70 layer fully on screen with 64-point tiles: 2 × 2 tiles, the right and bottom ones cut
        // to 36 and 6 points.
        let root = makeShownRoot(CGSize(width: 200, height: 200))
        let layer = RecordingTiledLayer()
        layer.tileSize = CGSize(width: 64, height: 64)
        layer.frame = CGRect(x: 10, y: 10, width: 100, height: 70)
        root.addSublayer(layer)
        settle()
        let expected = [CGRect(x: 0, y: 0, width: 64, height: 64), CGRect(x: 64, y: 0, width: 36, height: 64),
                        CGRect(x: 0, y: 64, width: 64, height: 6), CGRect(x: 64, y: 64, width: 36, height: 6)]
        XCTAssertEqual(sorted(layer.recorder.take().map(\.clip)), sorted(expected))
    }

    func testATreeNoHostShowsDrawsNothing() {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let layer = RecordingTiledLayer()
        layer.frame = root.bounds
        root.addSublayer(layer)
        settle()
        XCTAssertEqual(layer.recorder.take(), [])
    }

    func testAnAnimatedLayerAsksForTheTilesWhereItIsPresented() {
        // The model puts the layer at the origin, but an animation holds it 1,000 points to the left for
        // the next 1,000 s: on screen (200 × 100) is the layer's x 1,000…1,200, y 0…100 → 64-point
        // columns 15…18 (1,200 / 64 = 18.75) and rows 0…1: 8 tiles.
        let root = makeShownRoot(CGSize(width: 200, height: 100))
        let layer = RecordingTiledLayer()
        layer.tileSize = CGSize(width: 64, height: 64)
        layer.anchorPoint = .zero
        layer.bounds = CGRect(x: 0, y: 0, width: 5000, height: 5000)
        layer.position = .zero
        root.addSublayer(layer)
        let hold = CABasicAnimation(keyPath: "position")
        hold.fromValue = CGPoint(x: -1000, y: 0)
        hold.toValue = CGPoint(x: -1000, y: 0)
        hold.duration = 1000
        layer.add(hold, forKey: "hold")
        CATransaction.flush()  // the animation is committed; the next commit sees it in presentation()
        settle()
        var expected: [CGRect] = []
        for row in 0...1 { for column in 15...18 { expected.append(tileRect(column, row, 64, 64, in: layer.bounds)) } }
        // The first commit, before the animation was committed, asked for the model's tiles too.
        let drawn = Set(layer.recorder.take().map(\.clip))
        XCTAssertTrue(Set(expected).isSubset(of: drawn))
        XCTAssertEqual(Set(layer.tiling.neededTiles.map { layer.tileGrid.rect(of: $0) }), Set(expected))
    }

    // MARK: - Levels of detail

    func testTheLevelForAScale() {
        // levelsOfDetail 4 (levels 0…3) and bias 2 (levels −1, −2) at contentsScale 1: the coarsest level
        // whose resolution 2^−level reaches the scale.
        let grid = TileGrid(tileSize: CGSize(width: 256, height: 256), contentsScale: 1,
                            bounds: CGRect(x: 0, y: 0, width: 10_000, height: 10_000), levelsOfDetail: 4, levelsOfDetailBias: 2)
        let cases: [(scale: CGFloat, level: Int)] = [
            (1, 0), (0.75, 0), (0.5, 1), (0.3, 1), (0.25, 2), (0.2, 2), (0.15, 2), (0.125, 3), (0.1, 3), (0.01, 3),
            (1.5, -1), (2, -1), (3, -2), (4, -2), (16, -2),
        ]
        for (scale, level) in cases {
            XCTAssertEqual(grid.level(forScreenScale: scale), level, "scale \(scale)")
        }
        // contentsScale 2: level 0 already holds 2 pixels per point.
        let retina = TileGrid(tileSize: CGSize(width: 256, height: 256), contentsScale: 2,
                              bounds: CGRect(x: 0, y: 0, width: 10_000, height: 10_000), levelsOfDetail: 4, levelsOfDetailBias: 0)
        XCTAssertEqual(retina.level(forScreenScale: 2), 0)
        XCTAssertEqual(retina.level(forScreenScale: 1), 1)
        XCTAssertEqual(retina.level(forScreenScale: 4), 0)
        // The coarsest level keeps a pixel a side: a 6-point layer has levels 0…2 (6 × ¼ ≥ 1 > 6 × ⅛).
        let small = TileGrid(tileSize: CGSize(width: 256, height: 256), contentsScale: 1,
                             bounds: CGRect(x: 0, y: 0, width: 6, height: 100), levelsOfDetail: 8, levelsOfDetailBias: 0)
        XCTAssertEqual(small.coarsestLevel, 2)
    }

    func testAZoomedOutLayerDrawsCoarseTilesAtTheirResolution() {
        // Scaled by 0.3 on screen with levelsOfDetail 3: level 1 (½ resolution). A 64-pixel tile then
        // covers 128 points; the 200 × 200 viewport shows the layer's x, y 0…666.7 → columns and rows 0…5
        // (666.7 / 128 = 5.2): 36 tiles, drawn with a CTM scale of ½.
        let root = makeShownRoot(CGSize(width: 200, height: 200))
        let layer = RecordingTiledLayer()
        layer.tileSize = CGSize(width: 64, height: 64)
        layer.levelsOfDetail = 3
        layer.anchorPoint = .zero
        layer.bounds = CGRect(x: 0, y: 0, width: 5000, height: 5000)
        layer.position = .zero
        layer.transform = CATransform3DMakeScale(0.3, 0.3, 1)
        root.addSublayer(layer)
        settle()

        let drawings = layer.recorder.take()
        var expected: [CGRect] = []
        for row in 0...5 { for column in 0...5 { expected.append(tileRect(column, row, 128, 128, in: layer.bounds)) } }
        XCTAssertEqual(sorted(drawings.map(\.clip)), sorted(expected))
        XCTAssertTrue(drawings.allSatisfy { $0.scale == 0.5 })

        // Zooming in to 1: level 0 tiles of 64 points for x, y 0…200 (the position stays at the origin):
        // 4 × 4 (200 / 64 = 3.1). The level-1 tiles under them stay shown until those arrive.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.transform = CATransform3DIdentity
        CATransaction.commit()
        XCTAssertEqual(layer.tiling.committed?.targetLevel, 0)
        XCTAssertEqual(layer.tiling.committed?.tiles.filter { $0.key.level == 1 }.count, 4,
                       "the four level-1 tiles over x, y 0…256 stand in while level 0 is drawn")
        settle()
        var finer: [CGRect] = []
        for row in 0...3 { for column in 0...3 { finer.append(tileRect(column, row, 64, 64, in: layer.bounds)) } }
        XCTAssertEqual(sorted(layer.recorder.take().map(\.clip)), sorted(finer))
    }

    func testMagnifiedLevelsDrawAtHigherResolution() {
        // levelsOfDetailBias 1 and a 2× zoom: level −1, 64-pixel tiles of 32 points drawn at CTM scale 2.
        // The 100 × 100 viewport shows x, y 0…50 → columns and rows 0…1 (50 / 32 = 1.6): 4 tiles.
        let root = makeShownRoot(CGSize(width: 100, height: 100))
        let layer = RecordingTiledLayer()
        layer.tileSize = CGSize(width: 64, height: 64)
        layer.levelsOfDetailBias = 1
        layer.anchorPoint = .zero
        layer.bounds = CGRect(x: 0, y: 0, width: 1000, height: 1000)
        layer.position = .zero
        layer.transform = CATransform3DMakeScale(2, 2, 1)
        root.addSublayer(layer)
        settle()
        let drawings = layer.recorder.take()
        let expected = [tileRect(0, 0, 32, 32, in: layer.bounds), tileRect(1, 0, 32, 32, in: layer.bounds),
                        tileRect(0, 1, 32, 32, in: layer.bounds), tileRect(1, 1, 32, 32, in: layer.bounds)]
        XCTAssertEqual(sorted(drawings.map(\.clip)), sorted(expected))
        XCTAssertTrue(drawings.allSatisfy { $0.scale == 2 })
    }

    // MARK: - Invalidation

    func testInvalidatingARectRedrawsOnlyItsTiles() {
        let root = makeShownRoot(CGSize(width: 256, height: 256))
        let layer = RecordingTiledLayer()
        layer.tileSize = CGSize(width: 64, height: 64)
        layer.frame = CGRect(x: 0, y: 0, width: 256, height: 256)
        root.addSublayer(layer)
        settle()
        XCTAssertEqual(layer.recorder.take().count, 16)
        let before = layer.tiling.committed!.tiles

        // x 70…80, y 10…110 touches column 1, rows 0 and 1.
        layer.setNeedsDisplay(CGRect(x: 70, y: 10, width: 10, height: 100))
        settle()
        let redrawn = layer.recorder.take().map(\.clip)
        XCTAssertEqual(sorted(redrawn), [CGRect(x: 64, y: 0, width: 64, height: 64), CGRect(x: 64, y: 64, width: 64, height: 64)])
        let after = layer.tiling.committed!.tiles
        let changed = Set(after.filter { tile in !before.contains(tile) }.map(\.key))
        XCTAssertEqual(changed, [TileKey(level: 0, column: 1, row: 0), TileKey(level: 0, column: 1, row: 1)])

        // setNeedsDisplay() redraws every visible tile.
        layer.setNeedsDisplay()
        settle()
        XCTAssertEqual(layer.recorder.take().count, 16)
    }

    // MARK: - Bounded memory

    func testPanningAHundredThousandPointLayerKeepsTheCacheBounded() {
        // A 100,000 × 100,000 layer behind a 512 × 512 viewport, 256-pixel tiles, a cache of 12 tiles.
        // Each step moves the layer so a new, unaligned region shows: x offsets of 128 mod 256 make
        // 3 columns (128…640 → columns k…k+2) and 3 rows: 9 tiles a step, none seen before.
        let root = makeShownRoot(CGSize(width: 512, height: 512))
        let layer = RecordingTiledLayer()
        layer.tileCacheByteLimit = 12 * 256 * 256 * 4
        layer.anchorPoint = .zero
        layer.bounds = CGRect(x: 0, y: 0, width: 100_000, height: 100_000)
        root.addSublayer(layer)
        var drawn = 0
        for step in 0..<24 {
            let origin = CGPoint(x: CGFloat(step) * 4_096 + 128, y: CGFloat(step) * 3_072 + 128)
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            layer.position = CGPoint(x: -origin.x, y: -origin.y)
            CATransaction.commit()
            settle()
            let drawings = layer.recorder.take()
            let (c0, r0) = (Int(origin.x / 256), Int(origin.y / 256))
            var expected: [CGRect] = []
            for row in r0...(r0 + 2) { for column in c0...(c0 + 2) { expected.append(tileRect(column, row, 256, 256, in: layer.bounds)) } }
            XCTAssertEqual(sorted(drawings.map(\.clip)), sorted(expected), "step \(step)")
            drawn += drawings.count
            XCTAssertLessThanOrEqual(layer.tiling.cache.bytes, layer.tileCacheByteLimit, "step \(step)")
            XCTAssertLessThanOrEqual(layer.tiling.cache.entries.count, 12, "step \(step)")
            XCTAssertEqual(Set(layer.tiling.committed!.tiles.filter { $0.key.level == 0 }.map(\.rect)), Set(expected), "step \(step)")
        }
        XCTAssertEqual(drawn, 24 * 9)
    }

    func testMoreVisibleTilesThanTheCacheHoldsAreCappedWithADiagnostic() {
        // 16 tiles visible, room for 6: the 6 nearest the centre are drawn.
        let capture = DiagnosticCapture()
        let root = makeShownRoot(CGSize(width: 256, height: 256))
        let layer = RecordingTiledLayer()
        layer.tileSize = CGSize(width: 64, height: 64)
        layer.tileCacheByteLimit = 6 * 64 * 64 * 4
        layer.frame = CGRect(x: 0, y: 0, width: 256, height: 256)
        root.addSublayer(layer)
        settle()
        XCTAssertEqual(layer.recorder.take().count, 6)
        XCTAssertEqual(capture.names.filter { $0 == "tiledLayerTileLimit" }.count, 1)
        XCTAssertLessThanOrEqual(layer.tiling.cache.bytes, layer.tileCacheByteLimit)
    }
}
