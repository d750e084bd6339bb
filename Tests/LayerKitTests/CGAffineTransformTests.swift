import Foundation
import XCTest
@testable import LayerKit
import LayerKitTestSupport

final class CGAffineTransformTests: XCTestCase {
    private func assertEqual(_ t: CGAffineTransform, _ u: CGAffineTransform, accuracy: CGFloat = 1e-12,
                             file: StaticString = #filePath, line: UInt = #line) {
        let pairs = [(t.a, u.a), (t.b, u.b), (t.c, u.c), (t.d, u.d), (t.tx, u.tx), (t.ty, u.ty)]
        for (x, y) in pairs where abs(x - y) > accuracy {
            XCTFail("\(t) is not \(u)", file: file, line: line)
            return
        }
    }

    private func assertEqual(_ p: CGPoint, _ q: CGPoint, accuracy: CGFloat = 1e-12,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(p.x, q.x, accuracy: accuracy, "x of \(p) vs \(q)", file: file, line: line)
        XCTAssertEqual(p.y, q.y, accuracy: accuracy, "y of \(p) vs \(q)", file: file, line: line)
    }

    func testIdentityIsIdentityAndZeroInitIsNot() {
        XCTAssertTrue(CGAffineTransform.identity.isIdentity)
        XCTAssertEqual(CGAffineTransform.identity, CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0))
        // Apple's C-struct init() is all zeros, not the identity.
        XCTAssertEqual(CGAffineTransform(), CGAffineTransform(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0))
        XCTAssertFalse(CGAffineTransform().isIdentity)
        XCTAssertFalse(CGAffineTransform(translationX: 0, y: 1e-300).isIdentity)
    }

    func testPointMapsAsRowVector() {
        // x' = a·x + c·y + tx = 1·2 + 3·3 + 5 = 16;  y' = b·x + d·y + ty = 2·2 + 4·3 + 6 = 22.
        let t = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        XCTAssertEqual(CGPoint(x: 2, y: 3).applying(t), CGPoint(x: 16, y: 22))
    }

    func testRotationByHalfPiTakesXAxisToYAxis() {
        let t = CGAffineTransform(rotationAngle: .pi / 2)
        assertEqual(CGPoint(x: 1, y: 0).applying(t), CGPoint(x: 0, y: 1))
        assertEqual(CGPoint(x: 0, y: 1).applying(t), CGPoint(x: -1, y: 0))
        assertEqual(t, CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0))
    }

    func testConcatenatingIsSelfThenArgument() {
        // Worked by hand, t1·t2 with rows [a b; c d; tx ty]:
        // a = 1·7 + 2·9 = 25, b = 1·8 + 2·10 = 28, c = 3·7 + 4·9 = 57, d = 3·8 + 4·10 = 64,
        // tx = 5·7 + 6·9 + 11 = 100, ty = 5·8 + 6·10 + 12 = 112.
        let t1 = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let t2 = CGAffineTransform(a: 7, b: 8, c: 9, d: 10, tx: 11, ty: 12)
        XCTAssertEqual(t1.concatenating(t2), CGAffineTransform(a: 25, b: 28, c: 57, d: 64, tx: 100, ty: 112))

        // Non-commuting pair: translate then rotate moves the origin to (0, 10); the other order to (10, 0).
        let translate = CGAffineTransform(translationX: 10, y: 0)
        let rotate = CGAffineTransform(rotationAngle: .pi / 2)
        assertEqual(CGPoint.zero.applying(translate.concatenating(rotate)), CGPoint(x: 0, y: 10))
        assertEqual(CGPoint.zero.applying(rotate.concatenating(translate)), CGPoint(x: 10, y: 0))
    }

    func testTranslatedScaledRotatedApplyTheNewOperationFirst() {
        // scale(2, 3) then translatedBy(1, 1): the translation happens first, so the origin goes
        // (0,0) → (1,1) → (2,3); the matrix is [2 0; 0 3; 2 3].
        let t = CGAffineTransform(scaleX: 2, y: 3).translatedBy(x: 1, y: 1)
        XCTAssertEqual(t, CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 2, ty: 3))

        let base = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        XCTAssertEqual(base.scaledBy(x: 2, y: 5), CGAffineTransform(scaleX: 2, y: 5).concatenating(base))
        XCTAssertEqual(base.rotated(by: 0.7), CGAffineTransform(rotationAngle: 0.7).concatenating(base))
        XCTAssertEqual(base.translatedBy(x: -3, y: 4), CGAffineTransform(translationX: -3, y: 4).concatenating(base))
    }

    func testInvertedUndoesRandomTransforms() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let t = CGAffineTransform(a: rng.unit() * 4 - 2, b: rng.unit() * 4 - 2, c: rng.unit() * 4 - 2,
                                      d: rng.unit() * 4 - 2, tx: rng.unit() * 200 - 100, ty: rng.unit() * 200 - 100)
            guard abs(t.a * t.d - t.b * t.c) > 0.05 else { continue }
            assertEqual(t.concatenating(t.inverted()), .identity, accuracy: 1e-9)
            assertEqual(t.inverted().concatenating(t), .identity, accuracy: 1e-9)
        }
    }

    func testInvertedOfSingularTransformIsUnchanged() {
        let singular = CGAffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 3, ty: 4)
        XCTAssertEqual(singular.inverted(), singular)
        XCTAssertEqual(CGAffineTransform(scaleX: 0, y: 1).inverted(), CGAffineTransform(scaleX: 0, y: 1))
    }

    func testInvertedOfTranslationAndScaleByHand() {
        XCTAssertEqual(CGAffineTransform(translationX: 3, y: -4).inverted(), CGAffineTransform(translationX: -3, y: 4))
        XCTAssertEqual(CGAffineTransform(scaleX: 2, y: 4).inverted(), CGAffineTransform(scaleX: 0.5, y: 0.25))
    }

    func testSizeIgnoresTranslation() {
        // (w, h) = (2, 3) through [1 2; 3 4; 100 100]: (1·2 + 3·3, 2·2 + 4·3) = (11, 16).
        let t = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 100, ty: 100)
        XCTAssertEqual(CGSize(width: 2, height: 3).applying(t), CGSize(width: 11, height: 16))
        XCTAssertEqual(CGSize(width: 2, height: 3).applying(CGAffineTransform(scaleX: -1, y: 1)), CGSize(width: -2, height: 3))
    }

    func testRectBoundingBoxOfRotatedRect() {
        // (0,0,2,1) rotated by π/2: corners (0,0)→(0,0), (2,0)→(0,2), (0,1)→(−1,0), (2,1)→(−1,2).
        let r = CGRect(x: 0, y: 0, width: 2, height: 1).applying(CGAffineTransform(rotationAngle: .pi / 2))
        XCTAssertEqual(r.minX, -1, accuracy: 1e-12)
        XCTAssertEqual(r.minY, 0, accuracy: 1e-12)
        XCTAssertEqual(r.width, 1, accuracy: 1e-12)
        XCTAssertEqual(r.height, 2, accuracy: 1e-12)

        // Square (0,0,2,2) rotated by π/4: x spans ±√2, y spans 0…2√2.
        let s = CGRect(x: 0, y: 0, width: 2, height: 2).applying(CGAffineTransform(rotationAngle: .pi / 4))
        XCTAssertEqual(s.minX, -2.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(s.maxX, 2.squareRoot(), accuracy: 1e-12)
        XCTAssertEqual(s.minY, 0, accuracy: 1e-12)
        XCTAssertEqual(s.maxY, 2 * 2.squareRoot(), accuracy: 1e-12)
    }

    func testRectNullStaysNullAndNegativeSizesAreStandardized() {
        XCTAssertTrue(CGRect.null.applying(CGAffineTransform(translationX: 5, y: 5)).isNull)
        XCTAssertTrue(CGRect.infinite.applying(CGAffineTransform(scaleX: 2, y: 2)).isInfinite)
        let r = CGRect(x: 10, y: 10, width: -4, height: -2).applying(CGAffineTransform(translationX: 1, y: 1))
        XCTAssertEqual(r, CGRect(x: 7, y: 9, width: 4, height: 2))
    }
}
