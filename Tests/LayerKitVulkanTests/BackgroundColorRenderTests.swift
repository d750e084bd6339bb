import LayerKit
@testable import LayerKitVulkan
import XCTest

/// `backgroundColor`: fills exactly the layer's bounds, premultiplied, in tree order.
final class BackgroundColorRenderTests: CARendererTestCase {
    func testOpaqueBackgroundFillsExactlyItsFrame() throws {
        // A 20×30 frame at (10, 12): unequal sides, so swapped axes show.
        let root = makeRoot()
        makeLayer(CGRect(x: 10, y: 12, width: 20, height: 30), .testRed, in: root)
        let image = try render(root)

        var covered = 0
        for y in 0..<64 { for x in 0..<64 where PixelRGBA(image, x, y) == .red { covered += 1 } }
        XCTAssertEqual(covered, 20 * 30)
        assertPixels(image, "red-frame") { x, y in
            (10..<30).contains(x) && (12..<42).contains(y) ? .red : .clear
        }
    }

    func testTranslucentBackgroundIsPremultiplied() throws {
        // Straight (0, 1, 0, 0.5) premultiplies to (0, 0.5, 0, 0.5): 127.5 in 8 bits, so ±1.
        let root = makeRoot()
        makeLayer(CGRect(x: 8, y: 8, width: 16, height: 16), CGColor(red: 0, green: 1, blue: 0, alpha: 0.5), in: root)
        let image = try render(root)
        assertPixels(image, "half-green", tolerance: 1) { x, y in
            (8..<24).contains(x) && (8..<24).contains(y) ? PixelRGBA(premultiplied: 0, 0.5, 0, 0.5) : .clear
        }
    }

    func testGrayColorSpaceBackgroundExpandsToRGB() throws {
        // CGColor(gray: 0.6, alpha: 1): every channel 0.6 · 255 = 153.
        let root = makeRoot()
        makeLayer(CGRect(x: 0, y: 0, width: 32, height: 64), CGColor(gray: 0.6, alpha: 1), in: root)
        let image = try render(root)
        assertPixels(image, "gray", tolerance: 1) { x, _ in x < 32 ? PixelRGBA(153, 153, 153, 255) : .clear }
    }

    func testLayerWithoutBackgroundDrawsNothingButItsSublayersDraw() throws {
        let root = makeRoot()
        let parent = makeLayer(CGRect(x: 4, y: 4, width: 40, height: 40), nil, in: root)
        makeLayer(CGRect(x: 10, y: 20, width: 8, height: 4), .testBlue, in: parent)
        let image = try render(root)
        // The sublayer sits at the parent's origin plus its frame: (14, 24), 8×4.
        assertPixels(image, "only-sublayer") { x, y in
            (14..<22).contains(x) && (24..<28).contains(y) ? .blue : .clear
        }
    }

    func testSublayerBackgroundDrawsOverItsParentsAndLaterSiblingsOverEarlierOnes() throws {
        let root = makeRoot()
        let parent = makeLayer(CGRect(x: 0, y: 0, width: 48, height: 48), .testBlue, in: root)
        makeLayer(CGRect(x: 8, y: 8, width: 24, height: 24), .testRed, in: parent)
        makeLayer(CGRect(x: 16, y: 16, width: 24, height: 24), .testGreen, in: parent)
        let image = try render(root)
        assertPixels(image, "painter-order") { x, y in
            if (16..<40).contains(x) && (16..<40).contains(y) { return .green }
            if (8..<32).contains(x) && (8..<32).contains(y) { return .red }
            if x < 48 && y < 48 { return .blue }
            return .clear
        }
    }

    func testBoundsOriginShiftsSublayersButNotTheBackground() throws {
        // bounds.origin (10, 5) moves the sublayer coordinate system: a sublayer at (10, 5) lands on the
        // parent's top-left corner. The parent's own background still fills its frame.
        let root = makeRoot()
        let parent = makeLayer(CGRect(x: 8, y: 8, width: 40, height: 30), .testBlue, in: root)
        parent.bounds.origin = CGPoint(x: 10, y: 5)
        makeLayer(CGRect(x: 10, y: 5, width: 6, height: 4), .testRed, in: parent)
        let image = try render(root)
        assertPixels(image, "bounds-origin") { x, y in
            if (8..<14).contains(x) && (8..<12).contains(y) { return .red }
            if (8..<48).contains(x) && (8..<38).contains(y) { return .blue }
            return .clear
        }
    }

    func testRendererScaleMultipliesPointsIntoPixels() throws {
        // At 2 pixels per point, a layer at (4, 6) sized 8×5 points covers pixels 8..<24 × 12..<22.
        let root = makeRoot(width: 32, height: 32)
        makeLayer(CGRect(x: 4, y: 6, width: 8, height: 5), .testRed, in: root)
        let image = try render(root, width: 64, height: 64, scale: 2)
        assertPixels(image, "scale-2") { x, y in
            (8..<24).contains(x) && (12..<22).contains(y) ? .red : .clear
        }
    }

    func testRendererBoundsSelectsTheRegionShown() throws {
        // bounds origin (16, 8): the layer at (20, 10) appears at (4, 2).
        let root = makeRoot(width: 128, height: 128)
        makeLayer(CGRect(x: 20, y: 10, width: 10, height: 6), .testGreen, in: root)
        let renderer = try makeRenderer()
        renderer.bounds = CGRect(x: 16, y: 8, width: 64, height: 64)
        renderer.layer = root
        let image = try renderFrame(renderer)
        assertPixels(image, "viewport") { x, y in
            (4..<14).contains(x) && (2..<8).contains(y) ? .green : .clear
        }
    }

    func testChangedBackgroundShowsOnTheNextFrame() throws {
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), .testRed, in: root)
        let renderer = try makeRenderer()
        renderer.layer = root
        XCTAssertEqual(PixelRGBA(try renderFrame(renderer), 32, 32), .red)
        withoutAnimation { layer.backgroundColor = .testBlue }
        XCTAssertEqual(PixelRGBA(try renderFrame(renderer, atTime: 1), 32, 32), .blue)
        withoutAnimation { layer.backgroundColor = nil }
        XCTAssertEqual(PixelRGBA(try renderFrame(renderer, atTime: 2), 32, 32), .clear)
    }
}
