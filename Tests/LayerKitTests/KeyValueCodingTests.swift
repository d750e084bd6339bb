import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKit

/// `value(forKeyPath:)` / `setValue(_:forKeyPath:)` with Core Animation's key paths: components of points,
/// sizes and rectangles, the `transform.*` pseudo-properties, numbers of any Swift type, the `hidden` /
/// `isHidden` spellings, refusals, and keys a subclass declares.
final class KeyValueCodingTests: XCTestCase {
    // MARK: - Points, sizes, rectangles

    func testPositionXSetsXAndLeavesY() {
        let layer = CALayer()
        layer.position = CGPoint(x: 1, y: 2)
        layer.setValue(CGFloat(10), forKeyPath: "position.x")
        XCTAssertEqual(layer.position, CGPoint(x: 10, y: 2))
        XCTAssertEqual(layer.value(forKeyPath: "position.x") as? CGFloat, 10)
    }

    func testPositionYSetsYAndLeavesX() {
        let layer = CALayer()
        layer.position = CGPoint(x: 1, y: 2)
        layer.setValue(CGFloat(-4.5), forKeyPath: "position.y")
        XCTAssertEqual(layer.position, CGPoint(x: 1, y: -4.5))
        XCTAssertEqual(layer.value(forKeyPath: "position.y") as? CGFloat, -4.5)
    }

    func testBoundsSizeWidthSetsOnlyTheWidth() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 1, y: 2, width: 3, height: 4)
        layer.setValue(CGFloat(40), forKeyPath: "bounds.size.width")
        XCTAssertEqual(layer.bounds, CGRect(x: 1, y: 2, width: 40, height: 4))
        XCTAssertEqual(layer.value(forKeyPath: "bounds.size.width") as? CGFloat, 40)
        XCTAssertEqual(layer.value(forKeyPath: "bounds.size") as? CGSize, CGSize(width: 40, height: 4))
    }

    func testBoundsOriginSetsTheWholeOrigin() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 1, y: 2, width: 3, height: 4)
        layer.setValue(CGPoint(x: 5, y: 6), forKeyPath: "bounds.origin")
        XCTAssertEqual(layer.bounds, CGRect(x: 5, y: 6, width: 3, height: 4))
        XCTAssertEqual(layer.value(forKeyPath: "bounds.origin") as? CGPoint, CGPoint(x: 5, y: 6))
        XCTAssertEqual(layer.value(forKeyPath: "bounds.origin.y") as? CGFloat, 6)
    }

    func testAnchorPointXSetsOnlyX() {
        let layer = CALayer()
        layer.setValue(CGFloat(0), forKeyPath: "anchorPoint.x")
        XCTAssertEqual(layer.anchorPoint, CGPoint(x: 0, y: 0.5))
        XCTAssertEqual(layer.value(forKeyPath: "anchorPoint.y") as? CGFloat, 0.5)
    }

    func testShadowOffsetHeightReadsTheDefaultAndSetsOnlyTheHeight() {
        let layer = CALayer()
        XCTAssertEqual(layer.value(forKeyPath: "shadowOffset.height") as? CGFloat, -3)
        layer.setValue(CGFloat(5), forKeyPath: "shadowOffset.height")
        XCTAssertEqual(layer.shadowOffset, CGSize(width: 0, height: 5))
    }

    func testContentsRectOriginXSetsOnlyOriginX() {
        let layer = CALayer()
        layer.setValue(CGFloat(0.25), forKeyPath: "contentsRect.origin.x")
        XCTAssertEqual(layer.contentsRect, CGRect(x: 0.25, y: 0, width: 1, height: 1))
        XCTAssertEqual(layer.value(forKeyPath: "contentsRect.origin.x") as? CGFloat, 0.25)
    }

    func testComponentsAcceptDoubleIntAndNSNumber() {
        let layer = CALayer()
        layer.setValue(12.5, forKeyPath: "position.x")
        layer.setValue(7, forKeyPath: "position.y")
        XCTAssertEqual(layer.position, CGPoint(x: 12.5, y: 7))
        layer.setValue(NSNumber(value: 3.25), forKeyPath: "bounds.size.height")
        XCTAssertEqual(layer.bounds.height, 3.25)
    }

    // MARK: - Transform pseudo-properties

    func testRotationZSetsACosineSineMatrixAndReadsBack() {
        let layer = CALayer()
        layer.setValue(CGFloat.pi / 3, forKeyPath: "transform.rotation.z")
        let t = layer.transform
        // cos 60° = 0.5, sin 60° = √3/2; row vectors: (1, 0) ↦ (cos, sin), (0, 1) ↦ (−sin, cos).
        let s = 3.0.squareRoot() / 2
        XCTAssertEqual(t.m11, 0.5, accuracy: 1e-12)
        XCTAssertEqual(t.m12, s, accuracy: 1e-12)
        XCTAssertEqual(t.m21, -s, accuracy: 1e-12)
        XCTAssertEqual(t.m22, 0.5, accuracy: 1e-12)
        XCTAssertEqual(t.m33, 1, accuracy: 1e-12)
        XCTAssertEqual(t.m44, 1, accuracy: 1e-12)
        for entry in [t.m13, t.m14, t.m23, t.m24, t.m31, t.m32, t.m34, t.m41, t.m42, t.m43] {
            XCTAssertEqual(entry, 0, accuracy: 1e-12)
        }
        XCTAssertEqual(layer.value(forKeyPath: "transform.rotation.z") as? CGFloat ?? .nan, .pi / 3, accuracy: 1e-12)
        XCTAssertEqual(layer.value(forKeyPath: "transform.rotation") as? CGFloat ?? .nan, .pi / 3, accuracy: 1e-12)
    }

    func testRotationZKeepsScaleAndTranslation() {
        let layer = CALayer()
        var t = CATransform3DMakeScale(2, 2, 1)
        t.m41 = 10; t.m42 = 20
        layer.transform = t
        layer.setValue(CGFloat.pi / 2, forKeyPath: "transform.rotation.z")
        // Scale 2 then a quarter turn: m11 = 2cos90° = 0, m12 = 2sin90° = 2, m21 = −2, m22 = 0; the
        // translation row is untouched.
        let r = layer.transform
        XCTAssertEqual(r.m11, 0, accuracy: 1e-12)
        XCTAssertEqual(r.m12, 2, accuracy: 1e-12)
        XCTAssertEqual(r.m21, -2, accuracy: 1e-12)
        XCTAssertEqual(r.m22, 0, accuracy: 1e-12)
        XCTAssertEqual(r.m41, 10, accuracy: 1e-12)
        XCTAssertEqual(r.m42, 20, accuracy: 1e-12)
    }

    func testRotationZReadsTheAngleOfAMadeRotation() {
        let layer = CALayer()
        layer.transform = CATransform3DMakeRotation(-0.7, 0, 0, 1)
        XCTAssertEqual(layer.value(forKeyPath: "transform.rotation.z") as? CGFloat ?? .nan, -0.7, accuracy: 1e-12)
        XCTAssertEqual(layer.value(forKeyPath: "transform.rotation.x") as? CGFloat ?? .nan, 0, accuracy: 1e-12)
    }

    func testScaleSetsAllThreeAxes() {
        let layer = CALayer()
        layer.setValue(2, forKeyPath: "transform.scale")
        let t = layer.transform
        XCTAssertEqual(t.m11, 2, accuracy: 1e-12)
        XCTAssertEqual(t.m22, 2, accuracy: 1e-12)
        XCTAssertEqual(t.m33, 2, accuracy: 1e-12)
        XCTAssertEqual(layer.value(forKeyPath: "transform.scale") as? CGFloat ?? .nan, 2, accuracy: 1e-12)
    }

    func testScaleReadsTheMeanOfTheThreeAxes() {
        let layer = CALayer()
        layer.transform = CATransform3DMakeScale(1, 2, 6)
        XCTAssertEqual(layer.value(forKeyPath: "transform.scale") as? CGFloat ?? .nan, 3, accuracy: 1e-12)
    }

    func testScaleXSetsOnlyX() {
        let layer = CALayer()
        layer.setValue(3, forKeyPath: "transform.scale.x")
        let t = layer.transform
        XCTAssertEqual(t.m11, 3, accuracy: 1e-12)
        XCTAssertEqual(t.m22, 1, accuracy: 1e-12)
        XCTAssertEqual(t.m33, 1, accuracy: 1e-12)
        XCTAssertEqual(layer.value(forKeyPath: "transform.scale.x") as? CGFloat ?? .nan, 3, accuracy: 1e-12)
        XCTAssertEqual(layer.value(forKeyPath: "transform.scale.y") as? CGFloat ?? .nan, 1, accuracy: 1e-12)
    }

    func testTranslationXSetsM41() {
        let layer = CALayer()
        layer.setValue(10, forKeyPath: "transform.translation.x")
        let t = layer.transform
        XCTAssertEqual(t.m41, 10, accuracy: 1e-12)
        XCTAssertEqual(t.m42, 0, accuracy: 1e-12)
        XCTAssertEqual(t.m11, 1, accuracy: 1e-12)
        XCTAssertEqual(layer.value(forKeyPath: "transform.translation.x") as? CGFloat ?? .nan, 10, accuracy: 1e-12)
    }

    func testTranslationTakesASizeOfXAndY() {
        let layer = CALayer()
        layer.setValue(CGSize(width: 7, height: 8), forKeyPath: "transform.translation")
        let t = layer.transform
        XCTAssertEqual(t.m41, 7, accuracy: 1e-12)
        XCTAssertEqual(t.m42, 8, accuracy: 1e-12)
        XCTAssertEqual(t.m43, 0, accuracy: 1e-12)
        let read = layer.value(forKeyPath: "transform.translation") as? CGSize
        XCTAssertEqual(read?.width ?? .nan, 7, accuracy: 1e-12)
        XCTAssertEqual(read?.height ?? .nan, 8, accuracy: 1e-12)
    }

    func testTranslationKeepsRotation() {
        let layer = CALayer()
        layer.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        layer.setValue(5, forKeyPath: "transform.translation.y")
        let t = layer.transform
        XCTAssertEqual(t.m12, 1, accuracy: 1e-12)
        XCTAssertEqual(t.m21, -1, accuracy: 1e-12)
        XCTAssertEqual(t.m42, 5, accuracy: 1e-12)
    }

    func testSublayerTransformRotationZSetsTheSublayerTransformOnly() {
        let layer = CALayer()
        layer.setValue(CGFloat.pi / 2, forKeyPath: "sublayerTransform.rotation.z")
        let t = layer.sublayerTransform
        XCTAssertEqual(t.m11, 0, accuracy: 1e-12)
        XCTAssertEqual(t.m12, 1, accuracy: 1e-12)
        XCTAssertEqual(t.m21, -1, accuracy: 1e-12)
        XCTAssertEqual(t.m22, 0, accuracy: 1e-12)
        XCTAssertEqual(layer.transform, CATransform3DIdentity)
        XCTAssertEqual(layer.value(forKeyPath: "sublayerTransform.rotation.z") as? CGFloat ?? .nan, .pi / 2, accuracy: 1e-12)
    }

    // MARK: - Scalars and flags

    func testOpacityAcceptsDoubleCGFloatAndNSNumberAsFloat() {
        let layer = CALayer()
        layer.setValue(0.5, forKeyPath: "opacity")
        XCTAssertEqual(layer.opacity, 0.5)
        layer.setValue(CGFloat(0.25), forKeyPath: "opacity")
        XCTAssertEqual(layer.opacity, 0.25)
        layer.setValue(NSNumber(value: 0.75), forKeyPath: "opacity")
        XCTAssertEqual(layer.opacity, 0.75)
        XCTAssertEqual(layer.value(forKeyPath: "opacity") as? Float, 0.75)
    }

    func testHiddenAndIsHiddenNameTheSameProperty() {
        let layer = CALayer()
        layer.setValue(true, forKey: "hidden")
        XCTAssertTrue(layer.isHidden)
        XCTAssertEqual(layer.value(forKey: "isHidden") as? Bool, true)
        layer.setValue(false, forKeyPath: "isHidden")
        XCTAssertFalse(layer.isHidden)
        XCTAssertEqual(layer.value(forKeyPath: "hidden") as? Bool, false)
    }

    func testWholeGeometryValuesByKey() {
        let layer = CALayer()
        layer.setValue(CGPoint(x: 3, y: 4), forKey: "position")
        layer.setValue(CGRect(x: 0, y: 0, width: 10, height: 20), forKey: "bounds")
        layer.setValue(CATransform3DMakeScale(2, 2, 1), forKey: "transform")
        XCTAssertEqual(layer.position, CGPoint(x: 3, y: 4))
        XCTAssertEqual(layer.bounds, CGRect(x: 0, y: 0, width: 10, height: 20))
        XCTAssertEqual(layer.transform, CATransform3DMakeScale(2, 2, 1))
        XCTAssertEqual(layer.frame, CGRect(x: -7, y: -16, width: 20, height: 40))
    }

    func testFrameKeyReadsAndSetsTheLayersFrame() {
        // `frame` is a CALayer property, so key-value coding reaches it as Core Animation's does.
        let layer = CALayer()
        layer.frame = CGRect(x: 10, y: 20, width: 30, height: 40)
        XCTAssertEqual(layer.value(forKey: "frame") as? CGRect, CGRect(x: 10, y: 20, width: 30, height: 40))
        layer.setValue(CGRect(x: 1, y: 2, width: 3, height: 4), forKey: "frame")
        XCTAssertEqual(layer.frame, CGRect(x: 1, y: 2, width: 3, height: 4))
    }

    // MARK: - Refusals

    func testUnknownSubPathReadsNilWithADiagnostic() {
        let layer = CALayer()
        let capture = DiagnosticCapture()
        XCTAssertNil(layer.value(forKeyPath: "position.z"))
        XCTAssertNil(layer.value(forKeyPath: "bounds.size.depth"))
        XCTAssertNil(layer.value(forKeyPath: "opacity.x"))
        XCTAssertEqual(capture.diagnostics, [.unknownKeyPath(keyPath: "position.z"),
                                             .unknownKeyPath(keyPath: "bounds.size.depth"),
                                             .unknownKeyPath(keyPath: "opacity.x")])
    }

    func testUnknownTransformComponentReadsNilWithADiagnostic() {
        let layer = CALayer()
        let capture = DiagnosticCapture()
        XCTAssertNil(layer.value(forKeyPath: "transform.rotation.w"))
        XCTAssertNil(layer.value(forKeyPath: "transform.skew"))
        XCTAssertEqual(capture.names, ["unknownKeyPath", "unknownKeyPath"])
    }

    func testSettingAnUnknownSubPathIsRefusedAndChangesNothing() {
        let layer = CALayer()
        layer.position = CGPoint(x: 1, y: 2)
        let capture = DiagnosticCapture()
        layer.setValue(CGFloat(5), forKeyPath: "position.z")
        XCTAssertEqual(capture.diagnostics, [.unknownKeyPath(keyPath: "position.z")])
        XCTAssertEqual(layer.position, CGPoint(x: 1, y: 2))
    }

    func testWrongTypeForAPropertyIsRefusedAndKeepsTheOldValue() {
        let layer = CALayer()
        layer.opacity = 0.5
        let capture = DiagnosticCapture()
        layer.setValue("opaque", forKey: "opacity")
        XCTAssertEqual(capture.names, ["valueTypeMismatch"])
        XCTAssertEqual(layer.opacity, 0.5)
    }

    func testWrongTypeForAWholeGeometryValueIsRefused() {
        let layer = CALayer()
        layer.position = CGPoint(x: 1, y: 2)
        let capture = DiagnosticCapture()
        layer.setValue(CGSize(width: 3, height: 4), forKeyPath: "position")
        XCTAssertEqual(capture.names, ["valueTypeMismatch"])
        XCTAssertEqual(layer.position, CGPoint(x: 1, y: 2))
    }

    func testWrongTypeForAComponentIsRefusedAndKeepsTheOldValue() {
        let layer = CALayer()
        layer.position = CGPoint(x: 1, y: 2)
        let capture = DiagnosticCapture()
        layer.setValue("ten", forKeyPath: "position.x")
        XCTAssertEqual(capture.diagnostics, [.valueTypeMismatch(keyPath: "position.x", expected: "CGFloat", got: "String")])
        XCTAssertEqual(layer.position, CGPoint(x: 1, y: 2))
    }

    func testTranslationRefusesAScalar() {
        let layer = CALayer()
        let capture = DiagnosticCapture()
        layer.setValue(CGFloat(3), forKeyPath: "transform.translation")
        XCTAssertEqual(capture.names, ["valueTypeMismatch"])
        XCTAssertEqual(layer.transform, CATransform3DIdentity)
    }

    func testWrongTypeForAFlagIsRefused() {
        let layer = CALayer()
        let capture = DiagnosticCapture()
        layer.setValue("yes", forKey: "hidden")
        XCTAssertEqual(capture.names, ["valueTypeMismatch"])
        XCTAssertFalse(layer.isHidden)
    }

    // MARK: - Keys a subclass declares

    func testCustomKeyReadsItsClassDefaultBeforeAnySet() {
        let layer = ProgressLayer()
        XCTAssertEqual(layer.progress, 0.25)
        XCTAssertEqual(layer.value(forKey: "progress") as? CGFloat, 0.25)
        XCTAssertEqual(layer.value(forKeyPath: "progress") as? CGFloat, 0.25)
    }

    func testCustomKeyStoresAndReadsBack() {
        let layer = ProgressLayer()
        layer.progress = 0.75
        XCTAssertEqual(layer.progress, 0.75)
        layer.setValue(CGFloat(0.5), forKeyPath: "progress")
        XCTAssertEqual(layer.value(forKey: "progress") as? CGFloat, 0.5)
        XCTAssertEqual(ProgressLayer().progress, 0.25, "other instances keep the default")
    }

    func testCustomKeyOnAPlainLayerIsStored() {
        let layer = CALayer()
        XCTAssertNil(layer.value(forKey: "userTag"))
        layer.setValue("hello", forKey: "userTag")
        XCTAssertEqual(layer.value(forKey: "userTag") as? String, "hello")
        layer.setValue(nil, forKey: "userTag")
        XCTAssertNil(layer.value(forKey: "userTag"))
    }

    func testCustomGeometryKeyHasSubPaths() {
        let layer = ProgressLayer()
        layer.setValue(CGPoint(x: 1, y: 2), forKey: "knob")
        layer.setValue(CGFloat(9), forKeyPath: "knob.y")
        XCTAssertEqual(layer.value(forKey: "knob") as? CGPoint, CGPoint(x: 1, y: 9))
        XCTAssertEqual(layer.value(forKeyPath: "knob.x") as? CGFloat, 1)
    }
}

/// Declares `progress` (default 0.25) through key-value coding, as Core Animation subclasses do.
private final class ProgressLayer: CALayer {
    var progress: CGFloat {
        get { value(forKey: "progress") as? CGFloat ?? -1 }
        set { setValue(newValue, forKey: "progress") }
    }

    override class func defaultValue(forKey key: String) -> Any? {
        key == "progress" ? CGFloat(0.25) : super.defaultValue(forKey: key)
    }
}
