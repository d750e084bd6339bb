import LayerKit
@testable import LayerKitVulkan
import XCTest

/// `masksToBounds`: the layer's contents and its whole subtree are clipped to its bounds, rounded
/// corners included, under any transform. The clip is antialiased: expected coverage is the area of
/// each pixel inside the clip, within 0.06 along edges and arcs (see `CornerRadiusRenderTests`) and 0.25
/// within a pixel of a sharp corner (see `assertCoverage(_:_:of:color:edgeTolerance:)`); a clip edge on a
/// pixel boundary gives exactly 0 or 1.
final class MasksToBoundsRenderTests: CARendererTestCase {
    /// The clipping layer: 32×24 at (16, 20).
    let clipFrame = CGRect(x: 16, y: 20, width: 32, height: 24)

    /// A clipping layer with a red sublayer overflowing it on every side.
    func makeScene(masks: Bool, radius: CGFloat = 0) -> (root: CALayer, clipper: CALayer) {
        let root = makeRoot()
        let clipper = makeLayer(clipFrame, nil, in: root)
        clipper.masksToBounds = masks
        clipper.cornerRadius = radius
        makeLayer(CGRect(x: -12, y: -16, width: 56, height: 56), .testRed, in: clipper)
        return (root, clipper)
    }

    func testWithoutMasksToBoundsSublayersOverflow() throws {
        let image = try render(makeScene(masks: false).root)
        // The sublayer spans (4, 4) ..< (60, 60) in the target.
        assertPixels(image, "overflow") { x, y in (4..<60).contains(x) && (4..<60).contains(y) ? .red : .clear }
    }

    func testMasksToBoundsClipsSublayersToTheBounds() throws {
        let image = try render(makeScene(masks: true).root)
        assertPixels(image, "clipped", tolerance: 1) { x, y in
            self.clipFrame.contains(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)) ? .red : .clear
        }
    }

    func testMasksToBoundsClipsTheWholeSubtree() throws {
        // A grandchild overflowing an unclipped child is still clipped by the grandparent.
        let root = makeRoot()
        let clipper = makeLayer(clipFrame, nil, in: root)
        clipper.masksToBounds = true
        let child = makeLayer(CGRect(x: 4, y: 4, width: 8, height: 8), nil, in: clipper)
        makeLayer(CGRect(x: -40, y: -40, width: 100, height: 100), .testGreen, in: child)
        let image = try render(root)
        assertPixels(image, "grandchild", tolerance: 1) { x, y in
            self.clipFrame.contains(CGPoint(x: Double(x) + 0.5, y: Double(y) + 0.5)) ? .green : .clear
        }
    }

    func testMasksToBoundsClipsContents() throws {
        // A 16×16 image at .center in an 8×8 layer at (28, 28) overflows by 4 on each side unless clipped.
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 28, y: 28, width: 8, height: 8), nil, in: root)
        layer.contents = makeImage(width: 16, height: 16) { _, _ in .blue }
        layer.contentsGravity = .center
        let renderer = try makeRenderer()
        renderer.layer = root
        assertPixels(try renderFrame(renderer), "contents-overflow") { x, y in
            (24..<40).contains(x) && (24..<40).contains(y) ? .blue : .clear
        }
        withoutAnimation { layer.masksToBounds = true }
        assertPixels(try renderFrame(renderer, atTime: 1), "contents-clipped", tolerance: 1) { x, y in
            (28..<36).contains(x) && (28..<36).contains(y) ? .blue : .clear
        }
    }

    func testRoundedMasksToBoundsClipsSublayersAndContentsToTheCorners() throws {
        let scene = makeScene(masks: true, radius: 10)
        let image = try render(scene.root)
        let shape = RoundedRectShape(clipFrame, radius: 10)
        assertPixels(image, "rounded-clip-probes", probes: [
            Probe("corner", 16, 20, .clear), Probe("inside", 20, 24, .red), Probe("centre", 32, 32, .red),
        ])
        assertCoverage(image, "rounded-clip", color: .red, tolerance: 0.06) { x, y in self.areaCoverage(x: x, y: y, of: shape) }
    }

    func testRoundedClipMatchesARoundedBackgroundOfTheSameShape() throws {
        // Two ways to draw the same shape: a red sublayer clipped by a rounded masksToBounds, and a
        // rounded red background. Both antialias the arc with a one-pixel ramp and each is within 0.06 of
        // the area, so they must agree within 16 of 255.
        let clipped = try render(makeScene(masks: true, radius: 10).root)
        let root = makeRoot()
        let background = makeLayer(clipFrame, .testRed, in: root)
        background.cornerRadius = 10
        let reference = try render(root)
        assertPixels(clipped, "clip-vs-background", tolerance: 16) { x, y in PixelRGBA(reference, x, y) }
    }

    func testMasksToBoundsClipsUnderRotation() throws {
        // The clipping layer rotated by 30° about its centre (32, 32): the visible red is the rotated
        // 32×24 rectangle, antialiased along its slanted edges.
        let scene = makeScene(masks: true)
        scene.clipper.transform = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        let image = try render(scene.root)
        let shape = RotatedRectShape(centerX: 32, centerY: 32, width: 32, height: 24, angle: .pi / 6)
        assertPixels(image, "rotated-clip-probes", probes: [
            Probe("centre", 32, 32, .red),
            // Pixel (17, 21), by the unrotated corner: in the layer's axes (−17.8, −1.8), 1.8 beyond its side.
            Probe("unrotated top-left corner", 17, 21, .clear),
        ])
        assertCoverage(image, "rotated-clip", of: shape, color: .red, edgeTolerance: 0.06)
    }

    func testRoundedMasksToBoundsClipsUnderRotation() throws {
        let scene = makeScene(masks: true, radius: 8)
        scene.clipper.transform = CATransform3DMakeRotation(-.pi / 4, 0, 0, 1)
        let image = try render(scene.root)
        // In the clipping layer's own axes: inside the 32×24 rounded rect with radius 8.
        let local = RoundedRectShape(CGRect(x: -16, y: -12, width: 32, height: 24), radius: 8)
        let rotation = RotatedRectShape(centerX: 32, centerY: 32, width: 0, height: 0, angle: -.pi / 4)
        struct RotatedRounded: PixelRegion {
            var local: RoundedRectShape
            var rotation: RotatedRectShape
            func contains(_ x: Double, _ y: Double) -> Bool {
                let (u, v) = rotation.local(x, y)
                return local.contains(u, v)
            }
            func signedDistance(_ x: Double, _ y: Double) -> Double {
                let (u, v) = rotation.local(x, y)
                return local.signedDistance(u, v)
            }
        }
        let shape = RotatedRounded(local: local, rotation: rotation)
        assertCoverage(image, "rotated-rounded-clip", color: .red, tolerance: 0.06) { x, y in self.areaCoverage(x: x, y: y, of: shape) }
    }

    func testNestedMasksToBoundsClipToTheIntersection() throws {
        // An inner clipping layer sticking out of the outer one to the right: its sublayer shows only
        // where both bounds overlap, (40, 28) ..< (48, 36).
        let root = makeRoot()
        let outer = makeLayer(clipFrame, nil, in: root)
        outer.masksToBounds = true
        let inner = makeLayer(CGRect(x: 24, y: 8, width: 24, height: 8), nil, in: outer)
        inner.masksToBounds = true
        makeLayer(CGRect(x: -30, y: -30, width: 100, height: 100), .testGreen, in: inner)
        let image = try render(root)
        assertPixels(image, "nested-clips", tolerance: 1) { x, y in
            (40..<48).contains(x) && (28..<36).contains(y) ? .green : .clear
        }
    }
}
