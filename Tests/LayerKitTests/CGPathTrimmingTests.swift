import Foundation
import XCTest
@testable import LayerKit

/// Trimming paths by arc length (`strokeStart`/`strokeEnd`): lengths worked out from the geometry
/// (perimeters, 2πr), cut points from proportions of them.
final class CGPathTrimmingTests: XCTestCase {
    private func square() -> CGPath {
        // 10 × 10 from (0, 0): sides (0,0)→(10,0)→(10,10)→(0,10)→back, 40 long.
        CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
    }

    func testArcLengthOfLinesRectanglesAndCircles() {
        let line = CGMutablePath()
        line.move(to: CGPoint(x: 1, y: 1))
        line.addLine(to: CGPoint(x: 4, y: 5))
        XCTAssertEqual(line.arcLength, 5, accuracy: 1e-12)
        XCTAssertEqual(square().arcLength, 40, accuracy: 1e-12)
        // A circle of four cubic arcs: 2πr within the cubic approximation's 0.03 % radial error.
        let circle = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 40, height: 40), transform: nil)
        XCTAssertEqual(Double(circle.arcLength), 2 * .pi * 20, accuracy: 2 * .pi * 20 * 3e-4)
        // Quadratics measure as themselves: (0,0)–(10,0)–(20,0) is a straight 20.
        let quad = CGMutablePath()
        quad.move(to: .zero)
        quad.addQuadCurve(to: CGPoint(x: 20, y: 0), control: CGPoint(x: 10, y: 0))
        XCTAssertEqual(quad.arcLength, 20, accuracy: 1e-9)
        XCTAssertEqual(CGMutablePath().arcLength, 0)
    }

    func testHalfOfASquareIsExactlyTwoSides() {
        let half = square().trimmed(from: 0, to: 0.5)
        XCTAssertEqual(half.elements, [
            CGPathElement(type: .moveToPoint, points: [CGPoint(x: 0, y: 0)]),
            CGPathElement(type: .addLineToPoint, points: [CGPoint(x: 10, y: 0)]),
            CGPathElement(type: .addLineToPoint, points: [CGPoint(x: 10, y: 10)]),
        ])
    }

    func testStartAndEndCutInsideSegments() {
        // 0.125…0.625 of 40 is 5…25: from the middle of the top side to the middle of the bottom side.
        let part = square().trimmed(from: 0.125, to: 0.625)
        XCTAssertEqual(part.elements, [
            CGPathElement(type: .moveToPoint, points: [CGPoint(x: 5, y: 0)]),
            CGPathElement(type: .addLineToPoint, points: [CGPoint(x: 10, y: 0)]),
            CGPathElement(type: .addLineToPoint, points: [CGPoint(x: 10, y: 10)]),
            CGPathElement(type: .addLineToPoint, points: [CGPoint(x: 5, y: 10)]),
        ])
        XCTAssertEqual(part.arcLength, 20, accuracy: 1e-12)
    }

    func testAStraightLineEndsAtItsMidpoint() {
        let line = CGMutablePath()
        line.move(to: CGPoint(x: 2, y: 10))
        line.addLine(to: CGPoint(x: 42, y: 10))
        XCTAssertEqual(line.trimmed(from: 0, to: 0.5).currentPoint, CGPoint(x: 22, y: 10))
        XCTAssertEqual(line.trimmed(from: 0.25, to: 1).elements.first?.points, [CGPoint(x: 12, y: 10)])
    }

    func testTheWholeRangeKeepsThePathAndAClosedSubpathInsideStaysClosed() {
        let path = square()
        XCTAssertTrue(path.trimmed(from: 0, to: 1) === path)
        // Two squares; the range covers all of the second one, which must stay closed.
        let two = CGMutablePath()
        two.addRect(CGRect(x: 0, y: 0, width: 10, height: 10))
        two.addRect(CGRect(x: 20, y: 0, width: 10, height: 10))
        let trimmed = two.trimmed(from: 0.25, to: 1)
        XCTAssertEqual(trimmed.elements.last?.type, .closeSubpath)
        XCTAssertEqual(trimmed.elements.filter { $0.type == .closeSubpath }.count, 1, "the cut first square is open")
        XCTAssertEqual(trimmed.arcLength, 60, accuracy: 1e-9)
    }

    func testEmptyRangesGiveEmptyPaths() {
        XCTAssertTrue(square().trimmed(from: 0.5, to: 0.5).isEmpty)
        XCTAssertTrue(square().trimmed(from: 0.7, to: 0.2).isEmpty)
        XCTAssertTrue(CGMutablePath().trimmed(from: 0, to: 0.5).isEmpty)
    }

    func testCurvesAreCutAtTheRightLength() {
        // A circle of radius 20 around (20, 20), starting at (40, 20) and running through (20, 40):
        // a quarter of its length ends at (20, 40), half at (0, 20).
        let circle = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 40, height: 40), transform: nil)
        let quarter = circle.trimmed(from: 0, to: 0.25).currentPoint
        XCTAssertEqual(quarter.x, 20, accuracy: 0.01)
        XCTAssertEqual(quarter.y, 40, accuracy: 0.01)
        // An eighth: 45° along, at (20 + 20 cos 45°, 20 + 20 sin 45°), within the cubic's radial error.
        let eighth = circle.trimmed(from: 0, to: 0.125).currentPoint
        XCTAssertEqual(Double(eighth.x), 20 + 20 * cos(Double.pi / 4), accuracy: 0.02)
        XCTAssertEqual(Double(eighth.y), 20 + 20 * sin(Double.pi / 4), accuracy: 0.02)
        // The pieces are curves, and their lengths add up.
        let piece = circle.trimmed(from: 0.1, to: 0.3)
        XCTAssertTrue(piece.elements.contains { $0.type == .addCurveToPoint })
        XCTAssertEqual(Double(piece.arcLength), 0.2 * Double(circle.arcLength), accuracy: 0.01)
    }
}
