import Foundation
@testable import LayerKitSDL
import XCTest

/// The window's loop commits once per frame drawn (`commitsOncePerFrame`), and its clear colour
/// (`clearColor`) paints what no layer covers; an opaque root background is drawn as the clear.
final class LayerWindowCommitPacingTests: LayerWindowTestCase {
    func testALoopTickingFasterThanFramesCommitsAtMostOncePerFrame() throws {
        // The loop ticks at 1,000 Hz and moves a layer every tick; whatever the render thread's pace, a
        // commit waits until it has taken the last one, so no frame applies more than one.
        let window = try makeWindow(framesPerSecond: 1_000)
        let box = CALayer()
        box.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        box.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        window.rootLayer.addSublayer(box)
        var tick = 0
        window.onFrame = { _ in
            tick += 1
            CATransaction.setDisableActions(true)
            box.position = CGPoint(x: 5 + tick % 100, y: 5)
        }
        try runUntilPresented(window)
        var framesSeen = 0
        var lastPresented = window.framesPresented
        for _ in 0..<400 {
            try window.run(frames: 1)
            guard window.framesPresented != lastPresented else { continue }
            lastPresented = window.framesPresented
            framesSeen += 1
            XCTAssertLessThanOrEqual(window.lastFrameStatistics.commitsApplied, 1, "one commit per frame drawn")
        }
        XCTAssertGreaterThan(framesSeen, 0)
        window.onFrame = nil
    }

    func testTheClearColorFillsWhatNoLayerCoversAndAnOpaqueRootBackgroundIsTheClear() throws {
        let window = try makeWindow(width: 64, height: 48)
        window.clearColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        let box = CALayer()
        box.frame = CGRect(x: 0, y: 0, width: 16, height: 16)
        box.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        window.rootLayer.addSublayer(box)
        try runUntilPresented(window)
        var image = try window.snapshot()
        XCTAssertTrue(image.pixel(x: 40, y: 30) == (0, 255, 0, 255), "the clear colour")
        XCTAssertTrue(image.pixel(x: 4, y: 4) == (255, 0, 0, 255))
        // An opaque root background over the whole window: drawn as the clear, one draw (the box) left.
        CATransaction.setDisableActions(true)
        window.rootLayer.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        try runUntilPresented(window)
        image = try window.snapshot()
        XCTAssertTrue(image.pixel(x: 40, y: 30) == (0, 0, 255, 255), "the root's background")
        XCTAssertEqual(window.lastFrameStatistics.quadsDrawnAsClear, 1)
        XCTAssertEqual(window.lastFrameStatistics.instances, 1, "the box alone is drawn")
    }
}
