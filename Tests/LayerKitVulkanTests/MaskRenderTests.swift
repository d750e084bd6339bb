import LayerKit
@testable import LayerKitVulkan
import XCTest

/// `mask`: a layer and its subtree show only where its mask layer draws, scaled by the mask's alpha; the
/// mask is placed in the masked layer's bounds space and animates like any layer.
final class MaskRenderTests: CARendererTestCase {
    func testImageMaskScalesTheContentByItsAlphaAtSamplePoints() throws {
        // A 32×32 layer at (16, 16): red on its left half, a blue sublayer on its right half. Its mask
        // is a 4×4 image of alpha (x + 4y) · 17 stretched (nearest) over the layer's bounds, so each mask
        // texel covers an 8×8 block: the content shows there scaled by that alpha, exactly.
        let root = makeRoot()
        let masked = makeLayer(CGRect(x: 16, y: 16, width: 32, height: 32), .testRed, in: root)
        makeLayer(CGRect(x: 16, y: 0, width: 16, height: 32), .testBlue, in: masked)
        func alpha(_ column: Int, _ row: Int) -> UInt8 { UInt8((column + 4 * row) * 17) }
        let mask = makeLayer(CGRect(x: 0, y: 0, width: 32, height: 32))
        mask.contents = makeImage(width: 4, height: 4, opaque: false) { x, y in PixelRGBA(0, 0, 0, alpha(x, y)) }
        mask.magnificationFilter = .nearest
        masked.mask = mask
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        assertPixels(image, "image-mask", tolerance: 1) { x, y in
            guard (16..<48).contains(x) && (16..<48).contains(y) else { return .clear }
            let a = alpha((x - 16) / 8, (y - 16) / 8)
            return x < 32 ? PixelRGBA(a, 0, 0, a) : PixelRGBA(0, 0, a, a)
        }
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.mask, .mask])
    }

    /// A 48×40 layer at (8, 12) showing a quadrant image stretched over its bounds and a blue sublayer
    /// overflowing its top edge at x 28..<38 (away from the corners), clipped to a rounded rect of radius
    /// 12 either by `masksToBounds` + `cornerRadius` or by a mask layer. Along the arcs only the image
    /// draws: where several draws stack on a partly covered pixel, the clip fades each draw by the
    /// coverage (the background then shows through the edge) while the mask fades their composite, so
    /// the two agree only where one draw covers the antialiased edge.
    private func makeRoundedScene(useMask: Bool) -> CALayer {
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 8, y: 12, width: 48, height: 40), nil, in: root)
        layer.contents = makeQuadrantImage(width: 16, height: 16)
        makeLayer(CGRect(x: 20, y: -10, width: 10, height: 30), .testBlue, in: layer)
        if useMask {
            let mask = makeLayer(layer.bounds, .black)
            mask.cornerRadius = 12
            layer.mask = mask
        } else {
            layer.masksToBounds = true
            layer.cornerRadius = 12
        }
        return root
    }

    func testRoundedRectMaskMatchesMasksToBoundsWithCornerRadius() throws {
        // Two different ways of drawing the same thing: the clip multiplies the draws by the rounded
        // rect's coverage, the mask multiplies the composited layer by the same coverage held in a second
        // surface (8 bits). They agree within rounding at every pixel.
        let clipped = try render(makeRoundedScene(useMask: false))
        let renderer = try makeRenderer()
        renderer.layer = makeRoundedScene(useMask: true)
        let masked = try renderFrame(renderer)
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.mask, .mask])
        assertPixels(masked, "mask-vs-masksToBounds", tolerance: 1) { x, y in PixelRGBA(clipped, x, y) }
        // Not trivially equal: the corners are cut, the arcs partly covered, the blue clipped at the top.
        assertPixels(masked, "rounded-probes", tolerance: 1, probes: [
            Probe("cut corner", 8, 12, .clear),
            Probe("arc outside", 9, 13, .clear),
            Probe("red inside", 20, 24, .red),
            Probe("blue inside", 30, 12, .blue),
            Probe("blue overflow clipped", 30, 11, .clear),
            Probe("white inside", 50, 46, .white),
        ])
        let arc = PixelRGBA(masked, 11, 15)
        XCTAssertTrue(arc.a > 0 && arc.a < 255, "pixel (11, 15) straddles the arc: \(arc)")
    }

    func testAnimatedMaskPositionIsEvaluatedAtTheFrameTime() throws {
        // A red band 64×16 masked by an 8×16 window whose position.x goes 4 → 52 over [1000, 1001]:
        // at 1000.25 the window is centred on 16 (pixels 12..<20), at 1000.75 on 40 (36..<44).
        let renderer = try makeRenderer(width: 64, height: 16)
        let root = makeRoot(width: 64, height: 16)
        let band = makeLayer(CGRect(x: 0, y: 0, width: 64, height: 16), .testRed, in: root)
        let window = makeLayer(CGRect(x: 0, y: 0, width: 8, height: 16), .black)
        band.mask = window
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.fromValue = 4
        slide.toValue = 52
        slide.duration = 1
        slide.beginTime = 1000
        window.add(slide, forKey: "slide")
        renderer.layer = root
        for (time, columns) in [(1000.25, 12..<20), (1000.75, 36..<44)] {
            let image = try renderFrame(renderer, atTime: time)
            assertPixels(image, "window-at-\(time)") { x, _ in columns.contains(x) ? .red : .clear }
            XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.mask, .mask])
        }
    }

    func testMaskedGroupIsFadedOnceAfterMasking() throws {
        // A layer at opacity 0.5 with opaque red under opaque blue, masked to its left half: the mask
        // isolates the subtree, so the blue hides the red and the whole fades once.
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), nil, in: root)
        layer.opacity = 0.5
        makeLayer(CGRect(x: 0, y: 0, width: 48, height: 48), .testRed, in: layer)
        makeLayer(CGRect(x: 16, y: 16, width: 48, height: 48), .testBlue, in: layer)
        layer.mask = makeLayer(CGRect(x: 0, y: 0, width: 32, height: 64), .black)
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        assertPixels(image, "masked-group", tolerance: 1) { x, y in
            guard x < 32 else { return .clear }
            if x >= 16 && y >= 16 { return PixelRGBA(premultiplied: 0, 0, 0.5, 0.5) }
            if y < 48 { return PixelRGBA(premultiplied: 0.5, 0, 0, 0.5) }
            return .clear
        }
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.mask, .mask])
    }
}
