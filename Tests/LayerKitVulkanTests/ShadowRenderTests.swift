import Foundation
import LayerKit
@testable import LayerKitVulkan
import XCTest

/// Shadows: hard ones pixel-exact, blurred ones against the Gaussian convolution worked out here.
///
/// Expectations: a shadow of a shape S with colour C, opacity o, offset d and radius r covers pixel
/// centre p with alpha o · C.a · (S ⊛ G_σ)(p − d), σ = r (Core Animation's shadowRadius is the Gaussian's
/// standard deviation). For a rectangle the convolution is separable: Φx · Φy with
/// Φ(t) = ½ (erf((t − a)/(σ√2)) − erf((t − b)/(σ√2))), computed here with Foundation's erf. For a rounded
/// rectangle the test integrates numerically: along x in closed form for each row (the shape's width at
/// that height), along y with 400 midpoint steps over ±5σ. The layer itself is drawn over its shadow.
/// Tolerances: 2/255 for rectangles (the shader's erf approximation is within 8e-4), 4/255 for rounded
/// rectangles (the shader integrates along y with six samples).
final class ShadowRenderTests: CARendererTestCase {
    /// Φ: the fraction of a 1D Gaussian (σ) centred at t that falls within [a, b].
    func interval(_ t: Double, _ a: Double, _ b: Double, sigma: Double) -> Double {
        0.5 * (erf((b - t) / (sigma * 2.0.squareRoot())) - erf((a - t) / (sigma * 2.0.squareRoot())))
    }

    /// The blurred rounded rect (`rect`, corner radius `radius`) at point (x, y), integrated numerically.
    func blurredRoundedRect(_ x: Double, _ y: Double, rect: CGRect, radius: Double, sigma: Double) -> Double {
        let steps = 400
        let low = y - 5 * sigma, high = y + 5 * sigma
        let dy = (high - low) / Double(steps)
        var total = 0.0
        for i in 0..<steps {
            let sy = low + (Double(i) + 0.5) * dy  // the shape's row at height sy
            guard sy > Double(rect.minY), sy < Double(rect.maxY) else { continue }
            let fromEdge = min(sy - Double(rect.minY), Double(rect.maxY) - sy)
            var inset = 0.0
            if fromEdge < radius {
                let d = radius - fromEdge
                inset = radius - (radius * radius - d * d).squareRoot()
            }
            let rowWeight = exp(-0.5 * (sy - y) * (sy - y) / (sigma * sigma)) / (sigma * (2 * Double.pi).squareRoot()) * dy
            total += rowWeight * interval(x, Double(rect.minX) + inset, Double(rect.maxX) - inset, sigma: sigma)
        }
        return total
    }

    /// Source-over of premultiplied `top` on premultiplied `bottom`.
    func over(_ top: (Double, Double, Double, Double), _ bottom: (Double, Double, Double, Double)) -> PixelRGBA {
        let k = 1 - top.3
        return PixelRGBA(premultiplied: top.0 + bottom.0 * k, top.1 + bottom.1 * k, top.2 + bottom.2 * k, top.3 + bottom.3 * k)
    }

    func testAHardShadowIsTheShapeOffsetExactly() throws {
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 10, y: 10, width: 20, height: 20), CGColor(red: 1, green: 0, blue: 0, alpha: 1), in: root)
        layer.shadowColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        // 0.6 is 153 levels exactly (0.5 would be 127.5, which Vulkan may convert to 127 or 128).
        layer.shadowOpacity = 0.6
        layer.shadowOffset = CGSize(width: 8, height: 6)
        layer.shadowRadius = 0
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        assertPixels(image, "hard-shadow") { x, y in
            if (10..<30).contains(x) && (10..<30).contains(y) { return PixelRGBA(255, 0, 0, 255) }
            if (18..<38).contains(x) && (16..<36).contains(y) { return PixelRGBA(0, 0, 153, 153) }
            return .clear
        }
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenPasses, 0, "a rect shadow is drawn analytically")
    }

    func testABlurredRectShadowIsTheGaussianConvolution() throws {
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 16, y: 16, width: 24, height: 16), CGColor(red: 1, green: 1, blue: 1, alpha: 1), in: root)
        layer.shadowOpacity = 0.8
        layer.shadowOffset = CGSize(width: 4, height: 10)
        layer.shadowRadius = 3
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        assertPixels(image, "blurred-rect-shadow", tolerance: 2) { x, y in
            if (16..<40).contains(x) && (16..<32).contains(y) { return .white }
            let (px, py) = (Double(x) + 0.5, Double(y) + 0.5)
            let alpha = 0.8 * self.interval(px, 20, 44, sigma: 3) * self.interval(py, 26, 42, sigma: 3)
            return PixelRGBA(premultiplied: 0, 0, 0, alpha)
        }
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenPasses, 0)
    }

    func testABlurredRoundedShadowFollowsTheCorners() throws {
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 12, y: 12, width: 36, height: 30), CGColor(red: 0, green: 1, blue: 0, alpha: 1), in: root)
        layer.cornerRadius = 10
        layer.shadowOpacity = 1
        layer.shadowOffset = CGSize(width: 0, height: 8)
        layer.shadowRadius = 4
        let image = try render(root)
        let shape = CGRect(x: 12, y: 20, width: 36, height: 30)
        assertPixels(image, "rounded-shadow", tolerance: 4) { x, y in
            // Only where the layer's own rounded rect leaves the shadow bare (its corners are antialiased).
            let (px, py) = (Double(x) + 0.5, Double(y) + 0.5)
            guard py >= 42.5 || px < 11.5 || px > 48.5 || py < 11.5 else { return nil }
            return PixelRGBA(premultiplied: 0, 0, 0, self.blurredRoundedRect(px, py, rect: shape, radius: 10, sigma: 4))
        }
    }

    func testAShadowPathRectShadowsALayerWithNoBackground() throws {
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 8, y: 8, width: 20, height: 20), nil, in: root)
        layer.shadowPath = CGPath(rect: CGRect(x: 4, y: 4, width: 10, height: 6), transform: nil)
        layer.shadowOpacity = 1
        layer.shadowColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        layer.shadowOffset = CGSize(width: 2, height: 2)
        layer.shadowRadius = 0
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        assertPixels(image, "shadow-path-rect") { x, y in
            (14..<24).contains(x) && (14..<20).contains(y) ? PixelRGBA(255, 0, 0, 255) : .clear
        }
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenPasses, 0)
    }

    func testMasksToBoundsClipsTheShadowToTheLayer() throws {
        // A half-transparent background shows the part of its shadow inside its bounds; nothing outside.
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 10, y: 10, width: 20, height: 20), CGColor(red: 1, green: 1, blue: 1, alpha: 0.5), in: root)
        layer.masksToBounds = true
        layer.shadowOpacity = 1
        layer.shadowOffset = CGSize(width: 10, height: 0)
        layer.shadowRadius = 0
        let image = try render(root)
        assertPixels(image, "clipped-shadow", tolerance: 1) { x, y in
            guard (10..<30).contains(x) && (10..<30).contains(y) else { return .clear }
            // Shadow alpha is the background's (0.5): black at 0.5 under white at 0.5 where they overlap.
            return x >= 20 ? self.over((0.5, 0.5, 0.5, 0.5), (0, 0, 0, 0.5)) : PixelRGBA(premultiplied: 0.5, 0.5, 0.5, 0.5)
        }
    }

    func testAShadowFollowsTheSublayersAlphaThroughAnOffscreenPass() throws {
        // No background: the shadow is the green child's shape, moved 10 px right.
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 8, y: 8, width: 40, height: 40), nil, in: root)
        makeLayer(CGRect(x: 4, y: 6, width: 12, height: 10), CGColor(red: 0, green: 1, blue: 0, alpha: 1), in: layer)
        layer.shadowOpacity = 1
        layer.shadowOffset = CGSize(width: 10, height: 0)
        layer.shadowRadius = 0
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        assertPixels(image, "sublayer-shadow") { x, y in
            if (12..<24).contains(x) && (14..<24).contains(y) { return PixelRGBA(0, 255, 0, 255) }
            if (22..<34).contains(x) && (14..<24).contains(y) { return .black }
            return .clear
        }
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.shadow, .rasterize], "the shadow, then the cached bitmap")
        _ = try renderFrame(renderer, atTime: 1)
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [], "unchanged: the cached bitmap alone")
    }

    func testABlurredGeneralShadowMatchesTheAnalyticOne() throws {
        // The same rect shadow twice: analytically (a background), and through the offscreen blur (the
        // rect drawn by a sublayer). Both must be the Gaussian convolution of the rect.
        func scene(viaSublayer: Bool) -> CALayer {
            let root = makeRoot()
            let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            let layer = makeLayer(CGRect(x: 20, y: 20, width: 16, height: 16), viaSublayer ? nil : white, in: root)
            if viaSublayer { makeLayer(CGRect(x: 0, y: 0, width: 16, height: 16), white, in: layer) }
            layer.shadowOpacity = 1
            layer.shadowOffset = CGSize(width: 0, height: 0)
            layer.shadowRadius = 3
            return root
        }
        for viaSublayer in [false, true] {
            let image = try render(scene(viaSublayer: viaSublayer))
            assertPixels(image, viaSublayer ? "general-blur" : "analytic-blur", tolerance: 3) { x, y in
                if (20..<36).contains(x) && (20..<36).contains(y) { return .white }
                let (px, py) = (Double(x) + 0.5, Double(y) + 0.5)
                return PixelRGBA(premultiplied: 0, 0, 0, self.interval(px, 20, 36, sigma: 3) * self.interval(py, 20, 36, sigma: 3))
            }
        }
    }

    func testATriangleShadowPathIsRasterizedAndBlurredOffscreen() throws {
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), nil, in: root)
        let triangle = CGMutablePath()
        triangle.move(to: CGPoint(x: 10, y: 10))
        triangle.addLine(to: CGPoint(x: 50, y: 10))
        triangle.addLine(to: CGPoint(x: 10, y: 50))
        triangle.closeSubpath()
        layer.shadowPath = triangle
        layer.shadowOpacity = 1
        layer.shadowOffset = .zero
        layer.shadowRadius = 0
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        assertPixels(image, "triangle-shadow", tolerance: 1, probes: [
            Probe("inside", 15, 15, .black), Probe("inside near the hypotenuse", 28, 20, .black),
            Probe("outside beyond the hypotenuse", 40, 40, .clear), Probe("outside above", 20, 5, .clear),
        ])
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.shadow, .rasterize])
    }

    func testAShadowIsInsideItsLayersOpacityGroup() throws {
        // Group opacity 0.5 over the layer and its hard shadow: where they overlap only the layer shows.
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 10, y: 10, width: 20, height: 20), CGColor(red: 1, green: 0, blue: 0, alpha: 1), in: root)
        layer.opacity = 0.5
        layer.shadowOpacity = 1
        layer.shadowOffset = CGSize(width: 10, height: 0)
        layer.shadowRadius = 0
        let image = try render(root)
        assertPixels(image, "shadow-in-group", tolerance: 1) { x, y in
            guard (10..<40).contains(x) && (10..<30).contains(y) else { return .clear }
            return x < 30 ? PixelRGBA(premultiplied: 0.5, 0, 0, 0.5) : PixelRGBA(premultiplied: 0, 0, 0, 0.5)
        }
    }

    func testLayersSharingAShadowPathShareOneBlurAndDrawTheirOwnShadows() throws {
        // Three layers with one triangle shadowPath, blurred by 3: the first two at whole-pixel positions
        // share one blurred surface; the third, at a half pixel, blurs its own. Each shadow has its own
        // colour and offset, and every pixel is what the layer alone draws (within 1/255).
        let triangle = CGMutablePath()
        triangle.move(to: CGPoint(x: 5, y: 5))
        triangle.addLine(to: CGPoint(x: 45, y: 5))
        triangle.addLine(to: CGPoint(x: 5, y: 45))
        triangle.closeSubpath()
        let places: [(x: CGFloat, color: CGColor, offset: CGSize)] = [
            (15, CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGSize(width: 0, height: 0)),
            (85, CGColor(red: 0, green: 0, blue: 1, alpha: 1), CGSize(width: 2, height: 3)),
            (155.5, CGColor(red: 0, green: 0.5, blue: 0, alpha: 1), CGSize(width: -1, height: 1)),
        ]
        func scene(_ indices: [Int]) -> CALayer {
            let root = makeRoot(width: 224, height: 64)
            for index in indices {
                let place = places[index]
                let layer = makeLayer(CGRect(x: place.x, y: 7, width: 50, height: 50), nil, in: root)
                layer.shadowPath = triangle
                layer.shadowColor = place.color
                layer.shadowOpacity = 0.8
                layer.shadowOffset = place.offset
                layer.shadowRadius = 3
            }
            return root
        }
        // (EffectsTests counts the blurs: two for these three layers.)
        let renderer = try makeRenderer(width: 224, height: 64)
        renderer.layer = scene([0, 1, 2])
        let together = try renderFrame(renderer)
        for index in places.indices {
            renderer.layer = scene([index])
            let alone = try renderFrame(renderer)
            let columns = Int(places[index].x) - 12 ..< Int(places[index].x) + 62
            var worst = 0
            for y in 0..<64 {
                for x in columns { worst = max(worst, PixelRGBA(together, x, y).difference(to: PixelRGBA(alone, x, y))) }
            }
            XCTAssertLessThanOrEqual(worst, 1, "layer \(index): its shadow as it draws alone")
        }
    }
}
