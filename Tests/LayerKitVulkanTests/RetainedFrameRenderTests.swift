import XCTest
@testable import LayerKitVulkan

/// Retained frames through the Vulkan backend: once each frame in flight holds the frame pass, a frame
/// where one layer moves writes that layer's instance alone (256 bytes), and the pixels are still
/// right — the moving box where the animation puts it, the still boxes untouched, nothing left behind.
///
/// Scene: 64 × 16, black; 16 still green 2 × 2 boxes at (4k, 0); one red 4 × 4 box anchored at its
/// top-left, at (0, 6), sliding x = 40 · (t − 1000) over [1000, 1001].
final class RetainedFrameRenderTests: XCTestCase {
    func testOneMovingLayerRewritesOneInstanceAndDrawsCorrectly() throws {
        setenv("LK_VALIDATION", "1", 1)
        let renderer = try CARenderer(width: 64, height: 16)
        renderer.clearColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 16)
        root.anchorPoint = .zero
        for k in 0..<16 {
            let still = CALayer()
            still.frame = CGRect(x: 4 * k, y: 0, width: 2, height: 2)
            still.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
            root.addSublayer(still)
        }
        let box = CALayer()
        box.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        box.anchorPoint = .zero
        box.position = CGPoint(x: 0, y: 6)
        box.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        root.addSublayer(box)
        renderer.layer = root
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.fromValue = 0
        slide.toValue = 40
        slide.duration = 1
        slide.beginTime = 1000
        box.add(slide, forKey: "slide")

        let stride = 256
        var written: [Int] = []
        for (time, x) in [(999.0, 0), (1000.125, 5), (1000.25, 10), (1000.5, 20), (1000.75, 30)] {
            renderer.beginFrame(atTime: time)
            renderer.render()
            renderer.endFrame()
            written.append(renderer.lastFrameStatistics.instanceBytesWritten)
            let image = try renderer.snapshot()
            let red = (0..<64).filter { image.pixel(x: $0, y: 7).r == 255 }
            XCTAssertEqual(red.first, x, "box's left edge at \(time)")
            XCTAssertEqual(red.count, 4, "box's width at \(time)")
            for k in 0..<16 {
                XCTAssertEqual(image.pixel(x: 4 * k, y: 0).g, 255, "still box \(k) at \(time)")
                XCTAssertEqual(image.pixel(x: 4 * k + 2, y: 0).g, 0, "right of still box \(k) at \(time)")
            }
        }
        // Both frames in flight start empty (17 instances each); after that only the box's instance.
        XCTAssertEqual(written, [17 * stride, 17 * stride, stride, stride, stride])
        XCTAssertEqual(renderer.validationMessages, [])
    }
}
