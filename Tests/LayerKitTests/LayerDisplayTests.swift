import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKit

/// Drawing into layers: marking, the commit's display pass, the backing store's size, space and format,
/// partial redraws, delegates, `needsDisplayOnBoundsChange`, asynchronous drawing and per-frame redraws of
/// animated drawn properties. Expectations are worked out from the drawing calls (whole pixels, exact
/// colors), never from an image LayerKit drew before.
final class LayerDisplayTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    // MARK: - Fixtures

    /// A layer that records its drawings and fills `fills` (rect, color) in bounds space.
    private final class DrawingLayer: CALayer {
        var fills: [(CGRect, CGColor)] = []
        var draws = 0
        var clipBoxes: [CGRect] = []
        var ctms: [CGAffineTransform] = []
        var drawThreads: [Bool] = []

        override init() { super.init() }

        /// Copies carry the fills (asynchronous drawing draws a copy).
        required init(layer: Any) {
            super.init(layer: layer)
            fills = (layer as? DrawingLayer)?.fills ?? []
        }

        override func draw(in ctx: CGContext) {
            draws += 1
            clipBoxes.append(ctx.boundingBoxOfClipPath)
            ctms.append(ctx.ctm)
            drawThreads.append(Thread.isMainThread)
            for (rect, color) in fills {
                ctx.setFillColor(color)
                ctx.fill(rect)
            }
        }
    }

    private final class Delegate: CALayerDelegate {
        var drawn: [CALayer] = []
        var willDraw = 0
        var displayed: [CALayer] = []
        var implementsDisplay = false
        var image: CGImage?

        func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
        func draw(_ layer: CALayer, in ctx: CGContext) {
            drawn.append(layer)
            ctx.setFillColor(.opaqueGreen)
            ctx.fill(CGRect(x: 0, y: 0, width: 2, height: 2))
        }
        func layerWillDraw(_ layer: CALayer) { willDraw += 1 }
        func display(_ layer: CALayer) {
            guard implementsDisplay else { return layer.displayBackingStore() }
            displayed.append(layer)
            layer.contents = image
        }
    }

    private func image(_ layer: CALayer, file: StaticString = #filePath, line: UInt = #line) throws -> CGImage {
        try XCTUnwrap(layer.contents as? CGImage, "no backing store", file: file, line: line)
    }

    private func rgba(_ image: CGImage, _ x: Int, _ y: Int) -> [UInt8] {
        let p = image.pixel(x: x, y: y)
        return [p.r, p.g, p.b, p.a]
    }

    // MARK: - Drawing once

    func testMarkedLayerDrawsAtTheCommitAndOnlyOnce() throws {
        let layer = DrawingLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 4, height: 3)
        layer.fills = [(CGRect(x: 0, y: 0, width: 4, height: 3), .opaqueRed)]
        layer.setNeedsDisplay()
        XCTAssertTrue(layer.needsDisplay())
        XCTAssertEqual(layer.draws, 0, "drawing waits for the commit")
        CATransaction.flush()
        XCTAssertEqual(layer.draws, 1)
        XCTAssertFalse(layer.needsDisplay())
        let first = try image(layer)
        XCTAssertEqual([first.width, first.height], [4, 3])
        XCTAssertEqual(rgba(first, 3, 2), [255, 0, 0, 255])
        // Cached: later commits (and other changes) do not redraw.
        layer.position = CGPoint(x: 10, y: 10)
        CATransaction.flush()
        CATransaction.flush()
        XCTAssertEqual(layer.draws, 1)
        XCTAssertTrue(layer.contents as? CGImage === first)
    }

    func testDisplayIfNeededDrawsNowAndTheCommitDoesNotDrawAgain() {
        let layer = DrawingLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 2, height: 2)
        layer.displayIfNeeded()
        XCTAssertEqual(layer.draws, 0, "not marked: nothing to do")
        layer.setNeedsDisplay()
        layer.displayIfNeeded()
        XCTAssertEqual(layer.draws, 1)
        CATransaction.flush()
        XCTAssertEqual(layer.draws, 1)
    }

    func testADrawingThatDrawsNothingLeavesTheLayerEmptyNotStale() throws {
        let layer = DrawingLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        layer.fills = [(CGRect(x: 1, y: 1, width: 2, height: 2), .opaqueRed)]
        layer.setNeedsDisplay()
        CATransaction.flush()
        XCTAssertNotNil(layer.contents)
        layer.fills = []
        layer.setNeedsDisplay()
        CATransaction.flush()
        XCTAssertNil(layer.contents)
    }

    func testRedrawIsNotAnImplicitContentsAnimation() {
        let layer = DrawingLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 2, height: 2)
        layer.fills = [(layer.bounds, .opaqueRed)]
        CATransaction.flush()
        layer.setNeedsDisplay()
        CATransaction.flush()
        layer.fills = [(layer.bounds, .opaqueGreen)]
        layer.setNeedsDisplay()
        CATransaction.flush()
        XCTAssertNil(layer.animationKeys(), "a committed layer's redraw must not cross-fade")
    }

    // MARK: - The backing store

    func testBackingStoreIsBoundsTimesContentsScaleFlippedToYDownWithTheBoundsOrigin() throws {
        let layer = DrawingLayer()
        layer.bounds = CGRect(x: 10, y: 20, width: 5, height: 4)
        layer.contentsScale = 2
        // The top-left 2×1 points of the bounds: pixels x 0..<4, rows 0..<2 of a 10×8 image.
        layer.fills = [(CGRect(x: 10, y: 20, width: 2, height: 1), .opaqueRed)]
        layer.setNeedsDisplay()
        CATransaction.flush()
        let image = try image(layer)
        XCTAssertEqual([image.width, image.height], [10, 8])
        for y in 0..<8 {
            for x in 0..<10 {
                let red = x < 4 && y < 2
                XCTAssertEqual(rgba(image, x, y), red ? [255, 0, 0, 255] : [0, 0, 0, 0], "(\(x), \(y))")
            }
        }
        // The ctm draw(in:) saw: bounds space → y-up base pixels.
        let ctm = try XCTUnwrap(layer.ctms.first)
        XCTAssertEqual(CGPoint(x: 10, y: 20).applying(ctm), CGPoint(x: 0, y: 8))
        XCTAssertEqual(CGPoint(x: 15, y: 24).applying(ctm), CGPoint(x: 10, y: 0))
    }

    func testFractionalSizesRoundUpToWholePixels() throws {
        let layer = DrawingLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 2.5, height: 1.2)
        layer.contentsScale = 3
        layer.fills = [(layer.bounds, .opaqueRed)]
        layer.setNeedsDisplay()
        CATransaction.flush()
        let image = try image(layer)
        XCTAssertEqual([image.width, image.height], [8, 4])  // ⌈7.5⌉, ⌈3.6⌉
    }

    func testEmptyBoundsDisplayNothing() {
        let layer = DrawingLayer()
        layer.fills = [(CGRect(x: 0, y: 0, width: 4, height: 4), .opaqueRed)]
        layer.contents = CGImage(width: 1, height: 1, bytesPerRow: 4, premultipliedRGBA: [1, 2, 3, 255])
        layer.setNeedsDisplay()
        CATransaction.flush()
        XCTAssertNil(layer.contents)
        XCTAssertEqual(layer.draws, 0)
    }

    func testOpaqueLayersGetAnOpaqueBackingStore() throws {
        let layer = DrawingLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 3, height: 3)
        layer.isOpaque = true
        layer.fills = [(CGRect(x: 0, y: 0, width: 1, height: 3), .opaqueRed)]
        layer.setNeedsDisplay()
        CATransaction.flush()
        let image = try image(layer)
        XCTAssertEqual(image.alphaInfo, .noneSkipLast)
        XCTAssertTrue(image.isOpaque)
        XCTAssertEqual(rgba(image, 0, 1), [255, 0, 0, 255])
        // An opaque store starts black, as the layer promised to fill it.
        XCTAssertEqual(rgba(image, 2, 1), [0, 0, 0, 255])

        let translucent = DrawingLayer()
        translucent.bounds = layer.bounds
        translucent.fills = layer.fills
        translucent.setNeedsDisplay()
        CATransaction.flush()
        XCTAssertEqual(try self.image(translucent).alphaInfo, .premultipliedLast)
    }

    // MARK: - Partial redraw

    func testPartialRedrawClipsToTheRectAndKeepsTheRest() throws {
        let layer = DrawingLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 8, height: 6)
        layer.contentsScale = 2
        layer.fills = [(layer.bounds, .opaqueRed)]
        layer.setNeedsDisplay()
        CATransaction.flush()
        let first = try image(layer)

        // Everything would turn green, but only the marked rect is redrawn.
        layer.fills = [(layer.bounds, .opaqueGreen)]
        let dirty = CGRect(x: 2, y: 1, width: 3, height: 2)
        layer.setNeedsDisplay(dirty)
        CATransaction.flush()
        XCTAssertEqual(layer.draws, 2)
        XCTAssertEqual(layer.clipBoxes.last, dirty, "draw(in:) sees the dirty rect as its clip")
        XCTAssertEqual(layer.clipBoxes.first, layer.bounds)
        let second = try image(layer)
        XCTAssertFalse(second === first, "a new image: images are immutable")
        XCTAssertEqual([second.width, second.height], [16, 12])
        for y in 0..<12 {
            for x in 0..<16 {
                let inside = (4..<10).contains(x) && (2..<6).contains(y)
                XCTAssertEqual(rgba(second, x, y), inside ? [0, 255, 0, 255] : [255, 0, 0, 255], "(\(x), \(y))")
            }
        }
    }

    func testPartialRedrawClearsTheRegionBeforeDrawing() throws {
        let layer = DrawingLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        layer.fills = [(layer.bounds, .opaqueRed)]
        layer.setNeedsDisplay()
        CATransaction.flush()
        // The new drawing leaves the region's right half empty: it must become clear, not stay red.
        layer.fills = [(CGRect(x: 0, y: 0, width: 2, height: 4), .opaqueGreen)]
        layer.setNeedsDisplay(CGRect(x: 1, y: 1, width: 2, height: 2))
        CATransaction.flush()
        let image = try image(layer)
        XCTAssertEqual(rgba(image, 1, 1), [0, 255, 0, 255])
        XCTAssertEqual(rgba(image, 2, 1), [0, 0, 0, 0])
        XCTAssertEqual(rgba(image, 3, 1), [255, 0, 0, 255])
        XCTAssertEqual(rgba(image, 0, 0), [255, 0, 0, 255])
    }

    func testPartialMarksUniteAndAWholeMarkWins() {
        let layer = DrawingLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.fills = [(layer.bounds, .opaqueRed)]
        layer.setNeedsDisplay()
        CATransaction.flush()
        layer.setNeedsDisplay(CGRect(x: 1, y: 1, width: 1, height: 1))
        layer.setNeedsDisplay(CGRect(x: 5, y: 6, width: 2, height: 1))
        CATransaction.flush()
        XCTAssertEqual(layer.clipBoxes.last, CGRect(x: 1, y: 1, width: 6, height: 6))
        layer.setNeedsDisplay(CGRect(x: 1, y: 1, width: 1, height: 1))
        layer.setNeedsDisplay()
        CATransaction.flush()
        XCTAssertEqual(layer.clipBoxes.last, layer.bounds)
    }

    func testPartialRedrawOfAFractionalRectRoundsOutToPixels() {
        let layer = DrawingLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        layer.fills = [(layer.bounds, .opaqueRed)]
        layer.setNeedsDisplay()
        CATransaction.flush()
        layer.setNeedsDisplay(CGRect(x: 1.25, y: 2.5, width: 2.5, height: 0.25))
        CATransaction.flush()
        XCTAssertEqual(layer.clipBoxes.last, CGRect(x: 1, y: 2, width: 3, height: 1))
    }

    func testPartialRedrawAfterTheContentsWereReplacedRedrawsEverything() {
        let layer = DrawingLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        layer.fills = [(layer.bounds, .opaqueRed)]
        layer.setNeedsDisplay()
        CATransaction.flush()
        layer.contents = CGImage(width: 4, height: 4, bytesPerRow: 16, premultipliedRGBA: [UInt8](repeating: 255, count: 64))
        layer.setNeedsDisplay(CGRect(x: 0, y: 0, width: 1, height: 1))
        CATransaction.flush()
        XCTAssertEqual(layer.clipBoxes.last, layer.bounds)
    }

    // MARK: - Delegates

    func testTheDelegatesDrawIsUsedWithLayerWillDraw() throws {
        let delegate = Delegate()
        let layer = CALayer()
        layer.delegate = delegate
        layer.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        layer.setNeedsDisplay()
        CATransaction.flush()
        XCTAssertEqual(delegate.drawn.count, 1)
        XCTAssertTrue(delegate.drawn.first === layer)
        XCTAssertEqual(delegate.willDraw, 1)
        let image = try image(layer)
        XCTAssertEqual(rgba(image, 1, 1), [0, 255, 0, 255])
        XCTAssertEqual(rgba(image, 2, 2), [0, 0, 0, 0])
    }

    func testTheDelegatesDisplayReplacesTheBackingStore() throws {
        let delegate = Delegate()
        delegate.implementsDisplay = true
        delegate.image = CGImage(width: 1, height: 1, bytesPerRow: 4, premultipliedRGBA: [0, 0, 255, 255])
        let layer = CALayer()
        layer.delegate = delegate
        layer.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        layer.setNeedsDisplay()
        CATransaction.flush()
        XCTAssertEqual(delegate.displayed.count, 1)
        XCTAssertTrue(delegate.drawn.isEmpty, "a delegate that displays is not asked to draw")
        XCTAssertTrue(layer.contents as? CGImage === delegate.image)
    }

    func testAnOverriddenDisplayIsCalledAndTheMarkCleared() {
        final class ImageLayer: CALayer {
            var displays = 0
            override func display() { displays += 1 }
        }
        let layer = ImageLayer()
        layer.setNeedsDisplay()
        CATransaction.flush()
        XCTAssertEqual(layer.displays, 1)
        XCTAssertFalse(layer.needsDisplay())
        CATransaction.flush()
        XCTAssertEqual(layer.displays, 1)
    }

    // MARK: - What marks a layer

    func testNeedsDisplayOnBoundsChangeMarksOnSizeChangesOnly() {
        let layer = DrawingLayer()
        layer.needsDisplayOnBoundsChange = true
        layer.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        XCTAssertTrue(layer.needsDisplay(), "a new size")
        CATransaction.flush()
        XCTAssertEqual(layer.draws, 1)
        layer.position = CGPoint(x: 5, y: 5)
        layer.bounds = CGRect(x: 2, y: 2, width: 4, height: 4)
        XCTAssertFalse(layer.needsDisplay(), "same size: origin changes do not redraw")
        layer.frame = CGRect(x: 0, y: 0, width: 6, height: 4)
        XCTAssertTrue(layer.needsDisplay())
        CATransaction.flush()
        XCTAssertEqual(layer.draws, 2)

        let plain = DrawingLayer()
        plain.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        XCTAssertFalse(plain.needsDisplay(), "needsDisplayOnBoundsChange is off by default")
    }

    /// A layer whose drawing depends on a custom property declared with `needsDisplay(forKey:)`.
    final class CurveLayer: CALayer {
        var draws = 0
        /// The drawn curve's control point (animatable).
        var controlPoint: CGPoint {
            get { value(forKey: "controlPoint") as? CGPoint ?? .zero }
            set { setValue(newValue, forKey: "controlPoint") }
        }

        override class func needsDisplay(forKey key: String) -> Bool {
            key == "controlPoint" || key == "backgroundColor" || super.needsDisplay(forKey: key)
        }

        override class func defaultValue(forKey key: String) -> Any? {
            key == "controlPoint" ? CGPoint.zero : super.defaultValue(forKey: key)
        }

        override func draw(in ctx: CGContext) {
            // Presentation copies draw for the model layer: count there.
            (model() as CurveLayer).draws += 1
            ctx.setFillColor(.opaqueRed)
            // A one-unit square at the control point stands for the curve.
            ctx.fill(CGRect(x: controlPoint.x, y: controlPoint.y, width: 1, height: 1))
        }
    }

    func testPropertiesDeclaredWithNeedsDisplayForKeyMarkTheLayer() {
        let layer = CurveLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
        CATransaction.flush()
        XCTAssertFalse(layer.needsDisplay())
        layer.controlPoint = CGPoint(x: 3, y: 3)
        XCTAssertTrue(layer.needsDisplay())
        CATransaction.flush()
        XCTAssertEqual(layer.draws, 1)
        layer.backgroundColor = .opaqueGreen
        XCTAssertTrue(layer.needsDisplay(), "a built-in key declared too")
        CATransaction.flush()
        layer.opacity = 0.5
        XCTAssertFalse(layer.needsDisplay())
    }

    func testPresentationCopiesAreNeverMarked() throws {
        let layer = CurveLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 8, height: 8)
        CATransaction.flush()
        let copy = try XCTUnwrap(layer.presentation())
        copy.setNeedsDisplay()
        copy.setValue(CGPoint(x: 1, y: 1), forKey: "controlPoint")
        XCTAssertFalse(copy.needsDisplay())
    }

    // MARK: - Asynchronous drawing

    func testDrawsAsynchronouslyDrawsACopyOffTheModelThreadAndCommitsLater() throws {
        let layer = DrawingLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        layer.fills = [(layer.bounds, .opaqueRed)]
        layer.drawsAsynchronously = true
        layer.setNeedsDisplay()
        CATransaction.flush()
        XCTAssertNil(layer.contents, "the result is committed by a later transaction")
        XCTAssertEqual(layer.draws, 0, "the model layer itself is not drawn")
        LayerDisplay.waitForAsynchronousDrawing()
        XCTAssertTrue(layer.isDrawingAsynchronously, "finished, waiting for the commit")
        CATransaction.flush()
        let image = try image(layer)
        XCTAssertEqual(rgba(image, 2, 2), [255, 0, 0, 255])
        XCTAssertFalse(layer.isDrawingAsynchronously)
    }

    func testAsynchronousDrawingRunsOffTheMainThreadOnACopy() throws {
        final class ThreadLayer: CALayer {
            nonisolated(unsafe) static var drawnOnMain: [Bool] = []
            nonisolated(unsafe) static var drawnLayers: [ObjectIdentifier] = []
            override func draw(in ctx: CGContext) {
                Self.drawnOnMain.append(Thread.isMainThread)
                Self.drawnLayers.append(ObjectIdentifier(self))
                ctx.setFillColor(.opaqueRed)
                ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
            }
        }
        let layer = ThreadLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 2, height: 2)
        layer.drawsAsynchronously = true
        layer.setNeedsDisplay()
        CATransaction.flush()
        LayerDisplay.waitForAsynchronousDrawing()
        CATransaction.flush()
        XCTAssertEqual(ThreadLayer.drawnOnMain, [false])
        XCTAssertNotEqual(ThreadLayer.drawnLayers, [ObjectIdentifier(layer)])
        XCTAssertNotNil(layer.contents)
    }

    func testASupersededAsynchronousDrawingIsDropped() throws {
        let layer = DrawingLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 2, height: 2)
        layer.fills = [(layer.bounds, .opaqueRed)]
        layer.drawsAsynchronously = true
        layer.setNeedsDisplay()
        CATransaction.flush()
        // Two drawings in flight: whichever finishes last, the newer one's image is the one shown.
        layer.fills = [(layer.bounds, .opaqueGreen)]
        layer.setNeedsDisplay()
        CATransaction.flush()
        LayerDisplay.waitForAsynchronousDrawing()
        CATransaction.flush()
        XCTAssertEqual(rgba(try image(layer), 0, 0), [0, 255, 0, 255])
        // A synchronous drawing after them wins too.
        layer.drawsAsynchronously = false
        layer.fills = [(layer.bounds, .opaqueRed)]
        layer.setNeedsDisplay()
        CATransaction.flush()
        XCTAssertEqual(rgba(try image(layer), 0, 0), [255, 0, 0, 255])
    }

    // MARK: - Animated drawn properties

    func testAnAnimatedDrawnPropertyRedrawsEachFrameWithPresentationValues() throws {
        let layer = CurveLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 16, height: 16)
        layer.controlPoint = CGPoint(x: 0, y: 0)
        CATransaction.flush()
        XCTAssertEqual(layer.draws, 1)
        let animation = CABasicAnimation(keyPath: "controlPoint")
        animation.fromValue = CGPoint(x: 0, y: 0)
        animation.toValue = CGPoint(x: 10, y: 8)
        animation.beginTime = 100
        animation.duration = 10
        animation.timingFunction = CAMediaTimingFunction(name: .linear)
        layer.add(animation, forKey: "curve")
        CATransaction.flush()

        // t = 102.5: a quarter of the way, (2.5, 2) → the pixel (2, 2) holds the square's left part.
        LayerDisplay.redrawAnimatingLayers(at: 102.5)
        CATransaction.flush()
        XCTAssertEqual(layer.draws, 2)
        let quarter = try image(layer)
        XCTAssertEqual(Double(quarter.pixel(x: 2, y: 2).a), 127.5, accuracy: 1, "(2.5, 2) covers half of pixel (2, 2)")
        XCTAssertEqual(Double(quarter.pixel(x: 3, y: 2).a), 127.5, accuracy: 1)
        XCTAssertEqual(quarter.pixel(x: 2, y: 3).a, 0)
        XCTAssertEqual(layer.controlPoint, .zero, "the model keeps its value")

        // t = 105: half way, (5, 4).
        LayerDisplay.redrawAnimatingLayers(at: 105)
        let half = try image(layer)
        XCTAssertEqual(rgba(half, 5, 4), [255, 0, 0, 255])
        XCTAssertEqual(half.pixel(x: 2, y: 2).a, 0)

        // The same time again: nothing changed, nothing drawn.
        LayerDisplay.redrawAnimatingLayers(at: 105)
        XCTAssertEqual(layer.draws, 3)

        // After the animation (removed on completion): back to the model's drawing once.
        LayerDisplay.redrawAnimatingLayers(at: 111)
        CATransaction.flush()
        XCTAssertEqual(layer.draws, 4)
        XCTAssertEqual(rgba(try image(layer), 0, 0), [255, 0, 0, 255])
    }

    func testAnimationsOfPropertiesNotDrawnDoNotRedraw() {
        let layer = CurveLayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
        CATransaction.flush()
        let animation = CABasicAnimation(keyPath: "opacity")
        animation.fromValue = 0
        animation.toValue = 1
        animation.beginTime = 100
        animation.duration = 10
        layer.add(animation, forKey: "fade")
        CATransaction.flush()
        LayerDisplay.redrawAnimatingLayers(at: 105)
        XCTAssertEqual(layer.draws, 0)
    }
}
