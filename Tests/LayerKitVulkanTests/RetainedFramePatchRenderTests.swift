import Foundation
import LayerKit
@testable import LayerKitVulkan
import XCTest

/// Patched frames through the Vulkan backend beyond the plain frame pass: gradients (whose stops follow
/// the instances in the instance buffer) and group-opacity surfaces (drawn by offscreen passes). Two
/// renderers show each scene, one that patches frames and one that builds every frame in full
/// (`retainsFrames = false`); every frame of the two must be the same pixel for pixel, and the patching
/// one must write only the changed draws' instances and stops.
///
/// Scene (64 × 32, black): 20 still grey 2 × 2 boxes at (3k, 29) — so that one changed layer is few
/// enough to patch — a still radial gradient of 2 colors at (44, 2) 16 × 16, and an axial gradient of
/// 3 colors at (0, 2) 16 × 16 sliding x by 20 · (t − 1000) over [1000, 1001].
final class RetainedFramePatchRenderTests: CARendererTestCase {
    /// Groups over opaque children go through surfaces here: patches of group surfaces among others are what this class tests.
    override var resolvesGroupsByDepth: Bool { false }

    private static let stride = 256
    private static let wordStride = 16

    private struct GradientScene {
        let root: CALayer
        let sliding: CAGradientLayer
        let still: CAGradientLayer
    }

    private func gradientScene() -> GradientScene {
        let root = makeRoot(width: 64, height: 32)
        for k in 0..<20 {
            let box = CALayer()
            box.frame = CGRect(x: 3 * k, y: 29, width: 2, height: 2)
            box.backgroundColor = CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
            root.addSublayer(box)
        }
        let still = CAGradientLayer()
        still.type = .radial
        still.frame = CGRect(x: 44, y: 2, width: 16, height: 16)
        still.colors = [CGColor(red: 1, green: 1, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)]
        still.startPoint = CGPoint(x: 0.5, y: 0.5)
        still.endPoint = CGPoint(x: 1, y: 1)
        root.addSublayer(still)
        let sliding = CAGradientLayer()
        sliding.frame = CGRect(x: 0, y: 2, width: 16, height: 16)
        sliding.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 0, alpha: 1),
                          CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        root.addSublayer(sliding)
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.fromValue = 8
        slide.toValue = 28
        slide.duration = 1
        slide.beginTime = 1000
        sliding.add(slide, forKey: "slide")
        return GradientScene(root: root, sliding: sliding, still: still)
    }

    /// Renders both renderers at `time` and fails where their pixels differ; returns the bytes of
    /// instance data the patching renderer wrote.
    private func renderBoth(_ patching: CARenderer, _ full: CARenderer, at time: Double, file: StaticString = #filePath,
                            line: UInt = #line) throws -> Int {
        let patched = try renderFrame(patching, atTime: time)
        let built = try renderFrame(full, atTime: time)
        assertPixels(patched, "patched frame at \(time)", file: file, line: line) { x, y in PixelRGBA(built, x, y) }
        return patching.lastFrameStatistics.instanceBytesWritten
    }

    func testPatchedGradientFramesRewriteOnlyTheChangedGradientAndItsStops() throws {
        let patching = try makeRenderer(width: 64, height: 32)
        let full = try makeRenderer(width: 64, height: 32)
        full.retainsFrames = false
        let scene = gradientScene()
        for renderer in [patching, full] {
            renderer.clearColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            renderer.layer = scene.root
        }
        // 22 instances; stop words: 3 colors + one word of 3 locations, and 2 colors + one word.
        let fullWrite = 22 * Self.stride + (4 + 3) * Self.wordStride
        let slidingWrite = Self.stride + 4 * Self.wordStride
        var written: [Int] = []
        for time in [999, 1000.25, 1000.5, 1000.75] { written.append(try renderBoth(patching, full, at: time)) }
        // Both frames in flight start empty; after that the sliding gradient alone, its stops included.
        XCTAssertEqual(written, [fullWrite, fullWrite, slidingWrite, slidingWrite])

        // New colors, as many (opaque still, so the draw keeps its depth phase): patched in place, stops
        // rewritten in their words.
        withoutAnimation {
            scene.sliding.colors = [CGColor(red: 1, green: 1, blue: 1, alpha: 1), CGColor(red: 0, green: 1, blue: 1, alpha: 1),
                                    CGColor(red: 1, green: 0, blue: 1, alpha: 1)]
        }
        XCTAssertEqual(try renderBoth(patching, full, at: 1000.8), slidingWrite)
        // A fourth color moves every later gradient's stops: the draw lists start a new lineage, written
        // in full by each frame in flight, then patched again.
        withoutAnimation { scene.sliding.colors = (scene.sliding.colors ?? []) + [CGColor(red: 0, green: 0, blue: 0, alpha: 1)] }
        let longerWrite = 22 * Self.stride + (5 + 3) * Self.wordStride
        var after: [Int] = []
        for time in [1000.85, 1000.9, 1000.95] { after.append(try renderBoth(patching, full, at: time)) }
        XCTAssertEqual(after, [longerWrite, longerWrite, Self.stride + 5 * Self.wordStride])
        // The gradient is where the animation puts it: at 1000.95 its left edge is at 19 (x = 27 − 8).
        let image = try patching.snapshot()
        // Pixel row 3 is 1.5 of 16 points down: 0.28 of the way from white to cyan (stops at 0, 1/3, …).
        XCTAssertLessThanOrEqual(PixelRGBA(image, 20, 3).difference(to: PixelRGBA(premultiplied: 1 - 0.28125, 1, 1, 1)), 2,
                                 "inside the gradient, near its white top")
        XCTAssertEqual(PixelRGBA(image, 18, 3), PixelRGBA(0, 0, 0, 255), "left of the gradient")
    }

    /// Scene (64 × 48, black): 20 still grey 2 × 2 boxes at (3k, 45), and a group at (4, 4), 40 × 40 at
    /// opacity 0.5, of three overlapping opaque 24 × 24 children at (0, 0), (8, 8), (16, 16) — red, an
    /// axial gradient of two colors, blue — so it is drawn through a surface; the gradient child slides
    /// x by 4 · (t − 1000) over [1000, 1001], inside the group's footprint (the surface keeps its size).
    func testPatchedGroupSurfaceWithAGradientRedrawsOnlyTheSurfacesDraws() throws {
        let patching = try makeRenderer(width: 64, height: 48)
        let full = try makeRenderer(width: 64, height: 48)
        full.retainsFrames = false
        let root = makeRoot(width: 64, height: 48)
        for k in 0..<20 {
            let box = CALayer()
            box.frame = CGRect(x: 3 * k, y: 45, width: 2, height: 2)
            box.backgroundColor = CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
            root.addSublayer(box)
        }
        let group = CALayer()
        group.frame = CGRect(x: 4, y: 4, width: 40, height: 40)
        group.opacity = 0.5
        let red = CALayer()
        red.frame = CGRect(x: 0, y: 0, width: 24, height: 24)
        red.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 8, y: 8, width: 24, height: 24)
        gradient.colors = [CGColor(red: 0, green: 1, blue: 0, alpha: 1), CGColor(red: 1, green: 1, blue: 1, alpha: 1)]
        let blue = CALayer()
        blue.frame = CGRect(x: 16, y: 16, width: 24, height: 24)
        blue.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        for child in [red, gradient, blue] { group.addSublayer(child) }
        root.addSublayer(group)
        let slide = CABasicAnimation(keyPath: "position.x")
        slide.fromValue = 20
        slide.toValue = 24
        slide.duration = 1
        slide.beginTime = 1000
        gradient.add(slide, forKey: "slide")
        for renderer in [patching, full] {
            renderer.clearColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            renderer.cachesGroups = false  // the group's surface is drawn every frame, not cached
            renderer.layer = root
        }
        // 24 instances (3 in the surface, 20 boxes and the composite in the frame) and 3 stop words.
        let fullWrite = 24 * Self.stride + 3 * Self.wordStride
        // The surface's pass, compiled again: its three draws and the gradient's stops.
        let surfaceWrite = 3 * Self.stride + 3 * Self.wordStride
        var written: [Int] = []
        for time in [999, 1000.25, 1000.5, 1000.75] { written.append(try renderBoth(patching, full, at: time)) }
        XCTAssertEqual(written, [fullWrite, fullWrite, surfaceWrite, surfaceWrite])
        XCTAssertEqual(patching.lastGraph?.passes.map(\.reason), [.groupOpacity, nil])
        // Where only the red child shows, the group at half opacity over black.
        let image = try patching.snapshot()
        XCTAssertLessThanOrEqual(PixelRGBA(image, 6, 6).difference(to: PixelRGBA(premultiplied: 0.5, 0, 0, 1)), 1)
        // The gradient at 1000.75 has moved 3 points: its left edge at 4 + 8 + 3 = 15 (blue lies over it
        // from 20 on); red still shows at 14 on row 14 (inside red, left of the gradient).
        XCTAssertLessThanOrEqual(PixelRGBA(image, 14, 14).difference(to: PixelRGBA(premultiplied: 0.5, 0, 0, 1)), 1)
        XCTAssertGreaterThan(PixelRGBA(image, 15, 14).g, 100, "the gradient's green-to-white at half opacity")
    }

    /// With `LK_STATS` on, frames are still patched (the sliding gradient alone is written); a plain
    /// `LK_STATS` holds no graph until the next frame, so the patch edits the retained lists in place.
    func testFramesArePatchedWhileStatisticsAreReported() throws {
        setenv("LK_STATS", "1", 1)
        let patching = try makeRenderer(width: 64, height: 32)
        unsetenv("LK_STATS")
        let full = try makeRenderer(width: 64, height: 32)
        full.retainsFrames = false
        let scene = gradientScene()
        for renderer in [patching, full] {
            renderer.clearColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            renderer.layer = scene.root
        }
        var written: [Int] = []
        for time in [999, 1000.25, 1000.5, 1000.75] { written.append(try renderBoth(patching, full, at: time)) }
        XCTAssertEqual(written.suffix(2), [Self.stride + 4 * Self.wordStride, Self.stride + 4 * Self.wordStride])
    }
}
