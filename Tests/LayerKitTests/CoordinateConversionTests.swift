import Foundation
import XCTest
@testable import LayerKit

/// `convert(_:from:)` / `convert(_:to:)` for points and rectangles between layers of one tree, through
/// translation, rotation, scale, `sublayerTransform` about the anchor, `isGeometryFlipped`, and a nested 3D
/// rotation seen through a parent's perspective.
///
/// Expected values are worked out by hand (commented) or with plain `Double` arithmetic written out in the
/// test; none is produced by LayerKit's own matrix code. Placement rule (Core Animation's): a layer point p
/// lands in its superlayer at `(p − anchorInBounds) · transform + position`, with
/// `anchorInBounds = bounds.origin + anchorPoint · bounds.size`.
final class CoordinateConversionTests: XCTestCase {
    /// A 400 × 400 root whose own space coincides with the world (its frame is (0, 0, 400, 400)).
    private func makeRoot() -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 400, height: 400)
        root.position = CGPoint(x: 200, y: 200)
        return root
    }

    private func makeLayer(_ bounds: CGRect, position: CGPoint, in parent: CALayer) -> CALayer {
        let layer = CALayer()
        layer.bounds = bounds
        layer.position = position
        parent.addSublayer(layer)
        return layer
    }

    // MARK: - Translation

    func testSameLayerConversionIsTheIdentity() {
        let root = makeRoot()
        let a = makeLayer(CGRect(x: 0, y: 0, width: 10, height: 10), position: CGPoint(x: 50, y: 50), in: root)
        XCTAssertEqual(a.convert(CGPoint(x: 3, y: 4), from: a), CGPoint(x: 3, y: 4))
    }

    func testSiblingsThroughTranslationDifferByTheirFrameOrigins() {
        let root = makeRoot()
        // a's frame is (20, 30, 100, 100); b's is (100, 100, 50, 50).
        let a = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 70, y: 80), in: root)
        let b = makeLayer(CGRect(x: 0, y: 0, width: 50, height: 50), position: CGPoint(x: 125, y: 125), in: root)
        // b (10, 10) → root (110, 110) → a (110 − 20, 110 − 30).
        XCTAssertEqual(a.convert(CGPoint(x: 10, y: 10), from: b), CGPoint(x: 90, y: 80))
        XCTAssertEqual(b.convert(CGPoint(x: 10, y: 10), to: a), CGPoint(x: 90, y: 80))
        XCTAssertEqual(b.convert(CGPoint(x: 90, y: 80), from: a), CGPoint(x: 10, y: 10))
    }

    func testBoundsOriginShiftsTheLayersOwnCoordinates() {
        let root = makeRoot()
        // Frame (100, 100, 50, 50), but the top-left corner is called (10, 10) inside the layer.
        let b = makeLayer(CGRect(x: 10, y: 10, width: 50, height: 50), position: CGPoint(x: 125, y: 125), in: root)
        XCTAssertEqual(root.convert(CGPoint(x: 10, y: 10), from: b), CGPoint(x: 100, y: 100))
        XCTAssertEqual(b.convert(CGPoint(x: 100, y: 100), from: root), CGPoint(x: 10, y: 10))
    }

    func testBoundsOriginOfTheParentShiftsWhereItsSublayersAppear() {
        let root = makeRoot()
        // The parent scrolls its content by (30, 40): a sublayer at (0, 0) shows at the parent's (−30, −40).
        let parent = makeLayer(CGRect(x: 30, y: 40, width: 200, height: 200), position: CGPoint(x: 100, y: 100), in: root)
        let child = makeLayer(CGRect(x: 0, y: 0, width: 10, height: 10), position: CGPoint(x: 5, y: 5), in: parent)
        // child (0, 0) is parent (0, 0) in bounds terms; the parent's frame starts at (0, 0) and its bounds
        // at (30, 40), so in root that point is (0 − 30, 0 − 40).
        XCTAssertEqual(root.convert(CGPoint(x: 0, y: 0), from: child), CGPoint(x: -30, y: -40))
    }

    func testWorldConversionsUseTheRootsSuperlayerSpace() {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.position = CGPoint(x: 60, y: 70)      // frame (10, 20, 100, 100)
        let a = makeLayer(CGRect(x: 0, y: 0, width: 10, height: 10), position: CGPoint(x: 5, y: 5), in: root)
        XCTAssertEqual(a.convert(CGPoint(x: 1, y: 2), to: nil), CGPoint(x: 11, y: 22))
        XCTAssertEqual(a.convert(CGPoint(x: 11, y: 22), from: nil), CGPoint(x: 1, y: 2))
    }

    func testLayersInDifferentTreesAreRelatedThroughTheirRootsSuperlayerSpaces() {
        let first = CALayer()
        first.frame = CGRect(x: 10, y: 20, width: 100, height: 100)
        let second = CALayer()
        second.frame = CGRect(x: 300, y: 50, width: 100, height: 100)
        let a = makeLayer(CGRect(x: 0, y: 0, width: 10, height: 10), position: CGPoint(x: 25, y: 25), in: first)   // frame (20, 20, …)
        // a (1, 1) → first (21, 21) → world (31, 41) → second (31 − 300, 41 − 50).
        XCTAssertEqual(second.convert(CGPoint(x: 1, y: 1), from: a), CGPoint(x: -269, y: -9))
        XCTAssertEqual(a.convert(CGPoint(x: -269, y: -9), from: second), CGPoint(x: 1, y: 1))
    }

    // MARK: - Rotation and scale

    func testPointThroughAQuarterTurn() {
        let root = makeRoot()
        let b = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 50), position: CGPoint(x: 200, y: 100), in: root)
        b.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        // (0, 0) is (−50, −25) from the anchor; (x, y) ↦ (−y, x) gives (25, −50); plus (200, 100).
        expectPoint(root.convert(CGPoint(x: 0, y: 0), from: b), CGPoint(x: 225, y: 50))
        // (100, 0) is (50, −25) from the anchor ↦ (25, 50) → (225, 150).
        expectPoint(root.convert(CGPoint(x: 100, y: 0), from: b), CGPoint(x: 225, y: 150))
        expectPoint(b.convert(CGPoint(x: 225, y: 150), from: root), CGPoint(x: 100, y: 0))
    }

    func testPointBetweenSiblingsWhereOneIsRotatedBy30Degrees() {
        let root = makeRoot()
        let a = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 60, y: 70), in: root) // frame (10, 20, …)
        let b = makeLayer(CGRect(x: 0, y: 0, width: 80, height: 40), position: CGPoint(x: 200, y: 150), in: root)
        let theta = Double.pi / 6
        b.transform = CATransform3DMakeRotation(theta, 0, 0, 1)
        // b (70, 5) is (30, −15) from the anchor (40, 20); rotate, add (200, 150), subtract a's origin (10, 20).
        let (dx, dy) = (30.0, -15.0)
        let expected = CGPoint(x: dx * cos(theta) - dy * sin(theta) + 200 - 10,
                               y: dx * sin(theta) + dy * cos(theta) + 150 - 20)
        expectPoint(a.convert(CGPoint(x: 70, y: 5), from: b), expected)
        expectPoint(b.convert(expected, from: a), CGPoint(x: 70, y: 5))
    }

    func testPointThroughUnequalScale() {
        let root = makeRoot()
        let b = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 50), position: CGPoint(x: 200, y: 100), in: root)
        b.transform = CATransform3DMakeScale(2, 3, 1)
        // (0, 0): (−50, −25)·(2, 3) = (−100, −75) → (100, 25). (100, 50): (50, 25)·(2, 3) → (300, 175).
        XCTAssertEqual(root.convert(CGPoint(x: 0, y: 0), from: b), CGPoint(x: 100, y: 25))
        XCTAssertEqual(root.convert(CGPoint(x: 100, y: 50), from: b), CGPoint(x: 300, y: 175))
        XCTAssertEqual(b.convert(CGPoint(x: 300, y: 175), from: root), CGPoint(x: 100, y: 50))
    }

    func testRectThroughAQuarterTurnIsTheBoxOfItsCorners() {
        let root = makeRoot()
        let b = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 50), position: CGPoint(x: 200, y: 100), in: root)
        b.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        // The whole bounds map onto the frame: (175, 50, 50, 100).
        expectRect(root.convert(CGRect(x: 0, y: 0, width: 100, height: 50), from: b),
                   CGRect(x: 175, y: 50, width: 50, height: 100))
        // The left half (x 0…50) is (−50…0, −25…25) from the anchor ↦ x ∈ [−25, 25], y ∈ [−50, 0].
        expectRect(b.convert(CGRect(x: 0, y: 0, width: 50, height: 50), to: root),
                   CGRect(x: 175, y: 50, width: 50, height: 50))
    }

    func testRectBetweenCousinsUnderDifferentParents() {
        let root = makeRoot()
        // left: translated parent, frame (0, 0, 200, 400). right: parent scaled by 2 about its centre.
        let left = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 400), position: CGPoint(x: 100, y: 200), in: root)
        let right = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 300, y: 200), in: root)
        right.transform = CATransform3DMakeScale(2, 2, 1)   // frame (200, 100, 200, 200)
        let a = makeLayer(CGRect(x: 0, y: 0, width: 20, height: 20), position: CGPoint(x: 50, y: 60), in: left)   // frame (40, 50, …) in left
        let b = makeLayer(CGRect(x: 0, y: 0, width: 10, height: 10), position: CGPoint(x: 15, y: 25), in: right)  // frame (10, 20, …) in right
        // b's bounds (0, 0, 10, 10) → right (10, 20, 10, 10) → root: right's (p − (50, 50))·2 + (300, 200)
        // = (220, 140, 20, 20) → a: minus left's origin (0, 0) and a's origin (40, 50) = (180, 90, 20, 20).
        XCTAssertEqual(a.convert(CGRect(x: 0, y: 0, width: 10, height: 10), from: b),
                       CGRect(x: 180, y: 90, width: 20, height: 20))
        XCTAssertEqual(b.convert(CGRect(x: 180, y: 90, width: 20, height: 20), from: a),
                       CGRect(x: 0, y: 0, width: 10, height: 10))
    }

    // MARK: - sublayerTransform and isGeometryFlipped

    func testSublayerTransformScalesSublayersAboutTheParentsAnchor() {
        let root = makeRoot()
        let parent = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 200), position: CGPoint(x: 100, y: 100), in: root)
        parent.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
        let child = makeLayer(CGRect(x: 0, y: 0, width: 20, height: 20), position: CGPoint(x: 150, y: 100), in: parent)
        // child (0, 0) is parent-sublayer (140, 90); about the anchor (100, 100): (100 + 2·40, 100 + 2·(−10)).
        XCTAssertEqual(parent.convert(CGPoint(x: 0, y: 0), from: child), CGPoint(x: 180, y: 80))
        // child (20, 20) is (160, 110) → (100 + 120, 100 + 20).
        XCTAssertEqual(root.convert(CGPoint(x: 20, y: 20), from: child), CGPoint(x: 220, y: 120))
        XCTAssertEqual(child.convert(CGPoint(x: 220, y: 120), from: root), CGPoint(x: 20, y: 20))
    }

    func testSublayerTransformRotatesAboutAnOffCentreAnchor() {
        let root = makeRoot()
        let parent = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 100), position: CGPoint(x: 0, y: 0), in: root)
        parent.anchorPoint = CGPoint(x: 0, y: 0)    // frame (0, 0, 200, 100); anchor in bounds (0, 0)
        parent.sublayerTransform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let child = makeLayer(CGRect(x: 0, y: 0, width: 10, height: 10), position: CGPoint(x: 35, y: 5), in: parent)
        // child (0, 0) is sublayer-space (30, 0); a quarter turn about (0, 0): (x, y) ↦ (−y, x) = (0, 30).
        expectPoint(parent.convert(CGPoint(x: 0, y: 0), from: child), CGPoint(x: 0, y: 30))
        // child (10, 10) is (40, 10) ↦ (−10, 40).
        expectPoint(root.convert(CGPoint(x: 10, y: 10), from: child), CGPoint(x: -10, y: 40))
    }

    func testSublayerTransformDoesNotMoveTheLayerItself() {
        let root = makeRoot()
        let parent = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 200), position: CGPoint(x: 150, y: 150), in: root)
        parent.sublayerTransform = CATransform3DMakeScale(3, 3, 1)
        XCTAssertEqual(root.convert(CGPoint(x: 0, y: 0), from: parent), CGPoint(x: 50, y: 50))
        XCTAssertEqual(parent.frame, CGRect(x: 50, y: 50, width: 200, height: 200))
    }

    func testGeometryFlippedParentPutsASublayerAtTheBottom() {
        let root = makeRoot()
        let parent = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 100), position: CGPoint(x: 100, y: 50), in: root)
        parent.isGeometryFlipped = true
        // In flipped geometry y grows up from the bottom: y' = (minY + maxY) − y = 100 − y.
        let child = makeLayer(CGRect(x: 0, y: 0, width: 20, height: 10), position: CGPoint(x: 10, y: 5), in: parent)
        XCTAssertEqual(parent.convert(CGPoint(x: 0, y: 0), from: child), CGPoint(x: 0, y: 100))
        XCTAssertEqual(parent.convert(CGPoint(x: 0, y: 10), from: child), CGPoint(x: 0, y: 90))
        XCTAssertEqual(root.convert(CGRect(x: 0, y: 0, width: 20, height: 10), from: child),
                       CGRect(x: 0, y: 90, width: 20, height: 10))
    }

    func testGeometryFlippedMirrorsAboutTheMiddleOfNonZeroOriginBounds() {
        let root = makeRoot()
        let parent = makeLayer(CGRect(x: 0, y: 50, width: 200, height: 100), position: CGPoint(x: 100, y: 50), in: root)
        parent.isGeometryFlipped = true
        let child = makeLayer(CGRect(x: 0, y: 0, width: 20, height: 10), position: CGPoint(x: 10, y: 65), in: parent)
        // child (0, 0) is sublayer-space (0, 60); flipped: (50 + 150) − 60 = 140 in the parent's bounds space.
        XCTAssertEqual(parent.convert(CGPoint(x: 0, y: 0), from: child), CGPoint(x: 0, y: 140))
        // The parent's bounds start at y = 50 and its frame at y = 0, so root sees y = 90.
        XCTAssertEqual(root.convert(CGPoint(x: 0, y: 0), from: child), CGPoint(x: 0, y: 90))
    }

    func testGeometryFlippedDoesNotFlipTheLayerItself() {
        let root = makeRoot()
        let layer = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 100), position: CGPoint(x: 100, y: 50), in: root)
        layer.isGeometryFlipped = true
        XCTAssertEqual(root.convert(CGPoint(x: 0, y: 10), from: layer), CGPoint(x: 0, y: 10))
    }

    // MARK: - Nested 3D rotation under perspective

    /// root (world) ⊃ stage (sublayerTransform m34 = −1/500) ⊃ card (rotated 60° about y) ⊃ badge
    /// (rotated 30° about x, flattened into the card), plus a flat sibling `flat` of the card.
    private struct PerspectiveScene {
        let root: CALayer, stage: CALayer, card: CALayer, badge: CALayer, flat: CALayer
    }

    private func makePerspectiveScene() -> PerspectiveScene {
        let root = makeRoot()
        let stage = makeLayer(CGRect(x: 0, y: 0, width: 400, height: 400), position: CGPoint(x: 200, y: 200), in: root)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        stage.sublayerTransform = perspective
        let card = makeLayer(CGRect(x: 0, y: 0, width: 200, height: 100), position: CGPoint(x: 200, y: 200), in: stage)
        card.transform = CATransform3DMakeRotation(.pi / 3, 0, 1, 0)
        let badge = makeLayer(CGRect(x: 0, y: 0, width: 50, height: 50), position: CGPoint(x: 150, y: 50), in: card)
        badge.transform = CATransform3DMakeRotation(.pi / 6, 1, 0, 0)
        let flat = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 250, y: 250), in: stage)
        return PerspectiveScene(root: root, stage: stage, card: card, badge: badge, flat: flat)
    }

    /// Where a badge point lands in the stage (= root = world) by plain arithmetic.
    ///
    /// Rotations as Core Animation defines them (row vectors): about x by α, (x, y, 0) ↦ (x, y cosα, y sinα);
    /// about y by β, (x, y, 0) ↦ (x cosβ, y, −x sinβ). A layer shows its sublayers flattened onto its plane
    /// (z dropped). The stage's m34 = −1/500 about its anchor (200, 200) makes w = 1 − z/500.
    private func badgePointInStage(_ p: (x: Double, y: Double)) -> CGPoint {
        let alpha = Double.pi / 6, beta = Double.pi / 3
        // Badge: relative to its anchor (25, 25), rotate about x, flatten, place at (150, 50) in the card.
        let bx = p.x - 25, by = p.y - 25
        let inCard = (x: bx + 150, y: by * cos(alpha) + 50)
        // Card: relative to its anchor (100, 50), rotate about y; place at (200, 200), i.e. the stage's anchor.
        let cx = inCard.x - 100, cy = inCard.y - 50
        let x3 = cx * cos(beta), y3 = cy, z3 = -cx * sin(beta)
        // Stage perspective about its anchor.
        let w = 1 - z3 / 500
        return CGPoint(x: 200 + x3 / w, y: 200 + y3 / w)
    }

    func testPointThroughNestedRotationsAndPerspectiveMatchesTheProjectionAlgebra() {
        let scene = makePerspectiveScene()
        for p in [(x: 50.0, y: 50.0), (x: 0.0, y: 0.0), (x: 10.0, y: 40.0)] {
            let expected = badgePointInStage(p)
            expectPoint(scene.root.convert(CGPoint(x: p.x, y: p.y), from: scene.badge), expected, accuracy: 1e-9)
            expectPoint(scene.badge.convert(CGPoint(x: p.x, y: p.y), to: nil), expected, accuracy: 1e-9)
        }
        // One value worked through by hand: badge (50, 50) → card (175, 50 + 25·cos30°) → relative (75, 21.65)
        // → rotated (37.5, 21.65, −64.95) → w = 1.1299 → stage (233.19, 219.16).
        let p = scene.root.convert(CGPoint(x: 50, y: 50), from: scene.badge)
        XCTAssertEqual(p.x, 233.188, accuracy: 1e-3)
        XCTAssertEqual(p.y, 219.161, accuracy: 1e-3)
    }

    func testWorldPointMapsBackOntoTheTiltedBadge() {
        let scene = makePerspectiveScene()
        let world = badgePointInStage((x: 10, y: 40))
        expectPoint(scene.badge.convert(world, from: scene.root), CGPoint(x: 10, y: 40), accuracy: 1e-9)
        expectPoint(scene.badge.convert(world, from: nil), CGPoint(x: 10, y: 40), accuracy: 1e-9)
    }

    func testTiltedBadgePointInAFlatCousinIsItsStagePointLessTheCousinsOrigin() {
        let scene = makePerspectiveScene()
        // `flat` lies at z = 0, where the perspective divides by w = 1: its frame is (200, 200, 100, 100).
        let stagePoint = badgePointInStage((x: 50, y: 50))
        let expected = CGPoint(x: stagePoint.x - 200, y: stagePoint.y - 200)
        expectPoint(scene.flat.convert(CGPoint(x: 50, y: 50), from: scene.badge), expected, accuracy: 1e-9)
        expectPoint(scene.badge.convert(expected, from: scene.flat), CGPoint(x: 50, y: 50), accuracy: 1e-9)
    }

    func testRectFromTheTiltedBadgeIsTheBoxOfItsProjectedCorners() {
        let scene = makePerspectiveScene()
        let corners = [(x: 0.0, y: 0.0), (x: 50.0, y: 0.0), (x: 50.0, y: 50.0), (x: 0.0, y: 50.0)].map(badgePointInStage)
        let minX = corners.map(\.x).min()!, maxX = corners.map(\.x).max()!
        let minY = corners.map(\.y).min()!, maxY = corners.map(\.y).max()!
        expectRect(scene.root.convert(CGRect(x: 0, y: 0, width: 50, height: 50), from: scene.badge),
                   CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY), accuracy: 1e-9)
    }

    func testRoundTripsThroughPerspectiveReturnTheStartingPoint() {
        let scene = makePerspectiveScene()
        let pairs: [(CALayer, CALayer)] = [(scene.badge, scene.flat), (scene.flat, scene.badge),
                                           (scene.card, scene.badge), (scene.badge, scene.root)]
        for (from, to) in pairs {
            for p in [CGPoint(x: 3, y: 7), CGPoint(x: 45, y: 12), CGPoint(x: -20, y: 30)] {
                let there = from.convert(p, to: to)
                expectPoint(from.convert(there, from: to), p, accuracy: 1e-9)
            }
        }
    }

    func testRoundTripsThroughRotationScaleAndFlipReturnTheStartingPoint() {
        let root = makeRoot()
        let parent = makeLayer(CGRect(x: 5, y: -10, width: 200, height: 120), position: CGPoint(x: 180, y: 170), in: root)
        parent.isGeometryFlipped = true
        parent.sublayerTransform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        parent.transform = CATransform3DMakeScale(1.5, 0.75, 1)
        let child = makeLayer(CGRect(x: 0, y: 0, width: 40, height: 30), position: CGPoint(x: 60, y: 20), in: parent)
        child.anchorPoint = CGPoint(x: 0.2, y: 0.9)
        child.transform = CATransform3DMakeRotation(-1.1, 0, 0, 1)
        let other = makeLayer(CGRect(x: 0, y: 0, width: 10, height: 10), position: CGPoint(x: 300, y: 40), in: root)
        for p in [CGPoint(x: 0, y: 0), CGPoint(x: 13.5, y: -8.25), CGPoint(x: 40, y: 30)] {
            expectPoint(child.convert(child.convert(p, to: other), from: other), p, accuracy: 1e-9)
            expectPoint(child.convert(child.convert(p, to: nil), from: nil), p, accuracy: 1e-9)
        }
    }

    func testPointOffAnEdgeOnLayerHasNoImage() {
        let root = makeRoot()
        let edgeOn = makeLayer(CGRect(x: 0, y: 0, width: 100, height: 100), position: CGPoint(x: 200, y: 200), in: root)
        edgeOn.transform = CATransform3DMakeRotation(.pi / 2, 0, 1, 0)
        // Turned 90° about y with no perspective, the layer is a vertical line: no unique point on it maps
        // to a given world point, so the conversion is not finite.
        let p = edgeOn.convert(CGPoint(x: 200, y: 210), from: root)
        XCTAssertFalse(p.x.isFinite && p.y.isFinite, "\(p)")
    }

    // MARK: - Helpers

    private func expectPoint(_ p: CGPoint, _ q: CGPoint, accuracy: CGFloat = 1e-9,
                             file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(abs(p.x - q.x) <= accuracy && abs(p.y - q.y) <= accuracy,
                      "\(p) is not \(q) (±\(accuracy))", file: file, line: line)
    }

    private func expectRect(_ r: CGRect, _ s: CGRect, accuracy: CGFloat = 1e-9,
                            file: StaticString = #filePath, line: UInt = #line) {
        let ok = abs(r.minX - s.minX) <= accuracy && abs(r.minY - s.minY) <= accuracy
            && abs(r.width - s.width) <= accuracy && abs(r.height - s.height) <= accuracy
        XCTAssertTrue(ok, "\(r) is not \(s) (±\(accuracy))", file: file, line: line)
    }
}
