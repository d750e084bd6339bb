import Foundation
import LayerKit
@testable import LayerKitVulkan
import XCTest

/// `backgroundFilters`: what is drawn behind a layer, filtered, under the layer within its shape.
///
/// The backdrop is red left of x = 32 and blue right of it, both opaque over the whole target. Blurred by
/// a Gaussian (σ px), a pixel centre at x shows blue in proportion Φ = ½ (1 + erf((x − 32)/(σ√2))) and red
/// in the rest, whatever y (the backdrop is uniform along y and covers the blur's reach). Tolerance 3/255
/// for the discrete kernel against that continuous convolution; colour filters are exact to 1/255.
final class BackgroundFiltersRenderTests: CARendererTestCase {
    func scene(panel frame: CGRect, cornerRadius: CGFloat = 0, filters: [CIFilter]) -> (root: CALayer, panel: CALayer) {
        let root = makeRoot()
        makeLayer(CGRect(x: 0, y: 0, width: 32, height: 64), CGColor(red: 1, green: 0, blue: 0, alpha: 1), in: root)
        makeLayer(CGRect(x: 32, y: 0, width: 32, height: 64), CGColor(red: 0, green: 0, blue: 1, alpha: 1), in: root)
        let panel = makeLayer(frame, nil, in: root)
        panel.cornerRadius = cornerRadius
        panel.backgroundFilters = filters
        return (root, panel)
    }

    func sharp(_ x: Int) -> PixelRGBA { x < 32 ? PixelRGBA(255, 0, 0, 255) : PixelRGBA(0, 0, 255, 255) }

    func testABlurredBackdropInsideTheLayerAndTheSharpOneOutside() throws {
        let sigma = 3.0
        let (root, _) = scene(panel: CGRect(x: 16, y: 16, width: 32, height: 32),
                              filters: [CIFilter(name: "CIGaussianBlur", parameters: ["inputRadius": sigma])!])
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        assertPixels(image, "frosted", tolerance: 3) { x, y in
            guard (16..<48).contains(x), (16..<48).contains(y) else { return self.sharp(x) }
            let blue = 0.5 * (1 + erf((Double(x) + 0.5 - 32) / (sigma * 2.0.squareRoot())))
            return PixelRGBA(premultiplied: 1 - blue, 0, blue, 1)
        }
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.backgroundFilter, .backgroundFilter, .backgroundFilter])
    }

    func testAColourBackgroundFilterFollowsTheRoundedShape() throws {
        let (root, _) = scene(panel: CGRect(x: 8, y: 8, width: 48, height: 48), cornerRadius: 12,
                              filters: [CIFilter(name: "CIColorInvert")!])
        let image = try render(root)
        assertPixels(image, "inverted-backdrop", tolerance: 1) { x, y in
            let (px, py) = (Double(x) + 0.5, Double(y) + 0.5)
            guard (8..<56).contains(x), (8..<56).contains(y) else { return self.sharp(x) }
            // Inside the rounded rect (away from its antialiased rim): inverted; red ↔ cyan, blue ↔ yellow.
            let cx = min(max(px, 20), 44), cy = min(max(py, 20), 44)
            let distance = ((px - cx) * (px - cx) + (py - cy) * (py - cy)).squareRoot()
            if distance > 12.75 { return self.sharp(x) }
            if distance > 11.25 { return nil }
            return x < 32 ? PixelRGBA(0, 255, 255, 255) : PixelRGBA(255, 255, 0, 255)
        }
    }

    func testTheLayerDrawsOverItsFrostedBackdrop() throws {
        // A half-transparent white panel over its blurred backdrop: white at 0.5 over the blur.
        let sigma = 2.0
        let (root, panel) = scene(panel: CGRect(x: 16, y: 16, width: 32, height: 32),
                                  filters: [CIFilter(name: "CIGaussianBlur", parameters: ["inputRadius": sigma])!])
        panel.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.5)
        let image = try render(root)
        assertPixels(image, "frosted-panel", tolerance: 3) { x, y in
            guard (16..<48).contains(x), (16..<48).contains(y) else { return self.sharp(x) }
            let blue = 0.5 * (1 + erf((Double(x) + 0.5 - 32) / (sigma * 2.0.squareRoot())))
            return PixelRGBA(premultiplied: 0.5 + 0.5 * (1 - blue), 0.5, 0.5 + 0.5 * blue, 1)
        }
    }

    /// Two inverting panels over one wide background, their backdrops packed into one page: each shows
    /// its own backdrop. Behind the left panel a red stripe (x 44…52) lies over the blue background;
    /// inverted, cyan in the blue's yellow. (Uncut, the right panel's background, drawn later on the page,
    /// covered the left one's stripe, and the left panel showed yellow throughout.)
    func testPackedBackdropsEachShowTheirOwnBackdrop() throws {
        let root = makeRoot(width: 128, height: 64)
        makeLayer(CGRect(x: 0, y: 0, width: 128, height: 64), CGColor(red: 0, green: 0, blue: 1, alpha: 1), in: root)
        makeLayer(CGRect(x: 44, y: 0, width: 8, height: 64), CGColor(red: 1, green: 0, blue: 0, alpha: 1), in: root)
        for x in [40.0, 80.0] {
            makeLayer(CGRect(x: x, y: 16, width: 16, height: 32), nil, in: root).backgroundFilters = [CIFilter(name: "CIColorInvert")!]
        }
        let renderer = try makeRenderer(width: 128, height: 64)
        renderer.layer = root
        let image = try renderFrame(renderer)
        let pages = renderer.lastGraph?.passes.filter { $0.name.hasPrefix("packed 2 surfaces") } ?? []
        XCTAssertFalse(pages.isEmpty, "the two backdrops share a page")
        assertPixels(image, "packed-backdrops", tolerance: 1) { x, y in
            let red = (44..<52).contains(x)
            let inPanel = (16..<48).contains(y) && ((40..<56).contains(x) || (80..<96).contains(x))
            if inPanel { return red ? PixelRGBA(0, 255, 255, 255) : PixelRGBA(255, 255, 0, 255) }
            return red ? PixelRGBA(255, 0, 0, 255) : PixelRGBA(0, 0, 255, 255)
        }
    }
}
