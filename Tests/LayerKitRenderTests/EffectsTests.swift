import XCTest
@testable import LayerKitRender

/// Filters and shadows without a GPU: colour matrices composed by hand, filters read from Core Image's
/// parameters, the shapes a shadow is drawn analytically for, and the passes a graph gets.
final class EffectsTests: XCTestCase {
    // MARK: Colour matrices

    func testMatricesComposeInTheOrderApplied() {
        // Invert, then double: (1 − c) · 2. At c = (0.25, 0.5, 0.75, 1): (1.5, 1, 0.5, 1).
        let double = ColorMatrix(red: SIMD4(2, 0, 0, 0), green: SIMD4(0, 2, 0, 0), blue: SIMD4(0, 0, 2, 0), alpha: SIMD4(0, 0, 0, 1))
        let both = ColorMatrix.invert.then(double)
        XCTAssertEqual(both.apply(SIMD4(0.25, 0.5, 0.75, 1)), SIMD4(1.5, 1, 0.5, 1))
        XCTAssertEqual(double.then(.invert).apply(SIMD4(0.25, 0.5, 0.75, 1)), SIMD4(0.5, 0, -0.5, 1), "the other order: 1 − 2c")
        XCTAssertEqual(ColorMatrix.identity.then(both), both)
    }

    func testATintPaintsItsColourWithTheInputsAlpha() {
        let tint = ColorMatrix.tint(SIMD4(0.2, 0.4, 0.6, 0.5))
        XCTAssertEqual(tint.apply(SIMD4(0.9, 0.1, 0.3, 0.8)), SIMD4(0.2, 0.4, 0.6, 0.4))
        XCTAssertFalse(tint.keepsAlpha)
        XCTAssertTrue(ColorMatrix.invert.keepsAlpha)
    }

    // MARK: Filters from Core Image's parameters

    func testFiltersReadCoreImagesParametersAndDefaults() {
        XCTAssertEqual(LayerFilter(FilterValue(CIFilter(name: "CIGaussianBlur")!)), .gaussianBlur(sigma: 10))
        XCTAssertEqual(LayerFilter(FilterValue(CIFilter(name: "CIMotionBlur", parameters: ["inputAngle": 1])!)),
                       .motionBlur(sigma: 20, angle: 1))
        guard case .color(let exposure)? = LayerFilter(FilterValue(CIFilter(name: "CIExposureAdjust", parameters: ["inputEV": -1])!)) else {
            return XCTFail("exposure is a colour matrix")
        }
        XCTAssertEqual(exposure.red, SIMD4(0.5, 0, 0, 0))
        XCTAssertEqual(LayerFilter(FilterValue(CIFilter(name: "CIPixellate", parameters: ["inputCenter": CIVector(x: 4, y: 6)])!)),
                       .pixellate(center: CGPoint(x: 4, y: 6), scale: 8))
    }

    func testCoreImagesBoxIsOddAndNarrowerThanTwiceTheRadius() {
        // n = max(2⌊r/2 − 0.25⌋ + 1, 1): r = 10 → 9 wide (4 each side); r = 4 → 3; r = 1 → 1.
        XCTAssertEqual(LayerFilter.boxHalfWidth(10), 4)
        XCTAssertEqual(LayerFilter.boxHalfWidth(4), 1)
        XCTAssertEqual(LayerFilter.boxHalfWidth(1), 0)
    }

    func testReachIsHowFarAFilterSpreadsAPixel() {
        XCTAssertEqual(LayerFilter.gaussianBlur(sigma: 4).reach(pixelsPerUnit: 1), 12)
        XCTAssertEqual(LayerFilter.gaussianBlur(sigma: 4).reach(pixelsPerUnit: 2), 24, "lengths are the layer's, on screen")
        XCTAssertEqual(LayerFilter.morphology(maximum: true, radius: 5).reach(pixelsPerUnit: 1), 5)
        XCTAssertEqual(LayerFilter.morphology(maximum: false, radius: 5).reach(pixelsPerUnit: 1), 0, "erosion never grows")
        XCTAssertEqual(LayerFilter.color(.invert).reach(pixelsPerUnit: 1), 0)
        // Hostile lengths are cut: a full-resolution kernel reaches no farther than its taps.
        XCTAssertEqual(LayerFilter.morphology(maximum: true, radius: 1e30).reach(pixelsPerUnit: 1), 64)
        XCTAssertEqual(LayerFilter.gaussianBlur(sigma: 5_000).reach(pixelsPerUnit: .infinity), 3 * 1_024)
        XCTAssertEqual(LayerFilter.gaussianBlur(sigma: 5).reach(pixelsPerUnit: .nan), 0)
    }

    // MARK: White balance

    func testThePlanckianLocusPassesThroughKnownIlluminants() {
        // CIE illuminant A is a Planckian radiator at 2856 K: xy (0.4476, 0.4074); 6500 K: (0.3135, 0.3236).
        for (t, x, y) in [(2856.0, 0.4476, 0.4074), (6500.0, 0.3135, 0.3236)] {
            let white = WhiteBalance.whitePoint(temperature: t, tint: 0)
            let sum = white.x + white.y + white.z
            XCTAssertEqual(white.x / sum, x, accuracy: 1e-3, "\(t) K")
            XCTAssertEqual(white.y / sum, y, accuracy: 1e-3, "\(t) K")
        }
    }

    func testTheNeutralsWhiteBecomesTheTargetsWhite() {
        // M · (A⁻¹ · W_neutral) = A⁻¹ · W_target: the re-lit image shows the neutral illuminant's white as
        // the target's.
        let neutral = SIMD2(3500.0, 10.0), target = SIMD2(7000.0, -5.0)
        let m = WhiteBalance.matrix(neutral: neutral, target: target)
        let a = WhiteBalance.rgbToXYZ.inverse
        let from = a * WhiteBalance.whitePoint(temperature: neutral.x, tint: neutral.y)
        let to = a * WhiteBalance.whitePoint(temperature: target.x, tint: target.y)
        let mapped = m * from
        for i in 0..<3 { XCTAssertEqual(mapped[i], to[i], accuracy: 1e-9) }
        // The same illuminant twice changes nothing.
        let identity = WhiteBalance.matrix(neutral: neutral, target: neutral)
        XCTAssertEqual(identity.rows.0.x, 1, accuracy: 1e-12)
        XCTAssertEqual(identity.rows.1.x, 0, accuracy: 1e-12)
    }

    // MARK: Analytic shadow shapes

    func testSimplePathsAreRecognizedAsRoundedRects() {
        let rect = CGRect(x: 2, y: 3, width: 40, height: 20)
        XCTAssertEqual(CGPath(rect: rect, transform: nil).roundedRectShape?.radius, 0)
        XCTAssertEqual(CGPath(roundedRect: rect, cornerWidth: 6, cornerHeight: 6, transform: nil).roundedRectShape?.rect, rect)
        XCTAssertEqual(CGPath(roundedRect: rect, cornerWidth: 6, cornerHeight: 6, transform: nil).roundedRectShape?.radius, 6)
        XCTAssertEqual(CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil).roundedRectShape?.radius, 5)
        XCTAssertNil(CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 10, height: 6), transform: nil).roundedRectShape, "an ellipse")
        XCTAssertNil(CGPath(roundedRect: rect, cornerWidth: 6, cornerHeight: 3, transform: nil).roundedRectShape, "elliptic corners")
        let triangle = CGMutablePath()
        triangle.move(to: .zero)
        triangle.addLine(to: CGPoint(x: 10, y: 0))
        triangle.addLine(to: CGPoint(x: 0, y: 10))
        triangle.closeSubpath()
        XCTAssertNil(triangle.roundedRectShape)
    }

    func testALayersShadowIsAnalyticOnlyWhenItsAlphaIsItsBackground() {
        func node(_ configure: (RenderNode) -> Void) -> RenderNode {
            let node = RenderNode(id: LayerID.next())
            node.bounds = CGRect(x: 0, y: 0, width: 20, height: 10)
            node.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 0.5)
            node.shadowOpacity = 1
            configure(node)
            return node
        }
        XCTAssertEqual(ShadowShape(of: node { _ in }, backgroundRadii: .zero)?.alpha, 0.5, "the background's alpha")
        XCTAssertNil(ShadowShape(of: node { $0.sublayers = [LayerID.next()] }, backgroundRadii: .zero), "sublayers add alpha")
        XCTAssertNil(ShadowShape(of: node { $0.contents = TinyScene.solidImage((0, 0, 0, 255)) }, backgroundRadii: .zero))
        XCTAssertNil(ShadowShape(of: node { $0.borderWidth = 2 }, backgroundRadii: .zero), "a border over a translucent fill")
        XCTAssertNotNil(ShadowShape(of: node {
            $0.borderWidth = 2
            $0.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        }, backgroundRadii: .zero), "a border inside an opaque fill adds nothing")
        XCTAssertNotNil(ShadowShape(of: node { $0.shadowPath = CGPath(rect: CGRect(x: 0, y: 0, width: 4, height: 4), transform: nil); $0.contents = TinyScene.solidImage((0, 0, 0, 255)) },
                                    backgroundRadii: .zero), "a shadowPath rect whatever the layer draws")
        XCTAssertFalse(ShadowShape.casts(node { $0.shadowOpacity = 0 }))
        XCTAssertEqual(ShadowShape.sigma(forRadius: 3), 3, "shadowRadius is the Gaussian's standard deviation")
    }

    // MARK: Passes

    func testARoundedShadowNeedsNoPassAndAFilterChainItsKernels() {
        var scene = TinyScene()
        scene.cachesGroups = false
        let card = scene.layer(CGRect(x: 4, y: 4, width: 20, height: 20), TinyScene.red)
        card.cornerRadius = 4
        card.shadowOpacity = 0.5
        card.shadowRadius = 3
        let blurred = scene.layer(CGRect(x: 30, y: 30, width: 10, height: 10), TinyScene.green)
        blurred.filters = [CIFilter(name: "CISepiaTone")!, CIFilter(name: "CIGaussianBlur", parameters: ["inputRadius": 2])!,
                           CIFilter(name: "CIColorInvert")!]
        let graph = scene.built()
        // Blurred: content, the sepia matrix applied before the blur, the blur's x and y; the invert rides on
        // the composite. The card's shadow is one more draw in the frame.
        XCTAssertEqual(graph.offscreenPasses.map(\.reason), [.filter, .filter, .filter, .filter])
        let frame = graph.framePass
        XCTAssertEqual(frame.items.filter { $0.instance.flags.contains(.shadow) }.count, 1)
        let composite = frame.items.last!
        XCTAssertTrue(composite.instance.flags.contains(.colorMatrix))
        XCTAssertEqual(composite.instance.colorMatrix, .invert)
        // The blur grew the surface by 3σ = 6 px on every side of the 10×10 layer.
        XCTAssertEqual(graph.offscreenPasses.first?.target.width, 22)

        // Cached (the default): the settled layer's passes draw a bitmap as well, which the frame samples.
        scene.cachesGroups = true
        let cached = scene.built()
        XCTAssertEqual(cached.offscreenPasses.map(\.reason), [.filter, .filter, .filter, .filter, .rasterize])
        XCTAssertEqual(cached.rasterization.rendered.count, 1)
    }

    func testLayersSharingAShadowPathBlurItOnce() {
        // Six layers with one triangle shadowPath, blurred by σ = 3, at whole pixels: one blurred surface
        // (its draws in the shadow passes: the path, then each blur step) and six composites. A seventh at
        // a half pixel blurs its own, and one whose blur runs off the target blurs its own (cut) surface.
        let triangle = CGMutablePath()
        triangle.move(to: CGPoint(x: 2, y: 2))
        triangle.addLine(to: CGPoint(x: 18, y: 2))
        triangle.addLine(to: CGPoint(x: 2, y: 18))
        triangle.closeSubpath()
        func shadowDraws(_ origins: [CGPoint]) -> (inShadowPasses: Int, composites: Int) {
            var scene = TinyScene(width: 200, height: 64)
            scene.cachesGroups = false
            for origin in origins {
                let layer = scene.layer(CGRect(origin: origin, size: CGSize(width: 20, height: 20)))
                layer.shadowPath = triangle
                layer.shadowOpacity = 1
                layer.shadowRadius = 3
            }
            let graph = scene.built()
            let passes = graph.offscreenPasses.filter { $0.reason == .shadow }
            return (passes.reduce(0) { $0 + $1.items.count }, graph.framePass.items.count)
        }
        let lone = shadowDraws([CGPoint(x: 20, y: 20)])
        XCTAssertGreaterThanOrEqual(lone.inShadowPasses, 3, "the path and at least the two blur passes")
        XCTAssertEqual(lone.composites, 1)
        let grid = (0..<6).map { CGPoint(x: 20 + 25 * $0, y: 20) }
        XCTAssertEqual(shadowDraws(grid).inShadowPasses, lone.inShadowPasses, "one blur for six layers")
        XCTAssertEqual(shadowDraws(grid).composites, 6)
        XCTAssertEqual(shadowDraws(grid + [CGPoint(x: 170.5, y: 20)]).inShadowPasses, 2 * lone.inShadowPasses, "a half pixel: its own")
        XCTAssertEqual(shadowDraws([CGPoint(x: -15, y: 20)] + grid).inShadowPasses, 2 * lone.inShadowPasses,
                       "the first is cut by the target's edge: it serves no other layer")
    }
}

/// The model's list of drawn compositing filters is the renderer's.
final class CompositingOperationTests: XCTestCase {
    func testTheModelAndTheRendererAgreeOnWhichCompositingFiltersAreDrawn() {
        let drawn = Set(CIFilter.drawnCompositingFilters.filter { CompositingOperation(filterName: $0) != nil })
        XCTAssertEqual(drawn, CIFilter.drawnCompositingFilters)
        XCTAssertEqual(Set(CompositingOperation.allCases.map(\.rawValue)).union(["CILinearDodgeBlendMode"]), CIFilter.drawnCompositingFilters)
        XCTAssertEqual(CIFilter.compositingFilterName(of: "multiplyBlendMode"), "CIMultiplyBlendMode")
        XCTAssertEqual(CompositingOperation(filterName: "CIOverlayBlendMode")?.needsBackdrop, true, "drawn by the blend kernel")
        XCTAssertEqual(CompositingOperation.screen.needsBackdrop, false)
        XCTAssertNil(CompositingOperation(filterName: "CISparkleBlendMode"))
    }

    func testScreenIsExactForAnyAlpha() {
        // ONE, ONE_MINUS_SRC_COLOR: s + b·(1 − s) = s + b − s·b, the premultiplied screen, alpha included.
        let equation = CompositingOperation.screen.equation
        XCTAssertEqual(equation.color.source, .one)
        XCTAssertEqual(equation.color.destination, .oneMinusSourceColor)
        XCTAssertEqual(equation.alpha.destination, .oneMinusSourceAlpha)
    }
}
