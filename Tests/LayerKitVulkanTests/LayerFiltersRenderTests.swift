import Foundation
import LayerKit
import LayerKitTestSupport
@testable import LayerKitVulkan
import XCTest

/// A layer's `filters`, drawn: colour filters against their matrices, blurs against the Gaussian
/// convolution worked out here, chains, animation, and what is refused.
///
/// Colour expectations apply each filter's published formula to the straight colour in Double:
/// CIColorInvert 1 − c; CISepiaTone the W3C sepia matrix; CIColorControls
/// c · (mix(L, rgb, s) − 0.5) + 0.5 + b with L the Rec. 709 luma; CIExposureAdjust rgb · 2^EV; CIHueAdjust a
/// rotation about the grey axis (checked by what it must keep: luma and grey). Blur expectations are the
/// continuous convolution of the drawn square with the Gaussian (erf), against which the renderer's
/// normalized discrete kernel stays within 3/255 for σ ≥ 2 px. Premultiplied 8-bit output rounds, hence
/// tolerances of 1–3 levels, stated per test.
final class LayerFiltersRenderTests: CARendererTestCase {
    func filter(_ name: String, _ parameters: [String: Any] = [:]) -> CIFilter {
        CIFilter(name: name, parameters: parameters)!
    }

    func testColourFiltersOnAnImageNeedNoSurfaceUnlessItsDrawsOverlap() throws {
        // An image layer: the shader applies the matrix to each texel (no pass); two overlapping fills
        // flatten first (one pass), so where they overlap only the top one inverts.
        let image = makeImage(width: 8, height: 8) { x, _ in x < 4 ? PixelRGBA(255, 0, 0, 255) : PixelRGBA(0, 0, 255, 255) }
        let root = makeRoot()
        let picture = makeLayer(CGRect(x: 4, y: 4, width: 16, height: 16), nil, in: root)
        picture.contents = image
        picture.magnificationFilter = .nearest
        picture.filters = [filter("CIColorInvert")]
        let renderer = try makeRenderer()
        renderer.layer = root
        let first = try renderFrame(renderer)
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [], "an image's draw takes the matrix itself")
        assertPixels(first, "inverted-image", tolerance: 1, probes: [Probe("red half → cyan", 6, 10, PixelRGBA(0, 255, 255, 255)),
                                                                     Probe("blue half → yellow", 16, 10, PixelRGBA(255, 255, 0, 255))])
        let pair = makeLayer(CGRect(x: 30, y: 30, width: 30, height: 30), nil, in: root)
        makeLayer(CGRect(x: 0, y: 0, width: 20, height: 20), CGColor(red: 1, green: 0, blue: 0, alpha: 1), in: pair)
        makeLayer(CGRect(x: 10, y: 10, width: 20, height: 20), CGColor(red: 0, green: 1, blue: 0, alpha: 1), in: pair)
        pair.filters = [filter("CIColorInvert")]
        let second = try renderFrame(renderer, atTime: 1)
        // (A layer whose colour filters may go per draw is not cached as a bitmap: its one pass is redrawn
        // each frame.)
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.filter], "overlapping draws flatten first")
        assertPixels(second, "inverted-pair", tolerance: 1, probes: [Probe("red alone → cyan", 32, 32, PixelRGBA(0, 255, 255, 255)),
                                                                    Probe("overlap: green on top → magenta", 45, 45, PixelRGBA(255, 0, 255, 255))])
    }

    func testColourFiltersOnARoundedImageAndAGradientNeedNoSurface() throws {
        // A white 20×20 image with corner radius 8 inverted: black inside, nothing outside its corners,
        // the same coverage as without the filter at the rounded edge. A gradient red → blue along x,
        // inverted: (t, 1, 1 − t) at t = (x + 0.5 − 40) / 20 (ordered dithering: ±1 level).
        let root = makeRoot()
        let picture = makeLayer(CGRect(x: 4, y: 4, width: 20, height: 20), nil, in: root)
        picture.contents = makeImage(width: 20, height: 20) { _, _ in .white }
        picture.cornerRadius = 8
        picture.masksToBounds = true
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 40, y: 4, width: 20, height: 20)
        gradient.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        gradient.startPoint = CGPoint(x: 0, y: 0.5)
        gradient.endPoint = CGPoint(x: 1, y: 0.5)
        root.addSublayer(gradient)
        let renderer = try makeRenderer()
        renderer.layer = root
        let plain = try renderFrame(renderer)
        picture.filters = [filter("CIColorInvert")]
        gradient.filters = [filter("CIColorInvert")]
        let inverted = try renderFrame(renderer, atTime: 1)
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [], "each draw takes the matrix")
        assertPixels(inverted, "inverted rounded image", tolerance: 1, probes: [
            Probe("inside", 14, 14, PixelRGBA(0, 0, 0, 255)), Probe("outside the corner", 4, 4, .clear),
        ])
        // At the rounded edge: the plain image's coverage, now over black.
        let edge = PixelRGBA(plain, 6, 6)
        XCTAssertTrue(edge.a > 20 && edge.a < 235, "an edge pixel partly covered: \(edge)")
        XCTAssertLessThanOrEqual(PixelRGBA(inverted, 6, 6).difference(to: PixelRGBA(0, 0, 0, edge.a)), 1)
        for x in [45, 55] {
            let t = (Double(x) + 0.5 - 40) / 20
            XCTAssertLessThanOrEqual(PixelRGBA(inverted, x, 14).difference(to: PixelRGBA(straight: t, 1, 1 - t, 1)), 2,
                                     "gradient at x = \(x): \(PixelRGBA(inverted, x, 14))")
        }
    }

    /// A 20×20 layer of straight colour `rgb` at (10, 10) with `filters`.
    func colorScene(_ rgb: (Double, Double, Double), filters: [CIFilter]) -> CALayer {
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 10, y: 10, width: 20, height: 20),
                              CGColor(red: CGFloat(rgb.0), green: CGFloat(rgb.1), blue: CGFloat(rgb.2), alpha: 1), in: root)
        layer.filters = filters
        return root
    }

    /// `passes`: colour matrices on a layer's one fill take no surface (the fill takes the matrix: 0);
    /// other colour filters flatten the layer and take a kernel pass of their own, and the first frame draws
    /// the filtered layer's cached bitmap too (`rasterize`); the second composites the bitmap alone. Same
    /// pixels either way.
    func assertFilteredColor(_ rgb: (Double, Double, Double), _ filters: [CIFilter], expected: (Double, Double, Double),
                             passes: Int = 0, tolerance: Int = 1, file: StaticString = #filePath, line: UInt = #line) throws {
        let renderer = try makeRenderer()
        renderer.layer = colorScene(rgb, filters: filters)
        func clamped(_ v: Double) -> Double { min(max(v, 0), 1) }
        for frame in 0..<2 {
            let image = try renderFrame(renderer, atTime: Double(frame))
            assertPixels(image, filters.map(\.filterName).joined(separator: "+") + " frame \(frame)", tolerance: tolerance, file: file,
                         line: line) { x, y in
                guard (10..<30).contains(x), (10..<30).contains(y) else { return .clear }
                return PixelRGBA(straight: clamped(expected.0), clamped(expected.1), clamped(expected.2), 1)
            }
            XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons,
                           frame == 0 && passes > 0 ? Array(repeating: .filter, count: passes) + [.rasterize] : [], file: file, line: line)
        }
    }

    func testColorInvert() throws {
        try assertFilteredColor((0.2, 0.6, 1), [filter("CIColorInvert")], expected: (0.8, 0.4, 0))
    }

    func testSepiaToneIsTheSepiaMatrix() throws {
        let (r, g, b) = (0.4, 0.6, 0.2)
        try assertFilteredColor((r, g, b), [filter("CISepiaTone")], expected: (
            0.393 * r + 0.769 * g + 0.189 * b, 0.349 * r + 0.686 * g + 0.168 * b, 0.272 * r + 0.534 * g + 0.131 * b))
    }

    func testColorControlsSaturationContrastBrightness() throws {
        let (r, g, b) = (0.8, 0.4, 0.2)
        let luma = 0.2125 * r + 0.7154 * g + 0.0721 * b
        let (s, c, bright) = (0.5, 1.5, 0.1)
        func channel(_ v: Double) -> Double { c * (luma + (v - luma) * s - 0.5) + 0.5 + bright }
        try assertFilteredColor((r, g, b), [filter("CIColorControls", ["inputSaturation": s, "inputContrast": c, "inputBrightness": bright])],
                                expected: (channel(r), channel(g), channel(b)))
    }

    func testExposureDoublesPerStop() throws {
        try assertFilteredColor((0.1, 0.2, 0.4), [filter("CIExposureAdjust", ["inputEV": 1])], expected: (0.2, 0.4, 0.8))
    }

    func testHueAdjustRotatesAboutTheGreyAxis() throws {
        // Core Image's matrix (luma weights 0.2125, 0.7154, 0.0721), a third of a turn, on a muted colour
        // that stays in range; the result keeps the input's luma to within 2e-3 (the matrix's G row is SVG's).
        let (c, s) = (cos(2 * Double.pi / 3), sin(2 * Double.pi / 3))
        let rows = [
            [0.2125 + 0.7875 * c - 0.2125 * s, 0.7154 - 0.7154 * c - 0.7154 * s, 0.0721 - 0.0721 * c + 0.9279 * s],
            [0.2125 - 0.2125 * c + 0.1404 * s, 0.7154 + 0.2846 * c + 0.1404 * s, 0.0721 - 0.0721 * c - 0.2846 * s],
            [0.2125 - 0.2125 * c - 0.7875 * s, 0.7154 - 0.7154 * c + 0.7154 * s, 0.0721 + 0.9279 * c + 0.0721 * s],
        ]
        let input = [0.6, 0.45, 0.4]
        let out = rows.map { row in zip(row, input).map(*).reduce(0, +) }
        XCTAssertEqual(0.2125 * out[0] + 0.7154 * out[1] + 0.0721 * out[2], 0.2125 * 0.6 + 0.7154 * 0.45 + 0.0721 * 0.4, accuracy: 2e-3)
        try assertFilteredColor((input[0], input[1], input[2]), [filter("CIHueAdjust", ["inputAngle": 2 * Double.pi / 3])],
                                expected: (out[0], out[1], out[2]))
    }

    func testColorMatrixWithVectorsAndBias() throws {
        // Swap red and blue, halve green, add 0.25 to green.
        let matrix = filter("CIColorMatrix", [
            "inputRVector": CIVector(x: 0, y: 0, z: 1, w: 0), "inputGVector": CIVector(x: 0, y: 0.5, z: 0, w: 0),
            "inputBVector": CIVector(x: 1, y: 0, z: 0, w: 0), "inputBiasVector": CIVector(x: 0, y: 0.25, z: 0, w: 0),
        ])
        try assertFilteredColor((0.2, 0.6, 0.9), [matrix], expected: (0.9, 0.55, 0.2))
    }

    func testAChainOfColorFiltersAppliesInOrder() throws {
        // Invert then exposure +1: (1 − c) · 2, clamped.
        try assertFilteredColor((0.2, 0.7, 0.9), [filter("CIColorInvert"), filter("CIExposureAdjust", ["inputEV": 1])],
                                expected: (1.6, 0.6, 0.2))
    }

    /// The Gaussian-blurred 16×16 white square at (24, 24), σ in pixels, at pixel (x, y).
    func blurredSquare(_ x: Int, _ y: Int, sigma: Double) -> PixelRGBA {
        func interval(_ t: Double) -> Double {
            0.5 * (erf((40 - t) / (sigma * 2.0.squareRoot())) - erf((24 - t) / (sigma * 2.0.squareRoot())))
        }
        let alpha = interval(Double(x) + 0.5) * interval(Double(y) + 0.5)
        return PixelRGBA(premultiplied: alpha, alpha, alpha, alpha)
    }

    func blurScene(radius: Double) -> CALayer {
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 24, y: 24, width: 16, height: 16), CGColor(red: 1, green: 1, blue: 1, alpha: 1), in: root)
        layer.filters = [filter("CIGaussianBlur", ["inputRadius": radius])]
        return root
    }

    func testGaussianBlurIsTheConvolutionAndGrowsTheDrawnArea() throws {
        let renderer = try makeRenderer()
        renderer.layer = blurScene(radius: 2.5)
        let image = try renderFrame(renderer)
        assertPixels(image, "gaussian-blur", tolerance: 3) { x, y in self.blurredSquare(x, y, sigma: 2.5) }
        // Outside the layer's bounds the blur has spread light (the drawn area grew).
        XCTAssertGreaterThan(PixelRGBA(image, 22, 32).a, 40)
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.filter, .filter, .filter, .rasterize])
    }

    func testAWideGaussianBlurDownsamplesAndStaysClose() throws {
        // σ = 10 px is wider than a kernel pass runs at: two 2× downsamples, then the blur. Tolerance 6/255.
        let renderer = try makeRenderer()
        renderer.layer = blurScene(radius: 10)
        let image = try renderFrame(renderer)
        assertPixels(image, "wide-blur", tolerance: 6) { x, y in self.blurredSquare(x, y, sigma: 10) }
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons.count, 6, "content, two downsamples, x and y, the cached bitmap")
    }

    func testMorphologyMaximumDilatesBySquareRadius() throws {
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 24, y: 24, width: 8, height: 8), CGColor(red: 1, green: 0, blue: 0, alpha: 1), in: root)
        layer.filters = [filter("CIMorphologyMaximum", ["inputRadius": 3])]
        let image = try render(root)
        assertPixels(image, "dilate") { x, y in
            (21..<35).contains(x) && (21..<35).contains(y) ? PixelRGBA(255, 0, 0, 255) : .clear
        }
    }

    func testBoxBlurAveragesItsWindow() throws {
        // inputRadius 4: Core Image's box is 2⌊4/2 − 0.25⌋ + 1 = 3 px wide. Across a vertical edge of a
        // white layer, the three pixels nearest it read 1/3, 2/3 (outside: 1/3 at one pixel out).
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 20, y: 8, width: 24, height: 48), CGColor(red: 1, green: 1, blue: 1, alpha: 1), in: root)
        layer.filters = [filter("CIBoxBlur", ["inputRadius": 4])]
        let image = try render(root)
        func grey(_ v: Double) -> PixelRGBA { PixelRGBA(premultiplied: v, v, v, v) }
        assertPixels(image, "box-blur", tolerance: 1, probes: [
            Probe("two out", 18, 32, .clear), Probe("one out", 19, 32, grey(1.0 / 3)),
            Probe("edge", 20, 32, grey(2.0 / 3)), Probe("inside", 21, 32, grey(1)),
        ])
    }

    func testAnAnimatedBlurRadiusIsDrawnEachFrame() throws {
        let root = blurScene(radius: 0.001)
        let animation = CABasicAnimation(keyPath: "filters.CIGaussianBlur.inputRadius")
        animation.fromValue = 0.0
        animation.toValue = 5.0
        animation.duration = 1
        animation.beginTime = 1000
        root.sublayers![0].add(animation, forKey: "blur")
        let renderer = try makeRenderer()
        renderer.layer = root
        _ = try renderFrame(renderer, atTime: 1000)
        let image = try renderFrame(renderer, atTime: 1000.5)
        // Half-way: σ = 2.5 px, as the still test's.
        assertPixels(image, "animated-blur", tolerance: 3) { x, y in self.blurredSquare(x, y, sigma: 2.5) }
    }

    func testABlurInsideAClippingAncestorStaysInside() throws {
        let root = makeRoot()
        let clip = makeLayer(CGRect(x: 16, y: 16, width: 32, height: 32), nil, in: root)
        clip.masksToBounds = true
        // The layer overhangs the clip's left edge (x 12…28, clip from 16): unclipped, its blur would
        // reach well left of 16.
        let layer = makeLayer(CGRect(x: -4, y: 8, width: 16, height: 16), CGColor(red: 1, green: 1, blue: 1, alpha: 1), in: clip)
        layer.filters = [filter("CIGaussianBlur", ["inputRadius": 3])]
        let image = try render(root)
        assertPixels(image, "clipped-blur") { x, y in
            (16..<48).contains(x) && (16..<48).contains(y) ? nil : .clear
        }
        XCTAssertGreaterThan(PixelRGBA(image, 20, 32).a, 200, "inside the blurred layer")
        XCTAssertGreaterThan(PixelRGBA(image, 30, 32).a, 20, "the blur spreads right, inside the clip")
    }

    func testFiltersTheRendererDoesNotDrawAreReportedAndLeftOut() throws {
        let diagnostics = DiagnosticCapture()
        XCTAssertNil(CIFilter(name: "CINoSuchFilter"))
        let temperature = filter("CITemperatureAndTint", ["inputNeutral": CIVector(x: 5000, y: 0)])
        temperature.setValue(3, forKey: "inputNoSuchKey")
        temperature.setValue(12, forKey: "inputNeutral")
        XCTAssertEqual(temperature.value(forKey: "inputNeutral") as? CIVector, CIVector(x: 5000, y: 0), "a refused value leaves the parameter")
        // Entries that are not filters, and a compositing mode Core Image has not.
        let root = colorScene((0.2, 0.4, 0.6), filters: [])
        root.sublayers![0].filters = ["CIColorInvert"]
        root.sublayers![0].backgroundFilters = ["CIGaussianBlur"]
        root.sublayers![0].compositingFilter = "sparkleBlendMode"
        let image = try render(root)
        XCTAssertEqual(PixelRGBA(image, 20, 20), PixelRGBA(straight: 0.2, 0.4, 0.6, 1), "drawn as if unfiltered")
        XCTAssertEqual(diagnostics.names.filter { $0.hasSuffix("Filter") || $0.hasPrefix("filter") || $0.contains("FilterParameter") }, [
            "unknownFilter", "invalidFilterParameter", "invalidFilterParameter", "filterNotDrawn", "filterNotDrawn", "filterNotDrawn",
        ])
    }

    func testTemperatureAndTintCoolsAWarmNeutral() throws {
        // Lit by 4000 K and shown as if by 6500 K: a grey turns bluer (blue up, red down).
        let renderer = try makeRenderer()
        renderer.layer = colorScene((0.5, 0.5, 0.5), filters: [
            filter("CITemperatureAndTint", ["inputNeutral": CIVector(x: 4000, y: 0), "inputTargetNeutral": CIVector(x: 6500, y: 0)])])
        let pixel = PixelRGBA(try renderFrame(renderer), 20, 20)
        XCTAssertGreaterThan(pixel.b, 128 + 10, "\(pixel)")
        XCTAssertLessThan(pixel.r, 128 - 10, "\(pixel)")
    }

    // MARK: Stylize and the rest

    /// A 32×32 layer at (16, 16) showing `image` (32×32 pixels) with `filters`.
    func imageScene(_ image: CGImage, filters: [CIFilter]) -> CALayer {
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 16, y: 16, width: 32, height: 32), nil, in: root)
        layer.contents = image
        layer.filters = filters
        return root
    }

    /// 32×32: pixel (x, y) has red x·8 and green y·8 (opaque), so every pixel is distinct.
    func gradientImage() -> CGImage {
        makeImage(width: 32, height: 32) { x, y in PixelRGBA(UInt8(x * 8), UInt8(y * 8), 0, 255) }
    }

    func testPixellateShowsEachCellsCentrePixel() throws {
        // Cells of 8 on a grid through the layer's origin: pixel (x, y) of the layer shows the image's
        // pixel at its cell's centre, (8⌊x/8⌋ + 4, 8⌊y/8⌋ + 4) — a texel centre, so exact.
        let image = try render(imageScene(gradientImage(), filters: [filter("CIPixellate", ["inputCenter": CIVector(x: 0, y: 0), "inputScale": 8])]))
        assertPixels(image, "pixellate", tolerance: 1) { x, y in
            guard (16..<48).contains(x), (16..<48).contains(y) else { return .clear }
            let (cx, cy) = (8 * ((x - 16) / 8) + 4, 8 * ((y - 16) / 8) + 4)
            return PixelRGBA(UInt8(cx * 8), UInt8(cy * 8), 0, 255)
        }
    }

    func testCrystallizeOnlyShowsColoursOfTheImage() throws {
        // Every output pixel inside is some image pixel's colour (a cell's feature point's), and cells are
        // larger than a pixel, so neighbours mostly agree.
        let image = try render(imageScene(gradientImage(), filters: [filter("CICrystallize", ["inputCenter": CIVector(x: 0, y: 0), "inputRadius": 6])]))
        var same = 0
        for y in 20..<44 {
            for x in 20..<44 {
                let p = PixelRGBA(image, x, y)
                XCTAssertEqual(p.r % 8, 0, "(\(x), \(y)) \(p)")
                XCTAssertEqual(p.g % 8, 0, "(\(x), \(y)) \(p)")
                if p == PixelRGBA(image, x + 1, y) { same += 1 }
            }
        }
        XCTAssertGreaterThan(same, 24 * 24 / 2)
    }

    func testDiscBlurKeepsFlatRegionsAndAveragesADisc() throws {
        // A white layer: far from its edges the mean over the disc is white; at the edge's midpoint, the
        // disc of radius 4 px (49 taps with i² + j² ≤ 16: columns of 1, 5, 7, 7, 9, 7, 7, 5, 1) is cut by the
        // edge: the columns i ≥ 0, 9 + 7 + 7 + 5 + 1 = 29 of 49 taps, lie inside.
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 16, y: 16, width: 32, height: 32), CGColor(red: 1, green: 1, blue: 1, alpha: 1), in: root)
        layer.filters = [filter("CIDiscBlur", ["inputRadius": 4])]
        let image = try render(root)
        XCTAssertEqual(PixelRGBA(image, 32, 32), .white)
        let edge = 29.0 / 49.0
        XCTAssertLessThanOrEqual(PixelRGBA(image, 16, 32).difference(to: PixelRGBA(premultiplied: edge, edge, edge, edge)), 1,
                                 "\(PixelRGBA(image, 16, 32))")
        XCTAssertGreaterThan(PixelRGBA(image, 13, 32).a, 0, "the disc spreads outside the layer")
    }

    func testVibranceFollowsItsFormula() throws {
        // (0.8, 0.4, 0.2), amount 0.5: mean 0.4667, max 0.8, mix toward 0.8 by (0.8 − 0.4667)·(−1.5) = −0.5.
        let (r, g, b) = (0.8, 0.4, 0.2)
        let amount = (0.8 - (r + g + b) / 3) * -1.5
        func channel(_ v: Double) -> Double { v + (0.8 - v) * amount }
        try assertFilteredColor((r, g, b), [filter("CIVibrance", ["inputAmount": 0.5])], expected: (channel(r), channel(g), channel(b)),
                                passes: 2)
    }

    func testBloomAddsTheBlurredImage() throws {
        // In the middle of a flat 0.4 grey layer much larger than the blur, the blur is the same grey:
        // 0.4 + 0.5 · 0.4 = 0.6.
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), CGColor(red: 0.4, green: 0.4, blue: 0.4, alpha: 1), in: root)
        layer.filters = [filter("CIBloom", ["inputRadius": 2, "inputIntensity": 0.5])]
        let image = try render(root)
        XCTAssertLessThanOrEqual(PixelRGBA(image, 32, 32).difference(to: PixelRGBA(premultiplied: 0.6, 0.6, 0.6, 1)), 1, "\(PixelRGBA(image, 32, 32))")
    }

    func testZoomBlurLeavesItsCentreAndSmearsTowardIt() throws {
        let image = try render(imageScene(gradientImage(), filters: [filter("CIZoomBlur", ["inputCenter": CIVector(x: 16, y: 16), "inputAmount": 20])]))
        // At the centre the segment has no length: the pixel itself.
        XCTAssertLessThanOrEqual(PixelRGBA(image, 32, 32).difference(to: PixelRGBA(128, 128, 0, 255)), 1, "\(PixelRGBA(image, 32, 32))")
        // Far right of the centre, along the row through it: the mean of the segment toward the centre,
        // darker in red than the pixel itself (red grows with x).
        XCTAssertLessThan(PixelRGBA(image, 46, 32).r, 30 * 8)
    }
}
