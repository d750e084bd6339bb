import LayerKitTestSupport
import XCTest

@testable import LayerKit

// Paths in a CGContext: coverage by area and at sample points, line style, fill rules, clipping, refusals.
// Contexts here are raw (y-up): CG y maps to row `height − 1 − y` for the pixel whose bottom edge is at y.

final class CGContextPathTests: XCTestCase {
    // MARK: Fills

    func testFilledCircleCoversPiRSquared() throws {
        let context = try makeTestContext(100, 100)
        context.fillEllipse(in: CGRect(x: 10, y: 12, width: 80, height: 80))
        let image = try XCTUnwrap(context.makeImage())
        XCTAssertEqual(image.coveredArea, .pi * 40 * 40, accuracy: .pi * 40 * 40 * 0.01)
    }

    func testFullArcUnderUnequalScaleCoversAnEllipse() throws {
        let context = try makeTestContext(120, 80)
        context.scaleBy(x: 2, y: 1)
        context.addArc(center: CGPoint(x: 30, y: 40), radius: 25, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        context.closePath()
        context.fillPath()
        let image = try XCTUnwrap(context.makeImage())
        XCTAssertEqual(image.coveredArea, .pi * 50 * 25, accuracy: .pi * 50 * 25 * 0.01)
        let ink = try XCTUnwrap(image.inkBounds(threshold: 128))
        XCTAssertEqual(ink.minX, 10)
        XCTAssertEqual(ink.maxX, 109)
        XCTAssertEqual(ink.minRow, 15)
        XCTAssertEqual(ink.maxRow, 64)
    }

    func testQuadraticSegmentCoversTwoThirdsOfItsBox() throws {
        // Chord from (10, 10) to (90, 10), control (50, 70): the curve peaks at y 40, and the region between
        // chord and curve is 2/3 · 80 · 30.
        let context = try makeTestContext(100, 60)
        context.move(to: CGPoint(x: 10, y: 10))
        context.addQuadCurve(to: CGPoint(x: 90, y: 10), control: CGPoint(x: 50, y: 70))
        context.closePath()
        context.fillPath()
        let image = try XCTUnwrap(context.makeImage())
        XCTAssertEqual(image.coveredArea, 2.0 / 3.0 * 80 * 30, accuracy: 1600 * 0.01)
    }

    func testEvenOddLeavesTheOverlapOfTwoRectsEmptyAndWindingFillsIt() throws {
        func draw(_ rule: CGPathFillRule) throws -> CGImage {
            let context = try makeTestContext(30, 30)
            context.addRect(CGRect(x: 0, y: 0, width: 20, height: 20))
            context.addRect(CGRect(x: 10, y: 10, width: 20, height: 20))
            context.fillPath(using: rule)
            return try XCTUnwrap(context.makeImage())
        }
        let winding = try draw(.winding), evenOdd = try draw(.evenOdd)
        // The overlap x 10…20, y 10…20 is rows 10…19.
        XCTAssertEqual(winding.bytes(15, 15)[3], 255)
        XCTAssertEqual(evenOdd.bytes(15, 15)[3], 0)
        XCTAssertEqual(evenOdd.bytes(5, 25)[3], 255)
        XCTAssertEqual(evenOdd.bytes(25, 5)[3], 255)
        XCTAssertEqual(winding.coveredArea, 700, accuracy: 0.01)
        XCTAssertEqual(evenOdd.coveredArea, 600, accuracy: 0.01)
    }

    func testDrawPathFillStrokeFillsThenStrokes() throws {
        let context = try makeTestContext(20, 20)
        context.setFillColor(.opaqueRed)
        context.setStrokeColor(.opaqueBlue)
        context.setLineWidth(2)
        context.addRect(CGRect(x: 5, y: 5, width: 10, height: 10))
        context.drawPath(using: .fillStroke)
        XCTAssertTrue(context.isPathEmpty)
        let image = try XCTUnwrap(context.makeImage())
        XCTAssertEqual(image.bytes(10, 10), [255, 0, 0, 255])
        XCTAssertEqual(image.bytes(4, 10), [0, 0, 255, 255], "stroke straddles x = 5")
        XCTAssertEqual(image.bytes(5, 10), [0, 0, 255, 255])
        XCTAssertEqual(image.bytes(6, 10), [255, 0, 0, 255])
    }

    // MARK: Line style

    func testStrokeWidthIsInUserSpaceAtStrokeTime() throws {
        let context = try makeTestContext(100, 100)
        context.setLineWidth(3)
        // A horizontal line at y 20 and a vertical one at x 70, both added unscaled, stroked under
        // scale (1, 2): the horizontal line is 6 pixels thick, the vertical one 3.
        context.move(to: CGPoint(x: 10, y: 20))
        context.addLine(to: CGPoint(x: 50, y: 20))
        context.move(to: CGPoint(x: 70.5, y: 40))
        context.addLine(to: CGPoint(x: 70.5, y: 90))
        context.scaleBy(x: 1, y: 2)
        context.strokePath()
        let image = try XCTUnwrap(context.makeImage())
        // Horizontal: y 17…23 → rows 77…82.
        let column = (0 ..< 100).map { image.bytes(30, $0)[3] }
        XCTAssertEqual(column.indices.filter { column[$0] == 255 }, Array(77 ... 82))
        XCTAssertEqual(column.filter { $0 > 0 }.count, 6)
        // Vertical: x 69…72 → columns 69, 70, 71 (stroke centred on 70.5).
        let row = (0 ..< 100).map { image.bytes($0, 40)[3] }
        XCTAssertEqual(row.indices.filter { row[$0] > 0 }, [69, 70, 71])
    }

    func testSquareCapExtendsByHalfTheWidthAndButtDoesNot() throws {
        func strokedRow(_ cap: CGLineCap) throws -> [Int] {
            let context = try makeTestContext(80, 20)
            context.setLineWidth(10)
            context.setLineCap(cap)
            context.strokeLineSegments(between: [CGPoint(x: 20, y: 10), CGPoint(x: 60, y: 10)])
            let image = try XCTUnwrap(context.makeImage())
            return (0 ..< 80).map { image.bytes($0, 10)[3] }
        }
        let butt = try strokedRow(.butt), square = try strokedRow(.square), round = try strokedRow(.round)
        XCTAssertEqual(butt.indices.filter { butt[$0] > 0 }, Array(20 ..< 60))
        XCTAssertEqual(square.indices.filter { square[$0] > 0 }, Array(15 ..< 65))
        XCTAssertEqual(square.filter { $0 == 255 }.count, 50)
        // Round caps reach 5 past the ends on the centre line.
        XCTAssertGreaterThan(round[15], 200, "pixel 15's centre is 4.53 from the cap's centre")
        XCTAssertEqual(round[14], 0, "pixel 14 lies wholly 5 or more from the cap's centre")
    }

    func testRoundCapLeavesTheCornersThatSquareCovers() throws {
        func corner(_ cap: CGLineCap) throws -> Int {
            let context = try makeTestContext(80, 20)
            context.setLineWidth(10)
            context.setLineCap(cap)
            context.strokeLineSegments(between: [CGPoint(x: 20, y: 10), CGPoint(x: 60, y: 10)])
            // Pixel (15, y 14…15): centre (15.5, 14.5), 6.4 from the end point.
            return try XCTUnwrap(context.makeImage()).bytes(15, 5)[3]
        }
        XCTAssertEqual(try corner(.square), 255)
        XCTAssertEqual(try corner(.round), 0)
    }

    func testMiterJoinFillsTheOuterCornerAndBevelCutsIt() throws {
        func cornerPixel(_ join: CGLineJoin) throws -> Int {
            let context = try makeTestContext(40, 40)
            context.setLineWidth(10)
            context.setLineJoin(join)
            context.move(to: CGPoint(x: 5, y: 20))
            context.addLine(to: CGPoint(x: 20, y: 20))
            context.addLine(to: CGPoint(x: 20, y: 5))
            context.strokePath()
            // The outer corner of the turn is at (25, 25); pixel x 24…25, y 24…25 is row 15.
            return try XCTUnwrap(context.makeImage()).bytes(24, 15)[3]
        }
        XCTAssertEqual(try cornerPixel(.miter), 255)
        XCTAssertEqual(try cornerPixel(.bevel), 0)
        XCTAssertEqual(try cornerPixel(.round), 0)
    }

    func testDashPhaseShiftsThePatternAlongTheLine() throws {
        func row(phase: CGFloat) throws -> [Int] {
            let context = try makeTestContext(100, 10)
            context.setLineWidth(4)
            context.setLineDash(phase: phase, lengths: [10, 10])
            context.strokeLineSegments(between: [CGPoint(x: 0, y: 5), CGPoint(x: 100, y: 5)])
            let image = try XCTUnwrap(context.makeImage())
            return (0 ..< 100).map { image.bytes($0, 5)[3] }
        }
        let plain = try row(phase: 0), shifted = try row(phase: 5)
        for x in 0 ..< 100 {
            // Phase 0: on for [0, 10), [20, 30), …; phase 5 starts 5 into the pattern: on for [0, 5), [15, 25), ….
            let onPlain = x % 20 < 10
            let onShifted = (x + 5) % 20 < 10
            XCTAssertEqual(plain[x], onPlain ? 255 : 0, "phase 0, x \(x)")
            XCTAssertEqual(shifted[x], onShifted ? 255 : 0, "phase 5, x \(x)")
        }
    }

    func testEmptyDashIsSolid() throws {
        let context = try makeTestContext(20, 4)
        context.setLineDash(phase: 0, lengths: [2, 2])
        context.setLineDash(phase: 0, lengths: [])
        context.setLineWidth(2)
        context.strokeLineSegments(between: [CGPoint(x: 0, y: 2), CGPoint(x: 20, y: 2)])
        XCTAssertEqual(try XCTUnwrap(context.makeImage()).coveredArea, 40, accuracy: 0.01)
    }

    // MARK: Clipping

    func testClipToRectLimitsDrawingAndRestoreLiftsIt() throws {
        let context = try makeTestContext(40, 40)
        context.saveGState()
        context.clip(to: CGRect(x: 10, y: 5, width: 20, height: 15))
        XCTAssertEqual(context.boundingBoxOfClipPath, CGRect(x: 10, y: 5, width: 20, height: 15))
        context.setFillColor(.opaqueRed)
        context.fill(CGRect(x: 0, y: 0, width: 40, height: 40))
        var image = try XCTUnwrap(context.makeImage())
        let ink = try XCTUnwrap(image.inkBounds())
        XCTAssertEqual([ink.minX, ink.maxX, ink.minRow, ink.maxRow], [10, 29, 20, 34])
        XCTAssertEqual(image.coveredArea, 300, accuracy: 0.01)
        context.restoreGState()
        context.fill(CGRect(x: 0, y: 0, width: 40, height: 40))
        image = try XCTUnwrap(context.makeImage())
        XCTAssertEqual(image.coveredArea, 1600, accuracy: 0.01)
    }

    func testClipBoundingBoxIsInUserSpace() throws {
        let context = try makeTestContext(40, 40)
        context.translateBy(x: 10, y: 10)
        context.scaleBy(x: 2, y: 2)
        XCTAssertEqual(context.boundingBoxOfClipPath, CGRect(x: -5, y: -5, width: 20, height: 20))
        context.clip(to: CGRect(x: 0, y: 0, width: 5, height: 5))
        XCTAssertEqual(context.boundingBoxOfClipPath, CGRect(x: 0, y: 0, width: 5, height: 5))
    }

    func testEvenOddClipExcludesTheOverlap() throws {
        let context = try makeTestContext(30, 30)
        context.addRect(CGRect(x: 0, y: 0, width: 20, height: 20))
        context.addRect(CGRect(x: 10, y: 10, width: 20, height: 20))
        context.clip(using: .evenOdd)
        context.fill(CGRect(x: 0, y: 0, width: 30, height: 30))
        XCTAssertEqual(try XCTUnwrap(context.makeImage()).coveredArea, 600, accuracy: 0.01)
    }

    func testClearMakesARectTransparent() throws {
        let context = try makeTestContext(10, 10)
        context.setFillColor(.opaqueRed)
        context.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        context.setBlendMode(.multiply)
        context.setAlpha(0.3)
        context.clear(CGRect(x: 0, y: 0, width: 5, height: 10))
        let image = try XCTUnwrap(context.makeImage())
        XCTAssertEqual(image.bytes(2, 2), [0, 0, 0, 0])
        XCTAssertEqual(image.bytes(7, 2), [255, 0, 0, 255])
    }

    // MARK: The current path

    func testPathIsFixedWhereItWasAddedWhenTheCTMChanges() throws {
        let context = try makeTestContext(20, 20)
        context.translateBy(x: 10, y: 0)
        context.addRect(CGRect(x: 0, y: 0, width: 5, height: 5))
        context.translateBy(x: -10, y: 0)
        XCTAssertEqual(context.boundingBoxOfPath, CGRect(x: 10, y: 0, width: 5, height: 5))
        XCTAssertEqual(context.currentPointOfPath, CGPoint(x: 10, y: 0))
        context.fillPath()
        let ink = try XCTUnwrap(try XCTUnwrap(context.makeImage()).inkBounds())
        XCTAssertEqual(ink.minX, 10)
        XCTAssertEqual(ink.maxX, 14)
    }

    func testTangentArcIsBuiltInUserSpace() throws {
        // Under scale (2, 1) a tangent arc of radius 5 is an ellipse quarter with radii 10 × 5 in base space.
        let context = try makeTestContext(60, 60)
        context.scaleBy(x: 2, y: 1)
        context.move(to: CGPoint(x: 0, y: 10))
        context.addArc(tangent1End: CGPoint(x: 20, y: 10), tangent2End: CGPoint(x: 20, y: 30), radius: 5)
        XCTAssertEqual(context.currentPointOfPath.x, 20, accuracy: 1e-9)
        XCTAssertEqual(context.currentPointOfPath.y, 15, accuracy: 1e-9)
        context.addLine(to: CGPoint(x: 20, y: 30))
        context.scaleBy(x: 0.5, y: 1)
        // In base space the arc starts at (30, 10) and ends at (40, 15).
        XCTAssertEqual(context.path.elements.count, 4)
        XCTAssertEqual(context.path.elements[1].points[0].x, 30, accuracy: 1e-9)
        XCTAssertEqual(context.path.elements[2].points[2].x, 40, accuracy: 1e-9)
        XCTAssertEqual(context.path.elements[2].points[2].y, 15, accuracy: 1e-9)
    }

    func testNonFinitePointsAreRefusedWithTheExistingDiagnostic() throws {
        let context = try makeTestContext(10, 10)
        let capture = DiagnosticCapture()
        context.move(to: CGPoint(x: CGFloat.nan, y: 0))
        XCTAssertTrue(context.isPathEmpty)
        context.move(to: CGPoint(x: 1, y: 1))
        context.addLine(to: CGPoint(x: CGFloat.infinity, y: 2))
        context.addCurve(to: CGPoint(x: 5, y: 5), control1: CGPoint(x: 1, y: CGFloat.nan), control2: .zero)
        context.addArc(center: .zero, radius: .nan, startAngle: 0, endAngle: 1, clockwise: false)
        XCTAssertEqual(capture.names, Array(repeating: "nonFinitePathGeometry", count: 4))
        XCTAssertEqual(context.path.elements.count, 1)
        XCTAssertEqual(context.currentPointOfPath, CGPoint(x: 1, y: 1))
    }

    func testLineWithoutACurrentPointIsRefused() throws {
        let context = try makeTestContext(10, 10)
        let capture = DiagnosticCapture()
        context.addLine(to: CGPoint(x: 5, y: 5))
        XCTAssertEqual(capture.names, ["invalidPathOperation"])
        XCTAssertTrue(context.isPathEmpty)
        XCTAssertEqual(context.boundingBoxOfPath, .null)
    }

    func testSingularCTMDrawsNothingAndLeavesTheContextUsable() throws {
        let context = try makeTestContext(10, 10)
        let capture = DiagnosticCapture()
        context.saveGState()
        context.scaleBy(x: 0, y: 1)
        context.setLineWidth(2)
        context.strokeLineSegments(between: [CGPoint(x: 0, y: 5), CGPoint(x: 10, y: 5)])
        context.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertEqual(context.boundingBoxOfClipPath, .null)
        XCTAssertEqual(try XCTUnwrap(context.makeImage()).coveredArea, 0)
        context.restoreGState()
        context.fill(CGRect(x: 0, y: 0, width: 10, height: 10))
        XCTAssertEqual(try XCTUnwrap(context.makeImage()).coveredArea, 100, accuracy: 0.01)
        XCTAssertTrue(capture.names.isEmpty, "\(capture.names)")
    }
}
