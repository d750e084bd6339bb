import Foundation
import LayerKit
import LayerKitTestSupport
@testable import LayerKitVulkan
import XCTest

/// CAShapeLayer through CARenderer: fills, strokes, caps, dashes, trimming, morphing and zoom, checked
/// against geometry worked out by hand (exact pixels for axis-aligned edges on pixel boundaries, areas
/// and distances elsewhere). One point per pixel unless a test says otherwise.
final class ShapeLayerRenderTests: CARendererTestCase {
    /// A shape layer covering the 64×64 target with `path`, filled red and unstroked unless changed.
    private func makeShape(_ path: CGPath?, in root: CALayer) -> CAShapeLayer {
        let shape = CAShapeLayer()
        shape.frame = root.bounds
        shape.path = path
        shape.fillColor = .testRed
        root.addSublayer(shape)
        return shape
    }

    private func line(from a: CGPoint, to b: CGPoint) -> CGPath {
        let path = CGMutablePath()
        path.move(to: a)
        path.addLine(to: b)
        return path
    }

    /// A white stroke of `width` along `path`, no fill.
    private func makeStroke(_ path: CGPath, width: CGFloat, in root: CALayer) -> CAShapeLayer {
        let shape = makeShape(path, in: root)
        shape.fillColor = nil
        shape.strokeColor = .testWhite
        shape.lineWidth = width
        return shape
    }

    private func inside(_ rect: CGRect, _ x: Int, _ y: Int) -> Bool {
        rect.contains(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5))
    }

    // MARK: - Fill

    func testAFilledRectangleIsExact() throws {
        let root = makeRoot()
        let rect = CGRect(x: 10, y: 12, width: 20, height: 15)
        makeShape(CGPath(rect: rect), in: root)
        let image = try render(root)
        assertPixels(image, "filled-rect") { x, y in self.inside(rect, x, y) ? .red : .clear }
    }

    func testACirclesCoveredAreaIsWithinOnePercentOfPiRSquared() throws {
        let root = makeRoot()
        let radius = 20.0
        makeShape(CGPath(ellipseIn: CGRect(x: 12, y: 12, width: 40, height: 40), transform: nil), in: root)
        let image = try render(root)
        var area = 0.0
        for y in 0..<64 {
            for x in 0..<64 { area += coverage(image, x, y) }
        }
        XCTAssertEqual(area, .pi * radius * radius, accuracy: 0.01 * .pi * radius * radius)
        // Far inside and far outside are exact.
        assertPixels(image, "circle-interior") { x, y in
            let d = hypot(Double(x) + 0.5 - 32, Double(y) + 0.5 - 32)
            return d < radius - 1 ? .red : d > radius + 1 ? .clear : nil
        }
    }

    func testEvenOddLeavesTheInnerSquareEmpty() throws {
        let root = makeRoot()
        let path = CGMutablePath()
        path.addRect(CGRect(x: 8, y: 8, width: 48, height: 48))
        path.addRect(CGRect(x: 24, y: 24, width: 16, height: 16))
        let shape = makeShape(path, in: root)
        shape.fillRule = .evenOdd
        let image = try render(root)
        assertPixels(image, "even-odd") { x, y in
            self.inside(CGRect(x: 24, y: 24, width: 16, height: 16), x, y) ? .clear
                : self.inside(CGRect(x: 8, y: 8, width: 48, height: 48), x, y) ? .red : .clear
        }
    }

    // MARK: - Stroke

    func testStrokeWidthAndButtSquareAndRoundCaps() throws {
        // Lines along y = 12, 32 and 52 from x = 16 to 48, 8 wide: each covers y ± 4.
        let root = makeRoot()
        let butt = makeStroke(line(from: CGPoint(x: 16, y: 12), to: CGPoint(x: 48, y: 12)), width: 8, in: root)
        let square = makeStroke(line(from: CGPoint(x: 16, y: 32), to: CGPoint(x: 48, y: 32)), width: 8, in: root)
        let round = makeStroke(line(from: CGPoint(x: 16, y: 52), to: CGPoint(x: 48, y: 52)), width: 8, in: root)
        butt.lineCap = .butt
        square.lineCap = .square
        round.lineCap = .round
        let image = try render(root)
        assertPixels(image, "caps", probes: [
            Probe("butt: inside the width", 30, 8, .white), Probe("butt: inside, lower edge", 30, 15, .white),
            Probe("butt: beyond the width", 30, 16, .clear), Probe("butt: above the width", 30, 7, .clear),
            Probe("butt: the first pixel", 16, 12, .white), Probe("butt: before the start", 15, 12, .clear),
            Probe("butt: after the end", 48, 12, .clear),
            Probe("square: half a width beyond the start", 12, 32, .white), Probe("square: beyond that", 11, 32, .clear),
            Probe("square: its corner", 12, 28, .white), Probe("square: after the end", 51, 35, .white),
            Probe("round: on the axis beyond the start", 13, 52, .white), Probe("round: beyond the radius", 11, 52, .clear),
            // (12.5, 48.5) is 4.95 from the cap's centre (16, 52): outside the round cap, inside a square one.
            Probe("round: no corner", 12, 48, .clear),
        ])
    }

    func testDashPhaseShiftsTheDashes() throws {
        // Dashes 8 on, 8 off along y = 16 (phase 0) and y = 48 (phase 4), from x = 0.
        let root = makeRoot()
        let plain = makeStroke(line(from: CGPoint(x: 0, y: 16), to: CGPoint(x: 64, y: 16)), width: 4, in: root)
        let shifted = makeStroke(line(from: CGPoint(x: 0, y: 48), to: CGPoint(x: 64, y: 48)), width: 4, in: root)
        for shape in [plain, shifted] { shape.lineDashPattern = [8, 8] }
        shifted.lineDashPhase = 4
        let image = try render(root)
        assertPixels(image, "dash-phase") { x, y in
            let on: Bool
            switch y {
            case 14..<18: on = x % 16 < 8
            case 46..<50: on = (x + 4) % 16 < 8
            default: return .clear
            }
            return on ? .white : .clear
        }
    }

    func testMarchingAntsMoveWithTheAnimatedPhase() throws {
        let root = makeRoot()
        let ants = makeStroke(line(from: CGPoint(x: 0, y: 32), to: CGPoint(x: 64, y: 32)), width: 4, in: root)
        ants.lineDashPattern = [8, 8]
        let renderer = try makeRenderer()
        renderer.layer = root
        _ = try renderFrame(renderer, atTime: 0)
        let march = CABasicAnimation(keyPath: "lineDashPhase")
        march.fromValue = 0
        march.toValue = 16
        march.beginTime = 100
        march.duration = 2
        march.timingFunction = CAMediaTimingFunction(name: .linear)
        march.repeatCount = .infinity
        ants.add(march, forKey: "march")
        // Phase 16 · (t − 100) / 2: 4 at 100.5, 12 at 101.5.
        for (time, phase) in [(100.5, 4), (101.5, 12)] {
            let image = try renderFrame(renderer, atTime: time)
            assertPixels(image, "ants-\(phase)") { x, y in
                guard (30..<34).contains(y) else { return .clear }
                return (x + phase) % 16 < 8 ? .white : .clear
            }
        }
    }

    func testStrokeEndHalfEndsAStraightLineAtItsMidpoint() throws {
        let root = makeRoot()
        let shape = makeStroke(line(from: CGPoint(x: 8, y: 32), to: CGPoint(x: 56, y: 32)), width: 6, in: root)
        shape.strokeEnd = 0.5
        let image = try render(root)
        // Coverage ends at x = 32 (±1 pixel): full to 30, clear from 33.
        XCTAssertEqual(PixelRGBA(image, 30, 32), .white)
        XCTAssertEqual(PixelRGBA(image, 33, 32), .clear)
        let lastInked = try XCTUnwrap((0..<64).last { image.pixel(x: $0, y: 32).a > 127 })
        XCTAssertEqual(Double(lastInked + 1), 32, accuracy: 1)
    }

    func testStrokeEndAndStartCoverWholeSidesOfASquare() throws {
        // The square path runs top (left → right), right (down), bottom (right → left), left (up):
        // 0…0.5 is the top and right sides, 0.5…1 the bottom and left ones.
        let square = CGPath(rect: CGRect(x: 16, y: 16, width: 32, height: 32))
        let root = makeRoot()
        let firstHalf = makeStroke(square, width: 4, in: root)
        firstHalf.strokeEnd = 0.5
        let image = try render(root)
        assertPixels(image, "stroke-end", probes: [
            Probe("top", 32, 16, .white), Probe("right", 48, 32, .white), Probe("joined corner", 49, 15, .white),
            Probe("bottom", 32, 47, .clear), Probe("left", 16, 32, .clear),
            Probe("butt start", 13, 16, .clear), Probe("butt end", 48, 51, .clear),
        ])

        let root2 = makeRoot()
        let secondHalf = makeStroke(square, width: 4, in: root2)
        secondHalf.strokeStart = 0.5
        let image2 = try render(root2)
        assertPixels(image2, "stroke-start", probes: [
            Probe("bottom", 32, 48, .white), Probe("left", 15, 32, .white),
            Probe("top", 32, 15, .clear), Probe("right", 48, 32, .clear),
        ])
    }

    // MARK: - Morphing and zoom

    func testPathMorphIsHalfWayHalfWayThrough() throws {
        let root = makeRoot()
        let from = CGPath(rect: CGRect(x: 4, y: 4, width: 16, height: 16))
        let to = CGPath(rect: CGRect(x: 44, y: 36, width: 16, height: 16))
        let shape = makeShape(from, in: root)
        let renderer = try makeRenderer()
        renderer.layer = root
        _ = try renderFrame(renderer, atTime: 0)
        let morph = CABasicAnimation(keyPath: "path")
        morph.fromValue = from
        morph.toValue = to
        morph.beginTime = 10
        morph.duration = 4
        morph.timingFunction = CAMediaTimingFunction(name: .linear)
        shape.add(morph, forKey: "morph")
        // At 12 s, half way: every point half way, the rect (24, 20, 16, 16).
        let image = try renderFrame(renderer, atTime: 12)
        assertPixels(image, "morph") { x, y in self.inside(CGRect(x: 24, y: 20, width: 16, height: 16), x, y) ? .red : .clear }
        // The model's path has no implicit animation: setting it shows at once.
        shape.path = to
        XCTAssertNil(shape.animation(forKey: "path"))
    }

    func testAZoomedShapeStaysCrisp() throws {
        // A 12-unit circle in a 16-unit layer zoomed 4× about its centre at (32, 32): a radius of 24
        // pixels. Drawn at the on-screen scale, its edge ramps over at most 1.5 pixels; a 1× image
        // magnified 4× would ramp over about 4.
        let root = makeRoot()
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 24, y: 24, width: 16, height: 16)
        shape.path = CGPath(ellipseIn: CGRect(x: 2, y: 2, width: 12, height: 12), transform: nil)
        shape.fillColor = .testWhite
        shape.transform = CATransform3DMakeScale(4, 4, 1)
        root.addSublayer(shape)
        let image = try render(root)
        for row in [31, 32] {
            let partial = (32..<64).filter { (3...252).contains(image.pixel(x: $0, y: row).a) }
            XCTAssertLessThanOrEqual(partial.count, 2, "row \(row): partially covered pixels \(partial)")
            XCTAssertEqual(PixelRGBA(image, 54, row), .white)
            XCTAssertEqual(PixelRGBA(image, 57, row), .clear)
        }
        // The covered area is π · 24², within 1 %.
        var area = 0.0
        for y in 0..<64 { for x in 0..<64 { area += coverage(image, x, y) } }
        XCTAssertEqual(area, .pi * 576, accuracy: 0.01 * .pi * 576)
    }

    // MARK: - Nothing to draw

    func testEmptyPathsAndRefusedPointsDrawNothing() throws {
        let capture = DiagnosticCapture()
        let root = makeRoot()
        makeShape(CGMutablePath(), in: root)
        makeShape(nil, in: root)
        let refused = CGMutablePath()
        refused.addRect(CGRect(x: 0, y: 0, width: CGFloat.nan, height: 10))
        makeShape(refused, in: root)
        let image = try render(root)
        XCTAssertEqual(capture.names, ["nonFinitePathGeometry"])
        assertPixels(image, "nothing") { _, _ in .clear }
    }
}
