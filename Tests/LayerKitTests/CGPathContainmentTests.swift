import Foundation
import XCTest
import LayerKit

final class CGPathContainmentTests: XCTestCase {
    private func point(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y) }

    /// The point at `radius` and `degrees` around `center`.
    private func polar(_ center: CGPoint, _ radius: CGFloat, _ degrees: CGFloat) -> CGPoint {
        let a = degrees * .pi / 180
        return CGPoint(x: center.x + radius * cos(a), y: center.y + radius * sin(a))
    }

    func testRectContainsInteriorNotExterior() {
        let path = CGPath(rect: CGRect(x: 10, y: 20, width: 100, height: 50), transform: nil)
        for rule in [CGPathFillRule.winding, .evenOdd] {
            XCTAssertTrue(path.contains(point(11, 21), using: rule))
            XCTAssertTrue(path.contains(point(109, 69), using: rule))
            XCTAssertFalse(path.contains(point(9, 40), using: rule))
            XCTAssertFalse(path.contains(point(111, 40), using: rule))
            XCTAssertFalse(path.contains(point(50, 19), using: rule))
            XCTAssertFalse(path.contains(point(50, 71), using: rule))
        }
    }

    func testOverlappingRectsSameDirectionDifferByRule() {
        // Both rects run the same way, so their overlap (50…100)² is wound twice: inside for winding,
        // outside for even-odd. Parts covered once are inside for both.
        let path = CGMutablePath()
        path.addRect(CGRect(x: 0, y: 0, width: 100, height: 100))
        path.addRect(CGRect(x: 50, y: 50, width: 100, height: 100))
        XCTAssertTrue(path.contains(point(75, 75), using: .winding))
        XCTAssertFalse(path.contains(point(75, 75), using: .evenOdd))
        for rule in [CGPathFillRule.winding, .evenOdd] {
            XCTAssertTrue(path.contains(point(25, 25), using: rule))
            XCTAssertTrue(path.contains(point(125, 125), using: rule))
            XCTAssertFalse(path.contains(point(125, 25), using: rule))
            XCTAssertFalse(path.contains(point(200, 200), using: rule))
        }
    }

    func testOverlappingRectsOppositeDirectionsCancelUnderWinding() {
        // The second rect is drawn the other way round (min corner, then down the min-x side), so the
        // overlap winds +1 - 1 = 0: outside for both rules.
        let path = CGMutablePath()
        path.addRect(CGRect(x: 0, y: 0, width: 100, height: 100))
        path.addLines(between: [point(50, 50), point(50, 150), point(150, 150), point(150, 50)])
        path.closeSubpath()
        XCTAssertFalse(path.contains(point(75, 75), using: .winding))
        XCTAssertFalse(path.contains(point(75, 75), using: .evenOdd))
        XCTAssertTrue(path.contains(point(125, 125), using: .winding))
    }

    func testPentagramCentreIsInsideForWindingOutsideForEvenOdd() {
        // Five points on a circle of radius 100 around (100, 100) at 90° + 72°·k, joined every second
        // one (0, 2, 4, 1, 3). The inner pentagon (inradius-to-vertex 38.2) is wound twice; each tip once.
        // Windings checked separately with a plain polygon winding count: centre 2, (100, 185) in the top
        // tip 1, (100, 205) beyond the tip 0, and (64.73, 148.54) — radius 60 at 126°, between two tips
        // and outside the inner pentagon — 0.
        let centre = point(100, 100)
        let vertices = (0 ..< 5).map { polar(centre, 100, 90 + 72 * CGFloat($0)) }
        let path = CGMutablePath()
        path.addLines(between: [0, 2, 4, 1, 3].map { vertices[$0] })
        path.closeSubpath()

        XCTAssertTrue(path.contains(centre, using: .winding))
        XCTAssertFalse(path.contains(centre, using: .evenOdd))
        for rule in [CGPathFillRule.winding, .evenOdd] {
            XCTAssertTrue(path.contains(point(100, 185), using: rule))
            XCTAssertFalse(path.contains(point(100, 205), using: rule))
            XCTAssertFalse(path.contains(polar(centre, 60, 126), using: rule))
        }
    }

    func testDonutOfOppositeCirclesHasAHoleUnderBothRules() {
        // Outer circle r 100 from addEllipse (increasing angle); inner r 50 as an arc with clockwise: true
        // (decreasing). Inside the hole the windings cancel (+1 - 1 = 0).
        let centre = point(200, 200)
        let path = CGMutablePath()
        path.addEllipse(in: CGRect(x: 100, y: 100, width: 200, height: 200))
        path.move(to: point(250, 200))
        path.addArc(center: centre, radius: 50, startAngle: 0, endAngle: -2 * .pi, clockwise: true)
        path.closeSubpath()
        for rule in [CGPathFillRule.winding, .evenOdd] {
            XCTAssertFalse(path.contains(centre, using: rule), "hole, \(rule)")
            XCTAssertFalse(path.contains(polar(centre, 45, 30), using: rule), "hole, \(rule)")
            XCTAssertTrue(path.contains(polar(centre, 75, 30), using: rule), "ring, \(rule)")
            XCTAssertTrue(path.contains(polar(centre, 75, 250), using: rule), "ring, \(rule)")
            XCTAssertFalse(path.contains(polar(centre, 105, 30), using: rule), "outside, \(rule)")
        }
    }

    func testDonutOfSameDirectionCirclesFillsHoleOnlyUnderWinding() {
        // Both circles increase the angle: the hole is wound twice.
        let centre = point(200, 200)
        let path = CGMutablePath()
        path.addEllipse(in: CGRect(x: 100, y: 100, width: 200, height: 200))
        path.addEllipse(in: CGRect(x: 150, y: 150, width: 100, height: 100))
        XCTAssertTrue(path.contains(centre, using: .winding))
        XCTAssertFalse(path.contains(centre, using: .evenOdd))
    }

    func testCircleBoundaryIsFollowedNotTheControlPolygon() {
        // A circle of radius 100: points half a unit inside the curve are in, half a unit outside are
        // out, at angles that fall mid-segment and at segment ends. The cubic approximation strays under
        // 0.03 from the true circle, well inside the margin.
        let centre = point(0, 0)
        let circle = CGPath(ellipseIn: CGRect(x: -100, y: -100, width: 200, height: 200), transform: nil)
        for degrees in stride(from: CGFloat(0), to: 360, by: 15) {
            XCTAssertTrue(circle.contains(polar(centre, 99.5, degrees)), "inside at \(degrees)°")
            XCTAssertFalse(circle.contains(polar(centre, 100.5, degrees)), "outside at \(degrees)°")
        }
        // Within the control polygon's corner but outside the curve.
        XCTAssertFalse(circle.contains(point(80, 80)))
    }

    func testQuadraticRegionUsesTheCurveNotItsControlPoint() {
        // Move (0, 0), quad with control (50, 100) to (100, 0), closed by the chord: the curve peaks at
        // t = 1/2, y = 2·(1/2)(1/2)·100 = 50. (50, 40) is under the arch; (50, 60) is above it but still
        // inside the control triangle.
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addQuadCurve(to: point(100, 0), control: point(50, 100))
        path.closeSubpath()
        XCTAssertTrue(path.contains(point(50, 40)))
        XCTAssertFalse(path.contains(point(50, 60)))
        // At x = 10 the arch is at y = 18 (t = 0.1: 2·0.1·0.9·100).
        XCTAssertTrue(path.contains(point(10, 17)))
        XCTAssertFalse(path.contains(point(10, 19)))
    }

    func testOpenSubpathsAreClosedImplicitly() {
        // Two open triangles, (100,0) (0,50) (100,100) and the same moved right by 200. Each is inside at
        // y = 50 only thanks to its missing closing edge, x = 100 (or 300), to the right of the test point:
        // the first is closed by the move that starts the second, the second by the end of the path.
        let path = CGMutablePath()
        path.addLines(between: [point(100, 0), point(0, 50), point(100, 100)])
        path.addLines(between: [point(300, 0), point(200, 50), point(300, 100)])
        for rule in [CGPathFillRule.winding, .evenOdd] {
            XCTAssertTrue(path.contains(point(60, 50), using: rule))
            XCTAssertTrue(path.contains(point(260, 50), using: rule))
            XCTAssertFalse(path.contains(point(150, 50), using: rule))
        }
    }

    func testRayThroughVerticesCountsEachCrossingOnce() {
        // A diamond whose left and right vertices lie exactly on the test ray's y: a vertex counted twice
        // (or not at all) would flip the answer.
        let diamond = CGMutablePath()
        diamond.addLines(between: [point(0, 50), point(50, 0), point(100, 50), point(50, 100)])
        diamond.closeSubpath()
        XCTAssertTrue(diamond.contains(point(50, 50), using: .evenOdd))
        XCTAssertTrue(diamond.contains(point(10, 50), using: .evenOdd))
        XCTAssertFalse(diamond.contains(point(-10, 50), using: .evenOdd))
    }

    func testTransformMapsThePointBeforeTesting() {
        // Core Graphics maps the point, not the path: (-5, -5) moved by (10, 10) is (5, 5), inside.
        let path = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
        XCTAssertFalse(path.contains(point(-5, -5)))
        XCTAssertTrue(path.contains(point(-5, -5), transform: CGAffineTransform(translationX: 10, y: 10)))
        XCTAssertFalse(path.contains(point(5, 5), transform: CGAffineTransform(translationX: 10, y: 10)))
    }

    func testTransformedCopyContainsMappedPoints() {
        // Scaling by (3, 1/2) maps the unit circle's interior point (0.9, 0) to (2.7, 0), and (0, 0.9) to
        // (0, 0.45); (0, 0.55) maps from outside.
        var t = CGAffineTransform(scaleX: 3, y: 0.5)
        let ellipse = CGPath(ellipseIn: CGRect(x: -1, y: -1, width: 2, height: 2), transform: nil).copy(using: &t)!
        XCTAssertTrue(ellipse.contains(point(2.7, 0)))
        XCTAssertTrue(ellipse.contains(point(0, 0.45)))
        XCTAssertFalse(ellipse.contains(point(0, 0.55)))
        XCTAssertFalse(ellipse.contains(point(3.1, 0)))
    }

    func testEmptyPathAndNonFinitePointContainNothing() {
        XCTAssertFalse(CGMutablePath().contains(.zero))
        let path = CGPath(rect: CGRect(x: -10, y: -10, width: 20, height: 20), transform: nil)
        XCTAssertFalse(path.contains(point(CGFloat.nan, 0)))
        XCTAssertFalse(path.contains(point(0, CGFloat.infinity)))
    }

    func testRoundedRectCornersAreCutAway() {
        // Rect (10, 20, 100, 200) with radius-10 corners: (11, 21) lies in the cut-away corner (its
        // distance from the corner centre (20, 30) is 12.7 > 10); (20, 30) is the centre itself.
        let path = CGPath(roundedRect: CGRect(x: 10, y: 20, width: 100, height: 200), cornerWidth: 10, cornerHeight: 10, transform: nil)
        XCTAssertFalse(path.contains(point(11, 21)))
        XCTAssertTrue(path.contains(point(20, 30)))
        XCTAssertTrue(path.contains(point(14, 24)), "distance 8.5 from the corner centre")
        XCTAssertFalse(path.contains(point(12, 22)), "distance 11.3 from the corner centre")
    }
}
