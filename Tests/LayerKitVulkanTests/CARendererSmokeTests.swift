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

    /// Two renderers with trees of their own: a commit to one tree makes only its renderer due.
    func testACommitToAnotherRenderersTreeMakesNoFrameDue() throws {
        setenv("LK_VALIDATION", "1", 1)
        func host() throws -> (renderer: CARenderer, square: CALayer) {
            let renderer = try CARenderer(width: 16, height: 16)
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 16, height: 16)
            let square = CALayer()
            square.frame = CGRect(x: 4, y: 4, width: 4, height: 4)
            root.addSublayer(square)
            renderer.layer = root
            return (renderer, square)
        }
        let (first, second) = (try host(), try host())
        // Each renderer's first frame draws its tree; after it, work left by other tests (tiles still
        // drawing, layers of no host) is not theirs and makes no frame due.
        for renderer in [first.renderer, second.renderer] {
            renderer.beginFrame(atTime: 0)
            renderer.render()
            renderer.endFrame()
        }
        XCTAssertEqual(first.renderer.nextFrameTime(), .infinity)
        XCTAssertEqual(second.renderer.nextFrameTime(), .infinity)
        first.square.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        CATransaction.flush()
        XCTAssertLessThan(first.renderer.nextFrameTime(), .infinity, "its square changed")
        XCTAssertEqual(second.renderer.nextFrameTime(), .infinity, "not its layer")
        first.renderer.beginFrame(atTime: 1)
        first.renderer.render()
        first.renderer.endFrame()
        XCTAssertEqual(try first.renderer.snapshot().pixel(x: 5, y: 5).r, 255, "the change applied by nextFrameTime() is drawn")
        XCTAssertEqual(first.renderer.validationMessages + second.renderer.validationMessages, [])
    }

    /// A host that never reads frames back renders without the copy, and reads statistics without
    /// waiting for the GPU; a frame rendered with read-back again is what `snapshot()` returns.
    func testFramesRenderedWithoutReadBackCannotBeSnapshotted() throws {
        let renderer = try CARenderer(width: 16, height: 16)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 16, height: 16)
        root.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        renderer.layer = root
        renderer.readsBack = false
        renderer.beginFrame(atTime: 0)
        renderer.render()
        renderer.endFrame()
        XCTAssertNil(renderer.lastRecordedFrameStatistics.gpuTime, "recorded, not yet measured by the GPU")
        XCTAssertEqual(renderer.lastRecordedFrameStatistics.quadsDrawnAsClear, 1)
        XCTAssertThrowsError(try renderer.snapshot())
        renderer.readsBack = true
        renderer.beginFrame(atTime: 1)
        renderer.render()
        renderer.endFrame()
        XCTAssertEqual(try renderer.snapshot().pixel(x: 8, y: 8).r, 255)
        XCTAssertEqual(renderer.validationMessages, [])
    }
}
