import Foundation
import XCTest
import LayerKit

final class CGPathBoundingBoxTests: XCTestCase {
    func testEllipseTightBoxEqualsItsRect() {
        // All of an ellipse's control points lie on its rect's edges, so both boxes are the rect.
        let rect = CGRect(x: 40, y: 40, width: 200, height: 40)
        let path = CGPath(ellipseIn: rect, transform: nil)
        assertCGRectsEqual(path.boundingBoxOfPath, rect)
        assertCGRectsEqual(path.boundingBox, rect)
    }

    func testCircleStartingAt45DegreesHasControlPointsOutsideTheCircle() {
        // A full circle r 50 around (100, 100) starting at 45°: its four cubics span 45°–135° and so on,
        // so each extreme (top, left, …) is the exact midpoint of a segment and the tight box is the
        // circle's (50, 50, 100, 100). The controls of the 45°–135° segment sit at
        // r·(sin 45°)(1 + k) = 50 · 0.70711 · 1.55228 = 54.8816 above the centre (k = 4/3·tan(π/8)),
        // and likewise on every side: the control box is 100 ± 54.8816.
        let path = CGMutablePath()
        path.addArc(center: CGPoint(x: 100, y: 100), radius: 50, startAngle: .pi / 4, endAngle: .pi / 4 + 2 * .pi, clockwise: false)
        XCTAssertEqual(path.elements.count, 5)
        assertCGRectsEqual(path.boundingBoxOfPath, CGRect(x: 50, y: 50, width: 100, height: 100))
        let reach: CGFloat = 54.881_553_646_890_86
        assertCGRectsEqual(path.boundingBox, CGRect(x: 100 - reach, y: 100 - reach, width: 2 * reach, height: 2 * reach), accuracy: 1e-9)
    }

    func testSymmetricCubicPeaksAtThreeQuartersOfControlHeight() {
        // (0,0) (0,100) (100,100) (100,0): y(t) = 300·t(1 - t), largest at t = 1/2 where y = 75;
        // x(t) = 300t² - 200t³ rises monotonically from 0 to 100. Tight box (0, 0, 100, 75); the
        // control box reaches y = 100.
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addCurve(to: CGPoint(x: 100, y: 0), control1: CGPoint(x: 0, y: 100), control2: CGPoint(x: 100, y: 100))
        assertCGRectsEqual(path.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 100, height: 75))
        assertCGRectsEqual(path.boundingBox, CGRect(x: 0, y: 0, width: 100, height: 100))
    }

    func testAsymmetricCubicExtremaSolvedByHand() {
        // y controls 0, 90, -30, 0: y'(t)/3 = 360t² - 420t + 90, i.e. 12t² - 14t + 3 = 0, so
        // t = (14 ± √52) / 24 = 0.282871 and 0.883796. With y(t) = 270t(1 - t)² - 90t²(1 - t):
        // y(0.282871) = 34.113403 (maximum) and y(0.883796) = -4.946736 (minimum).
        // x controls 0, 30, 60, 90 make x(t) = 90t: monotone, so x spans 0…90.
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addCurve(to: CGPoint(x: 90, y: 0), control1: CGPoint(x: 30, y: 90), control2: CGPoint(x: 60, y: -30))
        let box = path.boundingBoxOfPath
        XCTAssertEqual(box.minX, 0, accuracy: 1e-12)
        XCTAssertEqual(box.maxX, 90, accuracy: 1e-12)
        XCTAssertEqual(box.maxY, 34.113403, accuracy: 1e-6)
        XCTAssertEqual(box.minY, -4.946736, accuracy: 1e-6)
        assertCGRectsEqual(path.boundingBox, CGRect(x: 0, y: -30, width: 90, height: 120))
    }

    func testQuadraticPeakIsHalfTheControlHeight() {
        // (0,0) control (50,100) to (100,0): y(t) = 200t(1 - t), peak 50 at t = 1/2.
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addQuadCurve(to: CGPoint(x: 100, y: 0), control: CGPoint(x: 50, y: 100))
        assertCGRectsEqual(path.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 100, height: 50))
        assertCGRectsEqual(path.boundingBox, CGRect(x: 0, y: 0, width: 100, height: 100))
    }

    func testQuadraticExtremumInXAlone() {
        // (0,0) control (100,50) to (0,100): x(t) = 200t(1 - t) peaks at 50; y is linear 0…100.
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addQuadCurve(to: CGPoint(x: 0, y: 100), control: CGPoint(x: 100, y: 50))
        assertCGRectsEqual(path.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 50, height: 100))
    }

    func testLinesAndMovesAreBoxedByTheirPoints() {
        // A trailing move is a point of the path: both boxes include it.
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 50, y: 50))
        path.addLine(to: CGPoint(x: 25, y: 25))
        path.addLine(to: CGPoint(x: 100, y: 200))
        assertCGRectsEqual(path.boundingBox, CGRect(x: 25, y: 25, width: 75, height: 175), accuracy: 0)
        path.move(to: CGPoint(x: -10, y: 0))
        assertCGRectsEqual(path.boundingBox, CGRect(x: -10, y: 0, width: 110, height: 200), accuracy: 0)
        assertCGRectsEqual(path.boundingBoxOfPath, CGRect(x: -10, y: 0, width: 110, height: 200), accuracy: 0)
    }

    func testSinglePointPathHasZeroSizeBox() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 3, y: 4))
        XCTAssertEqual(path.boundingBox, CGRect(x: 3, y: 4, width: 0, height: 0))
        XCTAssertFalse(path.boundingBox.isNull)
    }

    func testRotatedRectCopyBoxesTheRotatedCorners() {
        // A 10 × 10 square at the origin rotated 45°: corners (0,0), (7.0711, 7.0711), (0, 14.1421),
        // (-7.0711, 7.0711). Box: x -7.0711…7.0711, y 0…14.1421.
        var t = CGAffineTransform(rotationAngle: .pi / 4)
        let path = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: &t)
        let half = 10 / CGFloat(2).squareRoot()
        assertCGRectsEqual(path.boundingBoxOfPath, CGRect(x: -half, y: 0, width: 2 * half, height: 2 * half))
        assertCGRectsEqual(path.boundingBox, path.boundingBoxOfPath)
    }
}
