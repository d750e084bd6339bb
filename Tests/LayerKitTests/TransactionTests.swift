import Foundation
import XCTest
@testable import LayerKit

/// `CATransaction`: nesting (only the outermost commit sends a packet), per-transaction properties that
/// nested transactions inherit, disableActions, completion blocks, and key-value access.
///
/// Packets are counted by a `CommitReceiver` registered with the process's distributor. Every test
/// flushes first so changes left by earlier tests do not land in its packets.
final class TransactionTests: XCTestCase {
    var receiver: PacketCounter!

    override func setUp() {
        super.setUp()
        CATransaction.flush()
        receiver = PacketCounter()
        CommitDistributor.shared.observe(receiver)
    }

    override func tearDown() {
        receiver = nil
        CATransaction.flush()
        super.tearDown()
    }

    /// A layer that has been committed once (so its changes animate implicitly).
    func committedLayer() -> CALayer {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        CATransaction.flush()
        receiver.reset()
        return layer
    }

    private func animation(duration: Double = 1) -> CABasicAnimation {
        let animation = CABasicAnimation(keyPath: "position.x")
        animation.fromValue = 0
        animation.toValue = 10
        animation.duration = duration
        animation.beginTime = 1000
        return animation
    }

    // MARK: - Nesting and packets

    func testOnlyTheOutermostCommitSendsAPacket() {
        let layer = CALayer()
        CATransaction.begin()
        layer.position = CGPoint(x: 1, y: 2)
        CATransaction.begin()
        layer.opacity = 0.5
        CATransaction.begin()
        layer.cornerRadius = 3
        CATransaction.commit()
        XCTAssertEqual(receiver.count, 0, "innermost commit sends nothing")
        CATransaction.commit()
        XCTAssertEqual(receiver.count, 0, "middle commit sends nothing")
        CATransaction.commit()
        XCTAssertEqual(receiver.count, 1, "outermost commit sends one packet")
        // The one packet carries all three changes of the layer.
        let change = receiver.packets.last?.changes.first { $0.layer == layer.layerID }
        let keys = Set(change?.values.map { $0.key } ?? [])
        XCTAssertTrue(keys.isSuperset(of: [.position, .opacity, .cornerRadius]), "keys: \(keys)")
    }

    func testFlushInsideAnExplicitTransactionSendsNothing() {
        let layer = CALayer()
        CATransaction.begin()
        layer.position = CGPoint(x: 1, y: 2)
        CATransaction.flush()
        XCTAssertEqual(receiver.count, 0)
        CATransaction.commit()
        XCTAssertEqual(receiver.count, 1)
    }

    func testImplicitTransactionSendsAtFlush() {
        let layer = CALayer()
        layer.position = CGPoint(x: 1, y: 2)
        layer.opacity = 0.5
        XCTAssertEqual(receiver.count, 0, "nothing before the host flushes")
        CATransaction.flush()
        XCTAssertEqual(receiver.count, 1)
        CATransaction.flush()
        XCTAssertEqual(receiver.count, 1, "an empty transaction sends no packet")
    }

    func testAPacketHoldsOnlyWhatChanged() {
        let layer = committedLayer()
        CATransaction.setDisableActions(true)  // no implicit animation: just the property
        layer.cornerRadius = 4
        CATransaction.flush()
        XCTAssertEqual(receiver.count, 1)
        let changes = receiver.packets.last?.changes ?? []
        XCTAssertEqual(changes.count, 1)
        XCTAssertEqual(changes.first?.values.map { $0.key }, [.cornerRadius])
    }

    func testCommitWithoutBeginDoesNothing() {
        let layer = CALayer()
        layer.position = CGPoint(x: 3, y: 3)
        CATransaction.commit()  // no explicit transaction open: ignored
        XCTAssertEqual(receiver.count, 0)
        CATransaction.flush()
        XCTAssertEqual(receiver.count, 1)
    }

    // MARK: - Properties

    func testAnimationDurationDefaultsToAQuarterSecond() {
        XCTAssertEqual(CATransaction.animationDuration(), 0.25)
        CATransaction.begin()
        XCTAssertEqual(CATransaction.animationDuration(), 0.25)
        CATransaction.commit()
    }

    func testAnimationDurationIsInheritedByNestedTransactionsAndRestoredAfter() {
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        CATransaction.begin()
        XCTAssertEqual(CATransaction.animationDuration(), 2, "inherited")
        CATransaction.setAnimationDuration(3)
        CATransaction.begin()
        XCTAssertEqual(CATransaction.animationDuration(), 3, "inherited from the middle one")
        CATransaction.commit()
        XCTAssertEqual(CATransaction.animationDuration(), 3)
        CATransaction.commit()
        XCTAssertEqual(CATransaction.animationDuration(), 2, "the inner override ended with its transaction")
        CATransaction.commit()
        XCTAssertEqual(CATransaction.animationDuration(), 0.25)
    }

    func testImplicitTransactionPropertiesResetAtFlush() {
        CATransaction.setAnimationDuration(5)
        CATransaction.setDisableActions(true)
        XCTAssertEqual(CATransaction.animationDuration(), 5)
        CATransaction.flush()
        XCTAssertEqual(CATransaction.animationDuration(), 0.25)
        XCTAssertFalse(CATransaction.disableActions())
    }

    func testAnAnimationWithoutDurationTakesTheTransactionsWhenAdded() {
        let layer = CALayer()
        CATransaction.begin()
        CATransaction.setAnimationDuration(1.5)
        let a = animation(duration: 0)
        layer.add(a, forKey: "a")
        CATransaction.setAnimationDuration(9)  // later changes do not affect an animation already added
        CATransaction.commit()
        let record = layer.animationList.entries.first?.record
        XCTAssertEqual(record?.timing.duration, 1.5)
        XCTAssertEqual(layer.animation(forKey: "a")?.duration, 1.5, "the layer's copy shows the resolved duration")
    }

    func testAnAnimationWithoutBeginTimeBeginsAtCommit() {
        let layer = CALayer()
        let a = animation()
        a.beginTime = 0
        let before = CACurrentMediaTime()
        layer.add(a, forKey: "a")
        CATransaction.flush()
        let after = CACurrentMediaTime()
        let begin = layer.animationList.entries.first?.record?.timing.beginTime ?? 0
        XCTAssertGreaterThanOrEqual(begin, before)
        XCTAssertLessThanOrEqual(begin, after)
    }

    func testAnimationTimingFunctionIsAPerTransactionProperty() {
        XCTAssertNil(CATransaction.animationTimingFunction())
        CATransaction.begin()
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeIn))
        CATransaction.begin()
        XCTAssertEqual(CATransaction.animationTimingFunction(), CAMediaTimingFunction(name: .easeIn))
        CATransaction.commit()
        CATransaction.commit()
        XCTAssertNil(CATransaction.animationTimingFunction())
    }

    func testDisableActionsSuppressesImplicitAnimations() {
        let layer = committedLayer()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.position = CGPoint(x: 40, y: 40)
        CATransaction.begin()
        XCTAssertTrue(CATransaction.disableActions(), "inherited")
        layer.opacity = 0.25
        CATransaction.commit()
        CATransaction.commit()
        XCTAssertNil(layer.animationKeys())
        XCTAssertEqual(layer.position, CGPoint(x: 40, y: 40))
        // Actions are back afterwards.
        layer.position = CGPoint(x: 0, y: 0)
        XCTAssertEqual(layer.animationKeys(), ["position"])
    }

    func testValueForKeyAndSetValueForKey() {
        CATransaction.begin()
        CATransaction.setValue("token", forKey: "myKey")
        CATransaction.setValue(0.75, forKey: kCATransactionAnimationDuration)
        CATransaction.setValue(true, forKey: kCATransactionDisableActions)
        XCTAssertEqual(CATransaction.value(forKey: "myKey") as? String, "token")
        XCTAssertEqual(CATransaction.animationDuration(), 0.75, "the named accessors read the same storage")
        XCTAssertTrue(CATransaction.disableActions())
        CATransaction.setAnimationDuration(0.5)
        XCTAssertEqual(CATransaction.value(forKey: kCATransactionAnimationDuration) as? Double, 0.5)
        CATransaction.begin()
        XCTAssertEqual(CATransaction.value(forKey: "myKey") as? String, "token", "nested transactions inherit custom keys")
        CATransaction.setValue(nil, forKey: "myKey")
        XCTAssertNil(CATransaction.value(forKey: "myKey"))
        CATransaction.commit()
        XCTAssertEqual(CATransaction.value(forKey: "myKey") as? String, "token")
        CATransaction.commit()
        XCTAssertNil(CATransaction.value(forKey: "myKey"))
    }

    func testCompletionBlockSetThroughSetValueForKey() {
        var ran = false
        CATransaction.begin()
        CATransaction.setValue({ ran = true } as () -> Void, forKey: kCATransactionCompletionBlock)
        XCTAssertNotNil(CATransaction.completionBlock())
        CATransaction.commit()
        XCTAssertTrue(ran)
    }

    // MARK: - Completion blocks

    func testCompletionBlockRunsAtCommitWhenNoAnimationWasAdded() {
        var runs = 0
        let layer = CALayer()  // never committed: no implicit animation
        CATransaction.begin()
        CATransaction.setCompletionBlock { runs += 1 }
        layer.position = CGPoint(x: 5, y: 5)
        XCTAssertEqual(runs, 0, "not before the commit")
        CATransaction.commit()
        XCTAssertEqual(runs, 1)
        CATransaction.flush()
        XCTAssertEqual(runs, 1, "once")
    }

    func testImplicitTransactionCompletionBlockRunsAtFlush() {
        var runs = 0
        CATransaction.setCompletionBlock { runs += 1 }
        XCTAssertEqual(runs, 0)
        CATransaction.flush()
        XCTAssertEqual(runs, 1)
    }

    func testCompletionBlockWaitsForItsAnimations() {
        var runs = 0
        let layer = CALayer()
        CATransaction.begin()
        CATransaction.setCompletionBlock { runs += 1 }
        layer.add(animation(), forKey: "a")
        CATransaction.commit()
        XCTAssertEqual(runs, 0, "the animation has not finished")
        AnimationCallbacks.shared.deliverPending()
        XCTAssertEqual(runs, 0)
    }

    func testCompletionBlockRunsWhenItsAnimationIsRemovedEarly() {
        var runs = 0
        let layer = CALayer()
        CATransaction.begin()
        CATransaction.setCompletionBlock { runs += 1 }
        layer.add(animation(), forKey: "a")
        layer.add(animation(), forKey: "b")
        CATransaction.commit()
        layer.removeAnimation(forKey: "a")
        AnimationCallbacks.shared.deliverPending()
        XCTAssertEqual(runs, 0, "one of two removed")
        layer.removeAnimation(forKey: "b")
        XCTAssertEqual(runs, 0, "delivered on the main thread's next delivery, not inside removeAnimation")
        AnimationCallbacks.shared.deliverPending()
        XCTAssertEqual(runs, 1)
        AnimationCallbacks.shared.deliverPending()
        XCTAssertEqual(runs, 1, "once")
    }

    func testRemoveAllAnimationsCompletesTheTransaction() {
        var runs = 0
        let layer = CALayer()
        CATransaction.begin()
        CATransaction.setCompletionBlock { runs += 1 }
        layer.add(animation(), forKey: "a")
        layer.add(animation(), forKey: nil)
        CATransaction.commit()
        layer.removeAllAnimations()
        CATransaction.flush()  // delivers pending callbacks
        XCTAssertEqual(runs, 1)
    }

    func testReplacingAnAnimationUnderTheSameKeyCountsAsRemovingIt() {
        var runs = 0
        let layer = CALayer()
        CATransaction.begin()
        CATransaction.setCompletionBlock { runs += 1 }
        layer.add(animation(), forKey: "a")
        CATransaction.commit()
        layer.add(animation(), forKey: "a")  // added outside the transaction: not counted by it
        CATransaction.flush()
        XCTAssertEqual(runs, 1)
    }

    func testOuterCompletionWaitsForAnimationsAddedInNestedTransactions() {
        var outer = 0, inner = 0
        let layer = CALayer()
        CATransaction.begin()
        CATransaction.setCompletionBlock { outer += 1 }
        CATransaction.begin()
        CATransaction.setCompletionBlock { inner += 1 }
        layer.add(animation(), forKey: "a")
        CATransaction.commit()
        CATransaction.commit()
        XCTAssertEqual(inner, 0)
        XCTAssertEqual(outer, 0, "the nested transaction's animation counts for the outer one too")
        layer.removeAnimation(forKey: "a")
        AnimationCallbacks.shared.deliverPending()
        XCTAssertEqual(inner, 1)
        XCTAssertEqual(outer, 1)
    }

    func testAnimationAddedAfterTheCommitDoesNotDelayTheBlock() {
        var runs = 0
        let layer = CALayer()
        CATransaction.begin()
        CATransaction.setCompletionBlock { runs += 1 }
        CATransaction.commit()
        XCTAssertEqual(runs, 1)
        layer.add(animation(), forKey: "a")
        CATransaction.flush()
        XCTAssertEqual(runs, 1)
    }

    func testCompletionBlockReplacedBeforeCommitRunsOnlyTheLastOne() {
        var first = 0, second = 0
        CATransaction.begin()
        CATransaction.setCompletionBlock { first += 1 }
        CATransaction.setCompletionBlock { second += 1 }
        CATransaction.commit()
        XCTAssertEqual(first, 0)
        XCTAssertEqual(second, 1)
    }
}

/// Counts the commit packets distributed while it is registered (and alive).
final class PacketCounter: CommitReceiver, @unchecked Sendable {
    private let lock = NSLock()
    private var received: [CommitPacket] = []

    func receive(_ packet: CommitPacket) {
        lock.lock()
        received.append(packet)
        lock.unlock()
    }

    var packets: [CommitPacket] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    var count: Int { packets.count }

    func reset() {
        lock.lock()
        received.removeAll()
        lock.unlock()
    }
}
