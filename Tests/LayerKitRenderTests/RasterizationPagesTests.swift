import Foundation
import XCTest
import LayerKit
@testable import LayerKitRender

/// The rasterization cache's shared pages and its rule for caching groups, without a GPU: places,
/// gutters, releases and the settling rule worked out by hand.
final class RasterizationPagesTests: XCTestCase {
    private func entry(width: Int, height: Int) -> RasterizationCache.Entry {
        RasterizationCache.Entry(stamp: 1, pixelScale: 1, layerRect: CGRect(x: 0, y: 0, width: width, height: height),
                                 width: width, height: height)
    }

    func testBitmapsShareAPageOfTheirReasonWithAGutterBetween() throws {
        let cache = RasterizationCache()
        cache.beginFrame()
        let ids = (0..<3).map { _ in RasterizationEntryID(layer: LayerID.next()) }
        let placed = try ids.map { try XCTUnwrap(cache.storeInPage($0, entry(width: 40, height: 30), items: [], reason: .groupOpacity, pageSide: 256)?.placement) }
        // One shelf (30 + 1 rounds up to the 32 bucket), left to right, 40 + 1 apart.
        XCTAssertEqual(Set(placed.map(\.page)).count, 1)
        XCTAssertEqual(placed.map(\.rect), [PixelRect(x: 0, y: 0, width: 40, height: 30), PixelRect(x: 41, y: 0, width: 40, height: 30),
                                            PixelRect(x: 82, y: 0, width: 40, height: 30)])
        let other = try XCTUnwrap(cache.storeInPage(RasterizationEntryID(layer: LayerID.next()), entry(width: 10, height: 10), items: [],
                                                    reason: .rasterize, pageSide: 256)?.placement)
        XCTAssertNotEqual(other.page, placed[0].page, "a page holds one reason's bitmaps")
        XCTAssertNil(cache.storeInPage(RasterizationEntryID(layer: LayerID.next()), entry(width: 256, height: 10), items: [],
                                       reason: .rasterize, pageSide: 256), "with its gutter it does not fit")

        // The page's first frame: one pass, as large as what it holds.
        let frame = try XCTUnwrap(cache.pageFrame(placed[0].page, surface: SurfaceID(7)))
        XCTAssertNotNil(frame.pass)
        XCTAssertEqual(frame.pass?.reason, .groupOpacity)
        XCTAssertEqual(frame.width, 122)
        XCTAssertEqual(frame.height, 30)
        XCTAssertNil(cache.pageFrame(placed[0].page, surface: SurfaceID(8))?.pass, "unchanged: reused")
    }

    func testAnEmptiedPageIsReleasedAndFreedPlacesComeBackAtTheNextRedraw() throws {
        let cache = RasterizationCache()
        cache.idleFramesBeforeRelease = 1
        cache.beginFrame()
        let first = RasterizationEntryID(layer: LayerID.next()), second = RasterizationEntryID(layer: LayerID.next())
        let page = try XCTUnwrap(cache.storeInPage(first, entry(width: 20, height: 20), items: [], reason: .rasterize, pageSide: 64)?.placement?.page)
        _ = cache.storeInPage(second, entry(width: 20, height: 20), items: [], reason: .rasterize, pageSide: 64)
        _ = cache.pageFrame(page, surface: SurfaceID(0))
        XCTAssertTrue(cache.takeReleases().isEmpty)

        // `first` stays in use, `second` idles out: its place is freed, the page stays.
        for _ in 0..<3 {
            cache.beginFrame()
            _ = cache.lookUp(first, stamp: 1, pixelScale: 1)
        }
        XCTAssertNil(cache.entries[second])
        XCTAssertTrue(cache.takeReleases().isEmpty, "the page still holds a bitmap")
        // A new bitmap redraws the page, which places both afresh from its top-left corner.
        let third = RasterizationEntryID(layer: LayerID.next())
        _ = cache.storeInPage(third, entry(width: 20, height: 20), items: [], reason: .rasterize, pageSide: 64)
        let redraw = try XCTUnwrap(cache.pageFrame(page, surface: SurfaceID(1)))
        XCTAssertNotNil(redraw.pass)
        XCTAssertEqual(cache.entries[first]?.placement?.rect, PixelRect(x: 0, y: 0, width: 20, height: 20))
        XCTAssertEqual(cache.entries[third]?.placement?.rect, PixelRect(x: 21, y: 0, width: 20, height: 20))
        XCTAssertEqual(redraw.width, 41)

        // Both idle out: the page goes as one release, the backend's image to free.
        for _ in 0..<3 { cache.beginFrame() }
        XCTAssertEqual(cache.takeReleases(), [.page(page)])
        XCTAssertTrue(cache.pages.isEmpty)
    }

    func testAGroupIsCachedAtFirstSightAndAfterAChangeOnlyOnceSettled() {
        let cache = RasterizationCache()
        let layer = LayerID.next()
        let identity = SIMD4<Double>(1, 0, 0, 1)
        var answers: [Bool] = []
        // Frame 1 first sight; 2 same; 3 stamp changed; 4 same; 5 same (two still frames); 6 scaled by
        // 1.5 (a change of map); 7; 8; 9 scaled by 1.005 (within the 1 % tolerance).
        let frames: [(UInt64, SIMD4<Double>)] = [(1, identity), (1, identity), (2, identity), (2, identity), (2, identity),
                                                 (2, identity * 1.5), (2, identity * 1.5), (2, identity * 1.5), (2, identity * 1.5 * 1.005)]
        for (stamp, linear) in frames {
            cache.beginFrame()
            answers.append(cache.groupIsSettled(layer, stamp: stamp, linear: linear))
        }
        XCTAssertEqual(answers, [true, true, false, false, true, false, false, true, true])
    }
}
