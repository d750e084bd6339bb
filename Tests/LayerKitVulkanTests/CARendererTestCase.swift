import Foundation
import LayerKit
@testable import LayerKitVulkan
import XCTest

/// Base class of the `CARenderer` render tests: layer trees in, pixels out, expectations worked out by hand.
///
/// Every renderer a test makes runs with the Khronos validation layer (`LK_VALIDATION=1`), and `tearDown`
/// fails the test on any validation message. Scenes are small (64×64 unless a test needs more) so that
/// lavapipe renders a frame in about a tenth of a second.
///
/// Conventions of the expectations: the renderer's `bounds` is the target at one point per pixel unless a
/// test says otherwise, so a layer edge at an integer coordinate is a pixel edge; pixel (x, y) has its
/// centre at (x + 0.5, y + 0.5); pixels are premultiplied RGBA8, composited source-over in gamma-encoded
/// sRGB (what Core Animation does), and the target is cleared to transparent.
///
/// A failed pixel assertion writes `<test>-<name>-actual.png`, `-expected.png` and `-diff.png` into
/// `$TMPDIR/layerkit-render-tests/` and says where in the failure message (STYLE.md, guideline 11). In the diff image a pixel
/// outside the tolerance is magenta, one within it is grey (brighter for a larger difference), an equal
/// one black, and a pixel the test does not check dark blue.
class CARendererTestCase: XCTestCase {
    private var renderers: [CARenderer] = []

    override func setUpWithError() throws {
        try super.setUpWithError()
        setenv("LK_VALIDATION", "1", 1)
    }

    override func tearDownWithError() throws {
        for renderer in renderers {
            XCTAssertEqual(renderer.validationMessages, [],
                           "Vulkan validation reported:\n" + renderer.validationMessages.joined(separator: "\n"))
        }
        renderers.removeAll()
        try super.tearDownWithError()
    }

    // MARK: - Rendering

    /// A renderer for a `width`×`height`-pixel target at `scale` pixels per point, validation on; its
    /// validation messages are checked when the test ends.
    func makeRenderer(width: Int = 64, height: Int = 64, scale: CGFloat = 1) throws -> CARenderer {
        let renderer = try CARenderer(width: width, height: height, scale: scale)
        renderer.resolvesGroupsByDepth = resolvesGroupsByDepth
        renderers.append(renderer)
        return renderer
    }

    /// Whether the renderers of this test class resolve groups over opaque children by depth (the
    /// default); classes that test group surfaces, their cache and their pools turn it off.
    var resolvesGroupsByDepth: Bool { true }

    /// Renders one frame of what `renderer` shows, at time `t`, and reads it back.
    func renderFrame(_ renderer: CARenderer, atTime t: CFTimeInterval = 0) throws -> CGImage {
        renderer.beginFrame(atTime: t)
        renderer.render()
        renderer.endFrame()
        return try renderer.snapshot()
    }

    /// Renders `root` at time 0 into a fresh renderer and returns the frame.
    func render(_ root: CALayer, width: Int = 64, height: Int = 64, scale: CGFloat = 1) throws -> CGImage {
        let renderer = try makeRenderer(width: width, height: height, scale: scale)
        renderer.layer = root
        return try renderFrame(renderer)
    }

    /// Makes model changes between frames with implicit animations off, so the next frame shows them.
    func withoutAnimation(_ changes: () -> Void) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        changes()
        CATransaction.commit()
    }

    // MARK: - Scene building

    /// A root layer covering a `width`×`height`-point target exactly, with no background.
    func makeRoot(width: CGFloat = 64, height: CGFloat = 64) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: width, height: height)
        return root
    }

    /// A layer at `frame` filled with `color`, added to `parent` when given.
    @discardableResult
    func makeLayer(_ frame: CGRect, _ color: CGColor? = nil, in parent: CALayer? = nil) -> CALayer {
        let layer = CALayer()
        layer.frame = frame
        layer.backgroundColor = color
        parent?.addSublayer(layer)
        return layer
    }

    // MARK: - Pixel assertions

    /// Compares every pixel of `image` with `expected(x, y)` (nil: not checked), each channel within
    /// `tolerance`. On failure: one message with the first mismatches and where the images were written.
    func assertPixels(
        _ image: CGImage, _ name: String, tolerance: Int = 0, file: StaticString = #filePath, line: UInt = #line,
        expected: (Int, Int) -> PixelRGBA?
    ) {
        var table = [PixelRGBA?](repeating: nil, count: image.width * image.height)
        var mismatches: [String] = []
        var count = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                guard let want = expected(x, y) else { continue }
                table[y * image.width + x] = want
                let got = PixelRGBA(image, x, y)
                if got.difference(to: want) > tolerance {
                    count += 1
                    if mismatches.count < 10 { mismatches.append("(\(x), \(y)): got \(got), expected \(want)") }
                }
            }
        }
        guard count > 0 else { return }
        let location = writeFailureImages(name, actual: image, expected: table, tolerance: tolerance)
        XCTFail("\(name): \(count) pixel(s) differ by more than \(tolerance): " + mismatches.joined(separator: "; ") + "\n" + location,
                file: file, line: line)
    }

    /// Checks a few named pixels.
    func assertPixels(
        _ image: CGImage, _ name: String, tolerance: Int = 0, file: StaticString = #filePath, line: UInt = #line,
        probes: [Probe]
    ) {
        var byPoint: [Int: PixelRGBA] = [:]
        var mismatches: [String] = []
        for probe in probes {
            byPoint[probe.y * image.width + probe.x] = probe.expected
            let got = PixelRGBA(image, probe.x, probe.y)
            if got.difference(to: probe.expected) > tolerance {
                mismatches.append("\(probe.label) (\(probe.x), \(probe.y)): got \(got), expected \(probe.expected)")
            }
        }
        guard !mismatches.isEmpty else { return }
        let table = (0..<(image.width * image.height)).map { byPoint[$0] }
        let location = writeFailureImages(name, actual: image, expected: table, tolerance: tolerance)
        XCTFail("\(name): " + mismatches.joined(separator: "; ") + "\n" + location, file: file, line: line)
    }

    /// Checks that `color` is drawn with coverage `area(x, y)` (0…1, worked out independently, e.g. with
    /// `areaCoverage`) at every pixel, within `tolerance` of coverage; the target is clear elsewhere.
    func assertCoverage(
        _ image: CGImage, _ name: String, color: PixelRGBA = .white, tolerance: Double,
        file: StaticString = #filePath, line: UInt = #line, area: (Int, Int) -> Double?
    ) {
        assertPixels(image, name, tolerance: Int((tolerance * 255).rounded(.up)), file: file, line: line) { x, y in
            area(x, y).map { color.scaled(by: $0) }
        }
    }

    /// Coverage of a rotated rectangle: within `edgeTolerance` of the area along its edges, and within
    /// 0.25 at the pixels whose centre is less than a pixel from a corner. There the renderer's one-pixel
    /// ramp follows the nearer edge only: a corner on a pixel centre shows 0.5 for a quarter-pixel wedge.
    func assertCoverage(
        _ image: CGImage, _ name: String, of shape: RotatedRectShape, color: PixelRGBA = .white, edgeTolerance: Double,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        func nearCorner(_ x: Int, _ y: Int) -> Bool { shape.distanceToCorner(Double(x) + 0.5, Double(y) + 0.5) < 1 }
        assertCoverage(image, name, color: color, tolerance: edgeTolerance, file: file, line: line) { x, y in
            nearCorner(x, y) ? nil : self.areaCoverage(x: x, y: y, of: shape)
        }
        assertCoverage(image, name + "-corners", color: color, tolerance: 0.25, file: file, line: line) { x, y in
            nearCorner(x, y) ? self.areaCoverage(x: x, y: y, of: shape) : nil
        }
    }

    /// Writes actual, expected and diff PNGs and returns a line saying where.
    func writeFailureImages(_ name: String, actual: CGImage, expected: [PixelRGBA?], tolerance: Int) -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-render-tests")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let testName = self.name.filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "_" }
        let base = directory.appendingPathComponent("\(testName)-\(name)").path
        let width = actual.width, height = actual.height
        var expectedBytes: [UInt8] = []
        var diffBytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let got = PixelRGBA(actual, x, y)
                guard let want = expected[y * width + x] else {
                    expectedBytes += got.bytes
                    diffBytes += [0, 0, 64, 255]
                    continue
                }
                expectedBytes += want.bytes
                let difference = got.difference(to: want)
                if difference > tolerance {
                    diffBytes += [255, 0, 255, 255]
                } else {
                    let level = UInt8(min(255, difference * 32))
                    diffBytes += [level, level, level, 255]
                }
            }
        }
        let images = [
            ("actual", actual),
            ("expected", CGImage(width: width, height: height, bytesPerRow: width * 4, premultipliedRGBA: expectedBytes)!),
            ("diff", CGImage(width: width, height: height, bytesPerRow: width * 4, premultipliedRGBA: diffBytes)!),
        ]
        var paths: [String] = []
        for (suffix, image) in images {
            let path = "\(base)-\(suffix).png"
            if (try? image.pngData().write(to: URL(fileURLWithPath: path))) != nil { paths.append(path) }
        }
        return "images written: " + paths.joined(separator: ", ")
    }

    // MARK: - Independent geometry

    /// The fraction of pixel (x, y)'s square for which `inside` holds, by `samples`×`samples` point
    /// sampling (error about 1/samples along an edge). `inside` takes target-pixel coordinates.
    func areaCoverage(x: Int, y: Int, samples: Int = 64, inside: (Double, Double) -> Bool) -> Double {
        var count = 0
        for j in 0..<samples {
            for i in 0..<samples {
                let px = Double(x) + (Double(i) + 0.5) / Double(samples)
                let py = Double(y) + (Double(j) + 0.5) / Double(samples)
                if inside(px, py) { count += 1 }
            }
        }
        return Double(count) / Double(samples * samples)
    }

    /// The fraction of pixel (x, y)'s square inside `region`: 0 or 1 when the pixel centre is more than
    /// half a diagonal from the boundary, otherwise `areaCoverage` with 64×64 samples.
    func areaCoverage(x: Int, y: Int, of region: some PixelRegion) -> Double {
        let distance = region.signedDistance(Double(x) + 0.5, Double(y) + 0.5)
        if distance >= 0.7072 { return 0 }
        if distance <= -0.7072 { return 1 }
        return areaCoverage(x: x, y: y, inside: region.contains)
    }

    /// How much of a color of alpha 1 a pixel shows over the clear target: its alpha, 0…1.
    func coverage(_ image: CGImage, _ x: Int, _ y: Int) -> Double {
        Double(image.pixel(x: x, y: y).a) / 255
    }

    // MARK: - Images

    /// An image whose pixel (x, y) (row 0 at the top) is `pixel(x, y)`.
    func makeImage(width: Int, height: Int, opaque: Bool = true, pixel: (Int, Int) -> PixelRGBA) -> CGImage {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width { bytes += pixel(x, y).bytes }
        }
        return CGImage(width: width, height: height, bytesPerRow: width * 4, premultipliedRGBA: bytes,
                       alphaInfo: opaque ? .noneSkipLast : .premultipliedLast)!
    }

    /// A `width`×`height` image in four quadrants: top-left red, top-right green, bottom-left blue,
    /// bottom-right white (row 0 is the top).
    func makeQuadrantImage(width: Int = 16, height: Int = 8) -> CGImage {
        makeImage(width: width, height: height) { x, y in
            Quadrant(left: x < width / 2, top: y < height / 2).color
        }
    }
}

/// The quadrants of `makeQuadrantImage()` and their colors.
struct Quadrant: Equatable {
    var left: Bool
    var top: Bool

    var color: PixelRGBA {
        switch (left, top) {
        case (true, true): .red
        case (false, true): .green
        case (true, false): .blue
        case (false, false): .white
        }
    }
}

/// A pixel expected at a point, with a label for the failure message.
struct Probe {
    var label: String
    var x: Int
    var y: Int
    var expected: PixelRGBA

    init(_ label: String, _ x: Int, _ y: Int, _ expected: PixelRGBA) {
        (self.label, self.x, self.y, self.expected) = (label, x, y, expected)
    }
}

/// A premultiplied RGBA8 pixel, as the renderer reads back.
struct PixelRGBA: Equatable, CustomStringConvertible {
    var r, g, b, a: UInt8

    init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) { (self.r, self.g, self.b, self.a) = (r, g, b, a) }

    init(_ image: CGImage, _ x: Int, _ y: Int) {
        let p = image.pixel(x: x, y: y)
        self.init(p.r, p.g, p.b, p.a)
    }

    /// The 8-bit encoding of premultiplied unit components (round to nearest).
    init(premultiplied r: Double, _ g: Double, _ b: Double, _ a: Double) {
        func byte(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
        self.init(byte(r), byte(g), byte(b), byte(a))
    }

    /// A straight (non-premultiplied) color, premultiplied.
    init(straight r: Double, _ g: Double, _ b: Double, _ a: Double) {
        self.init(premultiplied: r * a, g * a, b * a, a)
    }

    static let clear = PixelRGBA(0, 0, 0, 0)
    static let black = PixelRGBA(0, 0, 0, 255)
    static let white = PixelRGBA(255, 255, 255, 255)
    static let red = PixelRGBA(255, 0, 0, 255)
    static let green = PixelRGBA(0, 255, 0, 255)
    static let blue = PixelRGBA(0, 0, 255, 255)
    static let yellow = PixelRGBA(255, 255, 0, 255)
    static let cyan = PixelRGBA(0, 255, 255, 255)
    static let magenta = PixelRGBA(255, 0, 255, 255)

    var bytes: [UInt8] { [r, g, b, a] }

    /// The largest difference of one channel.
    func difference(to other: PixelRGBA) -> Int {
        max(abs(Int(r) - Int(other.r)), abs(Int(g) - Int(other.g)), abs(Int(b) - Int(other.b)), abs(Int(a) - Int(other.a)))
    }

    /// This premultiplied color scaled by `amount` (coverage or opacity), rounded to nearest.
    func scaled(by amount: Double) -> PixelRGBA {
        PixelRGBA(premultiplied: Double(r) / 255 * amount, Double(g) / 255 * amount, Double(b) / 255 * amount, Double(a) / 255 * amount)
    }

    var description: String { "(\(r), \(g), \(b), \(a))" }
}

extension CGColor {
    static let testRed = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let testGreen = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
    static let testBlue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    static let testWhite = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
    static let testYellow = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
}

/// A region of the target, in pixels, whose coverage a test works out.
protocol PixelRegion {
    func contains(_ x: Double, _ y: Double) -> Bool
    /// Euclidean distance to the boundary, negative inside (a lower bound suffices far from it).
    func signedDistance(_ x: Double, _ y: Double) -> Double
}

/// A rounded rectangle in target pixels, for expected coverage: corner radii top-left, top-right,
/// bottom-right, bottom-left (y down).
struct RoundedRectShape: PixelRegion {
    var minX, minY, maxX, maxY: Double
    var radii: (topLeft: Double, topRight: Double, bottomRight: Double, bottomLeft: Double)

    init(_ rect: CGRect, radius: Double) {
        self.init(rect, radii: (radius, radius, radius, radius))
    }

    init(_ rect: CGRect, radii: (Double, Double, Double, Double)) {
        (minX, minY, maxX, maxY) = (Double(rect.minX), Double(rect.minY), Double(rect.maxX), Double(rect.maxY))
        self.radii = radii
    }

    func contains(_ x: Double, _ y: Double) -> Bool {
        guard x >= minX, x <= maxX, y >= minY, y <= maxY else { return false }
        // Each corner: the square of side r at the corner is inside only within the circle.
        let corners: [(cx: Double, cy: Double, r: Double, sx: Double, sy: Double)] = [
            (minX + radii.topLeft, minY + radii.topLeft, radii.topLeft, -1, -1),
            (maxX - radii.topRight, minY + radii.topRight, radii.topRight, 1, -1),
            (maxX - radii.bottomRight, maxY - radii.bottomRight, radii.bottomRight, 1, 1),
            (minX + radii.bottomLeft, maxY - radii.bottomLeft, radii.bottomLeft, -1, 1),
        ]
        for c in corners where c.r > 0 {
            let dx = (x - c.cx) * c.sx, dy = (y - c.cy) * c.sy
            if dx > 0 && dy > 0 { return dx * dx + dy * dy <= c.r * c.r }
        }
        return true
    }

    func signedDistance(_ x: Double, _ y: Double) -> Double {
        // Exact for the rounded box: per quadrant, the box shrunk by that corner's radius, then offset.
        let cx = (minX + maxX) / 2, cy = (minY + maxY) / 2
        let hx = (maxX - minX) / 2, hy = (maxY - minY) / 2
        let qx = x - cx, qy = y - cy
        let r = qx < 0 ? (qy < 0 ? radii.topLeft : radii.bottomLeft) : (qy < 0 ? radii.topRight : radii.bottomRight)
        let dx = abs(qx) - hx + r, dy = abs(qy) - hy + r
        let outside = (max(dx, 0) * max(dx, 0) + max(dy, 0) * max(dy, 0)).squareRoot()
        return outside + min(max(dx, dy), 0) - r
    }
}

/// A rectangle `width`×`height` centred at (centerX, centerY) and rotated by `angle` radians the way
/// Core Animation rotates about z (local +x toward +y: clockwise on LayerKit's y-down screen).
struct RotatedRectShape: PixelRegion {
    var centerX, centerY, width, height, angle: Double

    /// (x, y) in the rectangle's own axes, relative to its centre.
    func local(_ x: Double, _ y: Double) -> (Double, Double) {
        let dx = x - centerX, dy = y - centerY
        let c = cos(angle), s = sin(angle)
        // The inverse of (u, v) → (u c − v s, u s + v c).
        return (dx * c + dy * s, -dx * s + dy * c)
    }

    func contains(_ x: Double, _ y: Double) -> Bool {
        let (u, v) = local(x, y)
        return abs(u) <= width / 2 && abs(v) <= height / 2
    }

    /// Distance from (x, y) to the nearest of the four corners.
    func distanceToCorner(_ x: Double, _ y: Double) -> Double {
        let (u, v) = local(x, y)
        let du = abs(u) - width / 2, dv = abs(v) - height / 2
        return (du * du + dv * dv).squareRoot()
    }

    func signedDistance(_ x: Double, _ y: Double) -> Double {
        let (u, v) = local(x, y)
        let dx = abs(u) - width / 2, dy = abs(v) - height / 2
        return (max(dx, 0) * max(dx, 0) + max(dy, 0) * max(dy, 0)).squareRoot() + min(max(dx, dy), 0)
    }
}
