import Foundation
import XCTest
@testable import LayerKit

/// Autoresizing (`autoresizingMask`, `resize(withOldSuperlayerSize:)`, `resizeSublayers(withOldSize:)`):
/// every mask combination against frames computed by hand with the AppKit rule (the size change of an
/// axis is shared among its flexible parts in proportion to their lengths).
///
/// The scene: a 100 × 100 superlayer with a sublayer at (10, 20, 30, 40), so the x parts are min margin 10,
/// width 30, max margin 60 and the y parts min margin 20, height 40, max margin 40. The superlayer becomes
/// 200 × 50: Δx = +100, Δy = −50.
final class AutoresizingTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    private let oldSuperBounds = CGRect(x: 0, y: 0, width: 100, height: 100)
    private let newSuperBounds = CGRect(x: 0, y: 0, width: 200, height: 50)
    private let childFrame = CGRect(x: 10, y: 20, width: 30, height: 40)

    /// The x axis under each horizontal mask, worked out by hand: (x, width).
    private let horizontal: [(CAAutoresizingMask, CGFloat, CGFloat)] = [
        ([], 10, 30),
        (.layerMinXMargin, 110, 30),                                   // all of Δ to the margin
        (.layerWidthSizable, 10, 130),
        (.layerMaxXMargin, 10, 30),
        ([.layerMinXMargin, .layerWidthSizable], 35, 105),             // 10 + 100·10/40, 30 + 100·30/40
        ([.layerMinXMargin, .layerMaxXMargin], 10 + 100.0 / 7, 30),    // 10 + 100·10/70
        ([.layerWidthSizable, .layerMaxXMargin], 10, 30 + 100.0 / 3),  // 30 + 100·30/90
        ([.layerMinXMargin, .layerWidthSizable, .layerMaxXMargin], 20, 60), // each + 100·part/100
    ]

    /// The y axis under each vertical mask, worked out by hand: (y, height).
    private let vertical: [(CAAutoresizingMask, CGFloat, CGFloat)] = [
        ([], 20, 40),
        (.layerMinYMargin, -30, 40),
        (.layerHeightSizable, 20, 0),                                  // 40 − 50 stops at 0
        (.layerMaxYMargin, 20, 40),
        ([.layerMinYMargin, .layerHeightSizable], 20 - 50.0 / 3, 40 - 100.0 / 3), // −50·20/60, −50·40/60
        ([.layerMinYMargin, .layerMaxYMargin], 20 - 50.0 / 3, 40),     // −50·20/60
        ([.layerHeightSizable, .layerMaxYMargin], 20, 15),             // 40 − 50·40/80
        ([.layerMinYMargin, .layerHeightSizable, .layerMaxYMargin], 10, 20), // each − 50·part/100
    ]

    private func assertFrame(_ frame: CGRect, _ expected: CGRect, _ message: String,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(frame.minX, expected.minX, accuracy: 1e-9, "x: \(message)", file: file, line: line)
        XCTAssertEqual(frame.minY, expected.minY, accuracy: 1e-9, "y: \(message)", file: file, line: line)
        XCTAssertEqual(frame.width, expected.width, accuracy: 1e-9, "width: \(message)", file: file, line: line)
        XCTAssertEqual(frame.height, expected.height, accuracy: 1e-9, "height: \(message)", file: file, line: line)
    }

    func testEveryMaskCombination() {
        for (xMask, x, width) in horizontal {
            for (yMask, y, height) in vertical {
                let parent = CALayer()
                parent.bounds = oldSuperBounds
                let child = CALayer()
                child.frame = childFrame
                child.autoresizingMask = xMask.union(yMask)
                parent.addSublayer(child)
                parent.bounds = newSuperBounds
                assertFrame(child.frame, CGRect(x: x, y: y, width: width, height: height),
                            "mask \(String(xMask.union(yMask).rawValue, radix: 2))")
            }
        }
    }

    func testShrinkingBackRestoresTheProportionalLayout() {
        let parent = CALayer()
        parent.bounds = oldSuperBounds
        let child = CALayer()
        child.frame = childFrame
        child.autoresizingMask = [.layerMinXMargin, .layerWidthSizable, .layerMaxXMargin,
                                  .layerMinYMargin, .layerHeightSizable, .layerMaxYMargin]
        parent.addSublayer(child)
        parent.bounds = newSuperBounds
        parent.bounds = oldSuperBounds
        assertFrame(child.frame, childFrame, "all parts flexible scale back by the same factors")
    }

    func testPartsThatSumToZeroShareEqually() {
        let parent = CALayer()
        parent.bounds = oldSuperBounds
        let child = CALayer()
        child.frame = CGRect(x: 0, y: 0, width: 0, height: 0)
        child.autoresizingMask = [.layerMinXMargin, .layerWidthSizable]
        parent.addSublayer(child)
        parent.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        assertFrame(child.frame, CGRect(x: 50, y: 0, width: 50, height: 0), "min margin 0 and width 0 get 100 / 2 each")
    }

    func testANegativeMarginSharesEqually() {
        let parent = CALayer()
        parent.bounds = oldSuperBounds
        let child = CALayer()
        child.frame = CGRect(x: -10, y: 0, width: 30, height: 10) // margins −10 and 80
        child.autoresizingMask = [.layerMinXMargin, .layerMaxXMargin]
        parent.addSublayer(child)
        parent.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        assertFrame(child.frame, CGRect(x: 40, y: 0, width: 30, height: 10), "−10 + 100 / 2")
    }

    func testMarginsAreMeasuredFromTheSuperlayersBoundsOrigin() {
        let parent = CALayer()
        parent.bounds = CGRect(x: 50, y: 0, width: 100, height: 100)
        let child = CALayer()
        child.frame = CGRect(x: 60, y: 0, width: 30, height: 10) // margins 10, 30, 60
        child.autoresizingMask = [.layerMinXMargin, .layerWidthSizable, .layerMaxXMargin]
        parent.addSublayer(child)
        parent.bounds = CGRect(x: 50, y: 0, width: 200, height: 100)
        assertFrame(child.frame, CGRect(x: 70, y: 0, width: 60, height: 10), "50 + 20, width 60")
    }

    func testResizingCascadesToGrandchildren() {
        let parent = CALayer()
        parent.bounds = oldSuperBounds
        let child = CALayer()
        child.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        child.autoresizingMask = [.layerWidthSizable, .layerHeightSizable]
        let grandchild = CALayer()
        grandchild.frame = CGRect(x: 10, y: 10, width: 80, height: 80)
        grandchild.autoresizingMask = [.layerWidthSizable, .layerMinYMargin]
        parent.addSublayer(child)
        child.addSublayer(grandchild)
        parent.bounds = newSuperBounds
        assertFrame(child.frame, CGRect(x: 0, y: 0, width: 200, height: 50), "child follows exactly")
        assertFrame(grandchild.frame, CGRect(x: 10, y: -40, width: 180, height: 80), "width + 100, top margin − 50")
    }

    func testResizingHappensAtOnceAndMarksTheResizedLayer() {
        let parent = CALayer()
        parent.bounds = oldSuperBounds
        let child = CALayer()
        child.frame = childFrame
        child.autoresizingMask = .layerWidthSizable
        parent.addSublayer(child)
        CATransaction.flush()
        parent.bounds = newSuperBounds
        XCTAssertEqual(child.frame.width, 130, "before any commit")
        XCTAssertTrue(parent.needsLayout())
        XCTAssertTrue(child.needsLayout(), "its own size changed")
    }

    func testAnOriginChangeDoesNotResize() {
        let parent = ResizeCountingLayer()
        parent.bounds = oldSuperBounds
        let child = CALayer()
        child.frame = childFrame
        child.autoresizingMask = [.layerMinXMargin, .layerWidthSizable]
        parent.addSublayer(child)
        parent.bounds = CGRect(x: 30, y: 30, width: 100, height: 100)
        XCTAssertEqual(parent.resizes, [])
        XCTAssertEqual(child.frame, childFrame)
    }

    func testResizeSublayersRunsOnlyWhenASublayerAutoresizesAndGetsTheOldSize() {
        let parent = ResizeCountingLayer()
        parent.bounds = oldSuperBounds
        parent.addSublayer(CALayer())
        parent.bounds = CGRect(x: 0, y: 0, width: 150, height: 100)
        XCTAssertEqual(parent.resizes, [], "no sublayer has a mask")
        let child = ResizeCountingLayer()
        child.autoresizingMask = .layerMaxXMargin
        parent.addSublayer(child)
        parent.bounds = newSuperBounds
        XCTAssertEqual(parent.resizes, [CGSize(width: 150, height: 100)])
        XCTAssertEqual(child.superlayerResizes, [CGSize(width: 150, height: 100)], "the default asks each sublayer")
    }

    func testAnOverriddenResizeReplacesTheMask() {
        let parent = CALayer()
        parent.bounds = oldSuperBounds
        let child = FixedResizeLayer()
        child.frame = childFrame
        child.autoresizingMask = .layerWidthSizable
        parent.addSublayer(child)
        parent.bounds = newSuperBounds
        XCTAssertEqual(child.frame, CGRect(x: 0, y: 0, width: 1, height: 1))
    }

    func testALayerWithoutASuperlayerIsNotResized() {
        let layer = CALayer()
        layer.frame = childFrame
        layer.autoresizingMask = .layerWidthSizable
        layer.resize(withOldSuperlayerSize: CGSize(width: 10, height: 10))
        XCTAssertEqual(layer.frame, childFrame)
    }

    func testTheMaskIsStoredOnlyWhenSet() {
        let layer = CALayer()
        XCTAssertEqual(layer.autoresizingMask, .layerNotSizable)
        XCTAssertTrue(layer.storage.keys.isEmpty)
        layer.autoresizingMask = [.layerWidthSizable, .layerHeightSizable]
        XCTAssertEqual(layer.autoresizingMask.rawValue, 0b10010, "Core Animation's raw values")
        layer.autoresizingMask = []
        XCTAssertTrue(layer.storage.keys.isEmpty)
    }
}

/// Records `resizeSublayers(withOldSize:)` and `resize(withOldSuperlayerSize:)`, then does the default.
private final class ResizeCountingLayer: CALayer {
    var resizes: [CGSize] = []
    var superlayerResizes: [CGSize] = []

    override func resizeSublayers(withOldSize size: CGSize) {
        resizes.append(size)
        super.resizeSublayers(withOldSize: size)
    }

    override func resize(withOldSuperlayerSize size: CGSize) {
        superlayerResizes.append(size)
        super.resize(withOldSuperlayerSize: size)
    }
}

/// Ignores its mask and always takes a 1 × 1 frame at the origin.
private final class FixedResizeLayer: CALayer {
    override func resize(withOldSuperlayerSize size: CGSize) {
        frame = CGRect(x: 0, y: 0, width: 1, height: 1)
    }
}
