import LayerKit
@testable import LayerKitVulkan
import XCTest

/// `contentsRect`: the part of the image shown, in unit coordinates of the image with (0, 0) at its
/// top-left (y down, as on iOS). The cropped part is then placed by `contentsGravity` at its own natural
/// size (the image's size times the rect's).
///
/// The image is 16×8 in quadrants: top-left red, top-right green, bottom-left blue, bottom-right white.
final class ContentsRectRenderTests: CARendererTestCase {
    let layerFrame = CGRect(x: 12, y: 16, width: 40, height: 32)

    func makeScene(_ contentsRect: CGRect, gravity: CALayerContentsGravity = .resize) -> CALayer {
        let root = makeRoot()
        let layer = makeLayer(layerFrame, nil, in: root)
        layer.contents = makeQuadrantImage(width: 16, height: 8)
        layer.contentsRect = contentsRect
        layer.contentsGravity = gravity
        layer.magnificationFilter = .nearest
        return root
    }

    func testTopRightQuadrantFillsTheBoundsWithGreen() throws {
        let image = try render(makeScene(CGRect(x: 0.5, y: 0, width: 0.5, height: 0.5)))
        assertPixels(image, "top-right") { x, y in
            self.layerFrame.contains(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)) ? .green : .clear
        }
    }

    func testBottomLeftQuadrantFillsTheBoundsWithBlue() throws {
        let image = try render(makeScene(CGRect(x: 0, y: 0.5, width: 0.5, height: 0.5)))
        assertPixels(image, "bottom-left") { x, y in
            self.layerFrame.contains(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)) ? .blue : .clear
        }
    }

    func testCentredRectShowsAQuarterOfEachQuadrant() throws {
        // (0.25, 0.25, 0.5, 0.5) is the middle of the image: its seams map to the middle of the bounds,
        // x = 12 + 20 = 32 and y = 16 + 16 = 32.
        let image = try render(makeScene(CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)))
        assertPixels(image, "middle") { x, y in
            guard self.layerFrame.contains(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)) else { return .clear }
            return Quadrant(left: x < 32, top: y < 32).color
        }
    }

    func testCroppedNaturalSizeIsUsedByCenterGravity() throws {
        // The top-left quadrant is 8×4 pixels: centred at x = 12 + (40 − 8) / 2 = 28, y = 16 + (32 − 4) / 2 = 30.
        let image = try render(makeScene(CGRect(x: 0, y: 0, width: 0.5, height: 0.5), gravity: .center))
        assertPixels(image, "cropped-center") { x, y in
            (28..<36).contains(x) && (30..<34).contains(y) ? .red : .clear
        }
    }

    func testChangingContentsRectShowsOnTheNextFrame() throws {
        // A sprite sheet: stepping contentsRect across the image shows each frame in turn.
        let root = makeScene(CGRect(x: 0, y: 0, width: 0.5, height: 0.5))
        let layer = root.sublayers![0]
        let renderer = try makeRenderer()
        renderer.layer = root
        XCTAssertEqual(PixelRGBA(try renderFrame(renderer), 32, 32), .red)
        withoutAnimation { layer.contentsRect = CGRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5) }
        XCTAssertEqual(PixelRGBA(try renderFrame(renderer, atTime: 1), 32, 32), .white)
    }
}
