import LayerKit
import LayerKitRender
@testable import LayerKitVulkan
import XCTest

/// The shape coverages without derivatives (`Material.Coverage.affineShape` and `.similarShape`,
/// `include/affine_rounded_rect_coverage.glsl`): coverage from the map's pixel metric, or from one scale
/// under a similarity, must draw what the derivative coverage draws, and a translucent rounded rect must
/// blend exactly once inside and by its analytic coverage at its edges.
///
/// Ways of drawing the same thing: an affinely mapped rounded rect drawn alone runs the affine material
/// (with `similarityMap`, where its map is one, the similarity material); the same rect batched with a
/// projective draw (transparent, so it adds nothing) runs the derivative one (a batch runs the join of its
/// draws' materials). They differ only by float rounding, so by at most one level per channel — except
/// where a pixel centre lies exactly on a hard straight edge's tangent into a rounded corner, where the
/// shader's coverage jumps from a step to the arc's ramp and rounding may pick either side; the maps here
/// put no pixel centre there.
final class AffineCoverageRenderTests: VulkanRenderTestCase {
    let scene = PixelScene(width: 64, height: 64)

    /// A 2×2 matrix by its columns, the pixel images of the layer's x and y axes.
    struct Linear {
        var x: SIMD2<Double>, y: SIMD2<Double>
        /// This map after `other` (column vectors: self · other).
        func after(_ other: Linear) -> Linear {
            Linear(x: x * other.x.x + y * other.x.y, y: x * other.y.x + y * other.y.y)
        }
    }

    /// Layer space → clip space for the map pixel = linear · (x, y) + translation (column vectors).
    func localToClip(linear: Linear, translation: SIMD2<Double>) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        let sx = 2 / Double(scene.width), sy = 2 / Double(scene.height)
        return (SIMD4(Float(sx * linear.x.x), Float(sy * linear.x.y), 0, 0),
                SIMD4(Float(sx * linear.y.x), Float(sy * linear.y.y), 0, 0),
                SIMD4(0, 0, 1, 0),
                SIMD4(Float(sx * translation.x - 1), Float(sy * translation.y - 1), 0, 1))
    }

    /// A white rounded rect under the map, its quad grown by a layer unit so the antialiased fringe is drawn.
    func item(_ rect: SIMD4<Float>, radii: SIMD4<Float>, linear: Linear, translation: SIMD2<Double>,
              flags: LayerInstance.Flags) -> DrawItem {
        DrawItem(instance: LayerInstance(localToClip: localToClip(linear: linear, translation: translation),
                                         quad: rect + SIMD4(-1, -1, 1, 1), color: SIMD4(1, 1, 1, 1), shape: rect, shapeRadii: radii,
                                         flags: flags))
    }

    /// A transparent draw whose clip-space w depends on x (a projective map): it paints nothing, and its
    /// batch runs the derivative coverage.
    var projectiveNothing: DrawItem {
        var map = scene.localToClip
        map.0.w = 1e-4
        return DrawItem(instance: LayerInstance(localToClip: map, quad: SIMD4(0, 0, 8, 8), color: .zero, shape: SIMD4(0, 0, 8, 8),
                                                shapeRadii: SIMD4(repeating: 2)))
    }

    func render(_ items: [DrawItem], expectedCoverage: Material.Coverage) throws -> CGImage {
        let graph = scene.graph(items)
        let batches = graph.passes[0].drawPlan.batches
        XCTAssertEqual(batches.count, 1)
        XCTAssertEqual(batches.first?.material.coverage, expectedCoverage)
        let renderer = try makeRenderer(width: scene.width, height: scene.height)
        try renderer.render(graph)
        return try renderer.readback()
    }

    func testAffineCoverageDrawsWhatTheDerivativeCoverageDraws() throws {
        let rotation = 0.3
        let rotate = Linear(x: SIMD2(cos(rotation), sin(rotation)), y: SIMD2(-sin(rotation), cos(rotation)))
        // (name, linear part, translation, whether it is a similarity)
        let maps: [(String, Linear, SIMD2<Double>, Bool)] = [
            ("translated", Linear(x: SIMD2(1, 0), y: SIMD2(0, 1)), SIMD2(3.37, 5.81), true),
            ("rotated", rotate, SIMD2(24, 2), true),
            ("mirrored, scaled 1.3", Linear(x: SIMD2(-1.3, 0), y: SIMD2(0, 1.3)), SIMD2(50.5, 3.21), true),
            ("scaled 2 by 0.75, then rotated", rotate.after(Linear(x: SIMD2(2, 0), y: SIMD2(0, 0.75))), SIMD2(14, 6), false),
            ("sheared", Linear(x: SIMD2(1.2, 0.35), y: SIMD2(-0.5, 0.9)), SIMD2(20, 4.5), false),
            ("mirrored, sheared", Linear(x: SIMD2(-1.1, 0), y: SIMD2(0.2, 1.3)), SIMD2(50.5, 3), false),
        ]
        let rect = SIMD4<Float>(0, 0, 26, 40)
        let radii = SIMD4<Float>(10, 0, 5, 2.5)  // top-left, top-right, bottom-right, bottom-left
        for (name, linear, translation, similar) in maps {
            for flags: LayerInstance.Flags in [[.antialiasEdges], []] {
                let shaped = item(rect, radii: radii, linear: linear, translation: translation, flags: flags)
                let affine = try render([shaped], expectedCoverage: .affineShape)
                let derivative = try render([shaped, projectiveNothing], expectedCoverage: .shape)
                if similar {
                    let flagged = item(rect, radii: radii, linear: linear, translation: translation, flags: flags.union(.similarityMap))
                    let similarity = try render([flagged], expectedCoverage: .similarShape)
                    assertPixels(similarity, tolerance: 1, "similar-coverage-\(name.prefix(7))") { x, y in derivative.rgba(x, y) }
                }
                let label = "\(name)\(flags.isEmpty ? ", hard edges" : ", antialiased")"
                var drawn = 0
                for y in 0..<scene.height {
                    for x in 0..<scene.width where derivative.rgba(x, y).a > 0 { drawn += 1 }
                }
                XCTAssertGreaterThan(drawn, 300, "\(label): the rect is on the target")
                assertPixels(affine, tolerance: 1, "affine-coverage-\(name.prefix(7))") { x, y in derivative.rgba(x, y) }
            }
        }
    }

    /// A hard-cornered antialiased rect stretched 4× along x, its pixel rect x ∈ [10.2, 42.2], y ∈ [10.3,
    /// 18.3]: a pixel's coverage is clamp(0.5 − max(ex, ey), 0, 1), ex and ey its centre's signed
    /// distances in pixels to the nearer vertical and horizontal edges. Just past the bottom-right corner,
    /// at (42.5, 18.5), that is 0.5 − max(0.3, 0.2) = 0.2; comparing the edges in layer units (0.075 against
    /// 0.2) picks the horizontal one and gives 0.3. Both coverages, affine and derivative, must agree.
    func testUnderANonUniformScaleEachPixelTakesTheEdgeNearerOnScreen() throws {
        let linear = Linear(x: SIMD2(4, 0), y: SIMD2(0, 1))
        let shaped = item(SIMD4(0, 0, 8, 8), radii: .zero, linear: linear, translation: SIMD2(10.2, 10.3), flags: [.antialiasEdges])
        let expected = { (x: Int, y: Int) -> RGBA8 in
            let ex = abs(Double(x) + 0.5 - 26.2) - 16, ey = abs(Double(y) + 0.5 - 14.3) - 4
            let coverage = Float(min(max(0.5 - max(ex, ey), 0), 1))
            return RGBA8(SIMD4(repeating: coverage))
        }
        XCTAssertEqual(expected(42, 18), RGBA8(51, 51, 51, 51))
        let affine = try render([shaped], expectedCoverage: .affineShape)
        assertPixels(affine, tolerance: 1, "affine-nonuniform-corner", expected: expected)
        let derivative = try render([shaped, projectiveNothing], expectedCoverage: .shape)
        assertPixels(derivative, tolerance: 1, "derivative-nonuniform-corner", expected: expected)
    }

    func testAnEmptyShapeCoversNothing() throws {
        let empty = item(SIMD4(10, 10, 10, 30), radii: SIMD4(repeating: 3), linear: Linear(x: SIMD2(1, 0), y: SIMD2(0, 1)),
                         translation: .zero, flags: [.antialiasEdges])
        let image = try render([empty], expectedCoverage: .affineShape)
        assertPixels(image, "affine-empty-shape") { _, _ in .clear }
    }

    /// translucent's layer (64×64, radius 12, antialiased, alpha 0.5) at a fractional x, over an opaque
    /// grey: a pixel blends once with the layer's colour times clamp(0.5 − d, 0, 1), d the signed distance
    /// of its centre in pixels. Inside (d ≤ −0.5) that is exactly the blend of a plain square of the same
    /// colour, drawn beside it; outside (d ≥ 0.5) exactly the grey.
    func testTranslucentRoundedRectBlendsOnceInsideAndByAnalyticCoverageAtItsEdges() throws {
        let scene = PixelScene(width: 96, height: 96)
        let grey = SIMD4<Float>(0.2, 0.2, 0.2, 1)
        let green = SIMD4<Float>(0, 0.5, 0, 0.5)
        let rect = SIMD4<Float>(4.37, 3, 68.37, 67), radius: Float = 12
        var rounded = scene.item(rect, color: green, radii: SIMD4(repeating: radius), flags: [.antialiasEdges, .similarityMap])
        rounded.instance.quad = rect + SIMD4(-0.5, -0.5, 0.5, 0.5)
        let square = scene.item(SIMD4(80, 80, 96, 96), color: green)
        let graph = scene.graph(clear: grey, [rounded, square])
        XCTAssertEqual(graph.passes[0].drawPlan.batches.first?.material.coverage, .similarShape)
        let renderer = try makeRenderer(width: scene.width, height: scene.height)
        try renderer.render(graph)
        let image = try renderer.readback()
        let once = image.rgba(88, 88), background = image.rgba(0, 90)
        XCTAssertEqual(background, RGBA8(51, 51, 51, 255))
        XCTAssertTrue(once.isClose(to: RGBA8(26, 153, 26, 255), tolerance: 1), "\(once)")

        func signedDistance(_ px: Float, _ py: Float) -> Float {
            let center = SIMD2<Float>((rect.x + rect.z) / 2, (rect.y + rect.w) / 2)
            let half = SIMD2<Float>((rect.z - rect.x) / 2, (rect.w - rect.y) / 2)
            let q = SIMD2<Float>(px, py) - center
            let d = SIMD2<Float>(abs(q.x), abs(q.y)) - half + radius
            let outside = SIMD2<Float>(max(d.x, 0), max(d.y, 0))
            return (outside * outside).sum().squareRoot() + min(max(d.x, d.y), 0) - radius
        }
        var inside = 0
        assertPixels(image, tolerance: 1, "translucent-rounded-rect") { x, y in
            if x >= 80 && y >= 80 { return once }
            let d = signedDistance(Float(x) + 0.5, Float(y) + 0.5)
            if d <= -0.5 { inside += 1; return once }
            if d >= 0.5 { return background }
            let coverage = min(max(0.5 - d, 0), 1)
            let source = green * coverage
            let blended = source + grey * (1 - source.w)
            return RGBA8(SIMD4(blended))
        }
        XCTAssertGreaterThan(inside, 3500)
        // Inside, not within one level: exactly the single blend (a double hit or a seam would differ).
        for y in 0..<80 {
            for x in 0..<80 where signedDistance(Float(x) + 0.5, Float(y) + 0.5) <= -0.5 {
                if image.rgba(x, y) != once { XCTFail("(\(x), \(y)): \(image.rgba(x, y)), not the single blend \(once)"); return }
            }
        }
    }
}
