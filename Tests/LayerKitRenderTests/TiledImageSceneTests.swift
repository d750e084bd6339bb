import LayerKitScenes
import XCTest
@testable import LayerKitRender

/// The 100,000-point tiled image scene: at any zoom it asks for the tiles on screen only, at the level
/// the zoom needs, and holds nothing in proportion to the image's size. Counts worked out from the
/// viewport (1280 × 720 points at scale 1) and the tile grid (256-pixel tiles).
final class TiledImageSceneTests: XCTestCase {
    private final class Host {}
    private let host = Host()

    private func settle() {
        for _ in 0..<3 {
            CATransaction.flush()
            TiledLayerScheduler.waitForTiles()
        }
        CATransaction.flush()
    }

    func testEveryZoomDrawsOnlyTheTilesOnScreen() {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 1280, height: 720)
        root.hostViewports.set(.init(rect: root.frame, scale: 1), for: host)
        let scene = TiledImageScene(root: root, size: root.bounds.size)
        let middle = CGPoint(x: 50_000, y: 50_000)

        // Zoom 1/64 → level 6, tiles of 256 × 64 = 16,384 points. On screen: x 50,000 ± 640 × 64
        // (9,040…90,960 → columns 0…5) and y 50,000 ± 360 × 64 (26,960…73,040 → rows 1…4): 24 tiles.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        scene.show(centre: middle, zoom: 1.0 / 64)
        CATransaction.commit()
        settle()
        var expected = Set<TileKey>()
        for row in 1...4 { for column in 0...5 { expected.insert(TileKey(level: 6, column: column, row: row)) } }
        XCTAssertEqual(Set(scene.image.tiling.neededTiles), expected)
        XCTAssertEqual(Set(scene.image.tiling.committed?.tiles.map(\.key) ?? []), expected)

        // Zoom 4 → level −2, tiles of 64 points. On screen: x 50,000 ± 160 (49,840…50,160 → columns
        // 778…783) and y 50,000 ± 90 (49,910…50,090 → rows 779…782): 24 tiles.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        scene.show(centre: middle, zoom: 4)
        CATransaction.commit()
        settle()
        expected = []
        for row in 779...782 { for column in 778...783 { expected.insert(TileKey(level: -2, column: column, row: row)) } }
        XCTAssertEqual(Set(scene.image.tiling.neededTiles), expected)
        XCTAssertEqual(Set(scene.image.tiling.committed?.tiles.filter { $0.key.level == -2 }.map(\.key) ?? []), expected)
        // Both zooms' tiles fit in well under the cache's limit: 48 tiles of 256 × 256 × 4 bytes.
        XCTAssertLessThanOrEqual(scene.image.tiling.cache.bytes, 48 * 256 * 256 * 4)
    }
}
