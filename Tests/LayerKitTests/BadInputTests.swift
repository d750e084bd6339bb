import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKit

/// NaN and ±infinity on geometric properties are refused with a `nonFiniteGeometry` diagnostic that names
/// the layer and the property (or key path) as it was set, and the previous value stays.
final class BadInputTests: XCTestCase {
    /// A named layer with non-default geometry, so "kept the previous value" cannot pass by accident.
    private func makeLayer() -> CALayer {
        let layer = CALayer()
        layer.name = "victim"
        layer.bounds = CGRect(x: 1, y: 2, width: 30, height: 40)
        layer.position = CGPoint(x: 5, y: 6)
        layer.zPosition = 7
        layer.anchorPoint = CGPoint(x: 0.25, y: 0.75)
        layer.cornerRadius = 8
        layer.transform = CATransform3DMakeScale(2, 3, 1)
        return layer
    }

    private func refusal(_ keyPath: String) -> [LayerKitDiagnostic] {
        [.nonFiniteGeometry(layer: "'victim'", keyPath: keyPath)]
    }

    // MARK: - Properties

    func testNaNPositionIsRefused() {
        let layer = makeLayer()
        let capture = DiagnosticCapture()
        layer.position = CGPoint(x: CGFloat.nan, y: 0)
        XCTAssertEqual(capture.diagnostics, refusal("position"))
        XCTAssertEqual(layer.position, CGPoint(x: 5, y: 6))
    }

    func testInfinitePositionIsRefused() {
        let layer = makeLayer()
        let capture = DiagnosticCapture()
        layer.position = CGPoint(x: 0, y: -CGFloat.infinity)
        XCTAssertEqual(capture.diagnostics, refusal("position"))
        XCTAssertEqual(layer.position, CGPoint(x: 5, y: 6))
    }

    func testNaNBoundsSizeIsRefused() {
        let layer = makeLayer()
        let capture = DiagnosticCapture()
        layer.bounds = CGRect(x: 0, y: 0, width: CGFloat.nan, height: 10)
        XCTAssertEqual(capture.diagnostics, refusal("bounds"))
        XCTAssertEqual(layer.bounds, CGRect(x: 1, y: 2, width: 30, height: 40))
    }

    func testInfiniteBoundsOriginIsRefused() {
        let layer = makeLayer()
        let capture = DiagnosticCapture()
        layer.bounds = CGRect(x: CGFloat.infinity, y: 0, width: 10, height: 10)
        XCTAssertEqual(capture.diagnostics, refusal("bounds"))
        XCTAssertEqual(layer.bounds, CGRect(x: 1, y: 2, width: 30, height: 40))
    }

    func testInfiniteFrameIsRefusedAndMovesNothing() {
        let layer = makeLayer()
        let before = layer.frame
        let capture = DiagnosticCapture()
        layer.frame = CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 10)
        XCTAssertEqual(capture.diagnostics, refusal("frame"))
        XCTAssertEqual(layer.bounds, CGRect(x: 1, y: 2, width: 30, height: 40))
        XCTAssertEqual(layer.position, CGPoint(x: 5, y: 6))
        XCTAssertEqual(layer.frame, before)
    }

    func testNaNFrameOriginIsRefused() {
        let layer = makeLayer()
        let capture = DiagnosticCapture()
        layer.frame = CGRect(x: CGFloat.nan, y: CGFloat.nan, width: 10, height: 10)
        XCTAssertEqual(capture.diagnostics, refusal("frame"))
        XCTAssertEqual(layer.position, CGPoint(x: 5, y: 6))
    }

    func testNaNZPositionIsRefused() {
        let layer = makeLayer()
        let capture = DiagnosticCapture()
        layer.zPosition = .nan
        XCTAssertEqual(capture.diagnostics, refusal("zPosition"))
        XCTAssertEqual(layer.zPosition, 7)
    }

    func testInfiniteZPositionIsRefused() {
        let layer = makeLayer()
        let capture = DiagnosticCapture()
        layer.zPosition = .infinity
        XCTAssertEqual(capture.diagnostics, refusal("zPosition"))
        XCTAssertEqual(layer.zPosition, 7)
    }

    func testTransformWithANaNEntryIsRefused() {
        let layer = makeLayer()
        let capture = DiagnosticCapture()
        var t = CATransform3DIdentity
        t.m34 = .nan
        layer.transform = t
        XCTAssertEqual(capture.diagnostics, refusal("transform"))
        XCTAssertEqual(layer.transform, CATransform3DMakeScale(2, 3, 1))
    }

    func testTransformWithAnInfiniteTranslationIsRefused() {
        let layer = makeLayer()
        let capture = DiagnosticCapture()
        layer.transform = CATransform3DMakeTranslation(CGFloat.infinity, 0, 0)
        XCTAssertEqual(capture.diagnostics, refusal("transform"))
        XCTAssertEqual(layer.transform, CATransform3DMakeScale(2, 3, 1))
    }

    func testSublayerTransformWithANaNEntryIsRefused() {
        let layer = makeLayer()
        let capture = DiagnosticCapture()
        layer.sublayerTransform = CATransform3DMakeScale(CGFloat.nan, 1, 1)
        XCTAssertEqual(capture.diagnostics, refusal("sublayerTransform"))
        XCTAssertEqual(layer.sublayerTransform, CATransform3DIdentity)
    }

    func testNaNAnchorPointIsRefused() {
        let layer = makeLayer()
        let capture = DiagnosticCapture()
        layer.anchorPoint = CGPoint(x: 0.5, y: CGFloat.nan)
        XCTAssertEqual(capture.diagnostics, refusal("anchorPoint"))
        XCTAssertEqual(layer.anchorPoint, CGPoint(x: 0.25, y: 0.75))
    }

    func testNegativeInfiniteCornerRadiusIsRefused() {
        let layer = makeLayer()
        let capture = DiagnosticCapture()
        layer.cornerRadius = -.infinity
        XCTAssertEqual(capture.diagnostics, refusal("cornerRadius"))
        XCTAssertEqual(layer.cornerRadius, 8)
    }

    func testNaNOpacityIsRefused() {
        let layer = makeLayer()
        layer.opacity = 0.5
        let capture = DiagnosticCapture()
        layer.opacity = .nan
        XCTAssertEqual(capture.diagnostics, refusal("opacity"))
        XCTAssertEqual(layer.opacity, 0.5)
    }

    // MARK: - Key-value coding

    func testNaNPositionXKeyPathIsRefusedNamingTheKeyPath() {
        let layer = makeLayer()
        let capture = DiagnosticCapture()
        layer.setValue(CGFloat.nan, forKeyPath: "position.x")
        XCTAssertEqual(capture.diagnostics, refusal("position.x"))
        XCTAssertEqual(layer.position, CGPoint(x: 5, y: 6))
    }

    func testNaNDoubleOnPositionXKeyPathIsRefusedNamingTheKeyPath() {
        // The same refusal whatever numeric type carries the NaN.
        let layer = makeLayer()
        let capture = DiagnosticCapture()
        layer.setValue(Double.nan, forKeyPath: "position.x")
        XCTAssertEqual(capture.diagnostics, refusal("position.x"))
        XCTAssertEqual(layer.position, CGPoint(x: 5, y: 6))
    }

    func testInfiniteTransformRotationKeyPathIsRefused() {
        let layer = makeLayer()
        let capture = DiagnosticCapture()
        layer.setValue(CGFloat.infinity, forKeyPath: "transform.rotation.z")
        XCTAssertEqual(capture.diagnostics, refusal("transform.rotation.z"))
        XCTAssertEqual(layer.transform, CATransform3DMakeScale(2, 3, 1))
    }

    func testNaNWholeValueByKeyIsRefusedNamingTheKey() {
        let layer = makeLayer()
        let capture = DiagnosticCapture()
        layer.setValue(CGPoint(x: CGFloat.nan, y: 1), forKey: "position")
        layer.setValue(CGFloat.nan, forKey: "zPosition")
        XCTAssertEqual(capture.diagnostics, refusal("position") + refusal("zPosition"))
        XCTAssertEqual(layer.position, CGPoint(x: 5, y: 6))
        XCTAssertEqual(layer.zPosition, 7)
    }

    func testNaNOnACustomGeometryKeyIsRefused() {
        let layer = makeLayer()
        layer.setValue(CGFloat(1), forKey: "progress")
        let capture = DiagnosticCapture()
        layer.setValue(CGFloat.nan, forKey: "progress")
        XCTAssertEqual(capture.diagnostics, refusal("progress"))
        XCTAssertEqual(layer.value(forKey: "progress") as? CGFloat, 1)
    }

    // MARK: - Finite extremes are accepted

    func testLargeFiniteValuesAreAccepted() {
        let layer = makeLayer()
        let capture = DiagnosticCapture()
        layer.position = CGPoint(x: CGFloat.greatestFiniteMagnitude, y: -1e300)
        layer.cornerRadius = -5
        XCTAssertEqual(capture.diagnostics, [])
        XCTAssertEqual(layer.position, CGPoint(x: CGFloat.greatestFiniteMagnitude, y: -1e300))
        XCTAssertEqual(layer.cornerRadius, -5)
    }
}

/// Properties stored but not drawn say so (the project's rule: nothing exists only in name).
final class PropertyNotDrawnTests: XCTestCase {
    func testDepthPropertiesOfEmittersAreDrawnAndSayNothing() {
        let capture = DiagnosticCapture()
        let emitter = CAEmitterLayer()
        emitter.preservesDepth = true
        emitter.emitterZPosition = 10
        emitter.emitterDepth = 5
        CAReplicatorLayer().preservesDepth = true
        XCTAssertEqual(capture.names, [], "drawn (EmitterRenderTests): no diagnostic")
        XCTAssertTrue(emitter.preservesDepth)
        XCTAssertEqual(emitter.emitterDepth, 5)
    }
}
