import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKitRender

/// Retained, incremental frames (issue 5): a frame after a committed or animated change redraws only
/// the changed subtrees (`FrameStatistics.layersRecomputed`) and recompiles only the changed draws
/// (`quadsRecompiled`), and what it hands out is exactly what a full build and compile would.
///
/// The counting scene: a 1000 × 1000 root with 100 panels (10 × 10 grid of 100 × 100) of 99 leaves
/// each (11 × 9 grid of 8 × 8 at a 9-point pitch): 1 + 100 + 9,900 = 10,001 layers, every one with a
/// background, so a full frame visits 10,001 layers and draws 10,001 quads. Panels are translucent: an
/// opaque 100 × 100 panel occludes, and a change to an occluder recompiles every draw.
final class RetainedFrameTests: XCTestCase {
    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    /// A scene whose commits reach `FrameProducer`s: `retained` patches frames, `full` builds each in full.
    private final class Pair {
        private let pair: ProducerPair
        /// Frames the retained producer patched (redrew fewer layers than the full build).
        var patchedFrames = 0
        var retained: FrameProducer {
            get { pair.subject }
            set { pair.subject = newValue }
        }
        var full: FrameProducer {
            get { pair.reference }
            set { pair.reference = newValue }
        }

        init(width: Int, height: Int, depthTesting: Bool = false, stencilClipping: Bool = false, cachesGroups: Bool = true,
             resolvesGroupsByDepth: Bool = true, build: (CALayer) -> Void) {
            pair = ProducerPair(width: width, height: height, configure: { producer in
                producer.compiler.depthTesting = depthTesting
                producer.compiler.stencilClipping = stencilClipping
                producer.builder.cachesGroups = cachesGroups
                producer.resolvesGroupsByDepth = resolvesGroupsByDepth
            }, vary: { _, full in full.retainsFrames = false }, build: build)
        }

        /// Commits the implicit transaction (actions off) and applies it to both producers.
        func commit(_ changes: () -> Void = {}) { pair.commit(changes) }

        /// Both producers' frames at `time`; fails the test where they differ.
        @discardableResult
        func frame(at time: Double, file: StaticString = #filePath, line: UInt = #line) -> RenderGraph {
            let (patched, built) = pair.frames(at: time, file: file, line: line)
            // Cached bitmaps: the same surfaces drawn, reused and released, and the same books kept.
            XCTAssertEqual(patched.rasterization, built.rasterization, "frame at \(time)", file: file, line: line)
            let (retainedCache, fullCache) = (retained.builder.rasterizationCache, full.builder.rasterizationCache)
            XCTAssertEqual(retainedCache.frame, fullCache.frame, "frame at \(time)", file: file, line: line)
            XCTAssertEqual(retainedCache.entries, fullCache.entries, "frame at \(time)", file: file, line: line)
            if patched.statistics.layersRecomputed < built.statistics.layersRecomputed { patchedFrames += 1 }
            return patched
        }
    }

    private static let grey = CGColor(red: 0.2, green: 0.2, blue: 0.2, alpha: 1)

    /// The counting scene (see the type's doc); returns the panels.
    private static func panels(in root: CALayer) -> [CALayer] {
        (0..<100).map { p in
            let panel = CALayer()
            panel.frame = CGRect(x: CGFloat(p % 10) * 100, y: CGFloat(p / 10) * 100, width: 100, height: 100)
            panel.backgroundColor = CGColor(red: 0.2, green: 0.2, blue: 0.2, alpha: 0.5)
            for k in 0..<99 {
                let leaf = CALayer()
                leaf.frame = CGRect(x: 1 + CGFloat(k % 11) * 9, y: 1 + CGFloat(k / 11) * 9, width: 8, height: 8)
                leaf.backgroundColor = CGColor(red: CGFloat(k) / 98, green: 0.5, blue: CGFloat(p) / 99, alpha: 1)
                panel.addSublayer(leaf)
            }
            root.addSublayer(panel)
            return panel
        }
    }

    /// The counting scene, drawn at 999, then leaf 5 of panel 37 given a slide of x by 50 over
    /// [1000, 1010] (committed, not yet drawn).
    private func sceneWithASlidingLeaf() -> (pair: Pair, panels: [CALayer], leaf: CALayer) {
        var panels: [CALayer] = []
        let pair = Pair(width: 1000, height: 1000) { root in
            root.backgroundColor = Self.grey
            panels = Self.panels(in: root)
        }
        let leaf = panels[37].sublayers![5]
        pair.frame(at: 999)
        pair.commit {
            let slide = CABasicAnimation(keyPath: "position.x")
            slide.byValue = 50
            slide.beginTime = 1000
            slide.duration = 10
            leaf.add(slide, forKey: "slide")
        }
        return (pair, panels, leaf)
    }

    func testOneAnimatedLeafInTenThousandLayersRecomputesThatLeafOnly() {
        let (pair, _, leaf) = sceneWithASlidingLeaf()
        // The commit added an animation (not the structure), so only the leaf is redrawn, already.
        let first = pair.frame(at: 1001)
        XCTAssertEqual(first.statistics.layersRecomputed, 1)
        let second = pair.frame(at: 1002)
        XCTAssertEqual(second.statistics.layersRecomputed, 1)
        XCTAssertEqual(second.statistics.quadsRecompiled, 1, "only the leaf's background moved")
        // The leaf's background: panel 37 is at (700, 300), leaf 5 at (46, 1) in it; at 1002 it has
        // moved 50 · 0.2 = 10 points right. Column 3 of localToClip is the layer origin in clip space.
        let origin = second.passes[0].items.first { $0.layer == leaf.layerID }?.instance.localToClip.3
        XCTAssertEqual(Double((origin?.x ?? -9) + 1) * 500, 756, accuracy: 1e-3)
        XCTAssertEqual(Double((origin?.y ?? -9) + 1) * 500, 301, accuracy: 1e-3)
    }

    func testFullFrameRecomputesEveryLayer() {
        let pair = Pair(width: 1000, height: 1000) { root in
            root.backgroundColor = Self.grey
            _ = Self.panels(in: root)
        }
        let frame = pair.frame(at: 1)
        XCTAssertEqual(frame.statistics.layersRecomputed, 10_001)
        XCTAssertEqual(frame.statistics.quadsRecompiled, 10_001)
    }

    func testCommitToAPanelRecomputesThatPanelsSubtreeOnly() {
        var panels: [CALayer] = []
        let pair = Pair(width: 1000, height: 1000) { root in
            root.backgroundColor = Self.grey
            panels = Self.panels(in: root)
        }
        pair.frame(at: 1)
        pair.commit { panels[12].position.x += 3 }
        let moved = pair.frame(at: 2)
        XCTAssertEqual(moved.statistics.layersRecomputed, 100, "the panel and its 99 leaves")
        XCTAssertEqual(moved.statistics.quadsRecompiled, 100)
        pair.commit { panels[12].backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 0.5) }
        let recolored = pair.frame(at: 3)
        XCTAssertEqual(recolored.statistics.layersRecomputed, 100)
        XCTAssertEqual(recolored.statistics.quadsRecompiled, 1, "only the panel's own background changed")
        let idle = pair.frame(at: 4)
        XCTAssertEqual(idle.statistics.layersRecomputed, 0)
        XCTAssertEqual(idle.statistics.quadsRecompiled, 0)
        // An opaque 100 × 100 background occludes (10,000 pixels ≥ the culler's 64 × 64): what it hides
        // may change, so the lists are compiled in full, though only the panel's subtree is redrawn.
        pair.commit { panels[12].backgroundColor = Self.grey }
        let occluding = pair.frame(at: 5)
        XCTAssertEqual(occluding.statistics.layersRecomputed, 100)
        XCTAssertEqual(occluding.statistics.quadsRecompiled, 10_001)
    }

    func testChangingMostLayersBuildsInFull() {
        var panels: [CALayer] = []
        let pair = Pair(width: 1000, height: 1000) { root in
            root.backgroundColor = Self.grey
            panels = Self.panels(in: root)
        }
        pair.frame(at: 1)
        // 30 panels × 99 leaves = 2,970 changed layers > 10,001 / 4: cheaper as one full walk.
        pair.commit {
            for panel in panels.prefix(30) {
                for leaf in panel.sublayers ?? [] { leaf.position.y += 1 }
            }
        }
        XCTAssertEqual(pair.frame(at: 2).statistics.layersRecomputed, 10_001)
        // 20 panels' leaves, 1,980 changed layers (≤ 2,500): patched, one root each.
        pair.commit {
            for panel in panels.prefix(20) {
                for leaf in panel.sublayers ?? [] { leaf.position.y += 1 }
            }
        }
        XCTAssertEqual(pair.frame(at: 3).statistics.layersRecomputed, 1_980)
    }

    func testAFrameWithTooManyAnimatedLayersToPatchIsNotKept() {
        // 8 layers, all animating: 8 > 8 draws / 4, so the next frame cannot patch this one, and keeping
        // its draws would only make compiling them copy them. Frames still equal full builds.
        var leaves: [CALayer] = []
        let pair = Pair(width: 64, height: 64) { root in
            leaves = (0..<8).map { i in
                let leaf = CALayer()
                leaf.frame = CGRect(x: CGFloat(i) * 8, y: 0, width: 8, height: 8)
                leaf.backgroundColor = Self.grey
                root.addSublayer(leaf)
                return leaf
            }
        }
        pair.commit {
            for leaf in leaves {
                let move = CABasicAnimation(keyPath: "position.y")
                move.byValue = 10
                move.beginTime = 1
                move.duration = 1
                leaf.add(move, forKey: "move")
            }
        }
        XCTAssertNil(pair.frame(at: 1.25).revision, "not kept: no lineage of draw lists to patch")
        XCTAssertNil(pair.frame(at: 1.5).revision)
        XCTAssertEqual(pair.frame(at: 1.5).statistics.layersRecomputed, 9, "built in full")
        // Once they have ended (and the model has removed them), frames are kept again, and a commit to
        // one layer patches it alone.
        pair.frame(at: 3)
        pair.commit()
        XCTAssertNotNil(pair.frame(at: 3).revision)
        pair.commit { leaves[0].backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1) }
        XCTAssertEqual(pair.frame(at: 3).statistics.layersRecomputed, 1)
    }

    func testStructureChangeBuildsInFull() {
        var panels: [CALayer] = []
        let pair = Pair(width: 1000, height: 1000) { root in
            root.backgroundColor = Self.grey
            panels = Self.panels(in: root)
        }
        pair.frame(at: 1)
        pair.commit { panels[3].sublayers?.first?.removeFromSuperlayer() }
        let frame = pair.frame(at: 2)
        XCTAssertEqual(frame.statistics.layersRecomputed, 10_000)
        XCTAssertEqual(frame.passes[0].items.count, 9_999, "the root's grey background is the clear")
        XCTAssertEqual(frame.statistics.quadsDrawnAsClear, 1)
    }

    /// A released layer of the tree ends the retained frame, as a structure edit does, even where no
    /// packet edits its superlayer (a root can be released so): records refer to their parents unowned.
    /// Panel 37 released while its leaf animates: the next frame is built in full, without the panel's
    /// subtree — the root, 99 panels and their 99 leaves each.
    func testAReleasedLayerOfTheTreeBuildsInFull() {
        let (pair, panels, leaf) = sceneWithASlidingLeaf()
        XCTAssertEqual(pair.frame(at: 1001).statistics.layersRecomputed, 1)
        let release = CommitPacket(changes: [], released: [panels[37].layerID])
        pair.retained.apply(release)
        pair.full.apply(release)
        let frame = pair.frame(at: 1002)
        XCTAssertEqual(frame.statistics.layersRecomputed, 1 + 99 + 99 * 99)
        XCTAssertNil(frame.passes[0].items.first { $0.layer == leaf.layerID }, "the released panel's leaf is not drawn")
    }

    /// A small scene with the features a patch must reproduce: nested transforms, rotation, a rounded
    /// clip inside a rotated clip, flipped geometry with contents, borders, folded group opacity, hidden
    /// layers, zPosition order, and animations of position, rotation, opacity and color; frames from the
    /// retained producer must equal full builds after each of a series of commits.
    private func assertPatchedFramesEqualFullBuilds(depthTesting: Bool, file: StaticString = #filePath, line: UInt = #line) {
        var layers: [CALayer] = []
        let image = TinyScene.solidImage(side: 8, (0, 255, 0, 255))
        let pair = Pair(width: 200, height: 160, depthTesting: depthTesting) { root in
            root.backgroundColor = Self.grey
            for p in 0..<4 {
                let panel = CALayer()
                panel.frame = CGRect(x: 10 + CGFloat(p) * 45, y: 20, width: 40, height: 100)
                panel.backgroundColor = CGColor(red: 0.3, green: 0.1 * CGFloat(p), blue: 0.4, alpha: p == 2 ? 0.5 : 1)
                panel.masksToBounds = p % 2 == 0
                panel.cornerRadius = p == 0 ? 6 : 0
                panel.isGeometryFlipped = p == 3
                if p == 1 { panel.transform = CATransform3DMakeRotation(0.3, 0, 0, 1) }
                panel.borderWidth = p == 2 ? 2 : 0
                root.addSublayer(panel)
                layers.append(panel)
                for k in 0..<4 {
                    let leaf = CALayer()
                    leaf.frame = CGRect(x: 4 + CGFloat(k % 2) * 18, y: 4 + CGFloat(k / 2) * 30, width: 14, height: 20)
                    leaf.backgroundColor = CGColor(red: 1, green: CGFloat(k) / 3, blue: 0, alpha: k == 3 ? 0.6 : 1)
                    if k == 1 { leaf.contents = image }
                    if k == 2 { leaf.zPosition = 1 }
                    panel.addSublayer(leaf)
                    layers.append(leaf)
                }
            }
        }
        let start = 1000.0
        pair.commit {
            let spin = CABasicAnimation(keyPath: "transform.rotation.z")
            spin.fromValue = 0
            spin.toValue = 2 * Double.pi
            spin.beginTime = start
            spin.duration = 2
            spin.repeatCount = .infinity
            layers[2].add(spin, forKey: "spin")
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 1
            fade.toValue = 0.3
            fade.beginTime = start
            fade.duration = 1
            fade.autoreverses = true
            fade.repeatCount = .infinity
            layers[6].add(fade, forKey: "fade")
            let slide = CABasicAnimation(keyPath: "position.y")
            slide.byValue = 30
            slide.beginTime = start
            slide.duration = 1.5
            layers[16].add(slide, forKey: "slide")
            let tint = CABasicAnimation(keyPath: "backgroundColor")
            tint.toValue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            tint.beginTime = start
            tint.duration = 3
            layers[10].add(tint, forKey: "tint")
        }
        var time = start
        func frames(_ count: Int) {
            for _ in 0..<count {
                time += 0.1
                pair.frame(at: time, file: file, line: line)
            }
        }
        frames(5)
        pair.commit { layers[5].position.x += 4 }
        frames(3)
        pair.commit { layers[15].isHidden = true }
        frames(2)
        pair.commit { layers[15].isHidden = false; layers[0].backgroundColor = nil }
        frames(2)
        pair.commit { layers[12].zPosition = -1 }
        frames(2)
        pair.commit { layers[10].bounds.size.width = 36; layers[3].opacity = 0.4 }
        frames(20)  // the slide ends and is removed; the others run on
        pair.commit { layers[11].removeFromSuperlayer() }
        frames(3)
        // 37 frames; built in full: the first, the hide and the unhide (a subtree's draw count changed),
        // the zPosition change (sibling order) and the removal (structure).
        XCTAssertEqual(pair.patchedFrames, 32, file: file, line: line)
    }

    func testSubtreesInsideAStencilClipArePatchedAtTheirLevels() {
        // A clip rotated inside a rotated clip, neither containing the other: the outer one is drawn into
        // the stencil around the inner layer's contents and sublayers (level 1 inside the bracket).
        var inner: CALayer!
        var spinner: CALayer!
        var sibling: CALayer!
        let pair = Pair(width: 120, height: 120, depthTesting: true, stencilClipping: true) { root in
            // 20 still layers, so that one or two changed layers are few enough to patch.
            for k in 0..<20 {
                let still = CALayer()
                still.frame = CGRect(x: 5 * CGFloat(k), y: 110, width: 4, height: 4)
                still.backgroundColor = Self.grey
                root.addSublayer(still)
            }
            let outer = CALayer()
            outer.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
            outer.transform = CATransform3DMakeRotation(0.4, 0, 0, 1)
            outer.masksToBounds = true
            outer.backgroundColor = Self.grey
            root.addSublayer(outer)
            inner = CALayer()
            inner.frame = CGRect(x: 20, y: 20, width: 60, height: 40)
            inner.transform = CATransform3DMakeRotation(-0.7, 0, 0, 1)
            inner.masksToBounds = true
            inner.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)
            outer.addSublayer(inner)
            spinner = CALayer()
            spinner.frame = CGRect(x: 5, y: 5, width: 30, height: 10)
            spinner.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            inner.addSublayer(spinner)
            sibling = CALayer()
            sibling.frame = CGRect(x: 90, y: 90, width: 20, height: 20)
            sibling.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 0.5)
            root.addSublayer(sibling)
        }
        let first = pair.frame(at: 999)
        let spinnerDraw = first.passes[0].items.first { $0.layer == spinner.layerID }
        XCTAssertEqual(first.passes[0].items.filter { $0.stencilCommand != nil }.count, 2, "the scene clips by stencil: one push, one pop")
        XCTAssertEqual(spinnerDraw?.stencilLevel, 1, "the spinner is drawn inside the bracket")
        pair.commit {
            let spin = CABasicAnimation(keyPath: "transform.rotation.z")
            spin.fromValue = 0
            spin.toValue = 2 * Double.pi
            spin.beginTime = 1000
            spin.duration = 2
            spin.repeatCount = .infinity
            spinner.add(spin, forKey: "spin")
        }
        for step in 1...4 {
            let frame = pair.frame(at: 1000 + 0.1 * Double(step))
            XCTAssertEqual(frame.statistics.layersRecomputed, 1, "only the spinner, raised to its bracket's level")
            XCTAssertEqual(frame.statistics.quadsRecompiled, 1)
        }
        // The bracketing layer itself: its background, push, the spinner and its pop are redrawn.
        pair.commit { spinner.removeAllAnimations(); inner.position.x -= 2 }
        let moved = pair.frame(at: 1001)
        XCTAssertEqual(moved.statistics.layersRecomputed, 2, "the inner layer and the spinner (each a changed layer)")
        XCTAssertEqual(moved.passes[0].items.filter { $0.stencilCommand != nil }.count, 2, "still clipped by stencil")
        XCTAssertEqual(moved.statistics.quadsRecompiled, 2, "its background and the spinner; the push and pop draw the outer clip, which stayed")
        // Straightening the inner clip puts it inside the outer one: no bracket any more, a full build.
        pair.commit { inner.transform = CATransform3DMakeRotation(0, 0, 0, 1); inner.bounds.size = CGSize(width: 20, height: 20) }
        let straight = pair.frame(at: 1002)
        XCTAssertFalse(straight.passes[0].items.contains { $0.stencilCommand != nil })
        XCTAssertEqual(straight.statistics.layersRecomputed, 25, "root, 20 still layers, outer, inner, spinner, sibling")
        pair.commit { sibling.position.x -= 2 }
        XCTAssertEqual(pair.frame(at: 1003).statistics.layersRecomputed, 1)
    }

    func testGradientsArePatchedWhileTheirStopCountsStay() {
        // 20 still layers and two gradients; the backend keeps each gradient's stops where they were, so a
        // patched draw must keep its stop-word count.
        var gradient: CAGradientLayer!
        let pair = Pair(width: 100, height: 40) { root in
            for k in 0..<20 {
                let still = CALayer()
                still.frame = CGRect(x: 5 * CGFloat(k), y: 36, width: 4, height: 4)
                still.backgroundColor = Self.grey
                root.addSublayer(still)
            }
            for k in 0..<2 {
                let layer = CAGradientLayer()
                layer.frame = CGRect(x: 10 + 40 * CGFloat(k), y: 4, width: 30, height: 30)
                layer.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
                root.addSublayer(layer)
                gradient = layer
            }
        }
        pair.frame(at: 1)
        pair.commit { gradient.position.x -= 3 }
        let moved = pair.frame(at: 2)
        XCTAssertEqual(moved.statistics.layersRecomputed, 1)
        XCTAssertEqual(moved.statistics.quadsRecompiled, 1)
        XCTAssertEqual(moved.revision?.recentChanges.last, [DrawListRevision.ChangedDraw(pass: 0, item: 21)], "the last draw")
        pair.commit { gradient.colors = [CGColor(red: 0, green: 1, blue: 0, alpha: 1), CGColor(red: 1, green: 1, blue: 0, alpha: 1)] }
        let recolored = pair.frame(at: 3)
        XCTAssertEqual(recolored.statistics.quadsRecompiled, 1, "two colors as before: two color words and one location word")
        XCTAssertEqual(recolored.revision?.revision, 2)
        // A third color: a third color word, so every later stop would move — the lists are compiled anew.
        pair.commit { gradient.colors = (gradient.colors ?? []) + [CGColor(red: 1, green: 1, blue: 1, alpha: 1)] }
        let longer = pair.frame(at: 4)
        XCTAssertEqual(longer.statistics.layersRecomputed, 1, "still redrawn alone")
        XCTAssertEqual(longer.statistics.quadsRecompiled, 22, "compiled in full")
        XCTAssertEqual(longer.revision?.revision, 0, "a new lineage")
        XCTAssertEqual(pair.patchedFrames, 3)
    }

    /// Groups and masks (uncached surfaces): the offscreen scene. 20 still 4 × 4 layers along the
    /// bottom; two groups at (10, 10) and (100, 10), 64 × 64 at opacity 0.5, each with three opaque 40 × 40
    /// children at (0, 0), (12, 12), (24, 24) (they overlap: a surface each, 64 × 64, packed together
    /// onto one page); a layer at (170, 20), 24 × 24, with one 24 × 24 child and a 16 × 16 mask (a mask
    /// pass and a masked-content pass, 16 × 16, each its own).
    private struct OffscreenScene {
        var groups: [CALayer] = []
        var masked: CALayer!
        var maskedChild: CALayer!
        var still: CALayer!

        func build(_ root: CALayer) -> OffscreenScene {
            var scene = self
            for k in 0..<20 {
                let still = CALayer()
                still.frame = CGRect(x: 5 * CGFloat(k), y: 92, width: 4, height: 4)
                still.backgroundColor = RetainedFrameTests.grey
                root.addSublayer(still)
                scene.still = still
            }
            for g in 0..<2 {
                let group = CALayer()
                group.frame = CGRect(x: 10 + 90 * CGFloat(g), y: 10, width: 64, height: 64)
                group.opacity = 0.5
                for (k, color) in [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)].enumerated() {
                    let child = CALayer()
                    child.frame = CGRect(x: 12 * CGFloat(k), y: 12 * CGFloat(k), width: 40, height: 40)
                    child.backgroundColor = CGColor(red: color.0, green: color.1, blue: color.2, alpha: 1)
                    group.addSublayer(child)
                }
                root.addSublayer(group)
                scene.groups.append(group)
            }
            let masked = CALayer()
            masked.frame = CGRect(x: 170, y: 20, width: 24, height: 24)
            let child = CALayer()
            child.frame = masked.bounds
            child.backgroundColor = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
            masked.addSublayer(child)
            let mask = CALayer()
            mask.frame = CGRect(x: 4, y: 4, width: 16, height: 16)
            mask.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            masked.mask = mask
            root.addSublayer(masked)
            scene.masked = masked
            scene.maskedChild = child
            return scene
        }
    }

    func testChangesInsideSurfacesRedrawTheirSubtreeIntoTheSurfacesPassOnly() {
        var scene = OffscreenScene()
        // Groups through surfaces: how a change inside one redraws its pass is what this test checks.
        let pair = Pair(width: 200, height: 100, depthTesting: true, cachesGroups: false, resolvesGroupsByDepth: false) { root in
            scene = scene.build(root)
        }
        let first = pair.frame(at: 1)
        // Passes: the page with both groups, the mask, the masked content, the frame.
        XCTAssertEqual(first.passes.map(\.reason), [.groupOpacity, .mask, .mask, nil])
        XCTAssertEqual(first.passes[0].items.count, 6)
        let group = scene.groups[0], green = group.sublayers![1]

        // A child's color: the group's subtree, its three draws in the page; the frame pass untouched.
        pair.commit { green.backgroundColor = CGColor(red: 0, green: 0.5, blue: 0, alpha: 1) }
        let recolored = pair.frame(at: 2)
        XCTAssertEqual(recolored.statistics.layersRecomputed, 4, "the group and its three children")
        XCTAssertEqual(recolored.statistics.quadsRecompiled, 6, "the page's pass, compiled again")
        XCTAssertEqual(recolored.revision?.recentChanges.last?.map(\.pass), Array(repeating: 0, count: 6), "the page's draws alone")
        // A child moving inside the group's footprint: the surface keeps its size.
        pair.commit { green.position.x += 2 }
        XCTAssertEqual(pair.frame(at: 3).statistics.layersRecomputed, 4)
        // The group moving a pixel: its footprint, 64 pixels wide where its edges fall on pixel edges
        // exactly, is 65 wide elsewhere (the footprint rounds outwards): a surface of another size, a
        // full build.
        pair.commit { group.position.x += 1 }
        let grown = pair.frame(at: 4)
        XCTAssertEqual(grown.passes[0].target.width, first.passes[0].target.width + 1)
        XCTAssertEqual(grown.statistics.layersRecomputed, 31, "built in full")
        // Another pixel: the same size now. The composite moves, and the group's draws are re-expressed
        // in its surface from where it is now (the same but for rounding): the page's pass is compiled
        // again, the mask's passes are not.
        pair.commit { group.position.x += 1 }
        let moved = pair.frame(at: 5)
        XCTAssertEqual(moved.statistics.layersRecomputed, 4)
        XCTAssertEqual(moved.statistics.quadsRecompiled, 7, "the composite and the page's six draws")
        XCTAssertEqual(moved.revision?.recentChanges.last?.first, DrawListRevision.ChangedDraw(pass: 3, item: 20), "the composite")
        XCTAssertEqual(Set(moved.revision?.recentChanges.last?.map(\.pass) ?? []), [0, 3])
        // The group's opacity: the composite's color.
        pair.commit { group.opacity = 0.6 }
        XCTAssertEqual(pair.frame(at: 6).statistics.quadsRecompiled, 1)
        // The masked layer's content: its content pass compiled again, the mask pass and the page left alone.
        pair.commit { scene.maskedChild.backgroundColor = CGColor(red: 0, green: 1, blue: 1, alpha: 1) }
        let masked = pair.frame(at: 7)
        XCTAssertEqual(masked.statistics.layersRecomputed, 2, "the masked layer and its child")
        XCTAssertEqual(masked.revision?.recentChanges.last?.map(\.pass), [2, 2], "the content and the mask's destination-in draw")
        // A layer outside every surface.
        pair.commit { scene.still.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1) }
        XCTAssertEqual(pair.frame(at: 8).statistics.layersRecomputed, 1)

        // Back where the footprint is 64 pixels wide: another size again.
        pair.commit { group.position.x -= 2 }
        XCTAssertEqual(pair.frame(at: 9).statistics.layersRecomputed, 31, "built in full")
        // Opacity 1: the other group needs no surface any more.
        pair.commit { scene.groups[1].opacity = 1 }
        XCTAssertEqual(pair.frame(at: 10).statistics.layersRecomputed, 31, "built in full")
        // The children no longer overlapping: the group folds instead of drawing a surface.
        pair.commit { group.sublayers![2].position.x += 200 }
        XCTAssertEqual(pair.frame(at: 11).statistics.layersRecomputed, 31, "built in full")
        XCTAssertEqual(pair.patchedFrames, 6)
    }

    func testChangesOutsideCachedBitmapsCompositeThemWithoutRedrawingAndKeepTheCachesBooks() {
        // 20 still layers and a mover; a rasterized layer with two children; a group of three
        // overlapping children at opacity 0.5, cached once settled (at first sight).
        var mover: CALayer!
        var rasterized: CALayer!
        var group: CALayer!
        // Groups through cached bitmaps, not resolved by depth: the cache's books are what this test checks.
        let pair = Pair(width: 200, height: 100, depthTesting: true, resolvesGroupsByDepth: false) { root in
            for k in 0..<20 {
                let still = CALayer()
                still.frame = CGRect(x: 5 * CGFloat(k), y: 92, width: 4, height: 4)
                still.backgroundColor = Self.grey
                root.addSublayer(still)
            }
            rasterized = CALayer()
            rasterized.frame = CGRect(x: 10, y: 10, width: 30, height: 30)
            rasterized.shouldRasterize = true
            for k in 0..<2 {
                let child = CALayer()
                child.frame = CGRect(x: 10 * CGFloat(k), y: 0, width: 20, height: 30)
                child.backgroundColor = CGColor(red: CGFloat(k), green: 0, blue: 1, alpha: 1)
                rasterized.addSublayer(child)
            }
            root.addSublayer(rasterized)
            group = CALayer()
            group.frame = CGRect(x: 100, y: 10, width: 64, height: 64)
            group.opacity = 0.5
            for k in 0..<3 {
                let child = CALayer()
                child.frame = CGRect(x: 12 * CGFloat(k), y: 12 * CGFloat(k), width: 40, height: 40)
                child.backgroundColor = CGColor(red: 0, green: CGFloat(k) / 2, blue: 0, alpha: 1)
                group.addSublayer(child)
            }
            root.addSublayer(group)
            mover = CALayer()
            mover.frame = CGRect(x: 60, y: 60, width: 10, height: 10)
            mover.backgroundColor = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
            root.addSublayer(mover)
        }
        // Both bitmaps drawn (misses: not retained), then composited from the cache (retained).
        XCTAssertEqual(pair.frame(at: 1).rasterization.misses, 2)
        XCTAssertEqual(pair.frame(at: 2).rasterization.hits, 2)
        XCTAssertEqual(pair.patchedFrames, 0)
        // The mover alone changes for 40 frames: patched, the bitmaps composited, never redrawn, and still
        // held past the cache's 30 idle frames (each patch uses them again).
        for step in 1...40 {
            pair.commit { mover.position.x += 1 }
            let frame = pair.frame(at: 2 + Double(step))
            XCTAssertEqual(frame.statistics.layersRecomputed, 1, "step \(step)")
            XCTAssertEqual(frame.statistics.quadsRecompiled, 1, "step \(step)")
            XCTAssertEqual(frame.offscreenPasses.count, 0, "step \(step): nothing drawn offscreen")
        }
        XCTAssertEqual(pair.patchedFrames, 40)
        XCTAssertEqual(pair.retained.builder.rasterizationCache.entries.count, 2)

        // Hidden, the rasterized layer's bitmap goes unused: built in full (a changed subtree holding a
        // cached bitmap is no patch root); 30 frames on, the cache releases it — in that frame's graph,
        // built in full — and patching goes on.
        pair.commit { rasterized.isHidden = true }
        XCTAssertEqual(pair.frame(at: 50).statistics.layersRecomputed, 27, "root, 20 still layers, the hidden layer, the group and its 3 children, the mover")
        var released: [Double] = []
        for step in 1...32 {
            pair.commit { mover.position.y -= 1 }
            let time = 50 + Double(step)
            let frame = pair.frame(at: time)
            if !frame.rasterization.released.isEmpty {
                released.append(time)
                XCTAssertGreaterThan(frame.statistics.layersRecomputed, 1, "the releasing frame is built")
            }
        }
        XCTAssertEqual(released.count, 1, "released once")
        XCTAssertEqual(pair.retained.builder.rasterizationCache.entries.count, 1)
        XCTAssertEqual(pair.patchedFrames, 40 + 31)

        // A change inside the cached group: built in full while it settles and is cached again.
        pair.commit { group.sublayers![1].backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1) }
        // Frames 91 and 92 draw it through a surface (not settled), 93 into the cache (a miss), 94
        // composites it (retained), 95 has nothing to redraw (patched).
        for step in 1...5 { pair.frame(at: 90 + Double(step)) }
        XCTAssertEqual(pair.patchedFrames, 40 + 31 + 1)
        pair.commit { mover.position.y += 1 }
        XCTAssertEqual(pair.frame(at: 96).statistics.layersRecomputed, 1)
    }

    func testFramesWithA3DRenderingContextAreBuiltInFull() {
        // A transform layer's planes are sorted and split as one context, not drawn layer by layer.
        var plane: CALayer!
        let pair = Pair(width: 100, height: 100, depthTesting: true) { root in
            // 20 still layers, so one changed layer is few enough to patch were it patchable.
            for k in 0..<20 {
                let still = CALayer()
                still.frame = CGRect(x: 5 * CGFloat(k), y: 0, width: 4, height: 4)
                still.backgroundColor = Self.grey
                root.addSublayer(still)
            }
            let context = CATransformLayer()
            context.frame = CGRect(x: 10, y: 10, width: 80, height: 80)
            root.addSublayer(context)
            for k in 0..<2 {
                let layer = CALayer()
                layer.frame = CGRect(x: 10 + 20 * CGFloat(k), y: 10, width: 40, height: 40)
                layer.backgroundColor = CGColor(red: CGFloat(k), green: 0.5, blue: 0, alpha: 1)
                layer.transform = CATransform3DMakeRotation(0.5, 0, 1, 0)
                context.addSublayer(layer)
                plane = layer
            }
        }
        pair.frame(at: 999)
        pair.commit {
            let spin = CABasicAnimation(keyPath: "transform.rotation.y")
            spin.fromValue = 0
            spin.toValue = 3
            spin.beginTime = 1000
            spin.duration = 2
            plane.add(spin, forKey: "spin")
        }
        // Each frame equals a full build, and none redrew less than one (a patch would redraw nothing
        // here: the spinning plane is drawn by the context, not as a layer of its own).
        for step in 1...3 { pair.frame(at: 1000 + 0.3 * Double(step)) }
        XCTAssertEqual(pair.patchedFrames, 0)
    }

    func testPatchedFramesEqualFullBuilds() {
        assertPatchedFramesEqualFullBuilds(depthTesting: false)
    }

    func testPatchedFramesEqualFullBuildsWithDepthTesting() {
        assertPatchedFramesEqualFullBuilds(depthTesting: true)
    }
}
