import XCTest
@testable import LayerKitRender
import LayerKitTestSupport

/// `PlaneHomography`: when it is invertible (the rule `inverted()` applies, which `isInvertible` answers
/// without working the inverse out), and that the inverse undoes the map. No GPU.
final class PlaneHomographyTests: XCTestCase {
    func testSingularMapsHaveNoInverseAndAFarTranslationStaysInvertible() {
        XCTAssertTrue(PlaneHomography.identity.isInvertible)
        // A zero scale in y: the determinant is 0.
        let flattened = PlaneHomography(r0: SIMD3(2, 0, 0), r1: SIMD3(0, 0, 0), r2: SIMD3(5, 7, 1))
        XCTAssertFalse(flattened.isInvertible)
        XCTAssertNil(flattened.inverted())
        // Scale 1e-7 in both axes: det 1e-14 against the rows' product 1e-14 · 1: invertible (relative rule).
        let tiny = PlaneHomography(r0: SIMD3(1e-7, 0, 0), r1: SIMD3(0, 1e-7, 0), r2: SIMD3(0, 0, 1))
        XCTAssertTrue(tiny.isInvertible)
        // A translation of 1e9 lengthens one row only: still invertible, det 1 against 1e9.
        let far = PlaneHomography(r0: SIMD3(1, 0, 0), r1: SIMD3(0, 1, 0), r2: SIMD3(1e9, 0, 1))
        XCTAssertTrue(far.isInvertible)
        // Rows nearly parallel: det 1e-13 against about 2 · 1: singular by the rule.
        let nearlyParallel = PlaneHomography(r0: SIMD3(1, 1, 0), r1: SIMD3(1, 1 + 1e-13, 0), r2: SIMD3(0, 0, 1))
        XCTAssertFalse(nearlyParallel.isInvertible)
        XCTAssertNil(nearlyParallel.inverted())
        // Not finite: no inverse.
        XCTAssertFalse(PlaneHomography(r0: SIMD3(.nan, 0, 0), r1: SIMD3(0, 1, 0), r2: SIMD3(0, 0, 1)).isInvertible)
    }

    func testIsInvertibleAnswersAsInvertedDoesAndTheInverseUndoesTheMap() {
        var random = SplitMix64(seed: 5)
        func unit() -> Double { Double(random.next() >> 11) / Double(1 << 53) * 2 - 1 }
        var invertible = 0
        for trial in 0..<500 {
            // Every fifth map has a row that is a multiple of another (singular).
            let r0 = SIMD3(unit(), unit(), unit() * 0.01), r2 = SIMD3(unit() * 100, unit() * 100, 1)
            let r1 = trial % 5 == 0 ? r0 * 3 : SIMD3(unit(), unit(), unit() * 0.01)
            let map = PlaneHomography(r0: r0, r1: r1, r2: r2)
            XCTAssertEqual(map.isInvertible, map.inverted() != nil)
            guard let inverse = map.inverted() else { continue }
            invertible += 1
            let back = map.concatenating(inverse)
            for (row, unitRow) in [(back.r0, SIMD3<Double>(1, 0, 0)), (back.r1, SIMD3(0, 1, 0)), (back.r2, SIMD3(0, 0, 1))] {
                XCTAssertLessThan(((row - unitRow) * (row - unitRow)).sum().squareRoot(), 1e-6)
            }
        }
        XCTAssertGreaterThan(invertible, 350)
        XCTAssertLessThanOrEqual(invertible, 400)
    }
}
