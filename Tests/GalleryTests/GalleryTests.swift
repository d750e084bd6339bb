import GalleryDemos
import XCTest
@testable import LayerKitVulkan

/// Every gallery demo runs headless for a few frames with the validation layer on, and costs what it is
/// built to cost; each demo's own behaviour is checked at pixels or in its model.
final class GalleryTests: XCTestCase {
    static let size = CGSize(width: 640, height: 360)

    /// A demo (or the launcher with it open) rendered for `frames` frames at 60 fps with its script.
    final class Run {
        let renderer: CARenderer
        let root = CALayer()
        let launcher: GalleryLauncher
        let start = CACurrentMediaTime()
        var statistics: [FrameStatistics] = []
        var frame = 0

        init(_ demo: (any GalleryDemo.Type)?) throws {
            setenv("LK_VALIDATION", "1", 1)
            renderer = try CARenderer(width: Int(GalleryTests.size.width), height: Int(GalleryTests.size.height))
            root.frame = CGRect(origin: .zero, size: GalleryTests.size)
            launcher = GalleryLauncher(root: root, startTime: start, demo: demo)
            renderer.layer = root
        }

        var demo: (any GalleryDemo)? { launcher.openDemo?.demo }

        /// Renders the next `count` frames, playing the script (the demo's, or the launcher's).
        func render(_ count: Int, scripted: Bool = true) throws {
            for _ in 0..<count {
                let time = start + Double(frame) / 60
                if scripted { launcher.script(frame: frame, time: time) }
                launcher.update(at: time)
                renderer.beginFrame(atTime: time)
                renderer.render()
                renderer.endFrame()
                statistics.append(renderer.lastFrameStatistics)
                launcher.frameDrawn(renderer.lastFrameStatistics, at: time)
                frame += 1
            }
        }

        func snapshot() throws -> CGImage { try renderer.snapshot() }
    }

    func testEveryDemoRendersWithoutValidationMessages() throws {
        for type in Gallery.demos {
            let run = try Run(type)
            try run.render(12)
            XCTAssertEqual(run.renderer.validationMessages, [], type.name)
            XCTAssertGreaterThan(run.statistics.last?.drawCalls ?? 0, 0, type.name)
        }
    }

    func testTheLauncherOpensADemoWithAPushAndComesBack() throws {
        let run = try Run(nil)
        try run.render(31)
        // Frame 30 pressed Enter on the first card (after → and ←): the recipe browser is open, and the
        // root swapped the menu for it under a push from the right.
        XCTAssertTrue(run.launcher.openDemo?.demo is RecipeBrowserDemo)
        XCTAssertEqual(run.root.sublayers?.count, 1)
        XCTAssertEqual((run.root.animation(forKey: kCATransition) as? CATransition)?.subtype, .fromRight)
        try run.render(40)
        XCTAssertNil(run.launcher.openDemo, "frame 70 pressed Escape")
        XCTAssertEqual((run.root.animation(forKey: kCATransition) as? CATransition)?.subtype, .fromLeft)
        XCTAssertEqual(run.renderer.validationMessages, [])
    }

    func testRecipeBrowserPushesTheNextCardInAndCrossFadesTheTitle() throws {
        let run = try Run(RecipeBrowserDemo.self)
        try run.render(2, scripted: false)
        let before = try run.snapshot()
        run.demo?.keyDown(.right)
        // The stage (the only layer that masks to its bounds) swapped its card under a push from the
        // right; the title under a fade.
        let stage = try XCTUnwrap(run.root.sublayers?.first?.sublayers?.first { $0.masksToBounds })
        let push = try XCTUnwrap(stage.animation(forKey: kCATransition) as? CATransition)
        XCTAssertEqual(push.type, .push)
        XCTAssertEqual(push.subtype, .fromRight)
        let title = try XCTUnwrap(run.root.sublayers?.first?.sublayers?.first as? CATextLayer)
        XCTAssertEqual(title.string as? String, "Mushroom risotto")
        XCTAssertEqual((title.animation(forKey: kCATransition) as? CATransition)?.type, .fade)
        // Once the push is over, the stage shows the second card: its picture is another tile.
        run.renderer.beginFrame(atTime: CACurrentMediaTime() + 2)
        run.renderer.render()
        run.renderer.endFrame()
        let after = try run.snapshot()
        XCTAssertNotEqual(rgb(after, 100, 200), rgb(before, 100, 200))
        XCTAssertEqual(run.renderer.validationMessages, [])
    }

    private func rgb(_ image: CGImage, _ x: Int, _ y: Int) -> [UInt8] {
        let pixel = image.pixel(x: x, y: y)
        return [pixel.r, pixel.g, pixel.b]
    }

    func testSpinnerAndEqualizerAreTwoReplicatorsOfOneLayerEach() throws {
        let run = try Run(SpinnerDemo.self)
        try run.render(3)
        // 12 spokes and 16 bars: 11 + 15 instances beyond the two originals, drawn without a pass.
        XCTAssertEqual(run.statistics.last?.replicatedInstances, 26)
        XCTAssertEqual(run.statistics.last?.offscreenPasses, 0)
        XCTAssertEqual(run.renderer.validationMessages, [])
    }

    func testScrubberShowsThePausedAnimationAtTheKnobsMoment() throws {
        let run = try Run(ScrubberDemo.self)
        // The script drags the knob to the track's middle at frame 20: the paused group shows t = 1 s of 2,
        // the box's centre at x = 120 + 0.5 × (640 − 240) = 320, its colour halfway from blue to orange.
        try run.render(21)
        let image = try run.snapshot()
        let centre = image.pixel(x: 320, y: 130)
        let expected = (r: (0.35 + 1.0) / 2, g: (0.65 + 0.55) / 2, b: (1.0 + 0.25) / 2)
        XCTAssertEqual(Double(centre.r), 255 * expected.r, accuracy: 2)
        XCTAssertEqual(Double(centre.g), 255 * expected.g, accuracy: 2)
        XCTAssertEqual(Double(centre.b), 255 * expected.b, accuracy: 2)
        XCTAssertEqual(image.pixel(x: 140, y: 130).b, image.pixel(x: 20, y: 130).b, "the box has left its start")
        XCTAssertEqual(run.renderer.validationMessages, [])
    }

    func testCoverFlowDrawsEachCoverWithAReplicatedReflectionUnderAGradientMask() throws {
        let run = try Run(CoverFlowDemo.self)
        try run.render(2, scripted: false)
        let last = try XCTUnwrap(run.statistics.last)
        // 16 covers, each drawn twice by its replicator (16 instances beyond the originals); each pair is
        // masked by its gradient: a content and a mask surface per visible cover, nothing else offscreen.
        XCTAssertEqual(last.replicatedInstances, 16)
        XCTAssertTrue(last.offscreenReasons.allSatisfy { $0 == .mask })
        XCTAssertEqual(last.offscreenReasons.count % 2, 0)
        // The centre cover is flat and in front; the one right of it turned away from the viewer.
        XCTAssertEqual(run.demo.map { _ in run.root.sublayers?.first?.sublayers?.first?.sublayers?.first?.transform.m11 }, 1)
        XCTAssertEqual(run.renderer.validationMessages, [])
    }

    func testDockMagnifiesTheIconsNearThePointer() throws {
        let run = try Run(DockDemo.self)
        try run.render(20)
        let dock = try XCTUnwrap(run.root.sublayers?.first?.sublayers?.last)
        let widths = (dock.sublayers ?? []).map(\.bounds.width)
        // The pointer is over the dock: the icon under it is magnified (up to 1.8 × 56), the far ones not.
        XCTAssertGreaterThan(widths.max() ?? 0, 56 * 1.5)
        XCTAssertEqual(widths.min() ?? 0, 56, accuracy: 0.001)
        try run.render(12)
        XCTAssertTrue(dock.sublayers?.contains { $0.animation(forKey: "bounce") != nil } ?? false, "frame 30 clicked an icon")
        XCTAssertEqual(run.renderer.validationMessages, [])
    }

    func testAlbumCityIsSixThousandCoversInAHandfulOfDrawCalls() throws {
        let run = try Run(AlbumCityDemo.self)
        try run.render(3)
        let last = try XCTUnwrap(run.statistics.last)
        XCTAssertEqual(run.root.sublayers?.first?.sublayers?.first?.sublayers?.count, 6_000)
        XCTAssertLessThanOrEqual(last.drawCalls, 4, "one atlas: the issue's aim")
        XCTAssertEqual(last.offscreenPasses, 0)
        XCTAssertGreaterThan(last.layersVisible, 1_000)
        XCTAssertEqual(run.renderer.validationMessages, [])
    }

    func testVideoWallDrawsTheFrontOfItsCylinderFromOneAtlas() throws {
        let run = try Run(VideoWallDemo.self)
        try run.render(3)
        let last = try XCTUnwrap(run.statistics.last)
        XCTAssertLessThanOrEqual(last.drawCalls, 4)
        XCTAssertEqual(last.offscreenPasses, 0)
        // Tiles facing away are not drawn: of 1,000, at most the front half (and a few at the edge).
        XCTAssertGreaterThan(last.instances, 300)
        XCTAssertLessThan(last.instances, 560)
        XCTAssertEqual(run.renderer.validationMessages, [])
    }

    func testSlideToUnlockSpringsBackWhenLetGoEarlyAndUnlocksAtTheEnd() throws {
        let run = try Run(SlideToUnlockDemo.self)
        let track = try XCTUnwrap(run.root.sublayers?.first?.sublayers?.first)
        try run.render(26)
        XCTAssertEqual(track.opacity, 1, "let go halfway: still locked")
        let knob = try XCTUnwrap(track.sublayers?.last)
        XCTAssertEqual(knob.position.x, 36, "the knob springs back")
        try run.render(45)
        XCTAssertEqual(track.opacity, 0, "dragged to the end: unlocked")
        // The label is a gradient masked by text: a mask pass pair while it shows.
        XCTAssertTrue(run.statistics[10].offscreenReasons.contains(.mask))
        XCTAssertEqual(run.renderer.validationMessages, [])
    }

    func testParticlesDrawEachCellInOneBatchAndSpaceSwitchesTheFire() throws {
        let run = try Run(ParticlesDemo.self)
        try run.render(30)
        let last = try XCTUnwrap(run.statistics.last)
        XCTAssertGreaterThan(last.particlesDrawn, 0)
        XCTAssertLessThanOrEqual(last.drawCalls, 3, "the background, and one batch per cell texture")
        let fire = try XCTUnwrap(run.root.sublayers?.first?.sublayers?.first as? CAEmitterLayer)
        try run.render(11)
        XCTAssertEqual(fire.birthRate, 0, "frame 40 pressed space")
        XCTAssertNotNil(fire.animation(forKey: "birthRate"), "the fire dies down, animated")
        XCTAssertEqual(run.renderer.validationMessages, [])
    }

    func testOverdrawLabShowsItsOwnCounters() throws {
        let run = try Run(OverdrawLabDemo.self)
        try run.render(20)
        let last = try XCTUnwrap(run.statistics.last)
        XCTAssertTrue(last.offscreenReasons.contains(.backgroundFilter))
        XCTAssertTrue(last.offscreenReasons.contains(.mask))
        let counters = try XCTUnwrap(run.root.sublayers?.first?.sublayers?.last as? CATextLayer)
        let text = try XCTUnwrap(counters.string as? String)
        XCTAssertTrue(text.contains("draw calls "), text)
        XCTAssertTrue(text.contains("backgroundFilter"), text)
        XCTAssertEqual(run.renderer.validationMessages, [])
    }
}
