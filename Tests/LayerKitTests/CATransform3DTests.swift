import Foundation
import XCTest
@testable import LayerKit
import LayerKitTestSupport

/// Asserts two transforms agree entry by entry within `accuracy`.
func assertTransformsEqual(_ t: CATransform3D, _ u: CATransform3D, accuracy: Double = 1e-12,
                           file: StaticString = #filePath, line: UInt = #line) {
    for i in 0..<4 {
        let d = t[row: i] - u[row: i]
        if (d * d).max().squareRoot() > accuracy || !(d * d).max().isFinite {
            XCTFail("\(t)\n is not\n\(u)", file: file, line: line)
            return
        }
    }
}

extension SplitMix64 {
    /// A 4×4 matrix with entries in −2…2 whose determinant is at least 0.05 in magnitude.
    mutating func invertibleTransform() -> CATransform3D {
        while true {
            var rows: [SIMD4<Double>] = []
            for _ in 0..<4 {
                rows.append(SIMD4(Double(unit()), Double(unit()), Double(unit()), Double(unit())) * 4 - 2)
            }
            let t = CATransform3D(rows: rows[0], rows[1], rows[2], rows[3])
            if abs(t.determinant) > 0.05 { return t }
        }
    }
}

final class CATransform3DTests: XCTestCase {
    private func map(_ p: SIMD3<Double>, _ t: CATransform3D) -> SIMD3<Double> {
        let v = t.transform(SIMD4(p.x, p.y, p.z, 1))
        return SIMD3(v.x, v.y, v.z) / v.w
    }

    private func assertClose(_ p: SIMD3<Double>, _ q: SIMD3<Double>, accuracy: Double = 1e-12,
                             file: StaticString = #filePath, line: UInt = #line) {
        let d = p - q
        XCTAssertLessThanOrEqual((d * d).sum().squareRoot(), accuracy, "\(p) vs \(q)", file: file, line: line)
    }

    // MARK: Construction

    func testIdentityAndZeroInit() {
        XCTAssertTrue(CATransform3DIsIdentity(CATransform3DIdentity))
        XCTAssertEqual(CATransform3DIdentity[row: 3], SIMD4(0, 0, 0, 1))
        // Apple's C-struct init() is all zeros.
        let zero = CATransform3D()
        for i in 0..<4 { XCTAssertEqual(zero[row: i], .zero) }
        XCTAssertFalse(CATransform3DIsIdentity(zero))
    }

    func testTranslationLivesInTheLastRow() {
        let t = CATransform3DMakeTranslation(1, 2, 3)
        XCTAssertEqual(t[row: 3], SIMD4(1, 2, 3, 1))
        assertClose(map(SIMD3(10, 20, 30), t), SIMD3(11, 22, 33))
    }

    func testScaleIsDiagonal() {
        let t = CATransform3DMakeScale(2, 3, 4)
        XCTAssertEqual(t, CATransform3D(m11: 2, m12: 0, m13: 0, m14: 0, m21: 0, m22: 3, m23: 0, m24: 0,
                                        m31: 0, m32: 0, m33: 4, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1))
    }

    func testRotationAboutZTakesXTowardY() {
        let t = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        // Row-vector rotation about z: [cos sin; −sin cos] in the top-left; at π/2 that is [0 1; −1 0].
        assertTransformsEqual(t, CATransform3D(m11: 0, m12: 1, m13: 0, m14: 0, m21: -1, m22: 0, m23: 0, m24: 0,
                                               m31: 0, m32: 0, m33: 1, m34: 0, m41: 0, m42: 0, m43: 0, m44: 1))
        assertClose(map(SIMD3(1, 0, 0), t), SIMD3(0, 1, 0))
        // Agrees with the 2D rotation of the same angle.
        assertTransformsEqual(CATransform3DMakeRotation(0.3, 0, 0, 1),
                              CATransform3DMakeAffineTransform(CGAffineTransform(rotationAngle: 0.3)))
    }

    func testRotationAboutXAndYIsRightHanded() {
        // About +x, +y goes toward +z; about +y, +z goes toward +x (cyclic x → y → z).
        assertClose(map(SIMD3(0, 1, 0), CATransform3DMakeRotation(.pi / 2, 1, 0, 0)), SIMD3(0, 0, 1))
        assertClose(map(SIMD3(0, 0, 1), CATransform3DMakeRotation(.pi / 2, 0, 1, 0)), SIMD3(1, 0, 0))
        assertClose(map(SIMD3(1, 0, 0), CATransform3DMakeRotation(.pi / 2, 0, 1, 0)), SIMD3(0, 0, -1))
        // About (1,1,1) by 2π/3 permutes the axes x → y → z.
        let diagonal = CATransform3DMakeRotation(2 * .pi / 3, 1, 1, 1)
        assertClose(map(SIMD3(1, 0, 0), diagonal), SIMD3(0, 1, 0))
        assertClose(map(SIMD3(0, 1, 0), diagonal), SIMD3(0, 0, 1))
    }

    func testRotationAxisIsNormalisedAndZeroAxisIsIdentity() {
        assertTransformsEqual(CATransform3DMakeRotation(0.8, 0, 0, 5), CATransform3DMakeRotation(0.8, 0, 0, 1))
        assertTransformsEqual(CATransform3DMakeRotation(0.8, 3, 4, 0), CATransform3DMakeRotation(0.8, 0.6, 0.8, 0))
        XCTAssertEqual(CATransform3DMakeRotation(1.2, 0, 0, 0), CATransform3DIdentity)
        let t = CATransform3DMakeTranslation(1, 2, 3)
        XCTAssertEqual(CATransform3DRotate(t, 1.2, 0, 0, 0), t)
    }

    // MARK: Composition order

    func testConcatIsFirstThenSecond() {
        // A = translation (1,2,3) with m34 = −0.5, B = scale (2,3,4). By hand, rows of A·B are rows of A
        // scaled column-wise by (2,3,4,1): (2,0,0,0), (0,3,0,0), (0,0,4,−0.5), (2,6,12,1).
        // Rows of B·A are rows of B through A: (2,0,0,0), (0,3,0,0), (0,0,4,−2), (1,2,3,1).
        var a = CATransform3DMakeTranslation(1, 2, 3)
        a.m34 = -0.5
        let b = CATransform3DMakeScale(2, 3, 4)
        XCTAssertEqual(CATransform3DConcat(a, b), CATransform3D(rows: SIMD4(2, 0, 0, 0), SIMD4(0, 3, 0, 0),
                                                                SIMD4(0, 0, 4, -0.5), SIMD4(2, 6, 12, 1)))
        XCTAssertEqual(CATransform3DConcat(b, a), CATransform3D(rows: SIMD4(2, 0, 0, 0), SIMD4(0, 3, 0, 0),
                                                                SIMD4(0, 0, 4, -2), SIMD4(1, 2, 3, 1)))

        // Translate then rotate by π/2 about z sends the origin to (0,10,0); the other order to (10,0,0).
        let translate = CATransform3DMakeTranslation(10, 0, 0)
        let rotate = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        assertClose(map(.zero, CATransform3DConcat(translate, rotate)), SIMD3(0, 10, 0))
        assertClose(map(.zero, CATransform3DConcat(rotate, translate)), SIMD3(10, 0, 0))
    }

    func testTranslateAppliesTheTranslationFirst() {
        // Translate(scale 2, 1,0,0): translate first, then scale, so the origin lands on (2,0,0); m41 = 2.
        let scale = CATransform3DMakeScale(2, 2, 2)
        let t = CATransform3DTranslate(scale, 1, 0, 0)
        XCTAssertEqual(t[row: 3], SIMD4(2, 0, 0, 1))
        assertClose(map(.zero, t), SIMD3(2, 0, 0))
        // Concatenating the other way round (scale, then MakeTranslation) lands on (1,0,0).
        assertClose(map(.zero, CATransform3DConcat(scale, CATransform3DMakeTranslation(1, 0, 0))), SIMD3(1, 0, 0))
    }

    func testTranslateScaleRotateEqualConcatWithTheMadeTransformFirst() {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<20 {
            let t = rng.invertibleTransform()
            assertTransformsEqual(CATransform3DTranslate(t, 3, -4, 5),
                                  CATransform3DConcat(CATransform3DMakeTranslation(3, -4, 5), t), accuracy: 1e-12)
            assertTransformsEqual(CATransform3DScale(t, 2, -0.5, 3),
                                  CATransform3DConcat(CATransform3DMakeScale(2, -0.5, 3), t), accuracy: 1e-12)
            assertTransformsEqual(CATransform3DRotate(t, 0.9, 1, 2, 3),
                                  CATransform3DConcat(CATransform3DMakeRotation(0.9, 1, 2, 3), t), accuracy: 1e-12)
        }
    }

    func testConcatMatchesAffineConcatenating() {
        let t1 = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let t2 = CGAffineTransform(rotationAngle: 0.4).translatedBy(x: 7, y: -1)
        XCTAssertEqual(CATransform3DConcat(CATransform3DMakeAffineTransform(t1), CATransform3DMakeAffineTransform(t2)),
                       CATransform3DMakeAffineTransform(t1.concatenating(t2)))
    }

    // MARK: Inversion

    func testInvertOfRandomInvertibleMatricesGivesIdentityProducts() {
        var rng = SplitMix64(seed: 2024)
        for _ in 0..<200 {
            let t = rng.invertibleTransform()
            let inverse = CATransform3DInvert(t)
            assertTransformsEqual(CATransform3DConcat(t, inverse), CATransform3DIdentity, accuracy: 1e-9)
            assertTransformsEqual(CATransform3DConcat(inverse, t), CATransform3DIdentity, accuracy: 1e-9)
        }
    }

    func testInvertByHand() {
        XCTAssertEqual(CATransform3DInvert(CATransform3DMakeTranslation(1, 2, 3)), CATransform3DMakeTranslation(-1, -2, -3))
        XCTAssertEqual(CATransform3DInvert(CATransform3DMakeScale(2, 4, 8)), CATransform3DMakeScale(0.5, 0.25, 0.125))
        // Pure perspective m34 = −1/500 inverts to m34 = +1/500 (w' = 1 − z/500 undone by w = 1 + z'/500 on z' = z).
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        var expected = CATransform3DIdentity
        expected.m34 = 1.0 / 500
        assertTransformsEqual(CATransform3DInvert(perspective), expected)
    }

    func testInvertOfSingularMatrixReturnsTheInput() {
        let flat = CATransform3DMakeScale(1, 1, 0)
        XCTAssertEqual(CATransform3DInvert(flat), flat)
        // Singular, but rotations leave rounding noise in the determinant.
        let noisy = CATransform3DConcat(CATransform3DConcat(CATransform3DMakeRotation(0.7, 1, 2, 3), flat),
                                        CATransform3DMakeRotation(-1.3, 3, 1, 0))
        XCTAssertEqual(CATransform3DInvert(noisy), noisy)
        XCTAssertEqual(CATransform3DInvert(CATransform3D()), CATransform3D())
        var nonFinite = CATransform3DIdentity
        nonFinite.m11 = .infinity
        XCTAssertEqual(CATransform3DInvert(nonFinite), nonFinite)
    }

    // MARK: Queries and affine conversion

    func testIsAffine() {
        XCTAssertTrue(CATransform3DIsAffine(CATransform3DIdentity))
        XCTAssertTrue(CATransform3DIsAffine(CATransform3DMakeRotation(0.5, 0, 0, 1)))
        XCTAssertTrue(CATransform3DIsAffine(CATransform3DMakeTranslation(4, 5, 0)))
        XCTAssertTrue(CATransform3DIsAffine(CATransform3DMakeAffineTransform(CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6))))
        XCTAssertFalse(CATransform3DIsAffine(CATransform3DMakeRotation(0.5, 1, 0, 0)))
        XCTAssertFalse(CATransform3DIsAffine(CATransform3DMakeTranslation(0, 0, 1)))
        XCTAssertFalse(CATransform3DIsAffine(CATransform3DMakeScale(1, 1, 2)))
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        XCTAssertFalse(CATransform3DIsAffine(perspective))
    }

    func testAffineRoundTrip() {
        var rng = SplitMix64(seed: 3)
        for _ in 0..<50 {
            let t = CGAffineTransform(a: rng.unit(), b: rng.unit(), c: rng.unit(), d: rng.unit(),
                                      tx: rng.unit() * 100, ty: rng.unit() * 100)
            let m = CATransform3DMakeAffineTransform(t)
            XCTAssertEqual(CATransform3DGetAffineTransform(m), t)
            XCTAssertEqual(CATransform3DMakeAffineTransform(CATransform3DGetAffineTransform(m)), m)
        }
        // (a, b, c, d, tx, ty) go to (m11, m12, m21, m22, m41, m42).
        let m = CATransform3DMakeAffineTransform(CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6))
        XCTAssertEqual(m, CATransform3D(rows: SIMD4(1, 2, 0, 0), SIMD4(3, 4, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(5, 6, 0, 1)))
    }

    func testEqualToTransformIsExact() {
        let t = CATransform3DMakeRotation(0.3, 1, 1, 0)
        XCTAssertTrue(CATransform3DEqualToTransform(t, t))
        var u = t
        u.m43 += 1e-15
        XCTAssertFalse(CATransform3DEqualToTransform(t, u))
        XCTAssertFalse(CATransform3DIsIdentity(CATransform3DMakeTranslation(0, 0, 1e-300)))
    }

    // MARK: Projection (CGRect+Transform)

    /// Rotation by 45° about y, then perspective with the eye at 500.
    private var tilted: CATransform3D {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        return CATransform3DConcat(CATransform3DMakeRotation(.pi / 4, 0, 1, 0), perspective)
    }

    func testProjectAffineHasUnitW() {
        let (p, w) = CATransform3DMakeTranslation(3, 4, 9).project(CGPoint(x: 1, y: 1))
        XCTAssertEqual(p, CGPoint(x: 4, y: 5))
        XCTAssertEqual(w, 1)
    }

    func testProjectAndUnprojectThroughPerspectiveTilt() {
        // By hand: (100, 50, 0) rotated 45° about y is (100·cos45°, 50, −100·sin45°) = (70.71…, 50, −70.71…).
        // w = 1 + z·m34 = 1 + 70.7107/500 = 1.14142135623731; the point is seen at
        // (70.7107/w, 50/w) = (61.94967154964771, 43.80503284503523).
        let (p, w) = tilted.project(CGPoint(x: 100, y: 50))
        XCTAssertEqual(w, 1.1414213562373094, accuracy: 1e-12)
        XCTAssertEqual(p.x, 61.94967154964771, accuracy: 1e-9)
        XCTAssertEqual(p.y, 43.80503284503523, accuracy: 1e-9)

        let back = try! XCTUnwrap(tilted.unproject(CGPoint(x: 61.94967154964771, y: 43.80503284503523)))
        XCTAssertEqual(back.x, 100, accuracy: 1e-9)
        XCTAssertEqual(back.y, 50, accuracy: 1e-9)
    }

    func testUnprojectInvertsProjectForRandomPerspectiveTransforms() {
        var rng = SplitMix64(seed: 99)
        var checked = 0
        for _ in 0..<200 {
            var perspective = CATransform3DIdentity
            perspective.m34 = -1 / (300 + 700 * rng.unit())
            let t = CATransform3DConcat(
                CATransform3DConcat(CATransform3DMakeRotation(rng.unit() * 2 - 1, rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5),
                                    CATransform3DMakeTranslation(rng.unit() * 100, rng.unit() * 100, rng.unit() * 100 - 50)),
                perspective)
            let point = CGPoint(x: rng.unit() * 200 - 100, y: rng.unit() * 200 - 100)
            let (projected, w) = t.project(point)
            guard w > 0.05 else { continue }
            let back = try! XCTUnwrap(t.unproject(projected))
            XCTAssertEqual(back.x, point.x, accuracy: 1e-7)
            XCTAssertEqual(back.y, point.y, accuracy: 1e-7)
            checked += 1
        }
        XCTAssertGreaterThan(checked, 150)
    }

    func testUnprojectOfEdgeOnPlaneIsNil() {
        // Rotated 90° about y without perspective: the layer is a vertical line x = 0 seen edge-on.
        XCTAssertNil(CATransform3DMakeRotation(.pi / 2, 0, 1, 0).unproject(CGPoint(x: 0, y: 5)))
        XCTAssertNil(CATransform3DMakeScale(0, 1, 1).unproject(CGPoint(x: 0, y: 5)))
    }

    func testUnprojectBeyondTheVanishingLineIsNil() {
        // Tilt 60° about y with the eye at 500: plane point (x, 0) has w = 1 + x·sin60°/500 and is seen at
        // X = x·cos60°/w, which tends to 500·cos60°/sin60° = 288.68 as x → ∞. X = 400 only solves with
        // x ≈ −2074, where w ≈ −2.59 < 0: behind the eye.
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        let t = CATransform3DConcat(CATransform3DMakeRotation(.pi / 3, 0, 1, 0), perspective)
        XCTAssertNil(t.unproject(CGPoint(x: 400, y: 0)))
        XCTAssertNotNil(t.unproject(CGPoint(x: 280, y: 0)))
    }

    func testRectApplyingAffine3DMatchesAffineBoundingBox() {
        let rect = CGRect(x: 0, y: 0, width: 2, height: 2)
        let r = rect.applying(CATransform3DMakeRotation(.pi / 4, 0, 0, 1))
        // Corners at (0,0), (√2,√2), (−√2,√2), (0,2√2).
        XCTAssertEqual(r.minX, -2.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(r.maxX, 2.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(r.minY, 0, accuracy: 1e-12)
        XCTAssertEqual(r.maxY, 2 * 2.squareRoot(), accuracy: 1e-12)
        let affine = CGAffineTransform(a: 1, b: 2, c: -3, d: 4, tx: 5, ty: 6)
        let rect2 = CGRect(x: -3, y: 4, width: 10, height: 7)
        XCTAssertEqual(rect2.applying(CATransform3DMakeAffineTransform(affine)), rect2.applying(affine))
    }

    func testRectApplyingPerspectiveDividesByW() {
        // Pushed back to z = −500 under m34 = −1/500: w = 1 + 500/500 = 2 everywhere, so all halves.
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        let t = CATransform3DConcat(CATransform3DMakeTranslation(0, 0, -500), perspective)
        XCTAssertEqual(CGRect(x: 0, y: 0, width: 100, height: 100).applying(t), CGRect(x: 0, y: 0, width: 50, height: 50))
    }

    func testRectBehindTheEyeIsClippedOrNull() {
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        // Entirely at z = 600, past the eye at 500: w = 1 − 600/500 < 0 for every corner.
        let behind = CATransform3DConcat(CATransform3DMakeTranslation(0, 0, 600), perspective)
        XCTAssertTrue(CGRect(x: 0, y: 0, width: 100, height: 100).applying(behind).isNull)
        // Tilted so that the part with x > 500/sin60° ≈ 577 is behind the eye: finite, clipped result.
        let t = CATransform3DConcat(CATransform3DMakeRotation(-.pi / 3, 0, 1, 0), perspective)
        let r = CGRect(x: 0, y: 0, width: 1000, height: 10).applying(t)
        XCTAssertFalse(r.isNull)
        XCTAssertTrue(r.width.isFinite && r.height.isFinite)
        XCTAssertEqual(r.minX, 0, accuracy: 1e-9)
        XCTAssertGreaterThan(r.maxX, 1e6)
        XCTAssertTrue(CGRect.null.applying(t).isNull)
    }
}
