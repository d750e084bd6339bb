import LayerKit
@testable import LayerKitVulkan
import XCTest

/// `contentsGravity`: where the image lands in the bounds, for all twelve values.
///
/// The scene: a 40×32 layer at (12, 16) showing a 16×8 image in four colored quadrants (top-left red,
/// top-right green, bottom-left blue, bottom-right white), sampled `nearest` so that every pixel is
/// exactly one quadrant's color. The vertical gravities keep Core Animation's y-up naming as on iOS:
/// `.top` aligns the image with the bounds' maximum y, the visual bottom in LayerKit's y-down space,
/// unless the layer's contents are flipped by an `isGeometryFlipped` superlayer, which turns the layer's
/// space upside down on screen and so shows `.top` at the visual top. The image itself is always upright.
final class ContentsGravityRenderTests: CARendererTestCase {
    /// The layer's frame in the 64×64 target.
    let layerFrame = CGRect(x: 12, y: 16, width: 40, height: 32)

    func makeScene(_ gravity: CALayerContentsGravity, contentsScale: CGFloat = 1) -> (root: CALayer, layer: CALayer) {
        let root = makeRoot()
        let layer = makeLayer(layerFrame, nil, in: root)
        layer.contents = makeQuadrantImage(width: 16, height: 8)
        layer.contentsGravity = gravity
        layer.contentsScale = contentsScale
        layer.magnificationFilter = .nearest
        layer.minificationFilter = .nearest
        return (root, layer)
    }

    /// Expects the upright quadrant image exactly filling `rect` (target pixels, integral) and nothing
    /// else, except that pixels outside `visible` are clear.
    func assertImage(_ image: CGImage, filling rect: CGRect, visible: CGRect? = nil, _ name: String,
                     file: StaticString = #filePath, line: UInt = #line) {
        assertPixels(image, name, file: file, line: line) { x, y in
            let point = CGPoint(x: CGFloat(x) + 0.5, y: CGFloat(y) + 0.5)
            guard rect.contains(point), visible?.contains(point) ?? true else { return .clear }
            return Quadrant(left: point.x < rect.midX, top: point.y < rect.midY).color
        }
    }

    // Natural size 16×8 in the 40×32 bounds: centred x = 12 + (40 − 16) / 2 = 24, y = 16 + (32 − 8) / 2 = 28;
    // left x = 12, right x = 12 + 40 − 16 = 36; "top" (max y) y = 16 + 32 − 8 = 40, "bottom" (min y) y = 16.

    func testCenterCentersTheImageAtItsNaturalSize() throws {
        let image = try render(makeScene(.center).root)
        assertImage(image, filling: CGRect(x: 24, y: 28, width: 16, height: 8), "center")
    }

    func testTopAlignsWithTheMaximumYWhichIsTheVisualBottom() throws {
        let image = try render(makeScene(.top).root)
        assertImage(image, filling: CGRect(x: 24, y: 40, width: 16, height: 8), "top")
    }

    func testBottomAlignsWithTheMinimumYWhichIsTheVisualTop() throws {
        let image = try render(makeScene(.bottom).root)
        assertImage(image, filling: CGRect(x: 24, y: 16, width: 16, height: 8), "bottom")
    }

    func testLeftAlignsWithTheMinimumXCentredVertically() throws {
        let image = try render(makeScene(.left).root)
        assertImage(image, filling: CGRect(x: 12, y: 28, width: 16, height: 8), "left")
    }

    func testRightAlignsWithTheMaximumXCentredVertically() throws {
        let image = try render(makeScene(.right).root)
        assertImage(image, filling: CGRect(x: 36, y: 28, width: 16, height: 8), "right")
    }

    func testTopLeftIsMinimumXMaximumY() throws {
        let image = try render(makeScene(.topLeft).root)
        assertImage(image, filling: CGRect(x: 12, y: 40, width: 16, height: 8), "topLeft")
    }

    func testTopRightIsMaximumXMaximumY() throws {
        let image = try render(makeScene(.topRight).root)
        assertImage(image, filling: CGRect(x: 36, y: 40, width: 16, height: 8), "topRight")
    }

    func testBottomLeftIsMinimumXMinimumY() throws {
        let image = try render(makeScene(.bottomLeft).root)
        assertImage(image, filling: CGRect(x: 12, y: 16, width: 16, height: 8), "bottomLeft")
    }

    func testBottomRightIsMaximumXMinimumY() throws {
        let image = try render(makeScene(.bottomRight).root)
        assertImage(image, filling: CGRect(x: 36, y: 16, width: 16, height: 8), "bottomRight")
    }

    func testResizeStretchesTheImageOverTheWholeBounds() throws {
        // 16×8 → 40×32: x scale 2.5, y scale 4, so the quadrant seams land at x = 32 and y = 32.
        let image = try render(makeScene(.resize).root)
        assertImage(image, filling: layerFrame, "resize")
    }

    func testResizeIsTheDefaultGravity() throws {
        let scene = makeScene(.resize)
        scene.layer.contentsGravity = CALayer().contentsGravity
        let image = try render(scene.root)
        assertImage(image, filling: layerFrame, "default-gravity")
    }

    func testResizeAspectFitsTheWholeImageCentred() throws {
        // scale = min(40 / 16, 32 / 8) = 2.5 → 40×20, centred vertically: y = 16 + (32 − 20) / 2 = 22.
        let image = try render(makeScene(.resizeAspect).root)
        assertImage(image, filling: CGRect(x: 12, y: 22, width: 40, height: 20), "resizeAspect")
    }

    func testResizeAspectFillCoversTheBoundsAndOverflowsWithoutMasksToBounds() throws {
        // scale = max(40 / 16, 32 / 8) = 4 → 64×32, centred horizontally: x = 12 + (40 − 64) / 2 = 0.
        // Core Animation does not clip contents to the bounds unless masksToBounds is set.
        let image = try render(makeScene(.resizeAspectFill).root)
        assertImage(image, filling: CGRect(x: 0, y: 16, width: 64, height: 32), "resizeAspectFill")
    }

    func testResizeAspectFillIsCroppedToTheBoundsByMasksToBounds() throws {
        let scene = makeScene(.resizeAspectFill)
        scene.layer.masksToBounds = true
        let image = try render(scene.root)
        assertImage(image, filling: CGRect(x: 0, y: 16, width: 64, height: 32), visible: layerFrame, "resizeAspectFill-masked")
    }

    func testContentsScaleTwoHalvesTheNaturalSizeForCenter() throws {
        // 16×8 pixels at contentsScale 2 are 8×4 points: x = 12 + (40 − 8) / 2 = 28, y = 16 + (32 − 4) / 2 = 30.
        let image = try render(makeScene(.center, contentsScale: 2).root)
        assertImage(image, filling: CGRect(x: 28, y: 30, width: 8, height: 4), "center-contentsScale-2")
    }

    func testContentsScaleMatchingTheRendererScaleDrawsPixelForPixel() throws {
        // Renderer at 2 pixels per point: the 8×4-point image covers 16×8 target pixels at
        // 2 · (28, 30) = (56, 60).
        let image = try render(makeScene(.center, contentsScale: 2).root, width: 128, height: 128, scale: 2)
        assertImage(image, filling: CGRect(x: 56, y: 60, width: 16, height: 8), "center-scale-2")
    }

    func testContentsScaleDoesNotChangeResize() throws {
        let image = try render(makeScene(.resize, contentsScale: 3).root)
        assertImage(image, filling: layerFrame, "resize-contentsScale-3")
    }

    // MARK: - Flipped geometry

    /// A 64×64 `isGeometryFlipped` parent holding the image layer at (12, 8) in its flipped space:
    /// on screen the layer spans y = 64 − 8 − 32 = 24 ..< 56.
    func makeFlippedScene(_ gravity: CALayerContentsGravity) -> CALayer {
        let root = makeRoot()
        let flipped = makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), nil, in: root)
        flipped.isGeometryFlipped = true
        let layer = makeLayer(CGRect(x: 12, y: 8, width: 40, height: 32), nil, in: flipped)
        layer.contents = makeQuadrantImage(width: 16, height: 8)
        layer.contentsGravity = gravity
        layer.magnificationFilter = .nearest
        return root
    }

    func testUnderAFlippedSuperlayerTopIsTheVisualTopAndTheImageStaysUpright() throws {
        let image = try render(makeFlippedScene(.top))
        assertImage(image, filling: CGRect(x: 24, y: 24, width: 16, height: 8), "flipped-top")
    }

    func testUnderAFlippedSuperlayerBottomLeftIsTheVisualBottomLeft() throws {
        let image = try render(makeFlippedScene(.bottomLeft))
        assertImage(image, filling: CGRect(x: 12, y: 48, width: 16, height: 8), "flipped-bottomLeft")
    }

    func testUnderAFlippedSuperlayerResizeShowsTheImageUpright() throws {
        let image = try render(makeFlippedScene(.resize))
        assertImage(image, filling: CGRect(x: 12, y: 24, width: 40, height: 32), "flipped-resize")
    }

    func testAFlippedLayersOwnContentsAreNotFlipped() throws {
        // isGeometryFlipped flips the sublayers' geometry, not the layer's own contents.
        let scene = makeScene(.top)
        scene.layer.isGeometryFlipped = true
        let image = try render(scene.root)
        assertImage(image, filling: CGRect(x: 24, y: 40, width: 16, height: 8), "own-contents-top")
    }

    func testTwoFlippedSuperlayersCancel() throws {
        let root = makeRoot()
        let outer = makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), nil, in: root)
        outer.isGeometryFlipped = true
        let inner = makeLayer(CGRect(x: 0, y: 0, width: 64, height: 64), nil, in: outer)
        inner.isGeometryFlipped = true
        let layer = makeLayer(layerFrame, nil, in: inner)
        layer.contents = makeQuadrantImage(width: 16, height: 8)
        layer.contentsGravity = .top
        layer.magnificationFilter = .nearest
        let image = try render(root)
        assertImage(image, filling: CGRect(x: 24, y: 40, width: 16, height: 8), "double-flip-top")
    }
}
