import Foundation
import XCTest
@testable import LayerKit

/// `hitTest(_:)`: the front-most layer at a point given in the receiver's *superlayer* space — by sibling
/// order and `zPosition`, skipping hidden layers, clipped by `masksToBounds`, exact through rotation and
/// perspective, and through a subclass's own `contains(_:)`.
final class HitTestingTests: XCTestCase {
    /// A 200 × 200 root whose superlayer space equals its own (frame (0, 0, 200, 200)).
    private func makeRoot() -> CALayer {
        let root = CALayer()
        root.name = "root"
        root.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        root.position = CGPoint(x: 100, y: 100)
        return root
    }

    @discardableResult
    private func makeLayer(_ name: String, frame: CGRect, in parent: CALayer) -> CALayer {
        let layer = CALayer()
        layer.name = name
        layer.frame = frame
        parent.addSublayer(layer)
        return layer
    }

    private func hitName(_ root: CALayer, _ x: CGFloat, _ y: CGFloat) -> String? {
        root.hitTest(CGPoint(x: x, y: y))?.name
    }

    // MARK: - Order

    func testPointOutsideEverythingHitsNothing() {
        let root = makeRoot()
        makeLayer("a", frame: CGRect(x: 10, y: 10, width: 50, height: 50), in: root)
        XCTAssertNil(root.hitTest(CGPoint(x: 250, y: 50)))
    }

    func testPointInsideOnlyTheRootHitsTheRoot() {
        let root = makeRoot()
        makeLayer("a", frame: CGRect(x: 10, y: 10, width: 50, height: 50), in: root)
        XCTAssertEqual(hitName(root, 100, 100), "root")
    }

    func testLaterSiblingIsHitWhereSiblingsOverlap() {
        let root = makeRoot()
        makeLayer("back", frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root)
        makeLayer("front", frame: CGRect(x: 50, y: 50, width: 100, height: 100), in: root)
        XCTAssertEqual(hitName(root, 75, 75), "front")
        XCTAssertEqual(hitName(root, 25, 25), "back", "outside the front sibling the back one is hit")
    }

    func testHigherZPositionWinsOverLaterSibling() {
        let root = makeRoot()
        let back = makeLayer("raised", frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root)
        makeLayer("later", frame: CGRect(x: 50, y: 50, width: 100, height: 100), in: root)
        back.zPosition = 1
        XCTAssertEqual(hitName(root, 75, 75), "raised")
    }

    func testNegativeZPositionSendsALaterSiblingBehind() {
        let root = makeRoot()
        makeLayer("earlier", frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root)
        let sunk = makeLayer("sunk", frame: CGRect(x: 50, y: 50, width: 100, height: 100), in: root)
        sunk.zPosition = -1
        XCTAssertEqual(hitName(root, 75, 75), "earlier")
    }

    func testDeepestDescendantIsHit() {
        let root = makeRoot()
        let parent = makeLayer("parent", frame: CGRect(x: 20, y: 20, width: 100, height: 100), in: root)
        makeLayer("child", frame: CGRect(x: 10, y: 10, width: 20, height: 20), in: parent)
        // child covers root (30…50, 30…50).
        XCTAssertEqual(hitName(root, 40, 40), "child")
        XCTAssertEqual(hitName(root, 60, 60), "parent")
    }

    func testHitTestTakesThePointInTheSuperlayersSpace() {
        let root = CALayer()
        root.name = "root"
        root.frame = CGRect(x: 1000, y: 1000, width: 100, height: 100)
        XCTAssertEqual(hitName(root, 1050, 1050), "root")
        XCTAssertNil(root.hitTest(CGPoint(x: 50, y: 50)))
    }

    func testHitTestFollowsTheParentsBoundsOrigin() {
        let root = makeRoot()
        let scroller = makeLayer("scroller", frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root)
        scroller.bounds.origin = CGPoint(x: 0, y: 50)   // content scrolled up by 50
        makeLayer("item", frame: CGRect(x: 0, y: 60, width: 100, height: 10), in: scroller)
        // The item's bounds-space y 60…70 shows at root y 10…20.
        XCTAssertEqual(hitName(root, 50, 15), "item")
        XCTAssertEqual(hitName(root, 50, 65), "scroller")
    }

    // MARK: - Hidden and clipped

    func testHiddenLayerIsSkipped() {
        let root = makeRoot()
        makeLayer("back", frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root)
        let front = makeLayer("front", frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root)
        front.isHidden = true
        XCTAssertEqual(hitName(root, 50, 50), "back")
    }

    func testHiddenLayersSublayersAreSkippedToo() {
        let root = makeRoot()
        let parent = makeLayer("parent", frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root)
        makeLayer("child", frame: CGRect(x: 10, y: 10, width: 20, height: 20), in: parent)
        parent.isHidden = true
        XCTAssertEqual(hitName(root, 20, 20), "root")
    }

    func testHiddenRootHitsNothing() {
        let root = makeRoot()
        root.isHidden = true
        XCTAssertNil(root.hitTest(CGPoint(x: 100, y: 100)))
    }

    func testMasksToBoundsCutsOffSublayersOutsideTheBounds() {
        let root = makeRoot()
        let clip = makeLayer("clip", frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root)
        makeLayer("overhang", frame: CGRect(x: 80, y: 80, width: 60, height: 60), in: clip)
        clip.masksToBounds = true
        XCTAssertEqual(hitName(root, 120, 120), "root", "the overhang outside the clip is not hit")
        XCTAssertEqual(hitName(root, 90, 90), "overhang", "inside the clip it is")
    }

    func testWithoutMasksToBoundsAnOverhangingSublayerIsHit() {
        let root = makeRoot()
        let parent = makeLayer("parent", frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root)
        makeLayer("overhang", frame: CGRect(x: 80, y: 80, width: 60, height: 60), in: parent)
        XCTAssertEqual(hitName(root, 120, 120), "overhang")
    }

    // MARK: - Rotation

    /// A 100 × 20 bar centred at (100, 100), rotated by `angle`.
    private func makeRotatedBar(_ angle: Double) -> CALayer {
        let root = makeRoot()
        let bar = makeLayer("bar", frame: CGRect(x: 50, y: 90, width: 100, height: 20), in: root)
        bar.transform = CATransform3DMakeRotation(angle, 0, 0, 1)
        return root
    }

    /// A bar-local offset from the centre, rotated by `angle` ((x, y) ↦ (x cos − y sin, x sin + y cos)).
    private func rotatedPoint(_ x: Double, _ y: Double, _ angle: Double) -> (CGFloat, CGFloat) {
        (100 + x * cos(angle) - y * sin(angle), 100 + x * sin(angle) + y * cos(angle))
    }

    func testRotatedLayerIsHitJustInsideItsLongEdge() {
        let root = makeRotatedBar(.pi / 4)
        // The bar's long edge is 10 from its centre line: 9.9 is inside, 10.1 outside.
        let (x, y) = rotatedPoint(0, 9.9, .pi / 4)
        XCTAssertEqual(hitName(root, x, y), "bar")
        let (ox, oy) = rotatedPoint(0, 10.1, .pi / 4)
        XCTAssertEqual(hitName(root, ox, oy), "root")
    }

    func testRotatedLayerIsHitJustInsideItsShortEdge() {
        let root = makeRotatedBar(.pi / 4)
        let (x, y) = rotatedPoint(49.9, -9, .pi / 4)
        XCTAssertEqual(hitName(root, x, y), "bar")
        let (ox, oy) = rotatedPoint(50.1, -9, .pi / 4)
        XCTAssertEqual(hitName(root, ox, oy), "root")
    }

    func testPointInsideTheRotatedFrameButOutsideTheRotatedBoundsMisses() {
        let root = makeRotatedBar(.pi / 4)
        // The frame is a 60√2 ≈ 84.9 square about (100, 100); its corner region (140, 60) is (40, −40) from
        // the centre, which un-rotates to (0, −40√2): 56.6 off the centre line, far outside the 20-high bar.
        XCTAssertEqual(hitName(root, 140, 60), "root")
    }

    func testQuarterTurnedLayerIsHitWhereItNowStands() {
        let root = makeRotatedBar(.pi / 2)
        // Turned upright, the bar covers x 90…110, y 50…150.
        XCTAssertEqual(hitName(root, 105, 140), "bar")
        XCTAssertEqual(hitName(root, 140, 105), "root")
    }

    // MARK: - Perspective

    /// root ⊃ stage (m34 = −1/500 about its centre (100, 100)) ⊃ card: 100 × 100 about (100, 100), turned
    /// 60° about y.
    private func makeTiltedCard() -> CALayer {
        let root = makeRoot()
        let stage = makeLayer("stage", frame: CGRect(x: 0, y: 0, width: 200, height: 200), in: root)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        stage.sublayerTransform = perspective
        let card = makeLayer("card", frame: CGRect(x: 50, y: 50, width: 100, height: 100), in: stage)
        card.transform = CATransform3DMakeRotation(.pi / 3, 0, 1, 0)
        return root
    }

    /// Where the card-local offset (x, y) from the centre appears: turning by β about y gives
    /// (x cosβ, y, −x sinβ); m34 = −1/500 then divides by w = 1 − z/500 = 1 + x sinβ/500.
    private func projectedCardPoint(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let beta = Double.pi / 3
        let w = 1 + x * sin(beta) / 500
        return (100 + x * cos(beta) / w, 100 + y / w)
    }

    func testPerspectiveCardIsHitJustInsideItsRecedingEdge() {
        let root = makeTiltedCard()
        // The right edge (x = 50) recedes: it shows at 100 + 25/1.0866 ≈ 123.007.
        let edge = projectedCardPoint(50, 0).x
        XCTAssertEqual(edge, 123.007, accuracy: 1e-3)
        XCTAssertEqual(hitName(root, edge - 0.1, 100), "card")
        XCTAssertEqual(hitName(root, edge + 0.1, 100), "stage")
    }

    func testPerspectiveCardIsHitJustInsideItsNearEdge() {
        let root = makeTiltedCard()
        // The left edge (x = −50) comes closer: 100 − 25/0.9134 ≈ 72.629.
        let edge = projectedCardPoint(-50, 0).x
        XCTAssertEqual(edge, 72.629, accuracy: 1e-3)
        XCTAssertEqual(hitName(root, edge + 0.1, 100), "card")
        XCTAssertEqual(hitName(root, edge - 0.1, 100), "stage")
    }

    func testPerspectiveCardTopEdgeIsForeshortenedOnTheRecedingSide() {
        let root = makeTiltedCard()
        // At card x = 40 the top edge (y = −50) shows at 100 − 50/w with w = 1 + 40·sin60°/500 ≈ 1.0693:
        // y ≈ 53.24, not 50 as it would without perspective.
        let top = projectedCardPoint(40, -50)
        XCTAssertEqual(top.y, 53.24, accuracy: 1e-2)
        XCTAssertEqual(hitName(root, top.x, top.y + 0.1), "card")
        XCTAssertEqual(hitName(root, top.x, top.y - 0.1), "stage")
    }

    func testPerspectiveCardTopEdgeReachesHigherOnTheNearSide() {
        let root = makeTiltedCard()
        // At card x = −40, w ≈ 0.9307 and the top edge shows at ≈ 46.28: above the unprojected 50.
        let top = projectedCardPoint(-40, -50)
        XCTAssertEqual(top.y, 46.28, accuracy: 1e-2)
        XCTAssertEqual(hitName(root, top.x, top.y + 0.1), "card")
        XCTAssertEqual(hitName(root, top.x, top.y - 0.1), "stage")
    }

    func testEdgeOnLayerHitsNothing() {
        let root = makeRoot()
        let edgeOn = makeLayer("edgeOn", frame: CGRect(x: 50, y: 50, width: 100, height: 100), in: root)
        edgeOn.transform = CATransform3DMakeRotation(.pi / 2, 0, 1, 0)
        XCTAssertEqual(hitName(root, 100, 100), "root")
    }

    // MARK: - Subclass shapes

    func testSubclassContainsDecidesTheHit() {
        let root = makeRoot()
        let disc = DiscLayer()
        disc.name = "disc"
        disc.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.addSublayer(disc)
        // Centre (50, 50), radius 50. (50, 5) is 45 from the centre; (10, 10) is 56.6 away, in the bounds'
        // corner but outside the disc.
        XCTAssertEqual(hitName(root, 50, 5), "disc")
        XCTAssertEqual(hitName(root, 10, 10), "root")
    }

    func testSubclassContainsAlsoClipsItsSublayersWithMasksToBounds() {
        let root = makeRoot()
        let disc = DiscLayer()
        disc.name = "disc"
        disc.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        disc.masksToBounds = true
        root.addSublayer(disc)
        makeLayer("fill", frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: disc)
        XCTAssertEqual(hitName(root, 50, 50), "fill")
        XCTAssertEqual(hitName(root, 10, 10), "root")
    }

    func testSubclassHitTestOverrideIsUsedForSublayers() {
        let root = makeRoot()
        let blocker = PassThroughLayer()
        blocker.name = "passThrough"
        blocker.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        makeLayer("below", frame: CGRect(x: 0, y: 0, width: 100, height: 100), in: root)
        root.addSublayer(blocker)
        XCTAssertEqual(hitName(root, 50, 50), "below")
    }
}

/// Hit only inside the disc inscribed in its bounds.
private final class DiscLayer: CALayer {
    override func contains(_ p: CGPoint) -> Bool {
        let r = bounds.width / 2
        let dx = p.x - bounds.midX, dy = p.y - bounds.midY
        return dx * dx + dy * dy <= r * r
    }
}

/// Never the target of a hit: events pass through to what is behind.
private final class PassThroughLayer: CALayer {
    override func hitTest(_ p: CGPoint) -> CALayer? { nil }
}
