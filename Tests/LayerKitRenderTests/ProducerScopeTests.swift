import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKitRender

/// Commits are addressed to the hosts whose trees they touch (`CommitDistributor`). Two hosts
/// (`AnimationHarness` each: a root with one box, its inbox showing that root), one of them busy, the
/// other idle: the busy host's commits never reach the idle one, a layer that joins a tree arrives there
/// whole whenever it was committed, and a deallocated layer leaves the trees that held it.
final class ProducerScopeTests: XCTestCase {
    private var busy: AnimationHarness!
    private var idle: AnimationHarness!

    override func setUp() {
        super.setUp()
        busy = AnimationHarness()
        idle = AnimationHarness()
        _ = busy.frame(at: 1)
        _ = idle.frame(at: 1)
    }

    override func tearDown() {
        busy = nil
        idle = nil
        CATransaction.flush()
        super.tearDown()
    }

    /// Commits on the busy host; the idle host must have received nothing.
    private func commitOnBusyHost(_ change: () -> Void, file: StaticString = #filePath, line: UInt = #line) {
        change()
        busy.commit()
        XCTAssertTrue(idle.receiver.take().isEmpty, "another tree's commit reached the idle host", file: file, line: line)
    }

    func testAnotherTreesPropertyChangeAsksForNoFrame() {
        XCTAssertFalse(busy.producer.needsFrame)
        XCTAssertFalse(idle.producer.needsFrame)
        commitOnBusyHost { busy.box.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1) }
        XCTAssertTrue(busy.producer.needsFrame, "its own box changed")
        XCTAssertFalse(idle.producer.needsFrame, "not its layer")
    }

    func testAnotherTreesNewLayersAndAnimationsAskForNoFrame() {
        commitOnBusyHost {
            let added = CALayer()
            added.frame = CGRect(x: 50, y: 50, width: 10, height: 10)
            busy.root.addSublayer(added)
            let slide = CABasicAnimation(keyPath: "position.x")
            slide.fromValue = 0
            slide.toValue = 40
            slide.beginTime = 1000
            slide.duration = 10
            busy.box.add(slide, forKey: "slide")
        }
        XCTAssertFalse(idle.producer.needsFrame)
        _ = busy.frame(at: 1000.5)
        XCTAssertTrue(busy.producer.isAnimating)
        XCTAssertTrue(busy.producer.needsFrame)
        // Were the idle host to draw a frame now, the other tree's animation would not keep it going.
        _ = idle.frame(at: 1000.5)
        XCTAssertFalse(idle.producer.isAnimating)
        XCTAssertFalse(idle.producer.needsFrame)
    }

    func testOwnChangeIsStillPatchedAfterAnotherTreeGrew() {
        // Enough draws that moving one layer is patched rather than rebuilt (`patchRootsPerDrawLimit`), and
        // no debug option (frames are not retained under one).
        idle.producer.debugOptions = []
        for k in 0..<8 {
            let still = CALayer()
            still.frame = CGRect(x: 10 * k, y: 0, width: 5, height: 5)
            still.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
            idle.root.addSublayer(still)
        }
        idle.commit()
        XCTAssertTrue(busy.receiver.take().isEmpty, "the idle tree's commit is not the busy host's")
        _ = idle.frame(at: 1.5)
        commitOnBusyHost {
            for k in 0..<5 {
                let added = CALayer()
                added.frame = CGRect(x: 10 * k, y: 80, width: 5, height: 5)
                busy.root.addSublayer(added)
            }
        }
        idle.box.position = CGPoint(x: 20, y: 30)
        idle.commit()
        XCTAssertTrue(idle.producer.needsFrame)
        let frame = idle.frame(at: 2).graph
        XCTAssertEqual(frame.statistics.layersRecomputed, 1, "its box alone: the other tree's new layers are no structure change here")
        XCTAssertEqual(Double(frame.passes[0].items.first { $0.layer == idle.box.layerID }?.instance.localToClip.3.x ?? 0), 20.0 / 50 - 1,
                       accuracy: 1e-6, "the box at x = 20 in a 100-pixel target")
    }

    func testADeallocatedLayersNodeLeavesEveryTree() {
        var transient: CALayer? = CALayer()
        let id = transient!.layerID
        commitOnBusyHost {
            transient!.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
            busy.root.addSublayer(transient!)
        }
        XCTAssertNotNil(busy.producer.tree[id])
        XCTAssertNil(idle.producer.tree[id], "a commit reaches only the trees it touches")
        commitOnBusyHost { transient!.removeFromSuperlayer() }
        XCTAssertNotNil(busy.producer.tree[id], "removed but alive: it may be added again")
        commitOnBusyHost { transient = nil }
        XCTAssertNil(busy.producer.tree[id])
        XCTAssertNil(idle.producer.tree[id])
        XCTAssertFalse(idle.producer.needsFrame, "another tree's layer")
        // A layer never committed has nothing to release.
        _ = CALayer()
        XCTAssertEqual(CommitPacket.collect().released, [])
    }

    func testALayerCommittedUnattachedAsksForAFrameWhenItJoins() {
        let late = CALayer()
        late.frame = CGRect(x: 60, y: 60, width: 10, height: 10)
        late.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        idle.commit()
        XCTAssertFalse(idle.producer.needsFrame, "not part of its tree yet")
        idle.root.addSublayer(late)
        idle.commit()
        XCTAssertTrue(idle.producer.needsFrame)
        let items = idle.frame(at: 2).graph.passes.flatMap(\.items)
        XCTAssertTrue(items.contains { $0.layer == late.layerID }, "the joined layer is drawn")
        late.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        idle.commit()
        XCTAssertTrue(idle.producer.needsFrame, "now one of its layers")
    }

    func testALayerMovedBetweenTreesArrivesWholeWithWhatChangedBeforeTheMove() {
        let traveller = CALayer()
        traveller.frame = CGRect(x: 40, y: 40, width: 10, height: 10)
        let child = CALayer()
        child.frame = CGRect(x: 2, y: 2, width: 4, height: 4)
        child.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        traveller.addSublayer(child)
        commitOnBusyHost { busy.root.addSublayer(traveller) }
        commitOnBusyHost { traveller.cornerRadius = 3 }
        XCTAssertNil(idle.producer.tree[traveller.layerID])
        idle.root.addSublayer(traveller)
        idle.commit()
        busy.applyPending()
        XCTAssertEqual(idle.producer.tree[traveller.layerID]?.cornerRadius, 3, "its state before the move came with it")
        XCTAssertEqual(idle.producer.tree[child.layerID]?.bounds.size, CGSize(width: 4, height: 4), "with its subtree")
        let items = idle.frame(at: 2).graph.passes.flatMap(\.items)
        XCTAssertTrue(items.contains { $0.layer == child.layerID }, "the moved subtree is drawn by its new host")
        // The old host keeps a consistent node for a layer it showed (it may come back), and no longer draws it.
        traveller.opacity = 0.5
        idle.commit()
        busy.applyPending()
        XCTAssertEqual(busy.producer.tree[traveller.layerID]?.opacity, 0.5)
        XCTAssertFalse(busy.frame(at: 2).graph.passes.flatMap(\.items).contains { $0.layer == child.layerID })
    }

    func testASubtreeBuiltAndCommittedAloneArrivesWholeWhenAttachedMasksIncluded() {
        let panel = CALayer()
        panel.frame = CGRect(x: 0, y: 50, width: 40, height: 40)
        let label = CALayer()
        label.frame = CGRect(x: 5, y: 5, width: 20, height: 10)
        label.backgroundColor = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
        panel.addSublayer(label)
        CATransaction.flush()  // committed while no host shows it: it reaches no host
        XCTAssertTrue(idle.receiver.take().isEmpty)
        XCTAssertTrue(busy.receiver.take().isEmpty)
        let mask = CALayer()
        mask.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
        mask.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        label.mask = mask
        CATransaction.flush()
        XCTAssertTrue(idle.receiver.take().isEmpty)
        idle.root.addSublayer(panel)
        idle.commit()
        XCTAssertEqual(idle.producer.tree[label.layerID]?.bounds.size, CGSize(width: 20, height: 10))
        XCTAssertEqual(idle.producer.tree[label.layerID]?.mask, mask.layerID)
        XCTAssertEqual(idle.producer.tree[mask.layerID]?.bounds.size, CGSize(width: 10, height: 10))
        XCTAssertTrue(busy.receiver.take().isEmpty)
    }
}
