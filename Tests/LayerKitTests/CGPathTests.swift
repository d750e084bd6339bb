import Foundation
import XCTest
import LayerKit

// Element shorthands for expectations, shared by the CGPath test files.
extension CGPathElement {
    static func move(_ x: CGFloat, _ y: CGFloat) -> CGPathElement {
        CGPathElement(type: .moveToPoint, points: [CGPoint(x: x, y: y)])
    }
    static func line(_ x: CGFloat, _ y: CGFloat) -> CGPathElement {
        CGPathElement(type: .addLineToPoint, points: [CGPoint(x: x, y: y)])
    }
    static func quad(_ cx: CGFloat, _ cy: CGFloat, _ x: CGFloat, _ y: CGFloat) -> CGPathElement {
        CGPathElement(type: .addQuadCurveToPoint, points: [CGPoint(x: cx, y: cy), CGPoint(x: x, y: y)])
    }
    static func cubic(_ c1x: CGFloat, _ c1y: CGFloat, _ c2x: CGFloat, _ c2y: CGFloat, _ x: CGFloat, _ y: CGFloat) -> CGPathElement {
        CGPathElement(type: .addCurveToPoint, points: [CGPoint(x: c1x, y: c1y), CGPoint(x: c2x, y: c2y), CGPoint(x: x, y: y)])
    }
    static var close: CGPathElement { CGPathElement(type: .closeSubpath, points: []) }
}

/// Asserts `path` has exactly the `expected` elements, points equal within `accuracy`.
func assertCGPathElements(_ path: CGPath, _ expected: [CGPathElement], accuracy: CGFloat = 1e-9,
                          file: StaticString = #filePath, line: UInt = #line) {
    let actual = path.elements
    guard actual.count == expected.count, zip(actual, expected).allSatisfy({ $0.type == $1.type }) else {
        XCTFail("element types differ:\n  got      \(actual.map(\.type))\n  expected \(expected.map(\.type))\n  \(path.debugDescription)",
                file: file, line: line)
        return
    }
    for (index, (a, e)) in zip(actual, expected).enumerated() {
        for (p, q) in zip(a.points, e.points) where !(abs(p.x - q.x) <= accuracy && abs(p.y - q.y) <= accuracy) {
            XCTFail("element \(index) (\(a.type)): got \(a.points), expected \(e.points)\n  \(path.debugDescription)",
                    file: file, line: line)
            return
        }
    }
}

/// Asserts two rectangles agree edge by edge within `accuracy`.
func assertCGRectsEqual(_ r: CGRect, _ s: CGRect, accuracy: CGFloat = 1e-9,
                        file: StaticString = #filePath, line: UInt = #line) {
    let pairs = [(r.minX, s.minX), (r.minY, s.minY), (r.maxX, s.maxX), (r.maxY, s.maxY)]
    if pairs.contains(where: { !(abs($0.0 - $0.1) <= accuracy) }) {
        XCTFail("\(r) is not \(s)", file: file, line: line)
    }
}

/// Kappa for a 90° arc as one cubic, 4/3·tan(π/8), as the arc code derives it per segment.
let quarterArcKappa: CGFloat = 0.552_284_749_830_793_3

final class CGPathTests: XCTestCase {
    // MARK: Empty path

    func testEmptyPathHasNoElementsZeroCurrentPointAndNullBoxes() {
        let path = CGMutablePath()
        XCTAssertTrue(path.isEmpty)
        XCTAssertEqual(path.elements, [])
        XCTAssertEqual(path.currentPoint, .zero)
        XCTAssertTrue(path.boundingBox.isNull)
        XCTAssertTrue(path.boundingBoxOfPath.isNull)
        XCTAssertFalse(path.isRect(nil))
    }

    func testSegmentsAndCloseWithoutCurrentPointAddNothing() {
        // Core Graphics logs "no current point" and leaves the path alone.
        let path = CGMutablePath()
        path.addLine(to: CGPoint(x: 1, y: 1))
        path.addQuadCurve(to: CGPoint(x: 1, y: 1), control: .zero)
        path.addCurve(to: CGPoint(x: 1, y: 1), control1: .zero, control2: .zero)
        path.addArc(tangent1End: CGPoint(x: 1, y: 0), tangent2End: CGPoint(x: 1, y: 1), radius: 1)
        path.closeSubpath()
        XCTAssertTrue(path.isEmpty)
    }

    func testLoneMoveMakesPathNonEmpty() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 3, y: 4))
        XCTAssertFalse(path.isEmpty)
        XCTAssertEqual(path.currentPoint, CGPoint(x: 3, y: 4))
    }

    // MARK: Primitive elements

    func testLinesAndCurvesAppendInOrderWithTheirPoints() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 400, y: 400))
        path.addQuadCurve(to: CGPoint(x: 110, y: 180), control: CGPoint(x: 140, y: 250))
        path.addCurve(to: CGPoint(x: 0, y: 0), control1: CGPoint(x: 50, y: 60), control2: CGPoint(x: 10, y: 20))
        path.addLine(to: CGPoint(x: 5, y: 6))
        // Point order per Core Graphics: controls first, end point last.
        assertCGPathElements(path, [
            .move(400, 400), .quad(140, 250, 110, 180), .cubic(50, 60, 10, 20, 0, 0), .line(5, 6),
        ], accuracy: 0)
        XCTAssertEqual(path.currentPoint, CGPoint(x: 5, y: 6))
    }

    func testTransformArgumentMapsEveryNewPoint() {
        let path = CGMutablePath()
        let t = CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 10, ty: 20)  // x' = 2x + 10, y' = 3y + 20
        path.move(to: CGPoint(x: 1, y: 1), transform: t)
        path.addLine(to: CGPoint(x: 2, y: 0), transform: t)
        path.addQuadCurve(to: CGPoint(x: 0, y: 2), control: CGPoint(x: 1, y: 1), transform: t)
        assertCGPathElements(path, [.move(12, 23), .line(14, 20), .quad(12, 23, 10, 26)], accuracy: 0)
    }

    func testAddLinesMovesToFirstPointThenLinesToTheRest() {
        let path = CGMutablePath()
        path.addLines(between: [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 5)])
        assertCGPathElements(path, [.move(0, 0), .line(10, 0), .line(10, 5)], accuracy: 0)
        path.addLines(between: [])
        XCTAssertEqual(path.elements.count, 3, "an empty array adds nothing")
    }

    // MARK: Close and the current point

    func testCurrentPointAfterCloseIsTheSubpathStart() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 1, y: 2))
        path.addLine(to: CGPoint(x: 10, y: 2))
        path.addLine(to: CGPoint(x: 10, y: 8))
        path.closeSubpath()
        XCTAssertEqual(path.currentPoint, CGPoint(x: 1, y: 2))
    }

    func testSegmentAfterCloseStartsNewSubpathWithExplicitMove() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 1, y: 2))
        path.addLine(to: CGPoint(x: 10, y: 2))
        path.closeSubpath()
        path.addLine(to: CGPoint(x: 5, y: 9))
        assertCGPathElements(path, [.move(1, 2), .line(10, 2), .close, .move(1, 2), .line(5, 9)], accuracy: 0)
    }

    func testSecondCloseIsIgnored() {
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addLine(to: CGPoint(x: 1, y: 0))
        path.closeSubpath()
        path.closeSubpath()
        assertCGPathElements(path, [.move(0, 0), .line(1, 0), .close], accuracy: 0)
    }

    // MARK: Shapes

    func testAddRectGivesMoveThreeLinesCloseStartingAtMinCorner() {
        // Core Graphics' order: (minX, minY), (maxX, minY), (maxX, maxY), (minX, maxY).
        let path = CGMutablePath()
        path.addRect(CGRect(x: 2, y: 4, width: 8, height: 16))
        assertCGPathElements(path, [.move(2, 4), .line(10, 4), .line(10, 20), .line(2, 20), .close], accuracy: 0)
        XCTAssertEqual(CGPath(rect: CGRect(x: 2, y: 4, width: 8, height: 16), transform: nil), path)
    }

    func testAddRectUsesStandardizedCornersOfNegativeRect() {
        // x: 10 - 8 = 2 … 10, y: 20 - 16 = 4 … 20: the same rectangle as (2, 4, 8, 16).
        let path = CGMutablePath()
        path.addRect(CGRect(x: 10, y: 20, width: -8, height: -16))
        assertCGPathElements(path, [.move(2, 4), .line(10, 4), .line(10, 20), .line(2, 20), .close], accuracy: 0)
    }

    func testAddRectsAddsOneClosedSubpathPerRect() {
        let path = CGMutablePath()
        path.addRects([CGRect(x: 0, y: 0, width: 1, height: 1), CGRect(x: 5, y: 5, width: 2, height: 2)])
        assertCGPathElements(path, [
            .move(0, 0), .line(1, 0), .line(1, 1), .line(0, 1), .close,
            .move(5, 5), .line(7, 5), .line(7, 7), .line(5, 7), .close,
        ], accuracy: 0)
    }

    func testAddEllipseMatchesCoreGraphicsElementsForWideRect() {
        // Rect (40, 40, 200, 40): centre (140, 60), radii 100 and 20. Starts at (maxX, midY) and goes
        // through (midX, maxY) first. Controls sit kappa·radius along the tangents with Core Graphics'
        // kappa 0.5522847498: 100·k = 55.22847498, 20·k = 11.045694996. These are the values Core
        // Graphics itself produces for this rect (recorded in WinObjC's CGPath tests).
        let path = CGMutablePath()
        path.addEllipse(in: CGRect(x: 40, y: 40, width: 200, height: 40))
        assertCGPathElements(path, [
            .move(240, 60),
            .cubic(240, 71.045694996, 195.22847498, 80, 140, 80),
            .cubic(84.77152502, 80, 40, 71.045694996, 40, 60),
            .cubic(40, 48.954305004, 84.77152502, 40, 140, 40),
            .cubic(195.22847498, 40, 240, 48.954305004, 240, 60),
            .close,
        ])
    }

    func testRoundedRectMatchesCoreGraphicsElementOrder() {
        // Rect (0, 0, 100, 100), 10 × 10 corners: starts at (maxX, midY) = (100, 50), runs up the max-x
        // side, round the (maxX, maxY) corner, and so on; each corner one cubic with controls 10·k =
        // 5.522847498 along the edges. This is the sequence Core Graphics produces (recorded on Apple
        // platforms in ChouTiUI's CGPath tests).
        let path = CGPath(roundedRect: CGRect(x: 0, y: 0, width: 100, height: 100), cornerWidth: 10, cornerHeight: 10, transform: nil)
        assertCGPathElements(path, [
            .move(100, 50),
            .line(100, 90),
            .cubic(100, 95.522847498, 95.522847498, 100, 90, 100),
            .line(10, 100),
            .cubic(4.477152502, 100, 0, 95.522847498, 0, 90),
            .line(0, 10),
            .cubic(0, 4.477152502, 4.477152502, 0, 10, 0),
            .line(90, 0),
            .cubic(95.522847498, 0, 100, 4.477152502, 100, 10),
            .close,
        ])
    }

    func testRoundedRectWithUnequalCornerSizes() {
        // Rect (0, 0, 100, 60), corners 20 wide and 10 tall: kx = 20·0.5522847498 = 11.045694996,
        // ky = 10·0.5522847498 = 5.522847498. Same order as above; edges stop 20 from the x ends and
        // 10 from the y ends.
        let path = CGMutablePath()
        path.addRoundedRect(in: CGRect(x: 0, y: 0, width: 100, height: 60), cornerWidth: 20, cornerHeight: 10)
        assertCGPathElements(path, [
            .move(100, 30),
            .line(100, 50),
            .cubic(100, 55.522847498, 91.045694996, 60, 80, 60),
            .line(20, 60),
            .cubic(8.954305004, 60, 0, 55.522847498, 0, 50),
            .line(0, 10),
            .cubic(0, 4.477152502, 8.954305004, 0, 20, 0),
            .line(80, 0),
            .cubic(91.045694996, 0, 100, 4.477152502, 100, 10),
            .close,
        ])
    }

    func testRoundedRectClampsOversizedCornersAndDropsZeroLengthLines() {
        // Width 100, height 40, corners asked 80 × 20: width clamps to 50, height 20 is exactly half.
        // Every straight edge then has zero length, so the path is move + 4 cubics + close (a capsule).
        // kx = 50·k = 27.61423749, ky = 20·k = 11.045694996.
        let path = CGMutablePath()
        path.addRoundedRect(in: CGRect(x: 0, y: 0, width: 100, height: 40), cornerWidth: 80, cornerHeight: 20)
        assertCGPathElements(path, [
            .move(100, 20),
            .cubic(100, 31.045694996, 77.61423749, 40, 50, 40),
            .cubic(22.38576251, 40, 0, 31.045694996, 0, 20),
            .cubic(0, 8.954305004, 22.38576251, 0, 50, 0),
            .cubic(77.61423749, 0, 100, 8.954305004, 100, 20),
            .close,
        ])
    }

    func testRoundedRectWithZeroCornerIsPlainRect() {
        let rect = CGRect(x: 1, y: 2, width: 3, height: 4)
        XCTAssertEqual(CGPath(roundedRect: rect, cornerWidth: 0, cornerHeight: 5, transform: nil), CGPath(rect: rect, transform: nil))
    }

    func testEllipseAndRoundedRectInitialisersEqualMutableBuilds() {
        let rect = CGRect(x: 3, y: 5, width: 40, height: 30)
        var t = CGAffineTransform(rotationAngle: 0.3)
        let ellipse = CGMutablePath()
        ellipse.addEllipse(in: rect, transform: t)
        XCTAssertEqual(CGPath(ellipseIn: rect, transform: &t), ellipse)
        let rounded = CGMutablePath()
        rounded.addRoundedRect(in: rect, cornerWidth: 4, cornerHeight: 6, transform: t)
        XCTAssertEqual(CGPath(roundedRect: rect, cornerWidth: 4, cornerHeight: 6, transform: &t), rounded)
    }

    // MARK: addPath

    func testAddPathAppendsTransformedElementsAsNewSubpaths() {
        let other = CGPath(rect: CGRect(x: 4, y: 4, width: 8, height: 16), transform: nil)
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addLine(to: CGPoint(x: 1, y: 1))
        path.addPath(other, transform: CGAffineTransform(translationX: 100, y: 0))
        assertCGPathElements(path, [
            .move(0, 0), .line(1, 1),
            .move(104, 4), .line(112, 4), .line(112, 20), .line(104, 20), .close,
        ], accuracy: 0)
    }

    func testAddPathOfItselfDoublesElements() {
        let path = CGMutablePath()
        path.addRect(CGRect(x: 0, y: 0, width: 1, height: 1))
        path.addPath(path)
        XCTAssertEqual(path.elements.count, 10)
    }

    // MARK: Arcs, centre form

    func testQuarterArcCounterclockwiseIsOneCubic() {
        // Centre (50, 50), r 10, 0 → π/2 increasing: (60, 50) to (50, 60); controls 10·k along the
        // tangents (0, 1) at the start and (-1, 0) at the end: (60, 55.52…) and (55.52…, 60).
        let path = CGMutablePath()
        path.addArc(center: CGPoint(x: 50, y: 50), radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        let h = 10 * quarterArcKappa
        assertCGPathElements(path, [.move(60, 50), .cubic(60, 50 + h, 50 + h, 60, 50, 60)])
    }

    func testClockwiseArcDecreasesAngleTheLongWayRound() {
        // 0 → π/2 with clockwise (decreasing angle) sweeps -3π/2: through angles -π/2 and -π, i.e.
        // (50, 40) and (40, 50), to π/2 ≡ -3π/2 at (50, 60). Three 90° cubics.
        let path = CGMutablePath()
        path.addArc(center: CGPoint(x: 50, y: 50), radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        let h = 10 * quarterArcKappa
        assertCGPathElements(path, [
            .move(60, 50),
            .cubic(60, 50 - h, 50 + h, 40, 50, 40),
            .cubic(50 - h, 40, 40, 50 - h, 40, 50),
            .cubic(40, 50 + h, 50 - h, 60, 50, 60),
        ])
    }

    func testArcMatchesCoreGraphicsSplitIntoNinetyDegreeSegmentsThenRemainder() {
        // Centre (25, 100), r 20, 225° → 0° clockwise: Core Graphics gives 90°, 90°, then 45°
        // (225 → 135 → 45 → 0). Values as Core Graphics produces them (recorded in WinObjC's CGPath
        // tests), which also equal r·(cos, sin) at each angle with controls 4/3·tan(δ/4)·r along the
        // tangents — 11.0457 for 90°, 5.3043 for 45°.
        let path = CGMutablePath()
        path.addArc(center: CGPoint(x: 25, y: 100), radius: 20, startAngle: .pi * 1.25, endAngle: 0, clockwise: true)
        assertCGPathElements(path, [
            .move(10.857864376, 85.857864376),
            .cubic(3.047378541, 93.668350211, 3.047378541, 106.331649789, 10.857864376, 114.142135624),
            .cubic(18.668350211, 121.952621459, 31.331649789, 121.952621459, 39.142135624, 114.142135624),
            .cubic(42.892863193, 110.391408055, 45, 105.304329797, 45, 100),
        ], accuracy: 1e-8)
    }

    func testArcEndPointsAreCosSinOfStartAndEndAngles() {
        // Centre (100, 50), r 30, from 0.4 to 2.9 rad increasing (143°: two cubics). Start
        // (100 + 30 cos 0.4, 50 + 30 sin 0.4) = (127.6318, 61.6826); end (100 + 30 cos 2.9,
        // 50 + 30 sin 2.9) = (70.8713, 57.1775).
        let path = CGMutablePath()
        path.addArc(center: CGPoint(x: 100, y: 50), radius: 30, startAngle: 0.4, endAngle: 2.9, clockwise: false)
        let elements = path.elements
        XCTAssertEqual(elements.map(\.type), [.moveToPoint, .addCurveToPoint, .addCurveToPoint])
        XCTAssertEqual(elements[0].points[0].x, 127.631829, accuracy: 1e-6)
        XCTAssertEqual(elements[0].points[0].y, 61.682550, accuracy: 1e-6)
        XCTAssertEqual(path.currentPoint.x, 70.871255, accuracy: 1e-6)
        XCTAssertEqual(path.currentPoint.y, 57.177480, accuracy: 1e-6)
        // The first segment is 90°: it ends at angle 0.4 + π/2 = (100 - 30 sin 0.4, 50 + 30 cos 0.4).
        XCTAssertEqual(elements[1].points[2].x, 88.317450, accuracy: 1e-6)
        XCTAssertEqual(elements[1].points[2].y, 77.631829, accuracy: 1e-6)
    }

    func testFullTurnCounterclockwiseIsFourCubicsButClockwiseIsEmpty() {
        // 0 → 2π increasing is a whole circle (four 90° cubics back to (10, 0)); the same angles with
        // clockwise: true are a whole turn against the direction and draw no arc, as on Apple platforms.
        let ccw = CGMutablePath()
        ccw.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        XCTAssertEqual(ccw.elements.map(\.type), [.moveToPoint] + Array(repeating: .addCurveToPoint, count: 4))
        XCTAssertEqual(ccw.currentPoint.x, 10, accuracy: 1e-12)
        XCTAssertEqual(ccw.currentPoint.y, 0, accuracy: 1e-12)

        let cw = CGMutablePath()
        cw.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        assertCGPathElements(cw, [.move(10, 0)], accuracy: 0)
    }

    func testArcPastAFullTurnEndsAtTheEndAngle() {
        // 0 → 3π increasing: 3π is π past a whole turn, so the arc runs to π: two cubics, ends at (-10, 0).
        let path = CGMutablePath()
        path.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: 3 * .pi, clockwise: false)
        XCTAssertEqual(path.elements.count, 3)
        XCTAssertEqual(path.currentPoint.x, -10, accuracy: 1e-12)
        XCTAssertEqual(path.currentPoint.y, 0, accuracy: 1e-9)
    }

    func testArcAfterCurrentPointStartsWithLineToArcStart() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addArc(center: CGPoint(x: 50, y: 50), radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        XCTAssertEqual(path.elements.map(\.type), [.moveToPoint, .addLineToPoint, .addCurveToPoint])
        XCTAssertEqual(path.elements[1].points, [CGPoint(x: 60, y: 50)])
    }

    func testArcStartingAtCurrentPointAddsNoLine() {
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 60, y: 50))
        path.addArc(center: CGPoint(x: 50, y: 50), radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        XCTAssertEqual(path.elements.map(\.type), [.moveToPoint, .addCurveToPoint])
    }

    func testArcTransformMapsGeneratedPoints() {
        // A scale (2, 1) turns the quarter circle into a quarter ellipse: start (20, 0), end (0, 10).
        let path = CGMutablePath()
        path.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false,
                    transform: CGAffineTransform(scaleX: 2, y: 1))
        let h = 10 * quarterArcKappa
        assertCGPathElements(path, [.move(20, 0), .cubic(20, h, 2 * h, 10, 0, 10)])
    }

    func testRelativeArcTakesDeltaAsGiven() {
        // Start at angle 0 and sweep -π/2 (decreasing): from (10, 0) to (0, -10) in one cubic, controls
        // along the tangents (0, -1) and (1, 0).
        let path = CGMutablePath()
        path.addRelativeArc(center: .zero, radius: 10, startAngle: 0, delta: -.pi / 2)
        let h = 10 * quarterArcKappa
        assertCGPathElements(path, [.move(10, 0), .cubic(10, -h, h, -10, 0, -10)])

        // A delta of 4π winds twice: eight quarter cubics.
        let twice = CGMutablePath()
        twice.addRelativeArc(center: .zero, radius: 10, startAngle: 0, delta: 4 * .pi)
        XCTAssertEqual(twice.elements.count, 9)
    }

    // MARK: Arcs, tangent form

    func testTangentArcFromOriginRoundsTheCorner() {
        // From (0, 0), tangents to (100, 0) then (100, 100), radius 20: the corner at (100, 0) is 90°, so
        // each tangent point is r / tan(45°) = 20 from it: (80, 0) and (100, 20). The centre is (80, 20);
        // the path turns left, so the arc increases the angle from -π/2 to 0 in one cubic with controls
        // 20·k along the tangents: (80 + 11.0457, 0) and (100, 20 - 11.0457).
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addArc(tangent1End: CGPoint(x: 100, y: 0), tangent2End: CGPoint(x: 100, y: 100), radius: 20)
        let h = 20 * quarterArcKappa
        assertCGPathElements(path, [.move(0, 0), .line(80, 0), .cubic(80 + h, 0, 100, 20 - h, 100, 20)])
        XCTAssertEqual(path.currentPoint.x, 100, accuracy: 1e-12)
        XCTAssertEqual(path.currentPoint.y, 20, accuracy: 1e-12)
    }

    func testTangentArcMatchesCoreGraphicsForObliqueCorner() {
        // From (400, 400), tangents via (140, 250) to (110, 180), r 50. The corner angle is 143.18°, so
        // the tangent points are 50 / tan(71.59°) = 16.65 from (140, 250) along each tangent, and the arc
        // sweeps 180° - 143.18° = 36.82° in one cubic. Core Graphics gives these values (recorded in
        // WinObjC's CGPath tests); worked again by hand from the same formulas.
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 400, y: 400))
        path.addArc(tangent1End: CGPoint(x: 140, y: 250), tangent2End: CGPoint(x: 110, y: 180), radius: 50)
        assertCGPathElements(path, [
            .move(400, 400),
            .line(154.415379, 258.316565),
            .cubic(145.057503, 252.917790, 137.699975, 244.633276, 133.444250, 234.703250),
        ], accuracy: 1e-6)
    }

    func testTangentArcTurningRightDecreasesAngle() {
        // Mirror of the first case: (0, 0) → corner (100, 0) → (100, -100) turns right. Tangent points
        // (80, 0) and (100, -20), centre (80, -20); the arc goes from π/2 down to 0.
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addArc(tangent1End: CGPoint(x: 100, y: 0), tangent2End: CGPoint(x: 100, y: -100), radius: 20)
        let h = 20 * quarterArcKappa
        assertCGPathElements(path, [.move(0, 0), .line(80, 0), .cubic(80 + h, 0, 100, -20 + h, 100, -20)])
    }

    func testTangentArcDegenerateCasesAddLineToFirstTangentEnd() {
        let collinear = CGMutablePath()
        collinear.move(to: .zero)
        collinear.addArc(tangent1End: CGPoint(x: 50, y: 0), tangent2End: CGPoint(x: 100, y: 0), radius: 10)
        assertCGPathElements(collinear, [.move(0, 0), .line(50, 0)], accuracy: 0)

        let zeroRadius = CGMutablePath()
        zeroRadius.move(to: .zero)
        zeroRadius.addArc(tangent1End: CGPoint(x: 50, y: 0), tangent2End: CGPoint(x: 50, y: 50), radius: 0)
        assertCGPathElements(zeroRadius, [.move(0, 0), .line(50, 0)], accuracy: 0)

        let negative = CGMutablePath()
        negative.move(to: .zero)
        negative.addArc(tangent1End: CGPoint(x: 50, y: 0), tangent2End: CGPoint(x: 50, y: 50), radius: -5)
        assertCGPathElements(negative, [.move(0, 0)], accuracy: 0)
    }

    func testTangentArcTransformIsAppliedAroundTheCurrentPoint() {
        // The current point (10, 10) maps back through the inverse translation to (0, 0), so this is the
        // first tangent-arc case moved by (10, 10): line to (90, 10), arc to (110, 30).
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 10, y: 10))
        path.addArc(tangent1End: CGPoint(x: 100, y: 0), tangent2End: CGPoint(x: 100, y: 100), radius: 20,
                    transform: CGAffineTransform(translationX: 10, y: 10))
        let h = 20 * quarterArcKappa
        assertCGPathElements(path, [.move(10, 10), .line(90, 10), .cubic(90 + h, 10, 110, 30 - h, 110, 30)])
    }

    // MARK: Refusing non-finite input

    func testNonFiniteInputIsRefusedAndLeavesPathUnchanged() {
        let path = CGMutablePath()
        path.move(to: .zero)
        path.addLine(to: CGPoint(x: 1, y: 0))
        let before = path.elements

        path.move(to: CGPoint(x: CGFloat.nan, y: 0))
        path.addLine(to: CGPoint(x: 0, y: CGFloat.infinity))
        path.addQuadCurve(to: CGPoint(x: 1, y: 1), control: CGPoint(x: CGFloat.nan, y: 0))
        path.addCurve(to: CGPoint(x: 1, y: 1), control1: .zero, control2: CGPoint(x: -CGFloat.infinity, y: 0))
        path.addLines(between: [CGPoint(x: 5, y: 5), CGPoint(x: 6, y: 6), CGPoint(x: CGFloat.nan, y: 7)])
        path.addRect(.null)
        path.addRects([CGRect(x: 0, y: 0, width: 1, height: 1), CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 1)])
        path.addEllipse(in: CGRect(x: 0, y: 0, width: CGFloat.nan, height: 1))
        path.addRoundedRect(in: CGRect(x: 0, y: 0, width: 10, height: 10), cornerWidth: CGFloat.nan, cornerHeight: 2)
        path.addArc(center: .zero, radius: CGFloat.infinity, startAngle: 0, endAngle: 1, clockwise: false)
        path.addArc(center: .zero, radius: 1, startAngle: CGFloat.nan, endAngle: 1, clockwise: false)
        path.addRelativeArc(center: .zero, radius: 1, startAngle: 0, delta: CGFloat.infinity)
        path.addArc(tangent1End: CGPoint(x: 5, y: 0), tangent2End: CGPoint(x: CGFloat.nan, y: 5), radius: 1)
        path.addLine(to: CGPoint(x: 2, y: 2), transform: CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: CGFloat.nan, ty: 0))
        // Finite input that the transform overflows to infinity is refused too.
        path.addLine(to: CGPoint(x: 1e308, y: 0), transform: CGAffineTransform(scaleX: 10, y: 1))
        path.addPath(CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: nil),
                     transform: CGAffineTransform(scaleX: CGFloat.infinity, y: 1))

        XCTAssertEqual(path.elements, before)
        XCTAssertEqual(path.currentPoint, CGPoint(x: 1, y: 0))
        // The path still accepts good input afterwards.
        path.addLine(to: CGPoint(x: 1, y: 1))
        XCTAssertEqual(path.elements.count, 3)
    }

    // MARK: Copies, equality, iteration

    func testCopyUsingTransformMapsEveryPoint() {
        // Scale (2, 3) then translate (10, 20): (x, y) → (2x + 10, 3y + 20).
        var t = CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 10, ty: 20)
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 1, y: 1))
        path.addQuadCurve(to: CGPoint(x: 3, y: 0), control: CGPoint(x: 2, y: 2))
        path.closeSubpath()
        let expected: [CGPathElement] = [.move(12, 23), .quad(14, 26, 16, 20), .close]
        assertCGPathElements(path.copy(using: &t)!, expected, accuracy: 0)
        assertCGPathElements(path.copy(transform: t), expected, accuracy: 0)
        assertCGPathElements(path.mutableCopy(using: &t)!, expected, accuracy: 0)
        XCTAssertEqual(path.copy(using: nil), path)
        XCTAssertEqual(path.copy(transform: t).currentPoint, CGPoint(x: 12, y: 23), "after close: the mapped start")
    }

    func testTransformedCopyOfEllipseEqualsEllipseBuiltWithTransform() {
        var t = CGAffineTransform(rotationAngle: 0.7).translatedBy(x: 5, y: -3)
        let rect = CGRect(x: 0, y: 0, width: 30, height: 10)
        XCTAssertEqual(CGPath(ellipseIn: rect, transform: nil).copy(using: &t), CGPath(ellipseIn: rect, transform: &t))
    }

    func testCopiesAreIndependentOfLaterMutation() {
        let path = CGMutablePath()
        path.addRect(CGRect(x: 0, y: 0, width: 1, height: 1))
        let frozen = path.copy()!
        let mutable = path.mutableCopy()!
        path.addLine(to: CGPoint(x: 9, y: 9))
        mutable.addEllipse(in: CGRect(x: 0, y: 0, width: 2, height: 2))
        XCTAssertEqual(frozen.elements.count, 5)
        XCTAssertEqual(mutable.elements.count, 11)
        XCTAssertEqual(path.elements.count, 7)
        XCTAssertFalse(frozen is CGMutablePath)
    }

    func testEqualityAndHashFollowElements() {
        let a = CGMutablePath()
        a.addEllipse(in: CGRect(x: 2, y: 4, width: 8, height: 16))
        let b = CGPath(ellipseIn: CGRect(x: 2, y: 4, width: 8, height: 16), transform: nil)
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.hashValue, b.hashValue)
        XCTAssertEqual(Set<CGPath>([a, b]).count, 1)
        let c = CGPath(rect: CGRect(x: 2, y: 4, width: 8, height: 16), transform: nil)
        XCTAssertNotEqual(a, c)
        a.addLine(to: .zero)
        XCTAssertNotEqual(a, b)
    }

    func testApplyWithBlockVisitsElementsInBothForms() {
        let path = CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: nil)
        var byPointer: [CGPathElement] = []
        path.applyWithBlock { (element: UnsafePointer<CGPathElement>) in byPointer.append(element.pointee) }
        var byValue: [CGPathElement] = []
        path.applyWithBlock { element in byValue.append(element) }
        XCTAssertEqual(byPointer, path.elements)
        XCTAssertEqual(byValue, path.elements)
        // Core Graphics-style code reads `element.pointee.points[0]` unchanged.
        var firstPoints: [CGPoint] = []
        path.applyWithBlock { element in
            if element.pointee.type != .closeSubpath { firstPoints.append(element.pointee.points[0]) }
        }
        XCTAssertEqual(firstPoints, [CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 0), CGPoint(x: 1, y: 1), CGPoint(x: 0, y: 1)])
    }

    // MARK: isRect

    func testIsRectRecognisesAxisAlignedRectangles() {
        var rect = CGRect.zero
        XCTAssertTrue(CGPath(rect: CGRect(x: 10, y: 20, width: -5, height: 7), transform: nil).isRect(&rect))
        XCTAssertEqual(rect, CGRect(x: 5, y: 20, width: 5, height: 7))

        // Drawn by hand the other way round, with an explicit fourth line back to the start.
        let manual = CGMutablePath()
        manual.addLines(between: [CGPoint(x: 0, y: 0), CGPoint(x: 0, y: 4), CGPoint(x: 3, y: 4), CGPoint(x: 3, y: 0), CGPoint(x: 0, y: 0)])
        manual.closeSubpath()
        XCTAssertTrue(manual.isRect(&rect))
        XCTAssertEqual(rect, CGRect(x: 0, y: 0, width: 3, height: 4))
    }

    func testIsRectRejectsOtherShapes() {
        var t = CGAffineTransform(rotationAngle: 0.1)
        XCTAssertFalse(CGPath(rect: CGRect(x: 0, y: 0, width: 5, height: 5), transform: &t).isRect(nil))
        XCTAssertFalse(CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 5, height: 5), transform: nil).isRect(nil))
        let open = CGMutablePath()
        open.addLines(between: [CGPoint(x: 0, y: 0), CGPoint(x: 3, y: 0), CGPoint(x: 3, y: 4), CGPoint(x: 0, y: 4)])
        XCTAssertFalse(open.isRect(nil), "not closed")
        let twoRects = CGMutablePath()
        twoRects.addRects([CGRect(x: 0, y: 0, width: 1, height: 1), CGRect(x: 2, y: 2, width: 1, height: 1)])
        XCTAssertFalse(twoRects.isRect(nil))
    }
}
