import Foundation
import XCTest
@testable import LayerKit
import LayerKitTestSupport

final class CATransform3DDecompositionTests: XCTestCase {
    private var perspective500: CATransform3D {
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 500
        return p
    }

    private func assertClose<V: SIMD>(_ a: V, _ b: V, accuracy: Double = 1e-12,
                                      file: StaticString = #filePath, line: UInt = #line) where V.Scalar == Double {
        let d = a - b
        XCTAssertLessThanOrEqual((d * d).max().squareRoot(), accuracy, "\(a) vs \(b)", file: file, line: line)
    }

    func testIdentityDecomposesToIdentity() {
        XCTAssertEqual(CATransform3DIdentity.decomposed(), .identity)
        XCTAssertEqual(CATransform3D(decomposition: .identity), CATransform3DIdentity)
    }

    func testPartsOfSimpleTransforms() {
        let t = try! XCTUnwrap(CATransform3DMakeTranslation(1, 2, 3).decomposed())
        XCTAssertEqual(t.translation, SIMD3(1, 2, 3))
        XCTAssertEqual(t.scale, SIMD3(1, 1, 1))

        let s = try! XCTUnwrap(CATransform3DMakeScale(2, 3, 4).decomposed())
        XCTAssertEqual(s.scale, SIMD3(2, 3, 4))
        XCTAssertEqual(s.skew, .zero)

        // Rotation by θ about z is the quaternion (0, 0, sin θ/2, cos θ/2).
        let r = try! XCTUnwrap(CATransform3DMakeRotation(0.6, 0, 0, 1).decomposed())
        assertClose(r.quaternion, SIMD4(0, 0, sin(0.3), cos(0.3)))
        assertClose(r.scale, SIMD3(1, 1, 1))

        // m34 = −1/500 alone is the perspective row (0, 0, −1/500, 1).
        let p = try! XCTUnwrap(perspective500.decomposed())
        assertClose(p.perspective, SIMD4(0, 0, -1.0 / 500, 1))
        XCTAssertEqual(p.translation, .zero)
    }

    func testTranslationUnderPerspectiveReadsTheTranslationEntries() {
        // Translate then perspective leaves m44 = 1 − 300/500 = 0.4; translation must still read (1, 2, 300).
        let t = CATransform3DConcat(CATransform3DMakeTranslation(1, 2, 300), perspective500)
        XCTAssertEqual(t.m44, 0.4, accuracy: 1e-15)
        let d = try! XCTUnwrap(t.decomposed())
        assertClose(d.translation, SIMD3(1, 2, 300))
        assertClose(d.perspective, SIMD4(0, 0, -1.0 / 500, 1))
        assertClose(t.translationComponents, SIMD3(1, 2, 300))
    }

    func testSkewIsRecovered() {
        // m21 = 0.5 shears x' = x + 0.5·y. Rows (1,0,0), (0.5,1,0), (0,0,1): Gram–Schmidt takes 0.5 of the
        // first row out of the second, leaving skew xy = 0.5, unit scales and no rotation.
        var t = CATransform3DIdentity
        t.m21 = 0.5
        let d = try! XCTUnwrap(t.decomposed())
        assertClose(d.skew, SIMD3(0.5, 0, 0))
        assertClose(d.scale, SIMD3(1, 1, 1))
        assertClose(d.quaternion, SIMD4(0, 0, 0, 1))
    }

    func testRecomposeRoundTripsRandomTransforms() {
        var rng = SplitMix64(seed: 42)
        for i in 0..<200 {
            let sx = 0.2 + 3 * rng.unit(), sy = 0.2 + 3 * rng.unit(), sz = 0.2 + 3 * rng.unit()
            var t = CATransform3DMakeScale(i % 4 == 0 ? -sx : sx, sy, sz)
            if i % 3 == 0 {
                var skew = CATransform3DIdentity
                skew.m21 = rng.unit() - 0.5
                skew.m31 = rng.unit() - 0.5
                t = CATransform3DConcat(t, skew)
            }
            t = CATransform3DConcat(t, CATransform3DMakeRotation(rng.unit() * 6 - 3, rng.unit() - 0.5, rng.unit() - 0.5, rng.unit() - 0.5))
            t = CATransform3DConcat(t, CATransform3DMakeTranslation(rng.unit() * 200 - 100, rng.unit() * 200 - 100, rng.unit() * 200 - 100))
            var p = CATransform3DIdentity
            p.m34 = -1 / (300 + 700 * rng.unit())
            if i % 2 == 0 { p.m14 = (rng.unit() - 0.5) * 1e-3 }
            t = CATransform3DConcat(t, p)

            let d = try! XCTUnwrap(t.decomposed())
            XCTAssertEqual((d.quaternion * d.quaternion).sum(), 1, accuracy: 1e-12)
            XCTAssertGreaterThanOrEqual(d.quaternion.w, 0)
            assertTransformsEqual(CATransform3D(decomposition: d), t, accuracy: 1e-9)
        }
    }

    func testRotationQuaternionRoundTripsNearHalfTurns() {
        // Angles near π make w ≈ 0, where a trace-based extraction alone loses precision.
        for axis in [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(1, -2, 0.5)] {
            for angle in [Double.pi, Double.pi - 1e-9, -Double.pi + 1e-3] {
                let t = CATransform3DMakeRotation(angle, axis.x, axis.y, axis.z)
                assertTransformsEqual(CATransform3D(decomposition: try! XCTUnwrap(t.decomposed())), t, accuracy: 1e-12)
            }
        }
    }

    func testSingularTransformDoesNotDecompose() {
        XCTAssertNil(CATransform3DMakeScale(1, 0, 1).decomposed())
        XCTAssertNil(CATransform3D().decomposed())
        var nan = CATransform3DIdentity
        nan.m42 = .nan
        XCTAssertNil(nan.decomposed())
    }

    func testInterpolationEndpointsAreExact() {
        let a = CATransform3DConcat(CATransform3DMakeRotation(0.4, 1, 0, 0), CATransform3DMakeTranslation(5, 6, 7))
        let b = CATransform3DConcat(CATransform3DMakeScale(2, 2, 1), perspective500)
        XCTAssertEqual(a.interpolated(to: b, fraction: 0), a)
        XCTAssertEqual(a.interpolated(to: b, fraction: 1), b)
        // And through the decomposed path, which does not special-case the ends.
        let da = try! XCTUnwrap(a.decomposed()), db = try! XCTUnwrap(b.decomposed())
        assertTransformsEqual(CATransform3D(decomposition: da.interpolated(to: db, fraction: 0)), a, accuracy: 1e-12)
        assertTransformsEqual(CATransform3D(decomposition: da.interpolated(to: db, fraction: 1)), b, accuracy: 1e-12)
    }

    func testHalfwayBetweenZRotationsIsTheHalfAngle() {
        let mid = CATransform3DIdentity.interpolated(to: CATransform3DMakeRotation(.pi / 2, 0, 0, 1), fraction: 0.5)
        assertTransformsEqual(mid, CATransform3DMakeRotation(.pi / 4, 0, 0, 1), accuracy: 1e-12)
        let quarter = CATransform3DIdentity.interpolated(to: CATransform3DMakeRotation(.pi / 2, 0, 0, 1), fraction: 0.25)
        assertTransformsEqual(quarter, CATransform3DMakeRotation(.pi / 8, 0, 0, 1), accuracy: 1e-12)
    }

    func testInterpolationTakesTheShorterArc() {
        // 0 → 3π/2 about z is the same end rotation as −π/2, and the quaternion path takes that way round.
        let mid = CATransform3DIdentity.interpolated(to: CATransform3DMakeRotation(3 * .pi / 2, 0, 0, 1), fraction: 0.5)
        assertTransformsEqual(mid, CATransform3DMakeRotation(-.pi / 4, 0, 0, 1), accuracy: 1e-12)
    }

    func testTranslationAndScaleInterpolateLinearly() {
        let a = CATransform3DMakeTranslation(0, 10, 0)
        let b = CATransform3DConcat(CATransform3DMakeScale(3, 1, 1), CATransform3DMakeTranslation(100, 10, 40))
        let mid = a.interpolated(to: b, fraction: 0.5)
        // Scale (1→3) is 2, translation (0,10,0)→(100,10,40) is (50,10,20).
        assertTransformsEqual(mid, CATransform3DConcat(CATransform3DMakeScale(2, 1, 1), CATransform3DMakeTranslation(50, 10, 20)))
    }

    func testUndecomposableInterpolationIsDiscrete() {
        let flat = CATransform3DMakeScale(1, 0, 1)
        let b = CATransform3DMakeTranslation(10, 0, 0)
        XCTAssertEqual(flat.interpolated(to: b, fraction: 0.49), flat)
        XCTAssertEqual(flat.interpolated(to: b, fraction: 0.5), b)
    }

    func testKeyPathAccessors() {
        // Rotate about x by 0.3, then y by −0.5, then z by 1.1: Euler angles come back in that order.
        let r = CATransform3DConcat(CATransform3DConcat(CATransform3DMakeRotation(0.3, 1, 0, 0),
                                                        CATransform3DMakeRotation(-0.5, 0, 1, 0)),
                                    CATransform3DMakeRotation(1.1, 0, 0, 1))
        assertClose(r.rotationAngles, SIMD3(0.3, -0.5, 1.1))
        assertClose(CATransform3DMakeRotation(2.0, 0, 0, 1).rotationAngles, SIMD3(0, 0, 2.0))
        assertClose(CATransform3DMakeRotation(-0.7, 1, 0, 0).rotationAngles, SIMD3(-0.7, 0, 0))

        let t = CATransform3DConcat(CATransform3DConcat(CATransform3DMakeScale(2, 3, 4), r), CATransform3DMakeTranslation(7, 8, 9))
        assertClose(t.scaleComponents, SIMD3(2, 3, 4))
        assertClose(t.translationComponents, SIMD3(7, 8, 9))
        assertClose(t.rotationAngles, SIMD3(0.3, -0.5, 1.1))

        // Gimbal lock (y = π/2): x folds into z, and the rotation is still reproduced.
        let locked = CATransform3DConcat(CATransform3DMakeRotation(.pi / 2, 0, 1, 0), CATransform3DMakeRotation(0.4, 0, 0, 1))
        let angles = locked.rotationAngles
        assertClose(angles, SIMD3(0, .pi / 2, 0.4), accuracy: 1e-6)
    }

    /// A rotation part written into the identity (a spinning layer's every frame) is, bit for bit, the
    /// rotation `CATransform3DMakeRotation` makes about that unit axis: signed zeros, NaN and large
    /// angles included.
    func testRotationPartWrittenIntoTheIdentityIsMakeRotationBitForBit() {
        let angles: [CGFloat] = [0, -0.0, 0.3, -2.5, .pi, 1e6, -1e-300, .nan, .infinity]
        for axis in 0...2 {
            for angle in angles {
                var written = CATransform3DIdentity
                XCTAssertTrue(written.replaceAnimatedPart(.rotation(axis), with: angle))
                let made = CATransform3DMakeRotation(angle, axis == 0 ? 1 : 0, axis == 1 ? 1 : 0, axis == 2 ? 1 : 0)
                XCTAssertEqual(bits(of: written), bits(of: made), "axis \(axis), angle \(angle)")
            }
        }
        // Worked out: a quarter turn about z maps x to y (rows: m11 m12 = cos, sin).
        var quarter = CATransform3DIdentity
        _ = quarter.replaceAnimatedPart(.rotation(2), with: .pi / 2)
        XCTAssertEqual(quarter.m12, 1)
        XCTAssertEqual(quarter.m21, -1)
        XCTAssertEqual(quarter.m11, cos(.pi / 2))
        XCTAssertEqual(quarter.m33, 1)
    }

    /// The spin's sine and cosine come from one call (glibc's sincos): the same bits as `sin` and `cos`
    /// give, over angles of every magnitude from a turn's fraction to 10^300, either sign.
    func testARotationPartHoldsTheBitsOfSinAndCosOverEveryMagnitude() {
        var random = SplitMix64(seed: 3)
        for index in 0..<200_000 {
            let bits = random.next()
            let mantissa = Double(bits >> 11) / Double(1 << 53)
            let magnitude = index % 4 == 0 ? 1e300 * mantissa : index % 4 == 1 ? 1e6 * mantissa : 8 * mantissa
            let angle = (bits & 1 == 0 ? 1 : -1) * magnitude
            var written = CATransform3DIdentity
            _ = written.replaceAnimatedPart(.rotation(2), with: angle)
            XCTAssertEqual(Double(written.m11).bitPattern, cos(angle).bitPattern, "cos \(angle)")
            XCTAssertEqual(Double(written.m12).bitPattern, (0 + sin(angle)).bitPattern, "sin \(angle)")
            if Double(written.m11).bitPattern != cos(angle).bitPattern { return }
        }
    }

    private func bits(of t: CATransform3D) -> [UInt64] {
        [t.m11, t.m12, t.m13, t.m14, t.m21, t.m22, t.m23, t.m24, t.m31, t.m32, t.m33, t.m34, t.m41, t.m42, t.m43, t.m44].map { Double($0).bitPattern }
    }
}
