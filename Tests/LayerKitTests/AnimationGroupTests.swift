import Foundation
import XCTest
@testable import LayerKit

/// `CAAnimationGroup`: children run in the group's time (a child's beginTime is an offset into the group),
/// the group's duration cuts them off, and the group's own timing (speed, repeats) carries them.
///
/// Groups begin at absolute 1000; the layer's model position is (7, 7).
final class AnimationGroupTests: XCTestCase {
    override func setUp() {
        super.setUp()
        CATransaction.flush()
    }

    private func child(_ keyPath: String, from: CGFloat, to: CGFloat, begin: Double = 0, duration: Double = 1) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: keyPath)
        animation.fromValue = from
        animation.toValue = to
        animation.beginTime = begin
        animation.duration = duration
        return animation
    }

    private func group(_ children: [CAAnimation], duration: Double = 2) -> CAAnimationGroup {
        let group = CAAnimationGroup()
        group.animations = children
        group.beginTime = 1000
        group.duration = duration
        return group
    }

    /// Commits `group` on a fresh layer and returns the position at each absolute time.
    private func positions(_ group: CAAnimationGroup, at times: [Double]) -> [CGPoint?] {
        let layer = CALayer()
        layer.position = CGPoint(x: 7, y: 7)
        layer.add(group, forKey: "group")
        let records = AnimationTestKit.commit(layer)
        XCTAssertEqual(records.count, 1, "the group is one record")
        return times.map { AnimationTestKit.evaluate(records, on: layer, at: $0).value("position") as? CGPoint }
    }

    func testChildrenRunInGroupTime() {
        // Child x: 0 → 100 over group time 0…1; child y: 0 → 10 over group time 0.5…1.5.
        let g = group([child("position.x", from: 0, to: 100), child("position.y", from: 0, to: 10, begin: 0.5)])
        let result = positions(g, at: [1000.25, 1000.75, 1001.25, 1001.75, 1002])
        XCTAssertEqual(result[0], CGPoint(x: 25, y: 7), "x a quarter in; y not begun (model)")
        XCTAssertEqual(result[1], CGPoint(x: 75, y: 2.5), "y half a second late: (0.75 − 0.5)/1 · 10")
        XCTAssertEqual(result[2], CGPoint(x: 7, y: 7.5), "x has ended (model); y three quarters")
        XCTAssertEqual(result[3], CGPoint(x: 7, y: 7), "both children over; the group still runs")
        XCTAssertEqual(result[4], CGPoint(x: 7, y: 7), "the group is over")
    }

    func testAChildWithBeginTimeHalfStartsHalfASecondIn() {
        let g = group([child("position.x", from: 0, to: 100, begin: 0.5)])
        let result = positions(g, at: [1000.49, 1000.5, 1001, 1001.49])
        XCTAssertEqual(result[0]?.x, 7, "not yet")
        XCTAssertEqual(Double(result[1]?.x ?? .nan), 0, accuracy: 1e-9)
        XCTAssertEqual(Double(result[2]?.x ?? .nan), 50, accuracy: 1e-9)
        XCTAssertEqual(Double(result[3]?.x ?? .nan), 99, accuracy: 1e-9)
    }

    func testTheGroupsDurationCutsChildrenOff() {
        // Child 0 → 100 over 2 s; the group lasts 1.2 s: at 1.1 s the child is at 55; at 1.2 s all is over.
        let g = group([child("position.x", from: 0, to: 100, duration: 2)], duration: 1.2)
        let result = positions(g, at: [1001.1, 1001.2, 1001.5])
        XCTAssertEqual(Double(result[0]?.x ?? .nan), 55, accuracy: 1e-9)
        XCTAssertEqual(result[1]?.x, 7)
        XCTAssertEqual(result[2]?.x, 7)
    }

    func testAChildWithoutDurationTakesTheGroups() {
        let g = group([child("position.x", from: 0, to: 100, duration: 0)], duration: 4)
        let result = positions(g, at: [1001, 1003])
        XCTAssertEqual(Double(result[0]?.x ?? .nan), 25, accuracy: 1e-9)
        XCTAssertEqual(Double(result[1]?.x ?? .nan), 75, accuracy: 1e-9)
    }

    func testAGroupWithoutDurationTakesTheTransactionsAndSoDoItsChildren() {
        // Neither the group nor its child has a duration: both take the transaction's 2 s, as in Core Animation.
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        let layer = CALayer()
        layer.position = CGPoint(x: 7, y: 7)
        layer.add(group([child("position.x", from: 0, to: 100, duration: 0)], duration: 0), forKey: "group")
        CATransaction.commit()
        let records = layer.animationList.entries.compactMap(\.record)
        XCTAssertEqual(records.first?.timing.duration, 2)
        // Group time 1 of 2: the child (duration 2) is half way.
        let x = AnimationTestKit.evaluate(records, on: layer, at: 1001).number("position.x")
        XCTAssertEqual(x ?? .nan, 50, accuracy: 1e-9)
    }

    func testGroupSpeedTwoRunsChildrenTwiceAsFast() {
        // Group local time = (t − 1000) × 2: at t = 1000.25 the child (0 → 100 over 2) is at group time 0.5.
        let g = group([child("position.x", from: 0, to: 100, duration: 2)])
        g.speed = 2
        let result = positions(g, at: [1000.25, 1000.75, 1001])
        XCTAssertEqual(Double(result[0]?.x ?? .nan), 25, accuracy: 1e-9)
        XCTAssertEqual(Double(result[1]?.x ?? .nan), 75, accuracy: 1e-9)
        XCTAssertEqual(result[2]?.x, 7, "a 2 s group at speed 2 ends after 1 s")
    }

    func testRepeatingGroupRestartsItsChildren() {
        // Group of 1 s repeated twice: second pass at 0.25 → 25.
        let g = group([child("position.x", from: 0, to: 100)], duration: 1)
        g.repeatCount = 2
        let result = positions(g, at: [1000.25, 1001.25, 1002.25])
        XCTAssertEqual(Double(result[0]?.x ?? .nan), 25, accuracy: 1e-9)
        XCTAssertEqual(Double(result[1]?.x ?? .nan), 25, accuracy: 1e-9)
        XCTAssertEqual(result[2]?.x, 7)
    }

    func testAutoreversingGroupPlaysItsChildrenBackwards() {
        // Duration 1 forward then 1 back: at 1001.25 group time is 0.75 again.
        let g = group([child("position.x", from: 0, to: 100)], duration: 1)
        g.autoreverses = true
        let result = positions(g, at: [1000.75, 1001.25])
        XCTAssertEqual(Double(result[0]?.x ?? .nan), 75, accuracy: 1e-9)
        XCTAssertEqual(Double(result[1]?.x ?? .nan), 75, accuracy: 1e-9)
    }

    func testGroupAndChildFillingForwardsHoldTheFinalValue() {
        let late = child("position.x", from: 0, to: 100)
        late.fillMode = .forwards
        let g = group([late], duration: 1)
        g.fillMode = .forwards
        g.isRemovedOnCompletion = false
        XCTAssertEqual(positions(g, at: [1005])[0]?.x, 100)
    }

    func testChildrenOfDifferentKindsRunTogether() {
        let keys = CAKeyframeAnimation(keyPath: "position.y")
        keys.values = [0, 40, 0]
        keys.duration = 2
        let spring = CASpringAnimation(keyPath: "position.x")
        spring.fromValue = 0
        spring.toValue = 100
        spring.duration = 2
        let result = positions(group([keys, spring]), at: [1000.5])
        // Keyframes: times 0, 0.5, 1 over 2 s; at group time 0.5 (p 0.25): 40 · 0.5 = 20.
        XCTAssertEqual(Double(result[0]?.y ?? .nan), 20, accuracy: 1e-9)
        // Spring at τ = 0.5: 1 − e^−2.5·(cos 4.330 + 0.57735·sin 4.330) = 1.074591.
        XCTAssertEqual(Double(result[0]?.x ?? .nan), 107.459, accuracy: 1e-3)
    }

    func testEmptyGroupChangesNothing() {
        let g = group([])
        XCTAssertEqual(positions(g, at: [1001])[0], CGPoint(x: 7, y: 7))
        g.animations = nil
        XCTAssertEqual(positions(g, at: [1001])[0], CGPoint(x: 7, y: 7))
    }

    func testCopyingAGroupCopiesItsChildren() {
        let inner = child("position.x", from: 0, to: 100)
        let g = group([inner])
        let copy = g.copy() as? CAAnimationGroup
        XCTAssertEqual(copy?.animations?.count, 1)
        XCTAssertFalse(copy?.animations?.first === inner)
        XCTAssertEqual((copy?.animations?.first as? CABasicAnimation)?.toValue as? CGFloat, 100)
    }
}
