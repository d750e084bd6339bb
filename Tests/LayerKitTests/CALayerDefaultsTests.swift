import Foundation
import XCTest
@testable import LayerKit

/// Every `CALayer` property starts at Core Animation's (iOS) default, and a subclass can change a default
/// through `defaultValue(forKey:)`, for a built-in key and for a key of its own.
final class CALayerDefaultsTests: XCTestCase {
    // MARK: - Geometry

    func testGeometryDefaultsToAZeroRectAtTheOrigin() {
        let layer = CALayer()
        XCTAssertEqual(layer.bounds, CGRect(x: 0, y: 0, width: 0, height: 0))
        XCTAssertEqual(layer.position, CGPoint(x: 0, y: 0))
        XCTAssertEqual(layer.frame, CGRect(x: 0, y: 0, width: 0, height: 0))
        XCTAssertEqual(layer.zPosition, 0)
        XCTAssertEqual(layer.anchorPointZ, 0)
    }

    func testAnchorPointDefaultsToTheCenter() {
        XCTAssertEqual(CALayer().anchorPoint, CGPoint(x: 0.5, y: 0.5))
    }

    func testTransformsDefaultToTheIdentity() {
        let identity = CATransform3D(m11: 1, m12: 0, m13: 0, m14: 0,
                                     m21: 0, m22: 1, m23: 0, m24: 0,
                                     m31: 0, m32: 0, m33: 1, m34: 0,
                                     m41: 0, m42: 0, m43: 0, m44: 1)
        let layer = CALayer()
        XCTAssertEqual(layer.transform, identity)
        XCTAssertEqual(layer.sublayerTransform, identity)
        XCTAssertEqual(layer.affineTransform(), CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0))
    }

    func testGeometryIsNotFlippedByDefault() {
        XCTAssertFalse(CALayer().isGeometryFlipped)
    }

    func testScalesDefaultToOne() {
        let layer = CALayer()
        XCTAssertEqual(layer.contentsScale, 1)
        XCTAssertEqual(layer.rasterizationScale, 1)
    }

    // MARK: - Appearance

    func testOpacityDefaultsToOne() {
        XCTAssertEqual(CALayer().opacity, 1)
    }

    func testBackgroundColorDefaultsToNil() {
        XCTAssertNil(CALayer().backgroundColor)
    }

    func testBorderDefaultsToZeroWidthOpaqueBlack() {
        let layer = CALayer()
        XCTAssertEqual(layer.borderWidth, 0)
        XCTAssertEqual(layer.borderColor, CGColor(gray: 0, alpha: 1))
        XCTAssertEqual(layer.borderColor?.components, [0, 1])
    }

    func testCornersDefaultToSquareWithAllFourMaskedAndCircularCurve() {
        let layer = CALayer()
        XCTAssertEqual(layer.cornerRadius, 0)
        XCTAssertEqual(layer.maskedCorners, [.layerMinXMinYCorner, .layerMaxXMinYCorner,
                                             .layerMinXMaxYCorner, .layerMaxXMaxYCorner])
        XCTAssertEqual(layer.maskedCorners.rawValue, 0b1111)
        XCTAssertEqual(layer.cornerCurve, .circular)
    }

    func testVisibilityFlagsDefault() {
        let layer = CALayer()
        XCTAssertFalse(layer.isHidden)
        XCTAssertFalse(layer.isOpaque)
        XCTAssertFalse(layer.masksToBounds)
        XCTAssertTrue(layer.isDoubleSided)
        XCTAssertTrue(layer.allowsGroupOpacity)
    }

    func testEdgeAntialiasingIsOffWithAllFourEdgesMasked() {
        let layer = CALayer()
        XCTAssertFalse(layer.allowsEdgeAntialiasing)
        XCTAssertEqual(layer.edgeAntialiasingMask, [.layerLeftEdge, .layerRightEdge, .layerBottomEdge, .layerTopEdge])
        XCTAssertEqual(layer.edgeAntialiasingMask.rawValue, 0b1111)
    }

    // MARK: - Contents

    func testContentsDefaultToNoneResizedOverTheUnitRect() {
        let layer = CALayer()
        XCTAssertNil(layer.contents)
        XCTAssertEqual(layer.contentsGravity, .resize)
        XCTAssertEqual(layer.contentsGravity.rawValue, "resize")
        XCTAssertEqual(layer.contentsRect, CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(layer.contentsCenter, CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(layer.contentsFormat, .RGBA8Uint)
    }

    func testContentsFiltersDefaultToLinearWithZeroBias() {
        let layer = CALayer()
        XCTAssertEqual(layer.minificationFilter, .linear)
        XCTAssertEqual(layer.magnificationFilter, .linear)
        XCTAssertEqual(layer.minificationFilter.rawValue, "linear")
        XCTAssertEqual(layer.minificationFilterBias, 0)
    }

    func testDisplayFlagsDefaultToFalse() {
        let layer = CALayer()
        XCTAssertFalse(layer.needsDisplayOnBoundsChange)
        XCTAssertFalse(layer.drawsAsynchronously)
        XCTAssertFalse(layer.shouldRasterize)
    }

    // MARK: - Shadow

    func testShadowDefaultsToInvisibleBlackThreePointsUpWithRadiusThree() {
        let layer = CALayer()
        XCTAssertEqual(layer.shadowOpacity, 0)
        XCTAssertEqual(layer.shadowColor, CGColor(gray: 0, alpha: 1))
        XCTAssertEqual(layer.shadowOffset, CGSize(width: 0, height: -3))
        XCTAssertEqual(layer.shadowRadius, 3)
        XCTAssertNil(layer.shadowPath)
    }

    // MARK: - Filters, identity, hierarchy

    func testFiltersDefaultToNil() {
        let layer = CALayer()
        XCTAssertNil(layer.filters)
        XCTAssertNil(layer.backgroundFilters)
        XCTAssertNil(layer.compositingFilter)
    }

    func testIdentityAndBehaviourDefaultToNil() {
        let layer = CALayer()
        XCTAssertNil(layer.name)
        XCTAssertNil(layer.style)
        XCTAssertNil(layer.actions)
        XCTAssertNil(layer.delegate)
    }

    func testNewLayerHasNoSuperlayerSublayersOrMask() {
        let layer = CALayer()
        XCTAssertNil(layer.superlayer)
        XCTAssertNil(layer.sublayers)
        XCTAssertNil(layer.mask)
    }

    // MARK: - The defaults as key-value coding and the class method report them

    func testValueForKeyReportsDefaultsWithCoreAnimationTypes() {
        let layer = CALayer()
        XCTAssertEqual(layer.value(forKey: "opacity") as? Float, 1)
        XCTAssertEqual(layer.value(forKey: "anchorPoint") as? CGPoint, CGPoint(x: 0.5, y: 0.5))
        XCTAssertEqual(layer.value(forKey: "shadowOffset") as? CGSize, CGSize(width: 0, height: -3))
        XCTAssertEqual(layer.value(forKey: "shadowRadius") as? CGFloat, 3)
        XCTAssertEqual(layer.value(forKey: "doubleSided") as? Bool, true)
        XCTAssertEqual(layer.value(forKey: "hidden") as? Bool, false)
        XCTAssertEqual(layer.value(forKey: "contentsRect") as? CGRect, CGRect(x: 0, y: 0, width: 1, height: 1))
        XCTAssertEqual(layer.value(forKey: "transform") as? CATransform3D, CATransform3DIdentity)
        XCTAssertNil(layer.value(forKey: "backgroundColor"))
        XCTAssertNil(layer.value(forKey: "name"))
    }

    func testClassDefaultValueForKeyReportsBuiltInDefaultsAndNilForUnknownKeys() {
        XCTAssertEqual(CALayer.defaultValue(forKey: "opacity") as? Float, 1)
        XCTAssertEqual(CALayer.defaultValue(forKey: "shadowRadius") as? CGFloat, 3)
        XCTAssertEqual(CALayer.defaultValue(forKey: "anchorPoint") as? CGPoint, CGPoint(x: 0.5, y: 0.5))
        XCTAssertEqual(CALayer.defaultValue(forKey: "allowsGroupOpacity") as? Bool, true)
        XCTAssertNil(CALayer.defaultValue(forKey: "noSuchProperty"))
    }

    func testSettingAPropertyBackToItsDefaultStoresNothing() {
        let layer = CALayer()
        layer.opacity = 0.5
        layer.transform = CATransform3DMakeScale(2, 2, 1)
        XCTAssertEqual(layer.storage.keys.count, 2)
        layer.opacity = 1
        layer.transform = CATransform3DIdentity
        XCTAssertEqual(layer.storage.keys.count, 0, "a value equal to the default is not stored")
        XCTAssertEqual(layer.opacity, 1)
        XCTAssertEqual(layer.transform, CATransform3DIdentity)
    }

    // MARK: - Subclass defaults

    func testSubclassDefaultForABuiltInKeyIsTheStartingValue() {
        let layer = RoundedBadgeLayer()
        XCTAssertEqual(layer.cornerRadius, 8)
        XCTAssertEqual(layer.opacity, 0.5)
        XCTAssertEqual(layer.value(forKey: "cornerRadius") as? CGFloat, 8)
        // Keys the subclass does not override keep CALayer's default.
        XCTAssertEqual(layer.shadowRadius, 3)
        XCTAssertEqual(layer.anchorPoint, CGPoint(x: 0.5, y: 0.5))
    }

    func testSubclassDefaultDoesNotChangeCALayersDefault() {
        _ = RoundedBadgeLayer()
        XCTAssertEqual(CALayer().cornerRadius, 0)
        XCTAssertEqual(CALayer().opacity, 1)
    }

    func testSubclassBuiltInDefaultCanBeOverriddenAndRestored() {
        let layer = RoundedBadgeLayer()
        layer.cornerRadius = 2
        XCTAssertEqual(layer.cornerRadius, 2)
        layer.cornerRadius = 8
        XCTAssertEqual(layer.cornerRadius, 8)
        XCTAssertEqual(layer.storage.keys.count, 0, "8 is this class's default, so nothing is stored")
    }

    func testSubclassDefaultForItsOwnKeyIsReadBeforeAnySet() {
        let layer = RoundedBadgeLayer()
        XCTAssertEqual(layer.badgeCount, 3)
        XCTAssertEqual(layer.value(forKey: "badgeCount") as? Int, 3)
        XCTAssertEqual(RoundedBadgeLayer.defaultValue(forKey: "badgeCount") as? Int, 3)
    }

    func testSubclassOwnKeyReadsBackWhatWasSet() {
        let layer = RoundedBadgeLayer()
        layer.badgeCount = 12
        XCTAssertEqual(layer.badgeCount, 12)
        XCTAssertEqual(RoundedBadgeLayer().badgeCount, 3, "another instance still starts at the default")
    }

    func testSubclassDefaultGivenAsANumberLiteralIsConvertedToThePropertysType() {
        // A port of `return 8` / `return 0.5` (an NSNumber in Core Animation) must still set the default.
        let layer = LiteralDefaultLayer()
        XCTAssertEqual(layer.cornerRadius, 8)
        XCTAssertEqual(layer.opacity, 0.5)
    }

    func testSubclassDefaultOfTheWrongTypeForABuiltInKeyKeepsCALayersDefault() {
        // "shadowRadius" is a CGFloat; a String default would break typed reads, so CALayer's 3 stays.
        XCTAssertEqual(WrongTypeDefaultLayer().shadowRadius, 3)
    }
}

/// Overrides the defaults of two built-in keys (`cornerRadius`, `opacity`) and declares its own key.
private final class RoundedBadgeLayer: CALayer {
    var badgeCount: Int {
        get { value(forKey: "badgeCount") as? Int ?? -1 }
        set { setValue(newValue, forKey: "badgeCount") }
    }

    override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "cornerRadius": CGFloat(8)
        case "opacity": Float(0.5)
        case "badgeCount": 3
        default: super.defaultValue(forKey: key)
        }
    }
}

private final class WrongTypeDefaultLayer: CALayer {
    override class func defaultValue(forKey key: String) -> Any? {
        key == "shadowRadius" ? "large" : super.defaultValue(forKey: key)
    }
}

/// Gives defaults as plain Swift number literals (`Int`, `Double`), as a mechanical port of Objective-C or
/// Darwin Swift code does.
private final class LiteralDefaultLayer: CALayer {
    override class func defaultValue(forKey key: String) -> Any? {
        switch key {
        case "cornerRadius": 8
        case "opacity": 0.5
        default: super.defaultValue(forKey: key)
        }
    }
}
