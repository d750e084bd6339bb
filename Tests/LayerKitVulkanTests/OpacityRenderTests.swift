import LayerKit
@testable import LayerKitVulkan
import XCTest

/// `opacity` and `isHidden`: a layer's opacity scales everything it draws, multiplies down the tree, and
/// a hidden (or fully transparent) layer draws nothing, sublayers included.
final class OpacityRenderTests: CARendererTestCase {
    func testHalfOpaqueBlueOverRedIsTheExactPremultipliedBlend() throws {
        // Source-over of premultiplied (0, 0, 0.5, 0.5) on (1, 0, 0, 1): (0.5, 0, 0.5, 1) → 127.5 in 8 bits.
        let root = makeRoot()
        makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), .testRed, in: root)
        let blue = makeLayer(CGRect(x: 16, y: 16, width: 32, height: 24), .testBlue, in: root)
        blue.opacity = 0.5
        let image = try render(root)
        assertPixels(image, "blue-over-red", tolerance: 1) { x, y in
            (16..<48).contains(x) && (16..<40).contains(y) ? PixelRGBA(premultiplied: 0.5, 0, 0.5, 1) : .red
        }
    }

    func testOpacityMultipliesWithTheBackgroundColorsAlpha() throws {
        // Straight white at alpha 0.5, layer opacity 0.5: premultiplied 0.25 in every channel (63.75).
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 8, y: 8, width: 16, height: 16), CGColor(red: 1, green: 1, blue: 1, alpha: 0.5), in: root)
        layer.opacity = 0.5
        let image = try render(root)
        assertPixels(image, "quarter-white", tolerance: 1) { x, y in
            (8..<24).contains(x) && (8..<24).contains(y) ? PixelRGBA(premultiplied: 0.25, 0.25, 0.25, 0.25) : .clear
        }
    }

    func testOpacityMultipliesDownTheTree() throws {
        // A sublayer at opacity 0.5 under a parent at 0.5 (no background, so group and per-layer opacity
        // agree): white shows at 0.25.
        let root = makeRoot()
        let parent = makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), nil, in: root)
        parent.opacity = 0.5
        let child = makeLayer(CGRect(x: 10, y: 20, width: 30, height: 10), .testWhite, in: parent)
        child.opacity = 0.5
        let image = try render(root)
        assertPixels(image, "nested-opacity", tolerance: 1) { x, y in
            (10..<40).contains(x) && (20..<30).contains(y) ? PixelRGBA(premultiplied: 0.25, 0.25, 0.25, 0.25) : .clear
        }
    }

    func testOpacityScalesContentsAndBorder() throws {
        // A layer at opacity 0.5 with a 2-point opaque blue border and, centred well inside it, an 8×8
        // opaque yellow image, over opaque black. The parts do not overlap, so group and per-part opacity
        // agree: image → (0.5, 0.5, 0, 1), border → (0, 0, 0.5, 1).
        let root = makeRoot()
        makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), .black, in: root)
        let layer = makeLayer(CGRect(x: 16, y: 16, width: 32, height: 32), nil, in: root)
        layer.contents = makeImage(width: 8, height: 8) { _, _ in .yellow }
        layer.contentsGravity = .center
        layer.borderWidth = 2
        layer.borderColor = .testBlue
        layer.opacity = 0.5
        let image = try render(root)
        assertPixels(image, "contents-and-border", tolerance: 1) { x, y in
            guard (16..<48).contains(x) && (16..<48).contains(y) else { return .black }
            if x < 18 || x >= 46 || y < 18 || y >= 46 { return PixelRGBA(premultiplied: 0, 0, 0.5, 1) }
            if (28..<36).contains(x) && (28..<36).contains(y) { return PixelRGBA(premultiplied: 0.5, 0.5, 0, 1) }
            return .black
        }
    }

    /// A parent at opacity 0.5 over opaque black, holding an opaque red sublayer overlapped by an opaque
    /// blue one: the overlap is (8, 8)..<(24, 24) within red (0, 0)..<(24, 24) and blue (8, 8)..<(32, 32).
    func makeOverlappingGroup(allowsGroupOpacity: Bool) -> CALayer {
        let root = makeRoot()
        makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), .black, in: root)
        let group = makeLayer(CGRect(x: 16, y: 16, width: 32, height: 32), nil, in: root)
        group.opacity = 0.5
        group.allowsGroupOpacity = allowsGroupOpacity
        makeLayer(CGRect(x: 0, y: 0, width: 24, height: 24), .testRed, in: group)
        makeLayer(CGRect(x: 8, y: 8, width: 24, height: 24), .testBlue, in: group)
        return root
    }

    func testGroupOpacityCompositesOverlappingSublayersAsOne() throws {
        // allowsGroupOpacity (Core Animation's default): the group is flattened, then faded, so the red
        // under the opaque blue does not show: overlap = 0.5 blue over black = (0, 0, 0.5, 1).
        XCTAssertTrue(CALayer().allowsGroupOpacity)
        let image = try render(makeOverlappingGroup(allowsGroupOpacity: true))
        assertPixels(image, "group-opacity", tolerance: 1) { x, y in
            guard (16..<48).contains(x) && (16..<48).contains(y) else { return .black }
            if (24..<48).contains(x) && (24..<48).contains(y) { return PixelRGBA(premultiplied: 0, 0, 0.5, 1) }
            if x < 40 && y < 40 { return PixelRGBA(premultiplied: 0.5, 0, 0, 1) }
            return .black
        }
    }

    func testWithoutGroupOpacityEachSublayerIsFadedOnItsOwn() throws {
        // Each sublayer at 0.5 in turn: overlap = 0.5 blue over (0.5 red over black) = (0.25, 0, 0.5, 1).
        let image = try render(makeOverlappingGroup(allowsGroupOpacity: false))
        assertPixels(image, "per-layer-opacity", tolerance: 1) { x, y in
            guard (16..<48).contains(x) && (16..<48).contains(y) else { return .black }
            let inRed = x < 40 && y < 40, inBlue = x >= 24 && y >= 24
            switch (inRed, inBlue) {
            case (true, true): return PixelRGBA(premultiplied: 0.25, 0, 0.5, 1)
            case (true, false): return PixelRGBA(premultiplied: 0.5, 0, 0, 1)
            case (false, true): return PixelRGBA(premultiplied: 0, 0, 0.5, 1)
            case (false, false): return .black
            }
        }
    }

    func testHiddenLayerDrawsNothingNorDoItsSublayers() throws {
        let root = makeRoot()
        let hidden = makeLayer(CGRect(x: 0, y: 0, width: 32, height: 64), .testRed, in: root)
        hidden.isHidden = true
        makeLayer(CGRect(x: 4, y: 4, width: 8, height: 8), .testGreen, in: hidden)
        let visible = makeLayer(CGRect(x: 32, y: 0, width: 32, height: 64), .testBlue, in: root)
        let hiddenChild = makeLayer(CGRect(x: 4, y: 4, width: 8, height: 8), .testGreen, in: visible)
        hiddenChild.isHidden = true
        let image = try render(root)
        assertPixels(image, "hidden") { x, _ in x < 32 ? .clear : .blue }
    }

    func testZeroOpacityLayerDrawsNothingNorDoItsSublayers() throws {
        let root = makeRoot()
        let invisible = makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), .testRed, in: root)
        invisible.opacity = 0
        let child = makeLayer(CGRect(x: 4, y: 4, width: 8, height: 8), .testGreen, in: invisible)
        child.opacity = 1
        let image = try render(root)
        assertPixels(image, "zero-opacity") { _, _ in .clear }
    }

    func testUnhidingShowsTheLayerOnTheNextFrame() throws {
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), .testRed, in: root)
        layer.isHidden = true
        let renderer = try makeRenderer()
        renderer.layer = root
        XCTAssertEqual(PixelRGBA(try renderFrame(renderer), 10, 10), .clear)
        withoutAnimation { layer.isHidden = false }
        XCTAssertEqual(PixelRGBA(try renderFrame(renderer, atTime: 1), 10, 10), .red)
    }
}
