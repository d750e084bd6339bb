import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKit

/// `LayerChangeLog` records exactly what changed: each changed layer once, in the order layers first
/// changed, with exactly the properties set; hierarchy edits as `sublayers` on every parent whose list
/// changed; subclass keys by name; nothing for refused input. The log is process-wide, so every test
/// drains it first.
///
/// Draining counts as a commit, after which property changes also add implicit animations (an
/// `animations` change). Tests about property recording turn actions off for the implicit transaction;
/// the two tests at the end pin how implicit animations show up.
final class ChangeRecordingTests: XCTestCase {
    override func setUp() {
        super.setUp()
        _ = LayerChangeLog.current.drain()
        CATransaction.setDisableActions(true)
    }

    override func tearDown() {
        CATransaction.setDisableActions(false)
        _ = LayerChangeLog.current.drain()
        super.tearDown()
    }

    private func named(_ name: String) -> CALayer {
        let layer = CALayer()
        layer.name = name
        return layer
    }

    /// Builds layers and their tree without leaving anything in the log.
    private func quietly<T>(_ build: () -> T) -> T {
        let result = build()
        _ = LayerChangeLog.current.drain()
        return result
    }

    private func drainedNames() -> [String] {
        LayerChangeLog.current.drain().map { $0.layer.name ?? "?" }
    }

    // MARK: - Properties

    func testChangedPropertiesAreReportedExactly() {
        let layer = quietly { named("a") }
        layer.opacity = 0.5
        layer.position = CGPoint(x: 1, y: 2)
        let changes = LayerChangeLog.current.drain()
        XCTAssertEqual(changes.count, 1)
        XCTAssertTrue(changes.first?.layer === layer)
        // Declaration order of LayerPropertyKey: position before opacity.
        XCTAssertEqual(changes.first?.properties.keys, [.position, .opacity])
        XCTAssertEqual(changes.first?.customKeys, [])
    }

    func testEachLayerIsReportedOnceInTheOrderItFirstChanged() {
        let (a, b) = quietly { (named("a"), named("b")) }
        a.opacity = 0.5
        b.cornerRadius = 3
        a.bounds = CGRect(x: 0, y: 0, width: 1, height: 1)
        a.opacity = 0.25
        let changes = LayerChangeLog.current.drain()
        XCTAssertEqual(changes.map { $0.layer.name }, ["a", "b"])
        XCTAssertEqual(changes[0].properties.keys, [.bounds, .opacity])
        XCTAssertEqual(changes[1].properties.keys, [.cornerRadius])
    }

    func testDrainClearsTheLog() {
        let layer = quietly { named("a") }
        layer.zPosition = 1
        XCTAssertEqual(LayerChangeLog.current.pendingLayerCount, 1)
        XCTAssertEqual(LayerChangeLog.current.drain().count, 1)
        XCTAssertEqual(LayerChangeLog.current.pendingLayerCount, 0)
        XCTAssertEqual(LayerChangeLog.current.drain().count, 0)
        layer.zPosition = 2
        XCTAssertEqual(LayerChangeLog.current.drain().first?.properties.keys, [.zPosition])
    }

    func testALayerChangedAgainAfterADrainIsReportedAgainWithOnlyTheNewChange() {
        let layer = quietly { named("a") }
        layer.opacity = 0.5
        _ = LayerChangeLog.current.drain()
        layer.cornerRadius = 2
        let changes = LayerChangeLog.current.drain()
        XCTAssertEqual(changes.count, 1)
        XCTAssertEqual(changes.first?.properties.keys, [.cornerRadius])
    }

    func testUnchangedLayersAreNotReported() {
        let (a, _) = quietly { (named("a"), named("untouched")) }
        a.isHidden = true
        XCTAssertEqual(drainedNames(), ["a"])
    }

    func testInlineAndSparsePropertiesAreBothRecorded() {
        let layer = quietly { named("a") }
        layer.backgroundColor = CGColor(gray: 0.5, alpha: 1)
        layer.contents = NSObject()
        layer.shadowOffset = CGSize(width: 1, height: 1)
        layer.transform = CATransform3DMakeScale(2, 2, 1)
        let changes = LayerChangeLog.current.drain()
        XCTAssertEqual(changes.first?.properties.keys, [.transform, .backgroundColor, .contents, .shadowOffset])
    }

    func testFrameRecordsTheBoundsAndPositionItChanges() {
        let layer = quietly { named("a") }
        layer.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        XCTAssertEqual(LayerChangeLog.current.drain().first?.properties.keys, [.bounds, .position])
    }

    func testKeyValueCodingRecordsTheWholeProperty() {
        let layer = quietly { named("a") }
        layer.setValue(CGFloat(3), forKeyPath: "position.x")
        layer.setValue(CGFloat.pi, forKeyPath: "transform.rotation.z")
        layer.setValue(true, forKey: "hidden")
        XCTAssertEqual(LayerChangeLog.current.drain().first?.properties.keys, [.position, .transform, .isHidden])
    }

    // MARK: - Hierarchy

    func testAddSublayerMarksTheParentOnly() {
        let (parent, child) = quietly { (named("parent"), named("child")) }
        parent.addSublayer(child)
        let changes = LayerChangeLog.current.drain()
        XCTAssertEqual(changes.map { $0.layer.name }, ["parent"])
        XCTAssertEqual(changes.first?.properties.keys, [.sublayers])
    }

    func testMovingALayerMarksSublayersOnBothOldAndNewParent() {
        let (old, new, child) = quietly { () -> (CALayer, CALayer, CALayer) in
            let old = named("old"), new = named("new"), child = named("child")
            old.addSublayer(child)
            return (old, new, child)
        }
        new.addSublayer(child)
        let changes = LayerChangeLog.current.drain()
        XCTAssertEqual(Set(changes.map { $0.layer.name ?? "?" }), ["old", "new"])
        XCTAssertEqual(changes.count, 2)
        for change in changes {
            XCTAssertEqual(change.properties.keys, [.sublayers], "\(change.layer.name ?? "?")")
        }
        XCTAssertTrue(old.sublayers == nil && new.sublayers?.count == 1)
    }

    func testRemoveFromSuperlayerMarksTheOldParent() {
        let (parent, child) = quietly { () -> (CALayer, CALayer) in
            let parent = named("parent"), child = named("child")
            parent.addSublayer(child)
            return (parent, child)
        }
        child.removeFromSuperlayer()
        let changes = LayerChangeLog.current.drain()
        XCTAssertEqual(changes.map { $0.layer.name }, ["parent"])
        XCTAssertEqual(changes.first?.properties.keys, [.sublayers])
        XCTAssertNil(parent.sublayers)
    }

    func testSettingSublayersMarksTheParentTheLayersCameFrom() {
        let (donor, receiver, a) = quietly { () -> (CALayer, CALayer, CALayer) in
            let donor = named("donor"), receiver = named("receiver"), a = named("a")
            donor.addSublayer(a)
            return (donor, receiver, a)
        }
        receiver.sublayers = [a]
        XCTAssertEqual(Set(drainedNames()), ["donor", "receiver"])
        XCTAssertNil(donor.sublayers)
    }

    func testReplaceSublayerMarksBothParents() {
        let (parent, other, old, new) = quietly { () -> (CALayer, CALayer, CALayer, CALayer) in
            let parent = named("parent"), other = named("other"), old = named("old"), new = named("new")
            parent.addSublayer(old)
            other.addSublayer(new)
            return (parent, other, old, new)
        }
        parent.replaceSublayer(old, with: new)
        XCTAssertEqual(Set(drainedNames()), ["parent", "other"])
        XCTAssertNil(other.sublayers)
    }

    func testSettingAMaskMarksTheOwnersMask() {
        let (owner, mask) = quietly { (named("owner"), named("mask")) }
        owner.mask = mask
        let changes = LayerChangeLog.current.drain()
        XCTAssertEqual(changes.map { $0.layer.name }, ["owner"])
        XCTAssertEqual(changes.first?.properties.keys, [.mask])
    }

    // MARK: - Refused input records nothing

    func testRefusedNonFiniteValueRecordsNoChange() {
        let layer = quietly { named("a") }
        let capture = DiagnosticCapture()
        layer.position = CGPoint(x: CGFloat.nan, y: 0)
        layer.setValue(CGFloat.infinity, forKeyPath: "bounds.size.width")
        XCTAssertEqual(capture.names, ["nonFiniteGeometry", "nonFiniteGeometry"])
        XCTAssertEqual(LayerChangeLog.current.drain().count, 0)
    }

    func testRefusedHierarchyEditRecordsNoChange() {
        let (parent, child, late) = quietly { () -> (CALayer, CALayer, CALayer) in
            let parent = named("parent"), child = named("child"), late = named("late")
            parent.addSublayer(child)
            return (parent, child, late)
        }
        let capture = DiagnosticCapture()
        child.addSublayer(parent)
        parent.insertSublayer(late, at: 5)
        XCTAssertEqual(capture.names, ["hierarchyCycleRefused", "invalidSublayerEdit"])
        XCTAssertEqual(LayerChangeLog.current.drain().count, 0)
    }

    func testRefusedTypeMismatchRecordsNoChange() {
        let layer = quietly { named("a") }
        let capture = DiagnosticCapture()
        layer.setValue("bright", forKey: "opacity")
        XCTAssertEqual(capture.names, ["valueTypeMismatch"])
        XCTAssertEqual(LayerChangeLog.current.drain().count, 0)
    }

    // MARK: - Subclass keys

    func testCustomKeysAreReportedByName() {
        let layer = quietly { GaugeLayer() }
        layer.setValue(CGFloat(0.5), forKey: "needle")
        layer.setValue(CGFloat(0.75), forKey: "needle")
        layer.setValue("km/h", forKey: "unit")
        let changes = LayerChangeLog.current.drain()
        XCTAssertEqual(changes.count, 1)
        XCTAssertEqual(changes.first?.customKeys, ["needle", "unit"])
        XCTAssertEqual(changes.first?.properties, LayerPropertySet.customProperties)
    }

    func testCustomAndBuiltInChangesShareOneEntry() {
        let layer = quietly { GaugeLayer() }
        layer.opacity = 0.5
        layer.setValue(CGFloat(0.5), forKey: "needle")
        let changes = LayerChangeLog.current.drain()
        XCTAssertEqual(changes.count, 1)
        XCTAssertTrue(changes.first?.properties.contains(.opacity) == true)
        XCTAssertTrue(changes.first?.properties.isSuperset(of: .customProperties) == true)
        XCTAssertEqual(changes.first?.customKeys, ["needle"])
    }

    func testCustomKeysAreClearedByDrain() {
        let layer = quietly { GaugeLayer() }
        layer.setValue(CGFloat(0.5), forKey: "needle")
        _ = LayerChangeLog.current.drain()
        layer.cornerRadius = 1
        let changes = LayerChangeLog.current.drain()
        XCTAssertEqual(changes.first?.customKeys, [])
        XCTAssertEqual(changes.first?.properties.keys, [.cornerRadius])
        XCTAssertFalse(changes.first?.properties.isSuperset(of: .customProperties) ?? true)
    }

    // MARK: - Implicit animations

    func testANewLayersFirstChangesDoNotAnimate() {
        CATransaction.setDisableActions(false)
        let layer = CALayer()
        layer.opacity = 0.5
        XCTAssertEqual(LayerChangeLog.current.drain().first?.properties.keys, [.opacity])
    }

    func testAChangeToACommittedLayerRecordsItsImplicitAnimationToo() {
        let layer = quietly { named("a") }
        CATransaction.setDisableActions(false)
        layer.opacity = 0.5
        XCTAssertEqual(LayerChangeLog.current.drain().first?.properties.keys, [.opacity, .animations])
        XCTAssertEqual(layer.animationKeys(), ["opacity"])
    }
}

private final class GaugeLayer: CALayer {
    override class func defaultValue(forKey key: String) -> Any? {
        key == "needle" ? CGFloat(0) : super.defaultValue(forKey: key)
    }
}
