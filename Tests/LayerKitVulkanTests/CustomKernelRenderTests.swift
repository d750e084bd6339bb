import Foundation
import LayerKit
import LayerKitTestSupport
@testable import LayerKitVulkan
import XCTest

/// `CIColorKernel`: GLSL written at run time, compiled with glslang on first use, run over a layer's
/// pixels; a source that does not compile is reported with its line, and the layer draws without it.
final class CustomKernelRenderTests: CARendererTestCase {
    /// A 20×20 layer at (10, 10) of straight colour (0.2, 0.4, 0.8) with `filter`.
    func scene(_ filter: CIFilter) -> CALayer {
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 10, y: 10, width: 20, height: 20), CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1), in: root)
        layer.filters = [filter]
        return root
    }

    func testAKernelSwapsChannelsAndReadsItsInputs() throws {
        let swap = CIColorKernel(name: "swap", source: """
            vec4 kernel(vec4 color, vec2 position, vec4 inputs) {
                return vec4(color.b * inputs.x, color.g, color.r, color.a * inputs.y);
            }
            """)
        // Inputs in sorted key order: inputs.x is "alpha", inputs.y is "gain".
        let renderer = try makeRenderer()
        renderer.layer = scene(CIFilter(kernel: swap, parameters: ["gain": 0.5, "alpha": 0.5]))
        let image = try renderFrame(renderer)
        // r = b · alpha(0.5) = 0.4, g = 0.4, b = r = 0.2, a = 1 · gain(0.5) = 0.5.
        assertPixels(image, "swap", tolerance: 1) { x, y in
            (10..<30).contains(x) && (10..<30).contains(y) ? PixelRGBA(straight: 0.4, 0.4, 0.2, 0.5) : .clear
        }
        XCTAssertEqual(renderer.lastFrameStatistics.offscreenReasons, [.filter, .filter, .rasterize], "content, kernel, cached bitmap")
    }

    func testPositionIsTheFilteredSurfacesPixel() throws {
        // Even columns of the layer keep their colour, odd ones turn black (position.x = x − 10 + 0.5).
        let stripes = CIColorKernel(name: "stripes", source: """
            vec4 kernel(vec4 color, vec2 position, vec4 inputs) {
                return mod(floor(position.x), 2.0) == 0.0 ? color : vec4(0.0, 0.0, 0.0, 1.0);
            }
            """)
        let image = try render(scene(CIFilter(kernel: stripes)))
        assertPixels(image, "stripes", tolerance: 1) { x, y in
            guard (10..<30).contains(x), (10..<30).contains(y) else { return .clear }
            return (x - 10) % 2 == 0 ? PixelRGBA(straight: 0.2, 0.4, 0.8, 1) : .black
        }
    }

    func testASourceThatDoesNotCompileIsReportedWithItsLineOnce() throws {
        let diagnostics = DiagnosticCapture()
        let broken = CIColorKernel(name: "broken", source: """
            vec4 kernel(vec4 color, vec2 position, vec4 inputs) {
                return color * undefinedGain;
            }
            """)
        let renderer = try makeRenderer()
        renderer.layer = scene(CIFilter(kernel: broken))
        _ = try renderFrame(renderer, atTime: 0)
        let image = try renderFrame(renderer, atTime: 1)
        XCTAssertEqual(PixelRGBA(image, 20, 20), PixelRGBA(straight: 0.2, 0.4, 0.8, 1), "drawn without the kernel")
        let failures = diagnostics.diagnostics.compactMap { diagnostic -> (Int?, String)? in
            if case let .kernelCompileFailed(kernel, line, message) = diagnostic, kernel == "broken" { return (line, message) }
            return nil
        }
        XCTAssertEqual(failures.count, 1, "reported once, not every frame")
        XCTAssertEqual(failures.first?.0, 2, "the line of the kernel's own source")
        XCTAssertTrue(failures.first?.1.contains("undefinedGain") ?? false, "\(String(describing: failures.first?.1))")
    }
}
