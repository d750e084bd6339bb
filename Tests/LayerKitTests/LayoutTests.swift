import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKit

/// The layout pass: the needs-layout flag, what sets it, the order layers lay out in, who lays out
/// (delegate before layout manager), `layoutIfNeeded()` from the topmost ancestor, and layout at the
/// commit before the packet is built.
///
/// Every test flushes first so layers marked by earlier tests are laid out before it starts.
final class LayoutTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    override func tearDown() {
        CATransaction.flush()
        super.tearDown()
    }

    // MARK: - The flag

    func testAFreshLayerDoesNotNeedLayout() {
        XCTAssertFalse(CALayer().needsLayout())
    }

    func testSetNeedsLayoutSetsTheFlagAndLayoutIfNeededClearsIt() {
        let layer = CALayer()
        layer.setNeedsLayout()
        XCTAssertTrue(layer.needsLayout())
        layer.layoutIfNeeded()
        XCTAssertFalse(layer.needsLayout())
    }

    func testCallingLayoutSublayersDirectlyLeavesTheFlag() {
        let layer = CALayer()
        layer.setNeedsLayout()
        layer.layoutSublayers()
        XCTAssertTrue(layer.needsLayout(), "only a layout pass clears the flag, as in Core Animation")
    }

    func testABoundsSizeChangeMarksTheLayerButAPositionOrOriginChangeDoesNot() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        XCTAssertTrue(layer.needsLayout(), "size 0×0 → 10×10")
        layer.layoutIfNeeded()
        layer.position = CGPoint(x: 50, y: 50)
        layer.bounds = CGRect(x: 5, y: 5, width: 10, height: 10)
        XCTAssertFalse(layer.needsLayout(), "same size, other origin and position")
        layer.frame = CGRect(x: 0, y: 0, width: 20, height: 10)
        XCTAssertTrue(layer.needsLayout(), "a frame of another size sets the bounds size")
    }

    func testThePresentationCopyNeverNeedsLayout() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        CATransaction.flush()
        let copy = layer.presentation()!
        copy.setNeedsLayout()
        XCTAssertFalse(copy.needsLayout())
    }

    func testSettingALayoutManagerMarksTheLayerAndConstraintsMarkTheSuperlayer() {
        let parent = CALayer()
        let child = CALayer()
        parent.addSublayer(child)
        parent.layoutIfNeeded()
        parent.layoutManager = CountingLayoutManager()
        XCTAssertTrue(parent.needsLayout())
        parent.layoutIfNeeded()
        child.addConstraint(CAConstraint(attribute: .width, relativeTo: "superlayer", attribute: .width))
        XCTAssertTrue(parent.needsLayout())
        XCTAssertFalse(child.needsLayout())
    }

    func testTheNeedsLayoutBitIsNotAPropertyChangeAndSurvivesTheChangeLog() {
        let layer = CALayer()
        layer.setNeedsLayout()
        XCTAssertEqual(layer.pendingChanges.changes, [], "the flag alone records no property change")
        layer.opacity = 0.5
        let changes = LayerChangeLog.current.drain().first { $0.layer === layer }
        XCTAssertEqual(changes?.properties.keys, [.opacity], "a marked layer still logs its first change")
        XCTAssertTrue(layer.needsLayout(), "draining the change log leaves the flag")
        XCTAssertTrue(layer.hasBeenCommitted)
        layer.layoutIfNeeded()
        XCTAssertFalse(layer.needsLayout())
    }

    func testTheLayoutManagerIsToldOnlyWhenAValidLayoutBecomesInvalid() {
        let layer = CALayer()
        let manager = CountingLayoutManager()
        layer.layoutManager = manager // marks: valid → invalid
        layer.setNeedsLayout()
        layer.bounds = CGRect(x: 0, y: 0, width: 5, height: 5)
        XCTAssertEqual(manager.invalidations, 1)
        layer.layoutIfNeeded()
        layer.setNeedsLayout()
        XCTAssertEqual(manager.invalidations, 2)
        XCTAssertEqual(manager.layouts, 1)
    }

    // MARK: - Order

    func testAParentLaysOutBeforeItsChildWhateverOrderTheyWereMarkedIn() {
        var log: [String] = []
        let root = RecordingLayer(name: "root") { log.append($0) }
        let child = RecordingLayer(name: "child") { log.append($0) }
        let grandchild = RecordingLayer(name: "grandchild") { log.append($0) }
        root.addSublayer(child)
        child.addSublayer(grandchild)
        grandchild.setNeedsLayout()
        child.setNeedsLayout()
        root.setNeedsLayout()
        CATransaction.flush()
        XCTAssertEqual(log, ["root", "child", "grandchild"])
    }

    func testAChildResizedByItsParentsLayoutIsLaidOutInTheSamePass() {
        var log: [String] = []
        let child = RecordingLayer(name: "child") { log.append($0) }
        let root = RecordingLayer(name: "root") { name in
            log.append(name)
            child.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        }
        root.addSublayer(child)
        root.setNeedsLayout()
        CATransaction.flush()
        XCTAssertEqual(log, ["root", "child"])
        XCTAssertFalse(child.needsLayout())
    }

    func testLayoutIfNeededOnAChildLaysOutFromTheTopmostAncestorThatNeedsIt() {
        var log: [String] = []
        let root = RecordingLayer(name: "root") { log.append($0) }
        let middle = RecordingLayer(name: "middle") { log.append($0) }
        let leaf = RecordingLayer(name: "leaf") { log.append($0) }
        let cousin = RecordingLayer(name: "cousin") { log.append($0) }
        let outside = RecordingLayer(name: "outside") { log.append($0) }
        root.addSublayer(middle)
        middle.addSublayer(leaf)
        root.addSublayer(cousin)
        root.layoutIfNeeded() // settle the marks the sublayer edits made
        log.removeAll()
        leaf.setNeedsLayout()
        cousin.setNeedsLayout()
        outside.setNeedsLayout()
        root.setNeedsLayout() // middle does not need layout: the walk goes past it to root
        leaf.layoutIfNeeded()
        XCTAssertEqual(log, ["root", "cousin", "leaf"], "root first, then every marked layer beneath it, shallowest first")
        XCTAssertTrue(outside.needsLayout(), "a layer outside that subtree waits for the commit")
        CATransaction.flush()
        XCTAssertEqual(log.last, "outside")
    }

    func testLayoutIfNeededWithNoMarkedAncestorLaysOutOnlyTheSubtree() {
        var log: [String] = []
        let root = RecordingLayer(name: "root") { log.append($0) }
        let child = RecordingLayer(name: "child") { log.append($0) }
        let sibling = RecordingLayer(name: "sibling") { log.append($0) }
        root.addSublayer(child)
        root.addSublayer(sibling)
        root.layoutIfNeeded() // settle the marks the sublayer edits made
        log.removeAll()
        sibling.setNeedsLayout()
        child.layoutIfNeeded()
        XCTAssertEqual(log, [], "nothing in child's subtree is marked")
        XCTAssertTrue(sibling.needsLayout())
    }

    func testLayoutIfNeededInsideLayoutSublayersLaysTheChildOutAtOnce() {
        var log: [String] = []
        let child = RecordingLayer(name: "child") { log.append($0) }
        let root = RecordingLayer(name: "root") { name in
            log.append("\(name) begins")
            child.layoutIfNeeded()
            log.append("\(name) ends")
        }
        root.addSublayer(child)
        child.setNeedsLayout()
        root.setNeedsLayout()
        CATransaction.flush()
        XCTAssertEqual(log, ["root begins", "child", "root ends"])
    }

    func testALayoutThatAlwaysInvalidatesItselfStopsWithADiagnostic() {
        let capture = DiagnosticCapture()
        var runs = 0
        let layer = RecordingLayer(name: "restless") { _ in runs += 1 }
        layer.onLayout = { [unowned layer] _ in
            runs += 1
            layer.setNeedsLayout()
        }
        layer.setNeedsLayout()
        CATransaction.flush()
        XCTAssertEqual(runs, LayoutQueue.maximumRounds)
        XCTAssertEqual(capture.diagnostics.filter { $0.name == "layoutDidNotSettle" },
                       [.layoutDidNotSettle(layers: ["'restless'"], rounds: LayoutQueue.maximumRounds)])
        XCTAssertTrue(layer.needsLayout(), "it waits for the next pass")
        layer.onLayout = { _ in }
        CATransaction.flush()
        XCTAssertFalse(layer.needsLayout())
    }

    // MARK: - Who lays out

    func testTheLayoutManagerLaysOutWhenThereIsNoDelegate() {
        let layer = CALayer()
        let manager = CountingLayoutManager()
        layer.layoutManager = manager
        layer.layoutIfNeeded()
        XCTAssertEqual(manager.layouts, 1)
    }

    func testADelegateThatLaysOutTakesPrecedenceOverTheLayoutManager() {
        let layer = CALayer()
        let manager = CountingLayoutManager()
        let delegate = LayingOutDelegate()
        layer.layoutManager = manager
        layer.delegate = delegate
        layer.layoutIfNeeded()
        XCTAssertEqual(delegate.layouts, 1)
        XCTAssertEqual(manager.layouts, 0)
    }

    func testADelegateThatDoesNotLayOutLeavesItToTheLayoutManager() {
        let layer = CALayer()
        let manager = CountingLayoutManager()
        let delegate = ActionOnlyDelegate()
        layer.layoutManager = manager
        layer.delegate = delegate
        layer.layoutIfNeeded()
        XCTAssertEqual(manager.layouts, 1)
    }

    func testAnOverridingSubclassReplacesTheDefaultLayout() {
        let manager = CountingLayoutManager()
        var log: [String] = []
        let layer = RecordingLayer(name: "subclass") { log.append($0) }
        layer.layoutManager = manager
        layer.layoutIfNeeded()
        XCTAssertEqual(log, ["subclass"])
        XCTAssertEqual(manager.layouts, 0, "the override does not call super")
    }

    // MARK: - The commit

    func testLayoutRunsAtFlushBeforeThePacketIsBuilt() {
        let receiver = PacketCounter()
        CommitDistributor.shared.observe(receiver)
        let root = CALayer()
        root.layoutManager = CAConstraintLayoutManager()
        let child = CALayer()
        child.constraints = [
            CAConstraint(attribute: .midX, relativeTo: "superlayer", attribute: .midX),
            CAConstraint(attribute: .width, relativeTo: "superlayer", attribute: .width, scale: 0.5, offset: 0),
            CAConstraint(attribute: .minY, relativeTo: "superlayer", attribute: .minY, offset: 10),
            CAConstraint(attribute: .height, relativeTo: "superlayer", attribute: .height, offset: -20),
        ]
        root.addSublayer(child)
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        XCTAssertEqual(child.frame, .zero, "nothing is laid out before the commit")
        CATransaction.flush()
        // width 0.5 × 200 = 100 centered on 100 → x 50; y 10, height 100 - 20 = 80.
        XCTAssertEqual(child.frame, CGRect(x: 50, y: 10, width: 100, height: 80))
        let change = receiver.packets.last?.changes.first { $0.layer == child.layerID }
        var sent: [LayerPropertyKey: LayerPropertyValue] = [:]
        for (key, value) in change?.values ?? [] { sent[key] = value }
        guard case .rect(let bounds)? = sent[.bounds], case .point(let position)? = sent[.position] else {
            return XCTFail("the packet carries the child's bounds and position: \(sent.keys)")
        }
        XCTAssertEqual(bounds.size, CGSize(width: 100, height: 80))
        XCTAssertEqual(position, CGPoint(x: 100, y: 50), "frame center, anchor point (0.5, 0.5)")
        XCTAssertFalse(root.needsLayout())
        XCTAssertFalse(child.needsLayout())
    }

    func testACommitWithNothingMarkedLaysNothingOut() {
        let manager = CountingLayoutManager()
        let layer = CALayer()
        layer.layoutManager = manager
        CATransaction.flush()
        XCTAssertEqual(manager.layouts, 1)
        layer.opacity = 0.5
        CATransaction.flush()
        XCTAssertEqual(manager.layouts, 1, "a change that is not a size change lays nothing out")
        XCTAssertEqual(LayoutQueue.current.pendingLayerCount, 0)
    }

    // MARK: - Preferred size

    func testPreferredFrameSizeAsksTheLayoutManager() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 20)
        XCTAssertEqual(layer.preferredFrameSize(), CGSize(width: 10, height: 20))
        let manager = CountingLayoutManager()
        manager.preferred = CGSize(width: 11, height: 22)
        layer.layoutManager = manager
        XCTAssertEqual(layer.preferredFrameSize(), CGSize(width: 11, height: 22))
    }

    func testAManagerWithoutAPreferredSizeGivesTheTransformedBounds() {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 20)
        layer.transform = CATransform3DMakeScale(3, 2, 1)
        layer.layoutManager = CAConstraintLayoutManager()
        XCTAssertEqual(layer.preferredFrameSize(), CGSize(width: 30, height: 40))
        layer.layoutManager = LayoutOnlyManager()
        XCTAssertEqual(layer.preferredFrameSize(), CGSize(width: 30, height: 40))
    }
}

// MARK: - Helpers

/// A layer that reports each `layoutSublayers()` with its name (and does not call super).
private final class RecordingLayer: CALayer {
    var onLayout: (String) -> Void

    init(name: String, onLayout: @escaping (String) -> Void) {
        self.onLayout = onLayout
        super.init()
        self.name = name
    }

    required init(layer: Any) {
        onLayout = { _ in }
        super.init(layer: layer)
    }

    override func layoutSublayers() {
        onLayout(name ?? "?")
    }
}

/// Counts what a layer asks of its layout manager.
private final class CountingLayoutManager: CALayoutManager {
    var layouts = 0
    var invalidations = 0
    var preferred = CGSize.zero

    func layoutSublayers(of layer: CALayer) { layouts += 1 }
    func invalidateLayout(of layer: CALayer) { invalidations += 1 }
    func preferredSize(of layer: CALayer) -> CGSize { preferred }
}

/// A manager that implements only `layoutSublayers(of:)`.
private final class LayoutOnlyManager: CALayoutManager {
    func layoutSublayers(of layer: CALayer) {}
}

/// A delegate that lays out its layer.
private final class LayingOutDelegate: CALayerDelegate {
    var layouts = 0
    func layoutSublayers(of layer: CALayer) { layouts += 1 }
}

/// A delegate that only supplies actions.
private final class ActionOnlyDelegate: CALayerDelegate {
    func action(for layer: CALayer, forKey event: String) -> CAAction? { nil }
}
