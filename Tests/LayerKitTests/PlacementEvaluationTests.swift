import Foundation
import XCTest
@testable import LayerKit

/// Animations evaluated into a layer's placement alone (`LayerPlacementProperties`, as the render thread
/// evaluates leaves that only move), which writes a value that does not depend on the one beneath it
/// without reading that first (`writesIndependentValuesUnread`): the same values as the general
/// evaluation over the layer's model values, and as worked out by hand.
final class PlacementEvaluationTests: XCTestCase {
    private let begin = 1000.0

    /// A layer turned 0.3 rad and doubled in size (a transform whose rotation must be decomposed), at
    /// (40, 50) with opacity 0.8.
    private func makeLayer() -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.position = CGPoint(x: 40, y: 50)
        layer.opacity = 0.8
        layer.transform = CATransform3DRotate(CATransform3DMakeScale(2, 2, 1), 0.3, 0, 0, 1)
        return layer
    }

    private func placement(of layer: CALayer) -> LayerPlacementProperties {
        var placement = LayerPlacementProperties()
        placement.position = layer.position
        placement.opacity = CGFloat(layer.opacity)
        placement.transform = layer.transform
        return placement
    }

    /// `records` at layer time `time` into the placement of `layer`, and through the general store.
    private func evaluate(_ records: [AnimationRecord], on layer: CALayer, at time: Double)
        -> (placement: LayerPlacementProperties, general: AnimationTestStore) {
        var placement = placement(of: layer)
        let packed = PackedAnimations(records)
        var report = AnimationEvaluator.Report()
        packed.entries.withUnsafeBufferPointer {
            AnimationEvaluator.apply($0, layerTime: time, toPlacement: &placement, awaitingStart: nil, reportingTo: &report)
        }
        return (placement, AnimationTestKit.evaluate(records, on: layer, at: time))
    }

    private func assertSameTransform(_ a: CATransform3D, _ b: CATransform3D, file: StaticString = #filePath, line: UInt = #line) {
        let (x, y) = (a.entries, b.entries)
        for index in x.indices { XCTAssertEqual(x[index], y[index], "entry \(index)", file: file, line: line) }
    }

    func testValuesIndependentOfTheBaseMatchTheGeneralEvaluationAndTheHandWorkedOnes() throws {
        let layer = makeLayer()
        layer.add(AnimationTestKit.basic("position.y", from: 10, by: 20, begin: begin), forKey: "move")
        layer.add(AnimationTestKit.basic("opacity", to: 0.3, by: 0.5, begin: begin), forKey: "fade")
        layer.add(AnimationTestKit.basic("transform.rotation.z", from: 0, to: Double.pi, begin: begin), forKey: "spin")
        let records = AnimationTestKit.commit(layer)
        // A quarter of the way (0.5 s of 2 s, linear).
        let (placement, general) = evaluate(records, on: layer, at: begin + 0.5)
        XCTAssertEqual(placement.position.y, 15)                          // 10 + 20 · 0.25
        XCTAssertEqual(placement.position.x, 40)                          // untouched
        XCTAssertEqual(Double(placement.opacity), -0.2 + 0.5 * 0.25, accuracy: 1e-12)  // from 0.3 − 0.5 to 0.3
        XCTAssertEqual(placement.position, general.value("position") as? CGPoint)
        XCTAssertEqual(Double(placement.opacity), try XCTUnwrap(general.number("opacity")), accuracy: 1e-7)  // the model's Float
        // The turn replaces the 0.3 rad of the model's transform with π/4 and keeps its scale of 2.
        let expected = CATransform3DRotate(CATransform3DMakeScale(2, 2, 1), .pi / 4, 0, 0, 1)
        for (got, want) in zip(placement.transform.entries, expected.entries) { XCTAssertEqual(got, want, accuracy: 1e-12) }
        assertSameTransform(placement.transform, try XCTUnwrap(general.value("transform") as? CATransform3D))
    }

    func testValuesOverTheBaseStillReadIt() throws {
        let layer = makeLayer()
        layer.add(AnimationTestKit.basic("opacity", to: 0.2, begin: begin), forKey: "fade")  // from the model's 0.8
        let spin = AnimationTestKit.basic("transform.rotation.z", by: 1, begin: begin)
        spin.isAdditive = true
        layer.add(spin, forKey: "spin")
        let records = AnimationTestKit.commit(layer)
        let (placement, general) = evaluate(records, on: layer, at: begin + 1)  // half way
        XCTAssertEqual(Double(placement.opacity), 0.8 + (0.2 - 0.8) * 0.5, accuracy: 1e-6)
        XCTAssertEqual(Double(placement.opacity), try XCTUnwrap(general.number("opacity")), accuracy: 1e-7)  // the model's Float
        // Additive: 0.3 rad beneath, plus half of the 1 rad turn.
        let expected = CATransform3DRotate(CATransform3DMakeScale(2, 2, 1), 0.8, 0, 0, 1)
        for (got, want) in zip(placement.transform.entries, expected.entries) { XCTAssertEqual(got, want, accuracy: 1e-9) }
        assertSameTransform(placement.transform, try XCTUnwrap(general.value("transform") as? CATransform3D))
    }
}

private extension CATransform3D {
    var entries: [CGFloat] { [m11, m12, m13, m14, m21, m22, m23, m24, m31, m32, m33, m34, m41, m42, m43, m44] }
}
