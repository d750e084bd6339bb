import Foundation
import LayerKit
import LayerKitRender
@testable import LayerKitVulkan
import XCTest

/// Base class of the render tests: a context with the Khronos validation layer on, and a tearDown that
/// fails the test on any validation message — including those reported while the device is destroyed.
class VulkanRenderTestCase: XCTestCase {
    var context: VulkanContext!

    override func setUpWithError() throws {
        try super.setUpWithError()
        context = try VulkanContext(applicationName: "LayerKitVulkanTests", validation: true, pipelineCache: .none)
        XCTAssertTrue(context.validationEnabled)
    }

    override func tearDownWithError() throws {
        if let context {
            let log = context.instance.log
            self.context = nil
            XCTAssertEqual(log.messages, [], "Vulkan validation reported:\n" + log.messages.joined(separator: "\n"))
        }
        try super.tearDownWithError()
    }

    func makeRenderer(width: Int = 32, height: Int = 32) throws -> HeadlessRenderer {
        try HeadlessRenderer(context: context, width: width, height: height)
    }
}

/// Premultiplied RGBA8, as read back.
struct RGBA8: Equatable, CustomStringConvertible {
    var r, g, b, a: UInt8
    init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) { (self.r, self.g, self.b, self.a) = (r, g, b, a) }

    static let clear = RGBA8(0, 0, 0, 0)

    /// The 8-bit encoding of a premultiplied float color (round to nearest).
    init(_ color: SIMD4<Float>) {
        func byte(_ value: Float) -> UInt8 { UInt8((min(max(value, 0), 1) * 255).rounded()) }
        self.init(byte(color.x), byte(color.y), byte(color.z), byte(color.w))
    }

    var description: String { "(\(r), \(g), \(b), \(a))" }

    func isClose(to other: RGBA8, tolerance: Int) -> Bool {
        abs(Int(r) - Int(other.r)) <= tolerance && abs(Int(g) - Int(other.g)) <= tolerance
            && abs(Int(b) - Int(other.b)) <= tolerance && abs(Int(a) - Int(other.a)) <= tolerance
    }
}

extension CGImage {
    func rgba(_ x: Int, _ y: Int) -> RGBA8 {
        let p = pixel(x: x, y: y)
        return RGBA8(p.r, p.g, p.b, p.a)
    }
}

/// Draw items in *pixel space*: layer space is the target's pixel grid (origin top-left, y down), so
/// expectations can be worked out by hand. `localToClip` is x_ndc = 2x/W − 1, y_ndc = 2y/H − 1 (Vulkan's
/// clip y points down: no flip), as column vectors.
struct PixelScene {
    let width: Int
    let height: Int

    var localToClip: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        (SIMD4(2 / Float(width), 0, 0, 0), SIMD4(0, 2 / Float(height), 0, 0), SIMD4(0, 0, 1, 0), SIMD4(-1, -1, 0, 1))
    }

    /// A quad covering `rect` (minX, minY, maxX, maxY), its shape the same rect.
    func item(
        _ rect: SIMD4<Float>, color: SIMD4<Float>, radii: SIMD4<Float> = .zero, borderWidth: Float = 0,
        flags: LayerInstance.Flags = [], texture: TextureBinding? = nil,
        clipRect: SIMD4<Float> = .zero, clipRadii: SIMD4<Float> = .zero
    ) -> DrawItem {
        var flags = flags
        if texture != nil { flags.insert(.textured) }
        let instance = LayerInstance(
            localToClip: localToClip, quad: rect, color: color, shape: rect, shapeRadii: radii, borderWidth: borderWidth,
            flags: flags, clipRect: clipRect, clipRadii: clipRadii)
        return DrawItem(instance: instance, texture: texture)
    }

    func graph(clear: SIMD4<Float> = .zero, _ items: [DrawItem]) -> RenderGraph {
        RenderGraph(passes: [RenderPass(name: "frame", target: .frame(width: width, height: height), clearColor: clear, items: items)])
    }
}

/// On a failed pixel comparison, writes the actual image (and the expected one, when given) as PAM files
/// in a temporary folder and returns a line saying where.
func writeFailureImages(_ name: String, actual: CGImage, expected: ((Int, Int) -> RGBA8)? = nil) -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layerkit-render-failures")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    func write(_ suffix: String, _ pixel: (Int, Int) -> RGBA8) -> String {
        var data = Data("P7\nWIDTH \(actual.width)\nHEIGHT \(actual.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
        for y in 0..<actual.height {
            for x in 0..<actual.width {
                let p = pixel(x, y)
                data.append(contentsOf: [p.r, p.g, p.b, p.a])
            }
        }
        let url = directory.appendingPathComponent("\(name)-\(suffix).pam")
        try? data.write(to: url)
        return url.path
    }
    var paths = [write("actual") { actual.rgba($0, $1) }]
    if let expected {
        paths.append(write("expected", expected))
        paths.append(write("diff") { x, y in
            let a = actual.rgba(x, y), e = expected(x, y)
            return RGBA8(UInt8(abs(Int(a.r) - Int(e.r))), UInt8(abs(Int(a.g) - Int(e.g))), UInt8(abs(Int(a.b) - Int(e.b))), 255)
        })
    }
    return "images written: " + paths.joined(separator: ", ")
}

/// Compares every pixel against `expected` (within `tolerance` per channel); one failure message listing
/// the first mismatches, and the images written to disk.
func assertPixels(
    _ image: CGImage, tolerance: Int = 0, _ name: String, file: StaticString = #filePath, line: UInt = #line,
    expected: @escaping (Int, Int) -> RGBA8
) {
    var mismatches: [String] = []
    var count = 0
    for y in 0..<image.height {
        for x in 0..<image.width where !image.rgba(x, y).isClose(to: expected(x, y), tolerance: tolerance) {
            count += 1
            if mismatches.count < 8 { mismatches.append("(\(x), \(y)): got \(image.rgba(x, y)), expected \(expected(x, y))") }
        }
    }
    if count > 0 {
        XCTFail("\(count) pixels differ: " + mismatches.joined(separator: "; ") + "\n" + writeFailureImages(name, actual: image, expected: expected),
                file: file, line: line)
    }
}
