import XCTest
@testable import LayerKitVulkan

final class CARendererSmokeTests: XCTestCase {
    func testRedSquare() throws {
        setenv("LK_VALIDATION", "1", 1)
        let renderer = try CARenderer(width: 32, height: 32)
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 32, height: 32)
        root.position = CGPoint(x: 16, y: 16)
        let square = CALayer()
        square.frame = CGRect(x: 5, y: 5, width: 10, height: 10)
        square.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        root.addSublayer(square)
        renderer.layer = root
        renderer.beginFrame(atTime: 0)
        renderer.render()
        renderer.endFrame()
        let image = try renderer.snapshot()
        var count = 0
        for y in 0..<32 { for x in 0..<32 where image.pixel(x: x, y: y).r == 255 { count += 1 } }
        XCTAssertEqual(count, 100)
        XCTAssertEqual(renderer.validationMessages, [])
    }
}
