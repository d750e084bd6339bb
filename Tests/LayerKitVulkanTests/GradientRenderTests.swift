import Foundation
import LayerKit
@testable import LayerKitVulkan
import XCTest

/// CAGradientLayer drawn by the layer shader, checked pixel by pixel against the gradient formulas worked
/// out here (`GradientFormula`), within ±2/255 for the shader's ±0.5/255 dithering and rounding.
final class GradientRenderTests: CARendererTestCase {
    static let tolerance = 2

    /// A gradient layer at `frame` (points = pixels at scale 1) in a 64×64 root.
    func makeGradient(_ frame: CGRect, colors: [CGColor], in root: CALayer) -> CAGradientLayer {
        let gradient = CAGradientLayer()
        gradient.frame = frame
        gradient.colors = colors
        root.addSublayer(gradient)
        return gradient
    }

    func testDefaultAxialGradientRunsTopToBottomAtEveryPixel() throws {
        let root = makeRoot()
        let frame = CGRect(x: 4, y: 8, width: 48, height: 32)
        let colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        _ = makeGradient(frame, colors: colors, in: root)
        let image = try render(root)
        let formula = GradientFormula(kind: .axial, frame: frame, start: CGPoint(x: 0.5, y: 0), end: CGPoint(x: 0.5, y: 1),
                                      colors: [(1, 0, 0, 1), (0, 0, 1, 1)])
        assertPixels(image, "default axial", tolerance: Self.tolerance) { x, y in formula.expected(x, y) }
    }

    /// A diagonal on a non-square layer: lines of one color are at right angles to start → end in points,
    /// and the semi-transparent middle stop is interpolated premultiplied.
    func testDiagonalAxialGradientWithLocationsAndATranslucentStop() throws {
        let root = makeRoot()
        let frame = CGRect(x: 2, y: 6, width: 56, height: 28)
        let gradient = makeGradient(frame, colors: [CGColor(red: 1, green: 1, blue: 0, alpha: 1),
                                                    CGColor(red: 0, green: 1, blue: 1, alpha: 0.5),
                                                    CGColor(red: 0, green: 0, blue: 0, alpha: 1)], in: root)
        gradient.locations = [0, 0.25, 1]
        gradient.startPoint = CGPoint(x: 0, y: 0)
        gradient.endPoint = CGPoint(x: 1, y: 1)
        let image = try render(root)
        let formula = GradientFormula(kind: .axial, frame: frame, start: .zero, end: CGPoint(x: 1, y: 1),
                                      colors: [(1, 1, 0, 1), (0, 1, 1, 0.5), (0, 0, 0, 1)], locations: [0, 0.25, 1])
        assertPixels(image, "diagonal axial", tolerance: Self.tolerance) { x, y in formula.expected(x, y) }
    }

    /// Locations 0.25 and 0.75 on a left-to-right gradient: the first color up to a quarter of the width,
    /// the last from three quarters on.
    func testColorsClampBeforeTheFirstAndAfterTheLastLocation() throws {
        let root = makeRoot()
        let frame = CGRect(x: 0, y: 0, width: 64, height: 16)
        let gradient = makeGradient(frame, colors: [CGColor(red: 0, green: 1, blue: 0, alpha: 1), CGColor(red: 1, green: 0, blue: 1, alpha: 1)], in: root)
        gradient.locations = [0.25, 0.75]
        gradient.startPoint = CGPoint(x: 0, y: 0.5)
        gradient.endPoint = CGPoint(x: 1, y: 0.5)
        let image = try render(root)
        for y in [0, 7, 15] {
            for x in 0..<15 { XCTAssertLessThanOrEqual(PixelRGBA(image, x, y).difference(to: .green), 1, "(\(x), \(y)) before 0.25") }
            for x in 49..<64 { XCTAssertLessThanOrEqual(PixelRGBA(image, x, y).difference(to: .magenta), 1, "(\(x), \(y)) after 0.75") }
        }
        let formula = GradientFormula(kind: .axial, frame: frame, start: CGPoint(x: 0, y: 0.5), end: CGPoint(x: 1, y: 0.5),
                                      colors: [(0, 1, 0, 1), (1, 0, 1, 1)], locations: [0.25, 0.75])
        assertPixels(image, "clamped axial", tolerance: Self.tolerance) { x, y in formula.expected(x, y) }
    }

    /// Radial: an ellipse of radii 0.5 · 48 = 24 and 0.25 · 32 = 8 points around the centre (unequal
    /// scales catch swapped axes); past the ellipse the last color.
    func testRadialGradientFillsAnEllipseFromTheStartPoint() throws {
        let root = makeRoot()
        let frame = CGRect(x: 8, y: 16, width: 48, height: 32)
        let gradient = makeGradient(frame, colors: [CGColor(red: 1, green: 1, blue: 1, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1),
                                                    CGColor(red: 0, green: 0, blue: 0, alpha: 0)], in: root)
        gradient.type = .radial
        gradient.startPoint = CGPoint(x: 0.5, y: 0.5)
        gradient.endPoint = CGPoint(x: 1, y: 0.75)
        let image = try render(root)
        let formula = GradientFormula(kind: .radial, frame: frame, start: CGPoint(x: 0.5, y: 0.5), end: CGPoint(x: 1, y: 0.75),
                                      colors: [(1, 1, 1, 1), (0, 0, 1, 1), (0, 0, 0, 0)])
        assertPixels(image, "radial", tolerance: Self.tolerance) { x, y in formula.expected(x, y) }
        // Pixel (44, 32) is centred 12.5 points right of the centre on the axis: t = 12.5 / 24, a 24th of
        // the way from opaque blue to clear.
        XCTAssertLessThanOrEqual(PixelRGBA(image, 44, 32).difference(to: PixelRGBA(premultiplied: 0, 0, 23.0 / 24, 23.0 / 24)), 2)
    }

    /// Conic: around the centre, clockwise on screen from the direction of the end point (straight up
    /// here); pixels next to the seam and the centre are left out.
    func testConicGradientGoesClockwiseFromTheEndPointsDirection() throws {
        let root = makeRoot()
        let frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let gradient = makeGradient(frame, colors: [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 0, alpha: 1),
                                                    CGColor(red: 0, green: 0, blue: 1, alpha: 1)], in: root)
        gradient.type = .conic
        gradient.startPoint = CGPoint(x: 0.5, y: 0.5)
        gradient.endPoint = CGPoint(x: 0.5, y: 0)
        let image = try render(root)
        let formula = GradientFormula(kind: .conic, frame: frame, start: CGPoint(x: 0.5, y: 0.5), end: CGPoint(x: 0.5, y: 0),
                                      colors: [(1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1)])
        assertPixels(image, "conic", tolerance: Self.tolerance) { x, y in
            let t = formula.parameter(Double(x) + 0.5, Double(y) + 0.5)
            let radius = hypot(Double(x) + 0.5 - 32, Double(y) + 0.5 - 24)
            return (t < 0.01 || t > 0.99 || radius < 3) ? nil : formula.expected(x, y)
        }
        // Right of the centre, on its row, is a quarter turn clockwise from up: t = 0.25, halfway from red
        // (at 0) to green (at 0.5).
        XCTAssertLessThanOrEqual(PixelRGBA(image, 60, 23).difference(to: PixelRGBA(premultiplied: 0.5, 0.5, 0, 1)), 4)
    }

    /// More stops than any per-instance record could hold: twelve alternating bands, every one drawn.
    func testManyStopsAreAllDrawn() throws {
        let root = makeRoot()
        let frame = CGRect(x: 0, y: 0, width: 64, height: 8)
        let colors = (0..<24).map { $0 % 2 == 0 ? CGColor(red: 1, green: 1, blue: 1, alpha: 1) : CGColor(red: 0, green: 0, blue: 0, alpha: 1) }
        let gradient = makeGradient(frame, colors: colors, in: root)
        // Hard bands: each color twice, 12 bands of 64 / 12 points.
        gradient.locations = (0..<24).map { NSNumber(value: Double(($0 + 1) / 2) / 12) }
        gradient.startPoint = CGPoint(x: 0, y: 0.5)
        gradient.endPoint = CGPoint(x: 1, y: 0.5)
        let image = try render(root)
        let formula = GradientFormula(kind: .axial, frame: frame, start: CGPoint(x: 0, y: 0.5), end: CGPoint(x: 1, y: 0.5),
                                      colors: (0..<24).map { $0 % 2 == 0 ? (1, 1, 1, 1) : (0, 0, 0, 1) },
                                      locations: (0..<24).map { Double(($0 + 1) / 2) / 12 })
        assertPixels(image, "24 stops", tolerance: Self.tolerance) { x, y in formula.expected(x, y) }
    }

    /// Opacity multiplies the gradient; cornerRadius rounds it as it rounds a background; a superlayer's
    /// masksToBounds clips it.
    func testOpacityCornerRadiusAndAClipApplyToTheGradient() throws {
        let root = makeRoot()
        let clip = makeLayer(CGRect(x: 0, y: 0, width: 40, height: 64), nil, in: root)
        clip.masksToBounds = true
        let frame = CGRect(x: 8, y: 8, width: 48, height: 48)
        let gradient = makeGradient(frame, colors: [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)], in: clip)
        gradient.opacity = 0.5
        gradient.cornerRadius = 12
        let image = try render(root)
        let formula = GradientFormula(kind: .axial, frame: frame, start: CGPoint(x: 0.5, y: 0), end: CGPoint(x: 0.5, y: 1),
                                      colors: [(1, 0, 0, 1), (0, 0, 1, 1)])
        let rounded = RoundedRectShape(frame, radius: 12)
        assertPixels(image, "opacity, corners, clip", tolerance: Self.tolerance) { x, y in
            let px = Double(x) + 0.5, py = Double(y) + 0.5
            if x >= 40 { return .clear }
            if !rounded.contains(px, py) { return rounded.signedDistance(px, py) > 1 ? .clear : nil }
            if rounded.signedDistance(px, py) > -1 { return nil }
            return formula.expected(x, y)?.scaled(by: 0.5)
        }
    }

    /// A 90° rotation turns the top-to-bottom gradient into a right-to-left one on screen.
    func testTheGradientTurnsWithItsLayersTransform() throws {
        let root = makeRoot()
        let gradient = makeGradient(CGRect(x: 16, y: 8, width: 32, height: 48), colors: [CGColor(red: 0, green: 1, blue: 0, alpha: 1),
                                                                                           CGColor(red: 0, green: 0, blue: 0, alpha: 1)], in: root)
        gradient.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let image = try render(root)
        // Rotated about its centre (32, 32): on screen 48 wide, 32 high, from (8, 16). A layer point
        // (lx, ly) lands at (32 − (ly − 24), 32 + (lx − 16)): layer y = 0 (green) is on screen at x = 56.
        assertPixels(image, "rotated", tolerance: Self.tolerance) { x, y in
            let px = Double(x) + 0.5, py = Double(y) + 0.5
            guard px > 8, px < 56, py > 16, py < 48 else { return .clear }
            let layerY = 24 - (px - 32)
            let t = layerY / 48
            return PixelRGBA(premultiplied: 0, 1 - t, 0, 1)
        }
    }

    /// Ramps of 4/255 over 64 pixels, in gray (top half) and in alpha (bottom half): without dithering
    /// every pixel rounds to the nearest level, so blocks sit up to half a level off the ideal ramp
    /// (bands); with 4×4 ordered dithering the mean of every 4×4 block follows the ideal mean within a
    /// fifth of a level.
    func testOrderedDitheringKeepsShallowRampsAverageInEveryBlock() throws {
        let root = makeRoot()
        let level = { (v: Double) in CGFloat(v / 255) }
        let gray = makeGradient(CGRect(x: 0, y: 0, width: 64, height: 32),
                                colors: [CGColor(red: level(100), green: level(100), blue: level(100), alpha: 1),
                                         CGColor(red: level(104), green: level(104), blue: level(104), alpha: 1)], in: root)
        let fade = makeGradient(CGRect(x: 0, y: 32, width: 64, height: 32),
                                colors: [CGColor(red: 1, green: 1, blue: 1, alpha: level(100)), CGColor(red: 1, green: 1, blue: 1, alpha: level(104))],
                                in: root)
        for gradient in [gray, fade] {
            gradient.startPoint = CGPoint(x: 0, y: 0.5)
            gradient.endPoint = CGPoint(x: 1, y: 0.5)
        }
        let image = try render(root)
        for (name, rows, channel) in [("gray", 0..<32, \PixelRGBA.r), ("alpha", 32..<64, \PixelRGBA.a)] {
            var worst = 0.0
            var levelsSeen = Set<UInt8>()
            for blockY in stride(from: rows.lowerBound, to: rows.upperBound, by: 4) {
                for blockX in stride(from: 0, to: 64, by: 4) {
                    var got = 0.0, ideal = 0.0
                    for y in blockY..<blockY + 4 {
                        for x in blockX..<blockX + 4 {
                            let value = PixelRGBA(image, x, y)[keyPath: channel]
                            XCTAssertLessThanOrEqual(abs(Int(value) - 100 - Int((Double(x) + 0.5) / 16)), 2, "\(name) (\(x), \(y))")
                            levelsSeen.insert(value)
                            got += Double(value)
                            ideal += 100 + 4 * (Double(x) + 0.5) / 64
                        }
                    }
                    worst = max(worst, abs(got - ideal) / 16)
                }
            }
            XCTAssertLessThan(worst, 0.2, "\(name): mean of a 4×4 block off the ideal ramp by \(worst) levels")
            XCTAssertEqual(levelsSeen, [100, 101, 102, 103, 104], name)
        }
    }

    /// A gradient as a mask, drawn in an offscreen pass (its stops follow the instances of every pass):
    /// the masked layer's red times the mask's alpha, 1 at the left edge down to 0 at the right.
    func testAGradientMaskFadesTheMaskedLayer() throws {
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 0, y: 8, width: 64, height: 16), CGColor(red: 1, green: 0, blue: 0, alpha: 1), in: root)
        let mask = CAGradientLayer()
        mask.frame = layer.bounds
        mask.colors = [CGColor(red: 0, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 0, alpha: 0)]
        mask.startPoint = CGPoint(x: 0, y: 0.5)
        mask.endPoint = CGPoint(x: 1, y: 0.5)
        layer.mask = mask
        // A second gradient in the frame pass, after the masked layer.
        let bar = makeGradient(CGRect(x: 0, y: 40, width: 64, height: 8), colors: [CGColor(red: 0, green: 0, blue: 1, alpha: 1),
                                                                                   CGColor(red: 0, green: 1, blue: 0, alpha: 1)], in: root)
        bar.startPoint = CGPoint(x: 0, y: 0.5)
        bar.endPoint = CGPoint(x: 1, y: 0.5)
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer)
        XCTAssertGreaterThan(renderer.lastFrameStatistics.passes, 1, "the mask is drawn offscreen")
        assertPixels(image, "gradient mask", tolerance: Self.tolerance) { x, y in
            let t = (Double(x) + 0.5) / 64
            if y >= 8 && y < 24 { return PixelRGBA(premultiplied: 1 - t, 0, 0, 1 - t) }
            if y >= 40 && y < 48 { return PixelRGBA(premultiplied: 0, t, 1 - t, 1) }
            return .clear
        }
    }

    /// Gradients of different kinds and stop counts share one instanced draw.
    func testManyGradientLayersAreOneDrawCall() throws {
        let root = makeRoot()
        for index in 0..<30 {
            let gradient = makeGradient(CGRect(x: 2 + 10 * (index % 6), y: 2 + 12 * (index / 6), width: 8, height: 10),
                                        colors: (0...(index % 4 + 1)).map { CGColor(red: CGFloat($0) / 5, green: 0.5, blue: 1, alpha: 0.75) },
                                        in: root)
            gradient.type = [.axial, .radial, .conic][index % 3]
            gradient.startPoint = CGPoint(x: 0.5, y: 0.5)
        }
        let renderer = try makeRenderer()
        renderer.layer = root
        _ = try renderFrame(renderer)
        XCTAssertEqual(renderer.lastFrameStatistics.drawCalls, 1, "\(renderer.lastGraph.map(String.init(describing:)) ?? "")")
        XCTAssertEqual(renderer.lastFrameStatistics.instances, 30)
    }

    /// An explicit animation of `colors` and one of `locations`, evaluated by the renderer at t = 0.25
    /// of their duration: colors and locations interpolated element by element.
    func testColorsAndLocationsAnimateElementByElement() throws {
        let root = makeRoot()
        let frame = CGRect(x: 0, y: 0, width: 64, height: 16)
        let gradient = makeGradient(frame, colors: [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)], in: root)
        gradient.startPoint = CGPoint(x: 0, y: 0.5)
        gradient.endPoint = CGPoint(x: 1, y: 0.5)
        gradient.locations = [0, 1]
        let colors = CABasicAnimation(keyPath: "colors")
        colors.fromValue = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        colors.toValue = [CGColor(red: 0, green: 1, blue: 0, alpha: 1), CGColor(red: 1, green: 1, blue: 1, alpha: 1)]
        colors.duration = 1
        colors.beginTime = 100
        gradient.add(colors, forKey: "colors")
        let locations = CABasicAnimation(keyPath: "locations")
        locations.fromValue = [0, 1]
        locations.toValue = [0.4, 0.6]
        locations.duration = 1
        locations.beginTime = 100
        gradient.add(locations, forKey: "locations")
        let renderer = try makeRenderer()
        renderer.layer = root
        let image = try renderFrame(renderer, atTime: 100.25)
        // At 0.25 (linear): colors (0.75, 0.25, 0) and (0.25, 0.25, 1); locations 0.1 and 0.9.
        let formula = GradientFormula(kind: .axial, frame: frame, start: CGPoint(x: 0, y: 0.5), end: CGPoint(x: 1, y: 0.5),
                                      colors: [(0.75, 0.25, 0, 1), (0.25, 0.25, 1, 1)], locations: [0.1, 0.9])
        assertPixels(image, "animated colors and locations", tolerance: Self.tolerance) { x, y in formula.expected(x, y) }
        let after = try renderFrame(renderer, atTime: 102)
        let model = GradientFormula(kind: .axial, frame: frame, start: CGPoint(x: 0, y: 0.5), end: CGPoint(x: 1, y: 0.5),
                                    colors: [(1, 0, 0, 1), (0, 0, 1, 1)], locations: [0, 1])
        assertPixels(after, "after the animations", tolerance: Self.tolerance) { x, y in model.expected(x, y) }
    }

    /// startPoint and endPoint animate implicitly: half a default 0.25 s action in, the axis has turned
    /// halfway from vertical to horizontal (linear points, as the default timing's midpoint is 0.5).
    func testStartAndEndPointsAnimateImplicitly() throws {
        let root = makeRoot()
        let frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        let gradient = makeGradient(frame, colors: [CGColor(red: 1, green: 1, blue: 1, alpha: 1), CGColor(red: 0, green: 0, blue: 0, alpha: 1)], in: root)
        let renderer = try makeRenderer()
        renderer.layer = root
        _ = try renderFrame(renderer, atTime: 0)
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        gradient.startPoint = CGPoint(x: 0, y: 0.5)
        gradient.endPoint = CGPoint(x: 1, y: 0.5)
        CATransaction.commit()
        let begin = try XCTUnwrap(gradient.animation(forKey: "startPoint")?.beginTime)
        let image = try renderFrame(renderer, atTime: begin + 0.5)
        // Halfway: start (0.25, 0.25), end (0.75, 0.75) — a diagonal.
        let formula = GradientFormula(kind: .axial, frame: frame, start: CGPoint(x: 0.25, y: 0.25), end: CGPoint(x: 0.75, y: 0.75),
                                      colors: [(1, 1, 1, 1), (0, 0, 0, 1)])
        assertPixels(image, "implicit start/end", tolerance: Self.tolerance) { x, y in formula.expected(x, y) }
    }
}

/// CAGradientLayer's gradients written out from their definitions, independently of the renderer: the
/// parameter t of a point, then the stops' straight colors premultiplied and mixed linearly.
struct GradientFormula {
    enum Kind { case axial, radial, conic }
    var kind: Kind
    /// The layer's frame in target pixels (untransformed, scale 1).
    var frame: CGRect
    var start: CGPoint
    var end: CGPoint
    /// Straight RGBA.
    var colors: [(Double, Double, Double, Double)]
    var locations: [Double]?

    /// t at the target point (x, y).
    func parameter(_ x: Double, _ y: Double) -> Double {
        let w = Double(frame.width), h = Double(frame.height)
        let sx = Double(frame.minX) + Double(start.x) * w, sy = Double(frame.minY) + Double(start.y) * h
        let dx = x - sx, dy = y - sy
        switch kind {
        case .axial:
            let ax = Double(end.x - start.x) * w, ay = Double(end.y - start.y) * h
            return (dx * ax + dy * ay) / (ax * ax + ay * ay)
        case .radial:
            let rx = abs(Double(end.x - start.x)) * w, ry = abs(Double(end.y - start.y)) * h
            return ((dx / rx) * (dx / rx) + (dy / ry) * (dy / ry)).squareRoot()
        case .conic:
            let ax = Double(end.x - start.x) * w, ay = Double(end.y - start.y) * h
            var turn = (atan2(dy, dx) - atan2(ay, ax)) / (2 * .pi)
            turn -= turn.rounded(.down)
            return turn
        }
    }

    /// The premultiplied color at parameter t.
    func color(at t: Double) -> PixelRGBA {
        let stops = locations ?? (0..<colors.count).map { Double($0) / Double(max(colors.count - 1, 1)) }
        func premultiplied(_ i: Int) -> (Double, Double, Double, Double) {
            let c = colors[i]
            return (c.0 * c.3, c.1 * c.3, c.2 * c.3, c.3)
        }
        var index = stops.lastIndex { $0 <= t } ?? -1
        if index < 0 { let c = premultiplied(0); return PixelRGBA(premultiplied: c.0, c.1, c.2, c.3) }
        // Equal locations: the later stop wins from its location on.
        if index == stops.count - 1 { let c = premultiplied(index); return PixelRGBA(premultiplied: c.0, c.1, c.2, c.3) }
        index = min(index, stops.count - 2)
        let f = (t - stops[index]) / (stops[index + 1] - stops[index])
        let a = premultiplied(index), b = premultiplied(index + 1)
        return PixelRGBA(premultiplied: a.0 + (b.0 - a.0) * f, a.1 + (b.1 - a.1) * f, a.2 + (b.2 - a.2) * f, a.3 + (b.3 - a.3) * f)
    }

    /// The expected pixel at target pixel (x, y): the gradient inside the frame, clear outside.
    func expected(_ x: Int, _ y: Int) -> PixelRGBA? {
        let px = Double(x) + 0.5, py = Double(y) + 0.5
        guard frame.contains(CGPoint(x: px, y: py)) else { return .clear }
        return color(at: parameter(px, py))
    }
}
