import Foundation
import LayerKit
@testable import LayerKitVulkan
import LayerKitTestSupport
import XCTest

/// A background thread changes the layers of its own tree inside explicit transactions while the main
/// thread renders another tree (the case that crashed when commits were process-wide): nothing crashes,
/// no change is lost, and each host draws its own tree's last committed state.
final class BackgroundThreadRenderTests: CARendererTestCase {
    func testABackgroundThreadCommitsItsOwnTreeWhileTheMainThreadRenders() throws {
        let mainRoot = makeRoot(width: 16, height: 16)
        let mainSquare = makeLayer(CGRect(x: 0, y: 0, width: 16, height: 16), .testRed, in: mainRoot)
        let backgroundRoot = makeRoot(width: 16, height: 16)
        let backgroundSquares = (0..<8).map { makeLayer(CGRect(x: 2 * $0, y: 0, width: 2, height: 16), .testBlue, in: backgroundRoot) }
        let mainRenderer = try makeRenderer(width: 16, height: 16)
        let backgroundRenderer = try makeRenderer(width: 16, height: 16)
        mainRenderer.layer = mainRoot
        backgroundRenderer.layer = backgroundRoot
        CATransaction.flush()

        let iterations = 2_000
        let finished = DispatchSemaphore(value: 0)
        let squares = HandedOver(backgroundSquares)  // the main thread reads them again only after `finished`
        let thread = Thread {
            let backgroundSquares = squares.value
            for i in 0..<iterations {
                CATransaction.begin()
                CATransaction.setDisableActions(true)
                let square = backgroundSquares[i % backgroundSquares.count]
                square.backgroundColor = CGColor(red: 0, green: CGFloat(i % 2), blue: 1, alpha: 1)
                square.bounds.size.height = CGFloat(8 + i % 9)
                CATransaction.commit()
            }
            finished.signal()
        }
        thread.start()
        var frames = 0
        while finished.wait(timeout: .now()) == .timedOut {
            CATransaction.setDisableActions(true)
            mainSquare.opacity = frames % 2 == 0 ? 1 : 0.5
            _ = try renderFrame(mainRenderer, atTime: Double(frames) / 60)
            frames += 1
        }
        // The last change of each background square: i = 1992 + k for square k (i mod 8 = k), green i mod 2,
        // height 8 + i mod 9.
        let image = try renderFrame(backgroundRenderer, atTime: 1)
        for k in 0..<8 {
            let i = iterations - 8 + k
            let height = 8 + i % 9
            XCTAssertEqual(backgroundSquares[k].bounds.height, CGFloat(height))
            // Centred at y = 8 (the position stays): rows 8 − h/2 ..< 8 + h/2 are covered.
            let top = 8 - Double(height) / 2
            let row = Int(top.rounded(.up)) + 1
            XCTAssertTrue(image.pixel(x: 2 * k, y: row) == (0, UInt8(255 * (i % 2)), 255, 255), "square \(k) at row \(row)")
        }
        XCTAssertGreaterThan(frames, 0)
        _ = try renderFrame(mainRenderer, atTime: 100)
        XCTAssertEqual(mainRenderer.validationMessages, [])
        XCTAssertEqual(backgroundRenderer.validationMessages, [])
    }
}
