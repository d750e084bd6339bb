import LayerKit
@testable import LayerKitVulkan
import XCTest

/// `magnificationFilter` and `minificationFilter`: nearest, linear (bilinear) and trilinear sampling.
///
/// Expected values come from the textbook sampling formulas, evaluated here in Double: a pixel centre at
/// unit coordinate u reads texel coordinate t = u · size − 0.5; nearest takes texel floor(t + 0.5),
/// linear mixes texels floor(t) and floor(t) + 1 by the fraction of t, clamped to the edge. The scenes
/// are chosen so that every weight is a multiple of 1/16, exact even at Vulkan's minimum sub-texel
/// precision.
final class FilterRenderTests: CARendererTestCase {
    /// A 2×2 image: top-left red, top-right green, bottom-left blue, bottom-right white.
    func makeTwoByTwo() -> CGImage { makeQuadrantImage(width: 2, height: 2) }

    /// A layer at (8, 8), `size`×`size`, showing `image` with the given filters.
    func makeScene(_ image: CGImage, size: CGFloat, minification: CALayerContentsFilter,
                   magnification: CALayerContentsFilter) -> CALayer {
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 8, y: 8, width: size, height: size), nil, in: root)
        layer.contents = image
        layer.minificationFilter = minification
        layer.magnificationFilter = magnification
        return root
    }

    /// Bilinear sample of `texel` (a `width`×`height` grid of colors) at unit coordinates (u, v),
    /// clamped to the edge.
    func bilinear(_ u: Double, _ v: Double, width: Int, height: Int, texel: (Int, Int) -> PixelRGBA) -> PixelRGBA {
        let tx = u * Double(width) - 0.5, ty = v * Double(height) - 0.5
        let x0 = Int(tx.rounded(.down)), y0 = Int(ty.rounded(.down))
        let fx = tx - Double(x0), fy = ty - Double(y0)
        func at(_ x: Int, _ y: Int) -> [Double] {
            let p = texel(min(max(x, 0), width - 1), min(max(y, 0), height - 1))
            return [Double(p.r), Double(p.g), Double(p.b), Double(p.a)].map { $0 / 255 }
        }
        let (c00, c10, c01, c11) = (at(x0, y0), at(x0 + 1, y0), at(x0, y0 + 1), at(x0 + 1, y0 + 1))
        let mixed = (0..<4).map { i in
            (1 - fx) * (1 - fy) * c00[i] + fx * (1 - fy) * c10[i] + (1 - fx) * fy * c01[i] + fx * fy * c11[i]
        }
        return PixelRGBA(premultiplied: mixed[0], mixed[1], mixed[2], mixed[3])
    }

    // MARK: - Magnification (2×2 → 16×16, 8×)

    func testNearestMagnificationGivesFourFlatBlocks() throws {
        // The minification filter is linear on purpose: magnification must use magnificationFilter.
        let image = try render(makeScene(makeTwoByTwo(), size: 16, minification: .linear, magnification: .nearest))
        assertPixels(image, "nearest-8x") { x, y in
            guard (8..<24).contains(x), (8..<24).contains(y) else { return .clear }
            return Quadrant(left: x < 16, top: y < 16).color
        }
    }

    func testLinearMagnificationBlendsByTheBilinearFormula() throws {
        // At pixel (15, 15), just above-left of the centre: u = 7.5 / 16, t = 7.5 / 8 − 0.5 = 0.4375, so
        // weights 0.5625² red, 0.5625 · 0.4375 green and blue, 0.4375² white:
        // R = 0.31640625 + 0.19140625 = 0.5078125 → 129.5, G = B = 0.24609375 + 0.19140625 = 0.4375 → 111.6.
        let image = try render(makeScene(makeTwoByTwo(), size: 16, minification: .nearest, magnification: .linear))
        let centre = PixelRGBA(image, 15, 15)
        XCTAssertLessThanOrEqual(centre.difference(to: PixelRGBA(premultiplied: 0.5078125, 0.4375, 0.4375, 1)), 1, "\(centre)")

        let quadrants = makeTwoByTwo()
        assertPixels(image, "bilinear-8x", tolerance: 1) { x, y in
            guard (8..<24).contains(x), (8..<24).contains(y) else { return .clear }
            return self.bilinear((Double(x - 8) + 0.5) / 16, (Double(y - 8) + 0.5) / 16, width: 2, height: 2) {
                PixelRGBA(quadrants, $0, $1)
            }
        }
    }

    func testLinearIsTheDefaultFilter() throws {
        let defaults = CALayer()
        let image = try render(makeScene(makeTwoByTwo(), size: 16, minification: defaults.minificationFilter,
                                         magnification: defaults.magnificationFilter))
        XCTAssertLessThanOrEqual(PixelRGBA(image, 15, 15).difference(to: PixelRGBA(premultiplied: 0.5078125, 0.4375, 0.4375, 1)), 1)
    }

    // MARK: - Minification (40×40 checkerboard → 16×16, 2.5×)

    /// A 40×40 checkerboard of single white and black texels, white where x + y is even.
    func makeCheckerboard() -> CGImage {
        makeImage(width: 40, height: 40) { x, y in (x + y) % 2 == 0 ? .white : .black }
    }

    func testNearestMinificationPicksOneTexel() throws {
        // Pixel i samples texel coordinate 2.5 i + 0.75: texel 5k + 1 for i = 2k, 5k + 3 for i = 2k + 1.
        let image = try render(makeScene(makeCheckerboard(), size: 16, minification: .nearest, magnification: .linear))
        func texel(_ i: Int) -> Int { i % 2 == 0 ? 5 * (i / 2) + 1 : 5 * (i / 2) + 3 }
        assertPixels(image, "nearest-min") { x, y in
            guard (8..<24).contains(x), (8..<24).contains(y) else { return .clear }
            return (texel(x - 8) + texel(y - 8)) % 2 == 0 ? .white : .black
        }
    }

    func testLinearMinificationBlendsByTheBilinearFormula() throws {
        // Fractions 0.75 and 0.25: every pixel is 0.625 or 0.375 grey, never a pure texel.
        let image = try render(makeScene(makeCheckerboard(), size: 16, minification: .linear, magnification: .nearest))
        assertPixels(image, "linear-min", tolerance: 1) { x, y in
            guard (8..<24).contains(x), (8..<24).contains(y) else { return .clear }
            return self.bilinear((Double(x - 8) + 0.5) / 16, (Double(y - 8) + 0.5) / 16, width: 40, height: 40) { tx, ty in
                (tx + ty) % 2 == 0 ? .white : .black
            }
        }
    }

    // MARK: - Trilinear (64×64 stripes → 16×16, 4×: level of detail 2)

    /// Vertical stripes of period 4: texel columns 4k + 1 and 4k + 2 white, 4k and 4k + 3 black.
    func makeStripes() -> CGImage {
        makeImage(width: 64, height: 64) { x, _ in x % 4 == 1 || x % 4 == 2 ? .white : .black }
    }

    func testLinearMinificationWithoutMipmapsSeesOnlyTheTwoNearestTexels() throws {
        // Pixel i samples t = 4 i + 1.5: half texel 4i + 1, half 4i + 2, both white.
        let image = try render(makeScene(makeStripes(), size: 16, minification: .linear, magnification: .linear))
        assertPixels(image, "linear-stripes", tolerance: 1) { x, y in
            (8..<24).contains(x) && (8..<24).contains(y) ? .white : .clear
        }
    }

    func testTrilinearMinificationAveragesThroughTheMipChain() throws {
        // At level of detail 2 every texel of mip levels 1 and 2 averages as many white texels as black
        // ones: mid grey (127.5), ±2 for the rounding of two box-filtered levels.
        let image = try render(makeScene(makeStripes(), size: 16, minification: .trilinear, magnification: .linear))
        assertPixels(image, "trilinear-stripes", tolerance: 2) { x, y in
            (8..<24).contains(x) && (8..<24).contains(y) ? PixelRGBA(premultiplied: 0.5, 0.5, 0.5, 1) : .clear
        }
    }

    func testTrilinearAndPlainLayersShareAFrameAndTheImageCleanly() throws {
        // The same image shown trilinear by one layer and linear by another in one frame, then again:
        // validation stays clean (checked in tearDown) and both still draw.
        let stripes = makeStripes()
        let root = makeScene(stripes, size: 16, minification: .trilinear, magnification: .linear)
        let plain = makeLayer(CGRect(x: 40, y: 8, width: 16, height: 16), nil, in: root)
        plain.contents = stripes
        let renderer = try makeRenderer()
        renderer.layer = root
        for frame in 0..<2 {
            let image = try renderFrame(renderer, atTime: Double(frame))
            XCTAssertLessThanOrEqual(PixelRGBA(image, 12, 12).difference(to: PixelRGBA(premultiplied: 0.5, 0.5, 0.5, 1)), 2, "frame \(frame)")
            XCTAssertLessThanOrEqual(PixelRGBA(image, 44, 12).difference(to: .white), 1, "frame \(frame)")
        }
    }
}
