import Foundation
import XCTest
@testable import LayerKitRender

/// Plain leaves drawn from plans (`RenderGraphBuilder+PlainLeaves.swift`): frame after frame, through
/// commits and animations that keep or break what a plan stands for, the frame is exactly the one the
/// general `visit` draws (a second producer with plans off), plans are in use where they may be, and a
/// plain leaf's instance is the one worked out by hand. No GPU.
final class PlainLeafPlanTests: XCTestCase {
    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    /// One scene fed to two producers: `plans` draws plain leaves from plans, `general` walks every
    /// layer through `visit`.
    private final class Pair {
        private let pair: ProducerPair
        var plans: FrameProducer { pair.subject }

        init(width: Int, height: Int, build: (CALayer) -> Void) {
            pair = ProducerPair(width: width, height: height, vary: { _, general in general.builder.drawsPlainLeavesFromPlans = false },
                                build: build)
        }

        /// Commits `changes` (actions off) to both producers.
        func commit(_ changes: () -> Void) { pair.commit(changes) }

        /// Both producers' frames at `time`; fails where they differ.
        @discardableResult
        func frame(at time: Double, file: StaticString = #filePath, line: UInt = #line) -> RenderGraph {
            pair.frames(at: time, file: file, line: line).subject
        }

        /// The draws of `layer`'s plan in the producer that uses plans: nil when it has no plan, or a plan
        /// that says it is not a plain leaf.
        func plannedDraws(of layer: CALayer) -> [LeafDraw]? {
            plans.tree[layer.layerID]?.plainLeafPlan?.draws
        }
    }

    private static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    private static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    private static let halfGreen = CGColor(red: 0, green: 1, blue: 0, alpha: 0.5)

    private static func image(_ rgba: (UInt8, UInt8, UInt8, UInt8), side: Int = 8) -> CGImage {
        let bytes = (0..<(side * side)).flatMap { _ in [rgba.0, rgba.1, rgba.2, rgba.3] }
        return CGImage(width: side, height: side, bytesPerRow: side * 4, premultipliedRGBA: bytes, alphaInfo: .noneSkipLast)!
    }

    private static func repeating(_ keyPath: String, from: Any, to: Any, duration: Double) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: keyPath)
        animation.fromValue = from
        animation.toValue = to
        animation.duration = duration
        animation.repeatCount = .infinity
        animation.beginTime = 100
        return animation
    }

    func testFramesFromPlansAreTheFramesTheGeneralVisitDrawsThroughChangesAndAnimations() {
        var spinning = CALayer(), picture = CALayer(), framed = CALayer(), ninePart = CALayer(), faded = CALayer()
        var backFacing = CALayer(), bordered = CALayer(), container = CALayer()
        let pair = Pair(width: 200, height: 200) { root in
            // Background only, rotated, moving (an animation that only places it).
            spinning.frame = CGRect(x: 10, y: 10, width: 30, height: 20)
            spinning.backgroundColor = Self.red
            spinning.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
            spinning.add(Self.repeating("position.x", from: 20, to: 60, duration: 2), forKey: "move")
            root.addSublayer(spinning)
            // Contents cropped and fitted, inside a geometry-flipped container; its colour animates.
            container.frame = CGRect(x: 60, y: 0, width: 80, height: 80)
            container.backgroundColor = Self.halfGreen
            picture.frame = CGRect(x: 5, y: 5, width: 40, height: 30)
            picture.contents = Self.image((0, 0, 255, 255))
            picture.contentsRect = CGRect(x: 0.25, y: 0, width: 0.5, height: 1)
            picture.contentsGravity = .resizeAspect
            picture.add(Self.repeating("backgroundColor", from: Self.red, to: Self.blue, duration: 1), forKey: "tint")
            container.addSublayer(picture)
            root.addSublayer(container)
            // Background, contents and rounded corners; its opacity animates (a group below 1).
            framed.frame = CGRect(x: 10, y: 100, width: 50, height: 50)
            framed.backgroundColor = Self.halfGreen
            framed.contents = Self.image((255, 0, 0, 255))
            framed.cornerRadius = 6
            framed.add(Self.repeating("opacity", from: 1, to: 0.4, duration: 1), forKey: "fade")
            root.addSublayer(framed)
            // Nine-part contents.
            ninePart.frame = CGRect(x: 100, y: 100, width: 60, height: 40)
            ninePart.contents = Self.image((0, 255, 0, 255), side: 16)
            ninePart.contentsCenter = CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)
            root.addSublayer(ninePart)
            // Background only at half opacity: no group, drawn from its plan.
            faded.frame = CGRect(x: 150, y: 20, width: 30, height: 30)
            faded.backgroundColor = Self.blue
            faded.opacity = 0.5
            root.addSublayer(faded)
            // Single-sided and turned away: drawn by neither.
            backFacing.frame = CGRect(x: 150, y: 150, width: 20, height: 20)
            backFacing.backgroundColor = Self.red
            backFacing.isDoubleSided = false
            backFacing.transform = CATransform3DMakeScale(-1, 1, 1)
            root.addSublayer(backFacing)
            // A border: not a plain leaf.
            bordered.frame = CGRect(x: 120, y: 60, width: 30, height: 30)
            bordered.backgroundColor = Self.red
            bordered.borderWidth = 2
            root.addSublayer(bordered)
        }
        pair.frame(at: 100)
        XCTAssertEqual(pair.plannedDraws(of: spinning)?.count, 1, "background only")
        XCTAssertEqual(pair.plannedDraws(of: ninePart)?.count, 9, "nine pieces")
        XCTAssertEqual(pair.plannedDraws(of: faded)?.count, 1)
        XCTAssertEqual(pair.plannedDraws(of: framed)?.count, 2, "background and contents")
        XCTAssertNil(pair.plannedDraws(of: picture), "its colour animates: no plan stands for it")
        XCTAssertNotNil(pair.plans.tree[bordered.layerID]?.plainLeafPlan, "worked out once")
        XCTAssertNil(pair.plannedDraws(of: bordered), "a border: not a plain leaf")
        for step in 1...4 { pair.frame(at: 100 + Double(step) * 0.13) }

        pair.commit {
            spinning.backgroundColor = Self.blue
            container.isGeometryFlipped = true
            ninePart.contents = Self.image((255, 255, 0, 255), side: 32)
        }
        pair.frame(at: 101)
        XCTAssertEqual(pair.plannedDraws(of: spinning)?.first?.unitColor, SIMD4(0, 0, 1, 1), "worked out again after the commit")
        pair.commit {
            spinning.addSublayer(CALayer())
            framed.masksToBounds = true
            faded.opacity = 0
            bordered.borderWidth = 0
            picture.removeAllAnimations()
        }
        pair.frame(at: 101.5)
        XCTAssertNil(pair.plannedDraws(of: spinning), "a sublayer: no longer a leaf")
        XCTAssertNil(pair.plannedDraws(of: framed), "masks to bounds")
        XCTAssertEqual(pair.plannedDraws(of: bordered)?.count, 1, "its border gone: a plain leaf")
        XCTAssertEqual(pair.plannedDraws(of: picture)?.count, 1, "nothing animates it any more")
        pair.commit { container.isGeometryFlipped = false }
        pair.frame(at: 102)
    }

    func testAPlainLeafsInstanceIsItsBackgroundMappedToClipSpaceAtItsOpacity() throws {
        var leaf = CALayer()
        let pair = Pair(width: 200, height: 200) { root in
            leaf.bounds = CGRect(x: 0, y: 0, width: 10, height: 20)
            leaf.position = CGPoint(x: 50, y: 40)
            leaf.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 0.5)
            leaf.opacity = 0.5
            root.addSublayer(leaf)
        }
        let graph = pair.frame(at: 0)
        XCTAssertEqual(pair.plannedDraws(of: leaf)?.count, 1)
        let item = try XCTUnwrap(graph.framePass.items.first { $0.layer == leaf.layerID })
        // Premultiplied (0.5, 0, 0, 0.5), times the opacity 0.5.
        XCTAssertEqual(item.instance.color, SIMD4(0.25, 0, 0, 0.25))
        XCTAssertEqual(item.instance.quad, SIMD4(0, 0, 10, 20))
        // Its top-left corner at (45, 30) in pixels; clip = 2 · pixel / 200 − 1.
        let (c0, c1, c2, c3) = item.instance.localToClip
        XCTAssertEqual(c0, SIMD4(0.01, 0, 0, 0))
        XCTAssertEqual(c1, SIMD4(0, 0.01, 0, 0))
        XCTAssertEqual(c2, SIMD4(0, 0, 0, 0), "a layer is flat: its z never reaches clip space")
        XCTAssertEqual(c3.x, -0.55, accuracy: 1e-6)
        XCTAssertEqual(c3.y, -0.7, accuracy: 1e-6)
        XCTAssertEqual(c3.w, 1)
    }

    func testLeavesPlacedByValueDrawWhereTheirAnimationsPlaceThemInOrderOfTheirAnimatedZPosition() throws {
        // Leaves whose animations write only where they are (position, zPosition, transform, opacity) are
        // presented by their placement alone; the frames must be the general visit's, under a clip too
        // (drawn through `visit` after all), and siblings ordered by the animated zPosition.
        var mover = CALayer(), rising = CALayer(), clipped = CALayer(), fading = CALayer()
        let pair = Pair(width: 200, height: 200) { root in
            mover.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
            mover.backgroundColor = Self.red
            // position.x 20 -> 60 over 2 s (linear): at 100.5 s it is 30.
            mover.add(Self.repeating("position.x", from: 20, to: 60, duration: 2), forKey: "move")
            mover.add(Self.repeating("transform.rotation.z", from: 0, to: Double.pi, duration: 4), forKey: "turn")
            root.addSublayer(mover)
            // Below `mover` in the list; its zPosition rises from -1 to 1 over 2 s, passing `mover`'s 0 at 101 s.
            rising.frame = CGRect(x: 5, y: 5, width: 20, height: 20)
            rising.backgroundColor = Self.blue
            rising.add(Self.repeating("zPosition", from: -1, to: 1, duration: 2), forKey: "rise")
            root.insertSublayer(rising, at: 0)
            // Inside a container that masks to bounds: the clip sends it through `visit`.
            let container = CALayer()
            container.frame = CGRect(x: 100, y: 100, width: 40, height: 40)
            container.masksToBounds = true
            clipped.frame = CGRect(x: 10, y: 10, width: 40, height: 10)
            clipped.backgroundColor = Self.halfGreen
            clipped.add(Self.repeating("position.y", from: 0, to: 40, duration: 1), forKey: "drop")
            container.addSublayer(clipped)
            root.addSublayer(container)
            // Contents at an animated opacity below 1: a group, drawn through `visit`.
            fading.frame = CGRect(x: 150, y: 10, width: 20, height: 20)
            fading.contents = Self.image((255, 0, 0, 255))
            fading.backgroundColor = Self.blue
            fading.add(Self.repeating("opacity", from: 1, to: 0.5, duration: 1), forKey: "fade")
            root.addSublayer(fading)
        }
        for node in [mover, rising, clipped, fading] {
            XCTAssertEqual(pair.plans.tree[node.layerID]?.isPlacedByValue, true, "only placement animates")
        }
        let before = pair.frame(at: 100.5)
        XCTAssertEqual(pair.plans.builder.presentedPlacements.count, 0, "every placement pushed is popped")
        let moverItem = try XCTUnwrap(before.framePass.items.first { $0.layer == mover.layerID })
        // Centre at (30, 10), turned by π/8: the bounds' corner (0, 0) maps to 30 − 10·cos + 10·sin, 10 − 10·sin − 10·cos.
        let (c, s) = (cos(Double.pi / 8), sin(Double.pi / 8))
        XCTAssertEqual(Double(moverItem.instance.localToClip.3.x), (30 - 10 * c + 10 * s) / 100 - 1, accuracy: 1e-5)
        XCTAssertEqual(Double(moverItem.instance.localToClip.3.y), (10 - 10 * s - 10 * c) / 100 - 1, accuracy: 1e-5)
        // Painter's order as built (the compiled frame draws opaque layers front to back).
        func paintOrder(at time: Double) throws -> [LayerID?] {
            let graph = pair.plans.builder.build(tree: pair.plans.tree, root: try XCTUnwrap(pair.plans.root), time: time)
            return graph.framePass.items.map(\.layer).filter { $0 == mover.layerID || $0 == rising.layerID }
        }
        XCTAssertEqual(try paintOrder(at: 100.5), [rising.layerID, mover.layerID], "zPosition -0.5: under the mover")
        XCTAssertEqual(try paintOrder(at: 101.5), [mover.layerID, rising.layerID], "zPosition 0.5: over the mover")
        pair.frame(at: 101.5)
        for step in 1...6 { pair.frame(at: 101.5 + Double(step) * 0.17) }
    }
}
