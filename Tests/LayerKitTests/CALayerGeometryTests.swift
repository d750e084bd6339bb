import Foundation
import XCTest
@testable import LayerKit

/// `frame` derived from bounds, position, anchor point and transform (affine and projective), the frame
/// setter, the affine-transform accessors and `preferredFrameSize()`.
///
/// Conventions used in the worked numbers (Core Animation's): a layer point p maps to its superlayer as
/// `(p − anchorInBounds) · transform + position`, row vectors, where
/// `anchorInBounds = bounds.origin + anchorPoint · bounds.size`; a rotation by θ about z takes (x, y) to
/// (x cosθ − y sinθ, x sinθ + y cosθ).
final class CALayerGeometryTests: XCTestCase {
    /// A 100 × 50 layer centred at (200, 100): frame (150, 75, 100, 50) under the identity.
    private func makeLayer() -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 50)
        layer.position = CGPoint(x: 200, y: 100)
        return layer
    }

    // MARK: - Frame from bounds, position and anchor point

    func testFrameIsBoundsSizeCenteredOnPositionByDefault() {
        // origin = position − 0.5·size = (200 − 50, 100 − 25).
        XCTAssertEqual(makeLayer().frame, CGRect(x: 150, y: 75, width: 100, height: 50))
    }

    func testFrameOriginIsPositionWhenAnchorPointIsTopLeft() {
        let layer = makeLayer()
        layer.anchorPoint = CGPoint(x: 0, y: 0)
        XCTAssertEqual(layer.frame, CGRect(x: 200, y: 100, width: 100, height: 50))
    }

    func testFrameUsesEachAnchorAxisOnItsOwnSize() {
        let layer = makeLayer()
        // origin = (200 − 1·100, 100 − 0.2·50) = (100, 90).
        layer.anchorPoint = CGPoint(x: 1, y: 0.2)
        XCTAssertEqual(layer.frame, CGRect(x: 100, y: 90, width: 100, height: 50))
    }

    func testFrameIgnoresBoundsOrigin() {
        let layer = makeLayer()
        layer.bounds = CGRect(x: 10, y: 20, width: 100, height: 50)
        // The anchor moves with the bounds origin, so the frame is unchanged.
        XCTAssertEqual(layer.frame, CGRect(x: 150, y: 75, width: 100, height: 50))
    }

    func testZPositionDoesNotMoveTheFrame() {
        let layer = makeLayer()
        layer.zPosition = 40
        XCTAssertEqual(layer.frame, CGRect(x: 150, y: 75, width: 100, height: 50))
    }

    // MARK: - Frame under transforms

    func testFrameUnderQuarterTurnSwapsWidthAndHeightAboutTheCenter() {
        let layer = makeLayer()
        layer.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        // Corners relative to the anchor (±50, ±25) turn into (∓25, ±50): a 50 × 100 box about (200, 100).
        expectRect(layer.frame, CGRect(x: 175, y: 50, width: 50, height: 100))
    }

    func testFrameUnderQuarterTurnIgnoresBoundsOrigin() {
        let layer = makeLayer()
        layer.bounds = CGRect(x: 10, y: 20, width: 100, height: 50)
        layer.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        expectRect(layer.frame, CGRect(x: 175, y: 50, width: 50, height: 100))
    }

    func testFrameUnder45DegreesIsTheBoundingBoxOfTheRotatedCorners() {
        let layer = makeLayer()
        layer.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        // Both extents are 100·cos45° + 50·sin45° = 150/√2 ≈ 106.066, centred on (200, 100).
        let side = 150 / 2.0.squareRoot()
        expectRect(layer.frame, CGRect(x: 200 - side / 2, y: 100 - side / 2, width: side, height: side))
    }

    func testFrameUnder30DegreesHasUnequalExtents() {
        let layer = makeLayer()
        layer.transform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        // width = 100·cos30° + 50·sin30° = 86.6025… + 25; height = 100·sin30° + 50·cos30° = 50 + 43.3012…
        let width = 100 * 3.0.squareRoot() / 2 + 25
        let height = 50 + 50 * 3.0.squareRoot() / 2
        expectRect(layer.frame, CGRect(x: 200 - width / 2, y: 100 - height / 2, width: width, height: height))
    }

    func testFrameUnderUnequalScaleScalesEachAxisByItsOwnFactor() {
        let layer = makeLayer()
        layer.transform = CATransform3DMakeScale(2, 3, 1)
        // 100·2 × 50·3 = 200 × 150 about (200, 100): origin (100, 25). Exact in binary floating point.
        XCTAssertEqual(layer.frame, CGRect(x: 100, y: 25, width: 200, height: 150))
    }

    func testFrameUnderScaleAboutATopLeftAnchorGrowsRightAndDown() {
        let layer = makeLayer()
        layer.anchorPoint = CGPoint(x: 0, y: 0)
        layer.transform = CATransform3DMakeScale(2, 3, 1)
        XCTAssertEqual(layer.frame, CGRect(x: 200, y: 100, width: 200, height: 150))
    }

    func testFrameUnderQuarterTurnAboutATopLeftAnchorSwingsLeft() {
        let layer = makeLayer()
        layer.anchorPoint = CGPoint(x: 0, y: 0)
        layer.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        // Corners relative to the anchor are (0…100, 0…50); (x, y) ↦ (−y, x) gives x ∈ [−50, 0], y ∈ [0, 100].
        expectRect(layer.frame, CGRect(x: 150, y: 100, width: 50, height: 100))
    }

    func testFrameUnderQuarterTurnWithAnchorAndBoundsOriginBoth() {
        let layer = makeLayer()
        layer.bounds = CGRect(x: -30, y: 40, width: 100, height: 50)
        layer.anchorPoint = CGPoint(x: 1, y: 1)
        layer.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        // Corners relative to the anchor are (−100…0, −50…0); (x, y) ↦ (−y, x) gives x ∈ [0, 50], y ∈ [−100, 0].
        expectRect(layer.frame, CGRect(x: 200, y: 0, width: 50, height: 100))
    }

    func testFrameUnderTranslationMovesByTheTranslation() {
        let layer = makeLayer()
        layer.transform = CATransform3DMakeTranslation(7, -9, 0)
        XCTAssertEqual(layer.frame, CGRect(x: 157, y: 66, width: 100, height: 50))
    }

    // MARK: - Frame under perspective

    func testFrameOfALayerPulledTowardTheEyeIsMagnifiedByTheDepthRatio() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        layer.position = CGPoint(x: 300, y: 200)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        // Move 100 toward the eye, then project: w = 1 − 100/500 = 0.8, so every offset from the anchor is
        // divided by 0.8 — a 250 × 125 frame about (300, 200), origin (175, 137.5).
        layer.transform = CATransform3DConcat(CATransform3DMakeTranslation(0, 0, 100), perspective)
        expectRect(layer.frame, CGRect(x: 175, y: 137.5, width: 250, height: 125), accuracy: 1e-9)
    }

    func testFrameOfALayerTiltedAboutYUnderPerspectiveIsTheBoxOfItsProjectedCorners() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        layer.position = CGPoint(x: 300, y: 200)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        layer.transform = CATransform3DConcat(CATransform3DMakeRotation(.pi / 3, 0, 1, 0), perspective)

        // By hand: rotating (x, y, 0) by θ about y gives (x cosθ, y, −x sinθ); m34 = −1/500 then gives
        // w = 1 − z/500 = 1 + x sinθ/500 and the projection (x cosθ / w, y / w). Corners relative to the
        // anchor are x = ±100, y = ±50.
        let c = 0.5, s = 3.0.squareRoot() / 2
        let wRight = 1 + 100 * s / 500        // ≈ 1.1732: the right edge recedes
        let wLeft = 1 - 100 * s / 500         // ≈ 0.8268: the left edge comes closer
        let minX = -100 * c / wLeft           // ≈ −60.474
        let maxX = 100 * c / wRight           // ≈ 42.618
        let halfHeight = 50 / wLeft           // the near (left) edge is the taller one: ≈ 60.474
        expectRect(layer.frame, CGRect(x: 300 + minX, y: 200 - halfHeight,
                                       width: maxX - minX, height: 2 * halfHeight), accuracy: 1e-9)
        // Spot check of the arithmetic above.
        XCTAssertEqual(layer.frame.width, 103.0928, accuracy: 1e-4)
        XCTAssertEqual(layer.frame.height, 120.9490, accuracy: 1e-4)
    }

    // MARK: - Frame setter

    func testSettingFrameUnderIdentitySetsBoundsSizeAndPosition() {
        let layer = CALayer()
        layer.frame = CGRect(x: 10, y: 20, width: 100, height: 50)
        XCTAssertEqual(layer.bounds, CGRect(x: 0, y: 0, width: 100, height: 50))
        XCTAssertEqual(layer.position, CGPoint(x: 60, y: 45))
        XCTAssertEqual(layer.frame, CGRect(x: 10, y: 20, width: 100, height: 50))
    }

    func testSettingFrameKeepsBoundsOrigin() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 5, y: -7, width: 1, height: 1)
        layer.frame = CGRect(x: 10, y: 20, width: 100, height: 50)
        XCTAssertEqual(layer.bounds, CGRect(x: 5, y: -7, width: 100, height: 50))
        XCTAssertEqual(layer.position, CGPoint(x: 60, y: 45))
    }

    func testSettingFramePlacesPositionAtTheAnchorPoint() {
        let layer = CALayer()
        layer.anchorPoint = CGPoint(x: 0, y: 1)
        layer.frame = CGRect(x: 10, y: 20, width: 100, height: 50)
        // Anchor (0, 1) is the bottom-left corner of the frame: (10, 20 + 50).
        XCTAssertEqual(layer.position, CGPoint(x: 10, y: 70))
        XCTAssertEqual(layer.frame, CGRect(x: 10, y: 20, width: 100, height: 50))
    }

    func testSettingANegativeSizeFrameStandardizesIt() {
        let layer = CALayer()
        layer.frame = CGRect(x: 110, y: 70, width: -100, height: -50)
        XCTAssertEqual(layer.bounds.size, CGSize(width: 100, height: 50))
        XCTAssertEqual(layer.frame, CGRect(x: 10, y: 20, width: 100, height: 50))
    }

    func testSettingFrameUnderUnequalScaleDividesTheSizeAndReadsBackExactly() {
        let layer = CALayer()
        layer.transform = CATransform3DMakeScale(2, 3, 1)
        layer.frame = CGRect(x: 10, y: 20, width: 200, height: 150)
        // Bounds = 200/2 × 150/3; the anchor (centre) sits at the frame's centre (110, 95).
        XCTAssertEqual(layer.bounds.size, CGSize(width: 100, height: 50))
        XCTAssertEqual(layer.position, CGPoint(x: 110, y: 95))
        XCTAssertEqual(layer.frame, CGRect(x: 10, y: 20, width: 200, height: 150))
    }

    func testSettingFrameUnderQuarterTurnSwapsBoundsSizeAndReadsBack() {
        let layer = CALayer()
        layer.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        layer.frame = CGRect(x: 10, y: 20, width: 50, height: 100)
        // A 50 × 100 frame under a quarter turn comes from 100 × 50 bounds, centred on (35, 70).
        expectSize(layer.bounds.size, CGSize(width: 100, height: 50))
        expectPoint(layer.position, CGPoint(x: 35, y: 70))
        expectRect(layer.frame, CGRect(x: 10, y: 20, width: 50, height: 100))
    }

    func testSettingFrameUnderQuarterTurnAboutACornerAnchorReadsBack() {
        let layer = CALayer()
        layer.anchorPoint = CGPoint(x: 0, y: 0)
        layer.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        layer.frame = CGRect(x: 10, y: 20, width: 50, height: 100)
        // Bounds 100 × 50 rotated about its top-left corner swing to x ∈ [−50, 0], y ∈ [0, 100] from the
        // anchor, so the anchor must sit at the frame's top-right corner (60, 20).
        expectSize(layer.bounds.size, CGSize(width: 100, height: 50))
        expectPoint(layer.position, CGPoint(x: 60, y: 20))
        expectRect(layer.frame, CGRect(x: 10, y: 20, width: 50, height: 100))
    }

    func testSettingFrameUnderRotationAndScaleReadsBack() {
        let layer = CALayer()
        // Scale (2, 3), then a quarter turn: bounds w × h become a 3h × 2w frame.
        layer.transform = CATransform3DConcat(CATransform3DMakeScale(2, 3, 1), CATransform3DMakeRotation(.pi / 2, 0, 0, 1))
        layer.frame = CGRect(x: 0, y: 0, width: 60, height: 80)
        expectSize(layer.bounds.size, CGSize(width: 40, height: 20))
        expectRect(layer.frame, CGRect(x: 0, y: 0, width: 60, height: 80))
    }

    // MARK: - Affine transform accessors

    func testSetAffineTransformFillsTheTwoDimensionalEntries() {
        let layer = CALayer()
        layer.setAffineTransform(CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6))
        XCTAssertEqual(layer.transform, CATransform3D(m11: 1, m12: 2, m13: 0, m14: 0,
                                                      m21: 3, m22: 4, m23: 0, m24: 0,
                                                      m31: 0, m32: 0, m33: 1, m34: 0,
                                                      m41: 5, m42: 6, m43: 0, m44: 1))
        XCTAssertEqual(layer.affineTransform(), CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6))
    }

    func testAffineTransformOfA3DTransformIsItsTwoDimensionalPart() {
        let layer = CALayer()
        var t = CATransform3DIdentity
        t.m11 = 2; t.m12 = 0.5; t.m21 = -0.5; t.m22 = 3; t.m41 = 7; t.m42 = 8
        t.m33 = 4; t.m34 = -0.002; t.m43 = 9
        layer.transform = t
        XCTAssertEqual(layer.affineTransform(), CGAffineTransform(a: 2, b: 0.5, c: -0.5, d: 3, tx: 7, ty: 8))
    }

    func testSetAffineTransformMovesTheFrame() {
        let layer = makeLayer()
        layer.setAffineTransform(CGAffineTransform(scaleX: 2, y: 3))
        XCTAssertEqual(layer.frame, CGRect(x: 100, y: 25, width: 200, height: 150))
    }

    // MARK: - Preferred frame size

    func testPreferredFrameSizeIsBoundsSizeUnderIdentity() {
        XCTAssertEqual(makeLayer().preferredFrameSize(), CGSize(width: 100, height: 50))
    }

    func testPreferredFrameSizeIsBoundsSizeThroughTheTransform() {
        let layer = makeLayer()
        layer.transform = CATransform3DMakeScale(2, 3, 1)
        XCTAssertEqual(layer.preferredFrameSize(), CGSize(width: 200, height: 150))
        layer.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        expectSize(layer.preferredFrameSize(), CGSize(width: 50, height: 100))
    }

    func testPreferredFrameSizeCanBeOverridden() {
        let layer = FixedSizeLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 1, height: 1)
        XCTAssertEqual(layer.preferredFrameSize(), CGSize(width: 44, height: 22))
    }

    // MARK: - Helpers

    private func expectRect(_ r: CGRect, _ s: CGRect, accuracy: CGFloat = 1e-9,
                            file: StaticString = #filePath, line: UInt = #line) {
        let ok = abs(r.minX - s.minX) <= accuracy && abs(r.minY - s.minY) <= accuracy
            && abs(r.width - s.width) <= accuracy && abs(r.height - s.height) <= accuracy
        XCTAssertTrue(ok, "\(r) is not \(s) (±\(accuracy))", file: file, line: line)
    }

    private func expectPoint(_ p: CGPoint, _ q: CGPoint, accuracy: CGFloat = 1e-9,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(abs(p.x - q.x) <= accuracy && abs(p.y - q.y) <= accuracy,
                      "\(p) is not \(q) (±\(accuracy))", file: file, line: line)
    }

    private func expectSize(_ a: CGSize, _ b: CGSize, accuracy: CGFloat = 1e-9,
                            file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(abs(a.width - b.width) <= accuracy && abs(a.height - b.height) <= accuracy,
                      "\(a) is not \(b) (±\(accuracy))", file: file, line: line)
    }
}

private final class FixedSizeLayer: CALayer {
    override func preferredFrameSize() -> CGSize { CGSize(width: 44, height: 22) }
}
