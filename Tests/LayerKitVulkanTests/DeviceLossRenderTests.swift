import Foundation
import LayerKit
@testable import LayerKitVulkan
import XCTest

/// A lost device is recovered: the renderer makes a new device, uploads every layer's content again from
/// the model, and draws the same pixels as before the loss; the app hears of it through `onError`.
final class DeviceLossRenderTests: CARendererTestCase {
    /// Every kind of GPU state the old device held: an uploaded image, an atlas-packed image, a
    /// rasterized (cached) layer, a group through a surface, a blurred layer, an animation mid-way.
    private func scene() -> CALayer {
        let root = makeRoot()
        root.backgroundColor = CGColor(red: 0.1, green: 0.1, blue: 0.2, alpha: 1)
        let picture = CALayer()
        picture.frame = CGRect(x: 2, y: 2, width: 28, height: 28)
        picture.contents = makeImage(width: 40, height: 40) { x, y in PixelRGBA(UInt8(x * 6), UInt8(y * 6), 200, 255) }
        root.addSublayer(picture)
        let icon = CALayer()
        icon.frame = CGRect(x: 34, y: 2, width: 8, height: 8)
        icon.contents = makeImage(width: 8, height: 8) { x, _ in x < 4 ? .white : PixelRGBA(255, 0, 0, 255) }
        root.addSublayer(icon)
        let cached = makeLayer(CGRect(x: 34, y: 14, width: 20, height: 16), CGColor(red: 0, green: 0.8, blue: 0.3, alpha: 1), in: root)
        cached.cornerRadius = 5
        cached.shouldRasterize = true
        let group = makeLayer(CGRect(x: 2, y: 34, width: 30, height: 28), nil, in: root)
        group.opacity = 0.5
        makeLayer(CGRect(x: 0, y: 0, width: 20, height: 20), CGColor(red: 1, green: 0.5, blue: 0, alpha: 1), in: group).cornerRadius = 4
        makeLayer(CGRect(x: 10, y: 8, width: 20, height: 20), CGColor(red: 0, green: 0.5, blue: 1, alpha: 1), in: group).cornerRadius = 4
        let blurred = makeLayer(CGRect(x: 38, y: 38, width: 18, height: 18), CGColor(red: 1, green: 1, blue: 1, alpha: 1), in: root)
        blurred.filters = [CIFilter(name: "CIGaussianBlur", parameters: ["inputRadius": 2])!]
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0
        spin.toValue = Double.pi
        spin.duration = 10
        spin.beginTime = 1000
        icon.add(spin, forKey: "spin")
        return root
    }

    func testAFrameAfterADeviceLossShowsTheSamePixelsOnANewDevice() throws {
        let renderer = try makeRenderer()
        var failures: [CARenderer.Failure] = []
        renderer.onError = { failures.append($0) }
        renderer.layer = scene()
        _ = try renderFrame(renderer, atTime: 1002)
        let before = try renderFrame(renderer, atTime: 1003)
        let cacheHitsBefore = renderer.lastFrameStatistics.rasterizeHits
        XCTAssertGreaterThan(cacheHitsBefore, 0, "settled layers drawn from cached bitmaps")

        renderer.loseDeviceAtNextSubmit()
        let after = try renderFrame(renderer, atTime: 1003)
        XCTAssertEqual(failures.count, 1)
        guard case .deviceLost(recovered: true, _)? = failures.first else { return XCTFail("expected a recovered device loss, got \(failures)") }
        XCTAssertEqual(renderer.deviceLossesRecovered, 1)
        XCTAssertEqual(differingPixels(before, after), 0, "the same frame on the new device")
        // And on: the next frames render normally (the cached bitmaps drawn again, then hit as before).
        _ = try renderFrame(renderer, atTime: 1003)
        let next = try renderFrame(renderer, atTime: 1003)
        XCTAssertEqual(differingPixels(before, next), 0)
        XCTAssertEqual(failures.count, 1)
        XCTAssertEqual(renderer.lastFrameStatistics.rasterizeHits, cacheHitsBefore)
    }

    func testModelChangesMadeAroundTheLossAreAllDrawn() throws {
        let renderer = try makeRenderer()
        let root = makeRoot()
        let box = makeLayer(CGRect(x: 0, y: 0, width: 16, height: 16), CGColor(red: 1, green: 0, blue: 0, alpha: 1), in: root)
        renderer.layer = root
        _ = try renderFrame(renderer)
        renderer.loseDeviceAtNextSubmit()
        withoutAnimation { box.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1) }
        let image = try renderFrame(renderer)
        XCTAssertEqual(PixelRGBA(image, 8, 8), PixelRGBA(0, 0, 255, 255), "the change committed with the lost frame")
        withoutAnimation { box.frame.origin.x = 32 }
        let moved = try renderFrame(renderer)
        XCTAssertEqual(PixelRGBA(moved, 40, 8), PixelRGBA(0, 0, 255, 255))
        XCTAssertEqual(PixelRGBA(moved, 8, 8), .clear)
    }

    /// Pixels of `a` and `b` that differ in any channel.
    private func differingPixels(_ a: CGImage, _ b: CGImage) -> Int {
        var count = 0
        for y in 0..<a.height {
            for x in 0..<a.width where PixelRGBA(a, x, y) != PixelRGBA(b, x, y) { count += 1 }
        }
        return count
    }
}
