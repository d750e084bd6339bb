import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKit

/// Sublayer edits keep the layer tree a tree: order of insertion, moves between parents, and refusals
/// (cycles, self masks, masks in the hierarchy, bad indices) that leave everything as it was.
final class CALayerHierarchyTests: XCTestCase {
    private func named(_ name: String) -> CALayer {
        let layer = CALayer()
        layer.name = name
        return layer
    }

    private func names(_ layer: CALayer) -> [String] {
        (layer.sublayers ?? []).map { $0.name ?? "?" }
    }

    // MARK: - Adding and inserting

    func testAddSublayerAppendsInFrontAndSetsSuperlayer() {
        let parent = named("parent"), a = named("a"), b = named("b")
        parent.addSublayer(a)
        parent.addSublayer(b)
        XCTAssertEqual(names(parent), ["a", "b"])
        XCTAssertTrue(a.superlayer === parent)
        XCTAssertTrue(b.superlayer === parent)
    }

    func testAddingAnExistingSublayerAgainMovesItToTheFront() {
        let parent = named("parent"), a = named("a"), b = named("b")
        parent.addSublayer(a)
        parent.addSublayer(b)
        parent.addSublayer(a)
        XCTAssertEqual(names(parent), ["b", "a"])
    }

    func testInsertAtZeroPutsTheLayerAtTheBack() {
        let parent = named("parent"), a = named("a"), b = named("b"), c = named("c")
        parent.addSublayer(a)
        parent.addSublayer(b)
        parent.insertSublayer(c, at: 0)
        XCTAssertEqual(names(parent), ["c", "a", "b"])
    }

    func testInsertAtMiddleIndex() {
        let parent = named("parent"), a = named("a"), b = named("b"), c = named("c")
        parent.addSublayer(a)
        parent.addSublayer(b)
        parent.insertSublayer(c, at: 1)
        XCTAssertEqual(names(parent), ["a", "c", "b"])
        XCTAssertTrue(c.superlayer === parent)
    }

    func testInsertAtCountAppends() {
        let parent = named("parent"), a = named("a"), b = named("b")
        parent.addSublayer(a)
        parent.insertSublayer(b, at: 1)
        XCTAssertEqual(names(parent), ["a", "b"])
    }

    func testInsertPastTheEndIsRefusedAndChangesNothing() {
        let parent = named("parent"), a = named("a"), b = named("b"), other = named("other")
        parent.addSublayer(a)
        other.addSublayer(b)
        let capture = DiagnosticCapture()
        parent.insertSublayer(b, at: 2)
        XCTAssertEqual(capture.names, ["invalidSublayerEdit"])
        XCTAssertEqual(names(parent), ["a"])
        XCTAssertTrue(b.superlayer === other, "the refused layer stays where it was")
        XCTAssertEqual(names(other), ["b"])
    }

    func testInsertIntoAnEmptyLayerPastIndexZeroIsRefused() {
        let parent = named("parent"), a = named("a")
        let capture = DiagnosticCapture()
        parent.insertSublayer(a, at: 1)
        XCTAssertEqual(capture.names, ["invalidSublayerEdit"])
        XCTAssertNil(parent.sublayers)
        XCTAssertNil(a.superlayer)
    }

    func testInsertBelowPutsTheLayerJustBehindTheSibling() {
        let parent = named("parent"), a = named("a"), b = named("b"), c = named("c")
        parent.addSublayer(a)
        parent.addSublayer(b)
        parent.insertSublayer(c, below: b)
        XCTAssertEqual(names(parent), ["a", "c", "b"])
    }

    func testInsertAbovePutsTheLayerJustInFrontOfTheSibling() {
        let parent = named("parent"), a = named("a"), b = named("b"), c = named("c")
        parent.addSublayer(a)
        parent.addSublayer(b)
        parent.insertSublayer(c, above: a)
        XCTAssertEqual(names(parent), ["a", "c", "b"])
    }

    func testInsertAboveTheFrontSiblingAppends() {
        let parent = named("parent"), a = named("a"), b = named("b")
        parent.addSublayer(a)
        parent.insertSublayer(b, above: a)
        XCTAssertEqual(names(parent), ["a", "b"])
    }

    func testInsertBelowAndAboveNilGoToTheBackAndTheFront() {
        let parent = named("parent"), a = named("a"), back = named("back"), front = named("front")
        parent.addSublayer(a)
        parent.insertSublayer(back, below: nil)
        parent.insertSublayer(front, above: nil)
        XCTAssertEqual(names(parent), ["back", "a", "front"])
    }

    func testMovingASublayerAboveItsSiblingReordersWithoutDuplicating() {
        let parent = named("parent"), a = named("a"), b = named("b"), c = named("c")
        parent.sublayers = [a, b, c]
        parent.insertSublayer(a, above: c)
        XCTAssertEqual(names(parent), ["b", "c", "a"])
        parent.insertSublayer(a, below: b)
        XCTAssertEqual(names(parent), ["a", "b", "c"])
    }

    func testInsertRelativeToALayerThatIsNotASublayerIsRefused() {
        let parent = named("parent"), a = named("a"), stranger = named("stranger"), c = named("c")
        parent.addSublayer(a)
        let capture = DiagnosticCapture()
        parent.insertSublayer(c, above: stranger)
        parent.insertSublayer(c, below: stranger)
        XCTAssertEqual(capture.names, ["invalidSublayerEdit", "invalidSublayerEdit"])
        XCTAssertEqual(names(parent), ["a"])
        XCTAssertNil(c.superlayer)
    }

    // MARK: - Replacing and removing

    func testReplaceSublayerPutsTheNewLayerInTheOldOnesPlace() {
        let parent = named("parent"), a = named("a"), b = named("b"), c = named("c"), d = named("d")
        parent.sublayers = [a, b, c]
        parent.replaceSublayer(b, with: d)
        XCTAssertEqual(names(parent), ["a", "d", "c"])
        XCTAssertNil(b.superlayer)
        XCTAssertTrue(d.superlayer === parent)
    }

    func testReplaceSublayerTakesTheNewLayerFromItsOldParent() {
        let parent = named("parent"), other = named("other"), a = named("a"), d = named("d"), e = named("e")
        parent.addSublayer(a)
        other.sublayers = [d, e]
        parent.replaceSublayer(a, with: d)
        XCTAssertEqual(names(parent), ["d"])
        XCTAssertEqual(names(other), ["e"])
        XCTAssertTrue(d.superlayer === parent)
    }

    func testReplacingALayerThatIsNotASublayerIsRefused() {
        let parent = named("parent"), a = named("a"), stranger = named("stranger"), d = named("d")
        parent.addSublayer(a)
        let capture = DiagnosticCapture()
        parent.replaceSublayer(stranger, with: d)
        XCTAssertEqual(capture.names, ["invalidSublayerEdit"])
        XCTAssertEqual(names(parent), ["a"])
        XCTAssertNil(d.superlayer)
    }

    func testRemoveFromSuperlayerDetachesTheLayer() {
        let parent = named("parent"), a = named("a"), b = named("b")
        parent.sublayers = [a, b]
        a.removeFromSuperlayer()
        XCTAssertEqual(names(parent), ["b"])
        XCTAssertNil(a.superlayer)
    }

    func testRemovingTheLastSublayerLeavesSublayersNil() {
        let parent = named("parent"), a = named("a")
        parent.addSublayer(a)
        a.removeFromSuperlayer()
        XCTAssertNil(parent.sublayers)
    }

    func testRemoveFromSuperlayerOfARootDoesNothing() {
        let root = named("root")
        let capture = DiagnosticCapture()
        root.removeFromSuperlayer()
        XCTAssertNil(root.superlayer)
        XCTAssertEqual(capture.names, [])
    }

    // MARK: - Setting sublayers

    func testSettingSublayersReplacesTheChildrenInOrder() {
        let parent = named("parent"), a = named("a"), b = named("b"), c = named("c")
        parent.sublayers = [a, b]
        parent.sublayers = [c, a]
        XCTAssertEqual(names(parent), ["c", "a"])
        XCTAssertNil(b.superlayer, "a child left out of the new list leaves")
        XCTAssertTrue(a.superlayer === parent)
        XCTAssertTrue(c.superlayer === parent)
    }

    func testSettingSublayersTakesLayersFromTheirOldParents() {
        let parent = named("parent"), other = named("other"), a = named("a"), b = named("b")
        other.sublayers = [a, b]
        parent.sublayers = [b]
        XCTAssertEqual(names(other), ["a"])
        XCTAssertEqual(names(parent), ["b"])
        XCTAssertTrue(b.superlayer === parent)
    }

    func testSettingSublayersToNilOrEmptyRemovesEveryChild() {
        let parent = named("parent"), a = named("a"), b = named("b")
        parent.sublayers = [a, b]
        parent.sublayers = nil
        XCTAssertNil(parent.sublayers)
        XCTAssertNil(a.superlayer)
        parent.sublayers = [b]
        parent.sublayers = []
        XCTAssertNil(parent.sublayers)
        XCTAssertNil(b.superlayer)
    }

    func testSettingSublayersWithARepeatedLayerKeepsOneCopy() {
        let parent = named("parent"), a = named("a"), b = named("b")
        parent.sublayers = [a, b, a]
        XCTAssertEqual(names(parent), ["a", "b"])
    }

    // MARK: - Moving between parents

    func testAddingToANewParentLeavesTheOldOne() {
        let old = named("old"), new = named("new"), a = named("a"), b = named("b")
        old.sublayers = [a, b]
        new.addSublayer(a)
        XCTAssertEqual(names(old), ["b"])
        XCTAssertEqual(names(new), ["a"])
        XCTAssertTrue(a.superlayer === new)
    }

    func testInsertingIntoANewParentLeavesTheOldOne() {
        let old = named("old"), new = named("new"), a = named("a"), x = named("x")
        old.addSublayer(a)
        new.addSublayer(x)
        new.insertSublayer(a, below: x)
        XCTAssertNil(old.sublayers)
        XCTAssertEqual(names(new), ["a", "x"])
    }

    // MARK: - Cycles

    func testAddingAnAncestorAsASublayerIsRefusedAndTheTreeIsUnchanged() {
        let root = named("root"), child = named("child"), grandchild = named("grandchild")
        root.addSublayer(child)
        child.addSublayer(grandchild)
        let capture = DiagnosticCapture()
        grandchild.addSublayer(root)
        XCTAssertEqual(capture.diagnostics, [.hierarchyCycleRefused(child: "'root'", parent: "'grandchild'")])
        XCTAssertNil(root.superlayer)
        XCTAssertEqual(names(root), ["child"])
        XCTAssertEqual(names(child), ["grandchild"])
        XCTAssertNil(grandchild.sublayers)
    }

    func testAddingALayerToItselfIsRefused() {
        let layer = named("self")
        let capture = DiagnosticCapture()
        layer.addSublayer(layer)
        XCTAssertEqual(capture.diagnostics, [.hierarchyCycleRefused(child: "'self'", parent: "'self'")])
        XCTAssertNil(layer.sublayers)
        XCTAssertNil(layer.superlayer)
    }

    func testEveryInsertionFormRefusesACycle() {
        let root = named("root"), child = named("child"), x = named("x")
        root.addSublayer(child)
        child.addSublayer(x)
        let capture = DiagnosticCapture()
        child.insertSublayer(root, at: 0)
        child.insertSublayer(root, below: x)
        child.insertSublayer(root, above: x)
        child.replaceSublayer(x, with: root)
        XCTAssertEqual(capture.names, Array(repeating: "hierarchyCycleRefused", count: 4))
        XCTAssertNil(root.superlayer)
        XCTAssertEqual(names(root), ["child"])
        XCTAssertEqual(names(child), ["x"])
    }

    func testSettingSublayersWithAnAncestorIsRefusedAndKeepsTheOldChildren() {
        let root = named("root"), child = named("child"), x = named("x"), y = named("y")
        root.addSublayer(child)
        child.addSublayer(x)
        let capture = DiagnosticCapture()
        child.sublayers = [y, root]
        XCTAssertEqual(capture.names, ["hierarchyCycleRefused"])
        XCTAssertEqual(names(child), ["x"])
        XCTAssertNil(y.superlayer, "no part of a refused list is applied")
        XCTAssertTrue(x.superlayer === child)
        XCTAssertNil(root.superlayer)
    }

    func testAddingAMaskOwnerUnderItsOwnMaskIsRefusedAsACycle() {
        let owner = named("owner"), mask = named("mask")
        owner.mask = mask
        let capture = DiagnosticCapture()
        mask.addSublayer(owner)
        XCTAssertEqual(capture.names, ["hierarchyCycleRefused"])
        XCTAssertNil(mask.sublayers)
        XCTAssertNil(owner.superlayer)
    }

    // MARK: - Masks

    func testMaskIsSetWithoutASuperlayer() {
        let owner = named("owner"), mask = named("mask")
        owner.mask = mask
        XCTAssertTrue(owner.mask === mask)
        XCTAssertNil(mask.superlayer)
        XCTAssertNil(owner.sublayers, "a mask is not a sublayer")
    }

    func testALayerCannotBeItsOwnMask() {
        let layer = named("layer")
        let capture = DiagnosticCapture()
        layer.mask = layer
        XCTAssertEqual(capture.diagnostics, [.selfMaskRefused(layer: "'layer'")])
        XCTAssertNil(layer.mask)
    }

    func testAnAncestorCannotBeTheMaskOfItsDescendant() {
        let root = named("root"), child = named("child"), grandchild = named("grandchild")
        root.addSublayer(child)
        child.addSublayer(grandchild)
        let capture = DiagnosticCapture()
        grandchild.mask = root
        XCTAssertEqual(capture.names, ["selfMaskRefused"])
        XCTAssertNil(grandchild.mask)
        XCTAssertNil(root.superlayer)
        XCTAssertEqual(names(root), ["child"])
    }

    func testARefusedMaskKeepsThePreviousMask() {
        let root = named("root"), child = named("child"), mask = named("mask")
        root.addSublayer(child)
        child.mask = mask
        let capture = DiagnosticCapture()
        child.mask = root
        XCTAssertEqual(capture.names, ["selfMaskRefused"])
        XCTAssertTrue(child.mask === mask)
    }

    func testAMaskLayerCannotBeAddedAsASublayer() {
        let owner = named("owner"), mask = named("mask"), other = named("other")
        owner.mask = mask
        let capture = DiagnosticCapture()
        other.addSublayer(mask)
        other.sublayers = [mask]
        XCTAssertEqual(capture.diagnostics, Array(repeating: .maskInHierarchyRefused(layer: "'mask'"), count: 2))
        XCTAssertNil(other.sublayers)
        XCTAssertNil(mask.superlayer)
        XCTAssertTrue(owner.mask === mask)
    }

    func testASublayerCannotBeUsedAsAMask() {
        let parent = named("parent"), child = named("child"), owner = named("owner")
        parent.addSublayer(child)
        let capture = DiagnosticCapture()
        owner.mask = child
        XCTAssertEqual(capture.diagnostics, [.maskInHierarchyRefused(layer: "'child'")])
        XCTAssertNil(owner.mask)
        XCTAssertTrue(child.superlayer === parent)
    }

    func testRemoveFromSuperlayerOnAMaskClearsTheOwnersMask() {
        let owner = named("owner"), mask = named("mask")
        owner.mask = mask
        mask.removeFromSuperlayer()
        XCTAssertNil(owner.mask)
        // Once released, the layer may join the hierarchy.
        let capture = DiagnosticCapture()
        owner.addSublayer(mask)
        XCTAssertEqual(capture.names, [])
        XCTAssertTrue(mask.superlayer === owner)
    }

    func testMovingAMaskToAnotherOwnerTakesItFromTheFirst() {
        let first = named("first"), second = named("second"), mask = named("mask")
        first.mask = mask
        second.mask = mask
        XCTAssertNil(first.mask)
        XCTAssertTrue(second.mask === mask)
    }

    // MARK: - Lifetime

    func testASublayerOutlivingItsParentHasNoSuperlayer() {
        let child = named("child")
        do {
            let parent = named("parent")
            parent.addSublayer(child)
        }
        // The change log and the layout queue (the parent was marked by the sublayer edit) hold changed
        // layers until the next commit; the commit lets the parent go.
        CATransaction.flush()
        XCTAssertNil(child.superlayer)
        let adopter = named("adopter")
        adopter.addSublayer(child)
        XCTAssertTrue(child.superlayer === adopter)
    }

    func testAMaskOutlivingItsOwnerIsFreeToJoinTheTree() {
        let mask = named("mask")
        do {
            let owner = named("owner")
            owner.mask = mask
        }
        _ = LayerChangeLog.current.drain()
        let parent = named("parent")
        let capture = DiagnosticCapture()
        parent.addSublayer(mask)
        XCTAssertEqual(capture.names, [])
        XCTAssertTrue(mask.superlayer === parent)
    }

    // MARK: - init(layer:)

    func testInitLayerCopiesPropertiesButNotTheTree() {
        let parent = named("parent"), original = named("original"), child = named("child")
        parent.addSublayer(original)
        original.addSublayer(child)
        original.bounds = CGRect(x: 1, y: 2, width: 30, height: 40)
        original.position = CGPoint(x: 5, y: 6)
        original.opacity = 0.25
        original.cornerRadius = 4
        original.transform = CATransform3DMakeScale(2, 3, 1)
        original.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)

        let copy = CALayer(layer: original)
        XCTAssertEqual(copy.name, "original")
        XCTAssertEqual(copy.bounds, CGRect(x: 1, y: 2, width: 30, height: 40))
        XCTAssertEqual(copy.position, CGPoint(x: 5, y: 6))
        XCTAssertEqual(copy.opacity, 0.25)
        XCTAssertEqual(copy.cornerRadius, 4)
        XCTAssertEqual(copy.transform, CATransform3DMakeScale(2, 3, 1))
        XCTAssertEqual(copy.backgroundColor, CGColor(red: 1, green: 0, blue: 0, alpha: 1))
        XCTAssertNil(copy.sublayers)
        XCTAssertNil(copy.superlayer)
        XCTAssertEqual(names(original), ["child"], "the original keeps its sublayers")
        XCTAssertTrue(child.superlayer === original)
        XCTAssertFalse(copy.layerID == original.layerID)
    }

    func testInitLayerCopyIsIndependentOfTheOriginal() {
        let original = named("original")
        original.opacity = 0.25
        let copy = CALayer(layer: original)
        copy.opacity = 0.75
        original.position = CGPoint(x: 9, y: 9)
        XCTAssertEqual(original.opacity, 0.25)
        XCTAssertEqual(copy.position, CGPoint(x: 0, y: 0))
    }
}
