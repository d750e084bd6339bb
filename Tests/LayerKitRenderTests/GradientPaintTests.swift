import LayerKit
@testable import LayerKitRender
import XCTest

/// How a gradient layer's committed properties become the paint the shader reads: geometry in layer
/// space, premultiplied stops, the locations rules, and when the item counts as opaque.
final class GradientPaintTests: XCTestCase {
    /// A node as a gradient layer's commit leaves it: bounds and every declared property.
    func makeNode(bounds: CGRect = CGRect(x: 10, y: 20, width: 100, height: 50), type: String = "axial",
                  colors: [SIMD4<Double>], locations: [Double]? = nil,
                  start: CGPoint = CGPoint(x: 0.5, y: 0), end: CGPoint = CGPoint(x: 0.5, y: 1)) -> RenderNode {
        let node = RenderNode(id: LayerID.next())
        node.bounds = bounds
        node.customProperties[LayerRenderKind.propertyKey] = AnimatableValue.discrete(DiscreteValue("gradient"))
        node.customProperties["type"] = AnimatableValue.discrete(DiscreteValue(type))
        node.customProperties["colors"] = AnimatableValue.colors(colors)
        node.customProperties["locations"] = locations.map(AnimatableValue.numbers)
        node.customProperties["startPoint"] = AnimatableValue.point(start)
        node.customProperties["endPoint"] = AnimatableValue.point(end)
        return node
    }

    func testAxialGeometryIsTheUnitPointsMappedToTheBounds() throws {
        let paint = try XCTUnwrap(GradientPaint(of: makeNode(colors: [SIMD4(1, 0, 0, 1), SIMD4(0, 0, 1, 1)],
                                                             start: CGPoint(x: 0.25, y: 0), end: CGPoint(x: 1, y: 0.5))))
        XCTAssertEqual(paint.kind, .axial)
        // x: 10 + 0.25 · 100, y: 20 + 0 · 50; x: 10 + 100, y: 20 + 0.5 · 50.
        XCTAssertEqual(paint.start, SIMD2(35, 20))
        XCTAssertEqual(paint.end, SIMD2(110, 45))
        XCTAssertEqual(paint.locations, [0, 1])
    }

    func testRadialEndIsTheEllipsesRadii() throws {
        let paint = try XCTUnwrap(GradientPaint(of: makeNode(type: "radial", colors: [SIMD4(1, 1, 1, 1), SIMD4(0, 0, 0, 1)],
                                                             start: CGPoint(x: 0.5, y: 0.5), end: CGPoint(x: 0.1, y: 1))))
        XCTAssertEqual(paint.kind, .radial)
        XCTAssertEqual(paint.start, SIMD2(60, 45))
        // |0.1 − 0.5| · 100 and |1 − 0.5| · 50.
        XCTAssertEqual(paint.end.x, 40, accuracy: 1e-4)
        XCTAssertEqual(paint.end.y, 25, accuracy: 1e-4)
    }

    func testStopsArePremultipliedAndPackedColorsThenLocations() throws {
        let paint = try XCTUnwrap(GradientPaint(of: makeNode(colors: [SIMD4(1, 0.5, 0, 0.5), SIMD4(0, 0, 1, 1), SIMD4(0, 1, 0, 0.25)])))
        XCTAssertEqual(paint.colors, [SIMD4(0.5, 0.25, 0, 0.5), SIMD4(0, 0, 1, 1), SIMD4(0, 0.25, 0, 0.25)])
        XCTAssertEqual(paint.locations, [0, 0.5, 1], "nil locations: evenly spaced")
        XCTAssertEqual(paint.stopWordCount, 4)
        XCTAssertEqual(paint.stopWords, paint.colors + [SIMD4(0, 0.5, 1, 0)])
    }

    func testLocationsOfAnotherCountAreIgnoredAndOutOfOrderOnesRun() throws {
        let colors: [SIMD4<Double>] = [SIMD4(1, 0, 0, 1), SIMD4(0, 1, 0, 1), SIMD4(0, 0, 1, 1)]
        XCTAssertEqual(GradientPaint(of: makeNode(colors: colors, locations: [0.2, 0.4]))?.locations, [0, 0.5, 1])
        XCTAssertEqual(GradientPaint(of: makeNode(colors: colors, locations: [0.2, 0.1, 0.9]))?.locations, [0.2, 0.2, 0.9])
    }

    func testNoColorsOrNoSizeOrAnotherLayerIsNoGradient() {
        XCTAssertNil(GradientPaint(of: makeNode(colors: [])))
        XCTAssertNil(GradientPaint(of: makeNode(bounds: CGRect(x: 0, y: 0, width: 0, height: 10), colors: [SIMD4(1, 1, 1, 1)])))
        let plain = RenderNode(id: LayerID.next())
        plain.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        XCTAssertNil(GradientPaint(of: plain))
    }

    func testAGradientOccludesOnlyWhenEveryStopIsOpaque() throws {
        func item(_ colors: [SIMD4<Double>]) throws -> DrawItem {
            let paint = try XCTUnwrap(GradientPaint(of: makeNode(colors: colors)))
            var instance = LayerInstance(localToClip: (SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1)),
                                         quad: SIMD4(0, 0, 10, 10), color: SIMD4(repeating: 1), shape: SIMD4(0, 0, 10, 10))
            paint.configure(&instance)
            return DrawItem(instance: instance, gradient: paint)
        }
        XCTAssertTrue(OcclusionCuller.isOpaque(try item([SIMD4(1, 0, 0, 1), SIMD4(0, 0, 1, 1)])))
        XCTAssertFalse(OcclusionCuller.isOpaque(try item([SIMD4(1, 0, 0, 1), SIMD4(0, 0, 1, 0.99)])))
    }
}
