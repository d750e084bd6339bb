import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKit

/// Each `@unchecked Sendable` type of LayerKit used from several threads exactly as the invariant in its
/// doc comment allows, with the outcome checked: nothing lost, nothing duplicated, nothing of one thread
/// seen by another. Threads meet only at `concurrentPerform` and group joins, so every expectation is
/// fixed in advance. Run under ThreadSanitizer by `Tools/test --tsan`, which reports any access that the
/// stated lock or ownership does not cover.
final class SendableInvariantTests: XCTestCase {
    private static let threads = 8

    // MARK: - Lock-protected process-wide objects

    /// `Locked`, the lock behind the checked-`Sendable` types: increments from many threads at once are
    /// all counted, and a value read inside the lock is never half-written.
    func testLockedSerializesEveryAccess() {
        let counter = Locked((count: 0, twice: 0))
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            for _ in 0..<1_000 {
                counter.withLock { value in
                    value.count += 1
                    value.twice += 2
                }
            }
        }
        let final = counter.withLock { $0 }
        XCTAssertEqual(final.count, Self.threads * 1_000)
        XCTAssertEqual(final.twice, 2 * final.count)
    }

    /// `AnimationCallbacks`: the render thread only posts; registrations and queues are behind one lock;
    /// the delivering thread calls delegates. Many posting threads, deliveries interleaved with them:
    /// every animation starts once and stops once.
    func testAnimationEventsPostedFromManyThreadsReachEachDelegateOnceOnTheDeliveringThread() {
        final class Delegate: CAAnimationDelegate {
            var started: [ObjectIdentifier: Int] = [:]
            var stopped: [ObjectIdentifier: Int] = [:]
            var offThread = 0
            let owner = Thread.current
            func animationDidStart(_ anim: CAAnimation) {
                started[ObjectIdentifier(anim), default: 0] += 1
                if Thread.current != owner { offThread += 1 }
            }
            func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
                stopped[ObjectIdentifier(anim), default: 0] += flag ? 1 : 100
                if Thread.current != owner { offThread += 1 }
            }
        }
        let callbacks = AnimationCallbacks()
        let layer = CALayer()
        let delegate = Delegate()
        var animations: [CAAnimation] = []
        var ids: [AnimationID] = []
        for index in 0..<64 {
            let animation = CABasicAnimation(keyPath: "opacity")
            animation.delegate = delegate
            animation.isRemovedOnCompletion = false
            let id = AnimationID.next()
            callbacks.register(AttachedAnimation(key: "a\(index)", isAnonymous: false, animation: animation, id: id,
                                                 transactionDuration: 0.25, completionGroups: []), on: layer)
            animations.append(animation)
            ids.append(id)
        }
        let posting = DispatchGroup()
        let postedIDs = ids
        DispatchQueue.global().async(group: posting) {
            DispatchQueue.concurrentPerform(iterations: postedIDs.count) { index in
                let id = postedIDs[index]
                callbacks.post([.started(id)])
                // A repeated start (a later frame) is delivered once; the stop follows it.
                callbacks.post([.started(id), .stopped(id)])
            }
        }
        for _ in 0..<50 { callbacks.deliverPending() }
        posting.wait()
        callbacks.deliverPending()
        for animation in animations {
            XCTAssertEqual(delegate.started[ObjectIdentifier(animation)], 1)
            XCTAssertEqual(delegate.stopped[ObjectIdentifier(animation)], 1, "stopped once, finished")
        }
        XCTAssertEqual(delegate.offThread, 0, "delegates run on the thread that delivers")
        callbacks.deliverPending()
        XCTAssertEqual(delegate.stopped.values.reduce(0, +), 64, "nothing delivered twice")
    }

    /// `TransactionContext.CompletionGroup`: animations end on the delivering thread while the transaction
    /// commits on its own; the counts are behind the group's lock and the block runs exactly once, after
    /// the last of both.
    func testACompletionGroupSettledFromManyThreadsFiresOnceAfterItsLastAnimation() {
        let fired = CollectedValues<Int>()
        let group = TransactionContext.CompletionGroup { fired.append(1) }
        let animations = 200
        for _ in 0..<animations { group.addAnimation() }
        DispatchQueue.concurrentPerform(iterations: animations) { index in
            if index == animations / 2 { group.settle(committed: true) }
            if index != 0 { group.settle(animationEnded: true) }
        }
        XCTAssertEqual(fired.all.count, 0, "one animation is still running")
        group.settle(animationEnded: true)
        XCTAssertEqual(fired.all.count, 1)
        group.settle(committed: true)
        XCTAssertEqual(fired.all.count, 1, "never twice")
    }

    /// `CommitDistributor`: releases are recorded on whatever thread lets a layer go while a commit drains
    /// them; routes change from several threads. Every release is drained once; every remaining
    /// observer gets the commit.
    func testCommitDistributorLosesNoReleaseAndNoRouteAcrossThreads() {
        final class Observer: CommitReceiver {
            let packets = Locked(0)
            func receive(_ packet: CommitPacket) { packets.withLock { $0 += 1 } }
        }
        let distributor = CommitDistributor()
        let recorded = CollectedValues<LayerID>(), drained = CollectedValues<LayerID>()
        let observers = (0..<64).map { _ in Observer() }
        DispatchQueue.concurrentPerform(iterations: Self.threads + 1) { thread in
            if thread == Self.threads {
                for _ in 0..<100 { drained.append(contentsOf: distributor.drainReleased()) }
                return
            }
            for index in stride(from: thread, to: observers.count, by: Self.threads) {
                distributor.observe(observers[index])
                if index % 2 == 1 { distributor.remove(observers[index]) }
            }
            var mine: [LayerID] = []
            for _ in 0..<200 {
                let id = LayerID.next()
                distributor.recordRelease(of: id)
                mine.append(id)
            }
            recorded.append(contentsOf: mine)
        }
        drained.append(contentsOf: distributor.drainReleased())
        XCTAssertEqual(drained.all.count, Self.threads * 200, "each release drained exactly once")
        XCTAssertEqual(Set(drained.all), Set(recorded.all))
        distributor.distribute([], released: [LayerID.next()])
        for (index, observer) in observers.enumerated() {
            XCTAssertEqual(observer.packets.withLock { $0 }, index % 2 == 0 ? 1 : 0, "observer \(index)")
        }
    }

    /// `LayerKitDiagnostics` and its `Observation`s: emitted from any thread, observed and cancelled from
    /// others. The observer that stays sees every emission; cancelled ones see none after cancelling.
    func testDiagnosticsEmittedFromManyThreadsReachEveryObserverOnce() {
        let diagnostics = LayerKitDiagnostics()
        let kept = CollectedValues<String>()
        let keptObservation = diagnostics.observe { kept.append($0.name) }
        let cancelled = CollectedValues<String>()
        let cancelledObservations = (0..<Self.threads).map { _ in diagnostics.observe { cancelled.append($0.name) } }
        let perThread = 16
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            // Cancelled on a thread other than the one that observed.
            cancelledObservations[thread].cancel()
            for index in 0..<perThread {
                diagnostics.emit(.invalidPathOperation(operation: "thread \(thread)", reason: "\(index)"))
            }
        }
        XCTAssertEqual(kept.all.count, Self.threads * perThread)
        let before = cancelled.all.count
        diagnostics.emit(.invalidPathOperation(operation: "after", reason: "all cancelled"))
        XCTAssertEqual(cancelled.all.count, before, "no cancelled observer is called")
        XCTAssertEqual(kept.all.count, Self.threads * perThread + 1)
        keptObservation.cancel()
    }

    /// `HostViewports` (a root's table, behind a lock): hosts set their own entries and leave from
    /// whatever thread they are released on; a lookup sees exactly the entries left. Publishing for
    /// another root leaves the old root's table.
    func testHostViewportsKeepsEachHostsOwnEntryAcrossThreads() {
        let root = CALayer(), other = CALayer()
        let table = root.hostViewports
        let hosts = HandedOver((0..<64).map { _ in NSObject() })
        DispatchQueue.concurrentPerform(iterations: hosts.value.count) { index in
            let viewport = HostViewports.Viewport(rect: CGRect(x: 0, y: 0, width: CGFloat(index + 1), height: 1), scale: 1)
            table.set(viewport, for: hosts.value[index])
            if index % 2 == 1 { table.remove(hosts.value[index]) }
        }
        XCTAssertEqual(root.hostViewports.viewports.map { Int($0.rect.width) }.sorted(), stride(from: 1, through: 63, by: 2).map { $0 },
                       "the even-indexed hosts, each once")
        let moved = HostViewports.publish(.init(rect: .zero, scale: 2), root: other, for: hosts.value[0], leaving: table)
        XCTAssertTrue(moved === other.hostViewports)
        XCTAssertEqual(other.hostViewports.viewports, [.init(rect: .zero, scale: 2)])
        XCTAssertEqual(root.hostViewports.viewports.count, 31, "it left its old root's table")
    }

    /// `TileDrawingQueue` (and its `Job`s): any thread queues; workers take jobs behind one lock; at most
    /// `maximumWorkers` drawings run at once and no outstanding tile is drawn twice.
    func testTileDrawingQueueDrawsEachTileOnceWithBoundedWorkers() {
        final class Drawings: Sendable {
            let running = Locked((now: 0, peak: 0))
        }
        let drawings = Drawings()
        let delivered = CollectedValues<String>()
        let queue = TileDrawingQueue(maximumWorkers: 3) { job, _ in
            delivered.append("\(job.layer.rawValue)/\(job.key.column)")
        }
        let layers = (0..<Self.threads).map { _ in LayerID.next() }
        let jobs: @Sendable (LayerID) -> [TileDrawingQueue.Job] = { layer in
            (0..<25).map { column in
                TileDrawingQueue.Job(layer: layer, key: TileKey(level: 0, column: column, row: 0),
                                     rect: CGRect(x: column, y: 0, width: 1, height: 1), epoch: 0) {
                    drawings.running.withLock { $0.now += 1; $0.peak = max($0.peak, $0.now) }
                    drawings.running.withLock { $0.now -= 1 }
                    return nil
                }
            }
        }
        DispatchQueue.concurrentPerform(iterations: layers.count) { index in
            queue.replacePending(for: layers[index], with: jobs(layers[index]))
        }
        queue.waitUntilIdle()
        // Requested again before any commit acknowledged them: all outstanding, none drawn again.
        DispatchQueue.concurrentPerform(iterations: layers.count) { index in
            queue.replacePending(for: layers[index], with: jobs(layers[index]))
        }
        queue.waitUntilIdle()
        let expected = layers.flatMap { layer in (0..<25).map { "\(layer.rawValue)/\($0)" } }
        XCTAssertEqual(delivered.all.sorted(), expected.sorted(), "every tile drawn exactly once")
        XCTAssertLessThanOrEqual(drawings.running.withLock { $0.peak }, 3)
        XCTAssertEqual(queue.busyLayers, Set(layers), "drawn, waiting for the commit's acknowledgement")
    }

    /// `LayerDisplay` with `BackingStoreDrawing`, its asynchronous drawing and finished drawings: many
    /// layers drawn on background threads at once, each result handed back behind the display lock and
    /// applied by the committing thread to its own layer.
    func testManyAsynchronousDrawingsEachReachTheirOwnLayer() throws {
        final class ColorLayer: CALayer {
            var color = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
            override init() { super.init() }
            required init(layer: Any) {
                color = (layer as! ColorLayer).color
                super.init(layer: layer)
            }
            override func draw(in ctx: CGContext) {
                ctx.setFillColor(color)
                ctx.fill(bounds)
            }
        }
        CATransaction.flush()
        let layers = (0..<8).map { index -> ColorLayer in
            let layer = ColorLayer()
            layer.bounds = CGRect(x: 0, y: 0, width: 4, height: 4)
            layer.color = CGColor(red: CGFloat(index & 1), green: CGFloat(index >> 1 & 1), blue: CGFloat(index >> 2 & 1), alpha: 1)
            layer.drawsAsynchronously = true
            layer.setNeedsDisplay()
            return layer
        }
        CATransaction.flush()
        LayerDisplay.waitForAsynchronousDrawing()
        CATransaction.flush()
        for (index, layer) in layers.enumerated() {
            let image = try XCTUnwrap(layer.contents as? CGImage, "layer \(index)")
            let expected: [UInt8] = [UInt8(255 * (index & 1)), UInt8(255 * (index >> 1 & 1)), UInt8(255 * (index >> 2 & 1)), 255]
            XCTAssertEqual(Array(image.pixelData[0..<4]), expected, "layer \(index)")
            XCTAssertFalse(layer.isDrawingAsynchronously)
        }
    }

    // MARK: - Owned by one thread

    /// `ThreadLocal` (checked `Sendable`): every thread gets its own value, made once, and never sees
    /// another thread's.
    func testThreadLocalGivesEachThreadItsOwnValue() {
        final class Box: Sendable {}
        // Holds every value made, so no identity is reused while the test compares them.
        let made = CollectedValues<Box>()
        let local = ThreadLocal<Box> {
            let box = Box()
            made.append(box)
            return box
        }
        let seen = CollectedValues<[UInt]>()
        DispatchQueue.concurrentPerform(iterations: 64) { _ in
            let first = local.value, second = local.value
            XCTAssertTrue(first === second)
            seen.append([UInt(bitPattern: Int(bitPattern: pthread_self())), UInt(bitPattern: ObjectIdentifier(first).hashValue)])
        }
        var valueByThread: [UInt: Set<UInt>] = [:]
        for pair in seen.all { valueByThread[pair[0], default: []].insert(pair[1]) }
        XCTAssertTrue(valueByThread.values.allSatisfy { $0.count == 1 }, "one value per thread")
        XCTAssertEqual(Set(valueByThread.values.map { $0.first! }).count, valueByThread.count, "no value shared by two threads")
        XCTAssertEqual(made.all.count, valueByThread.count, "made once per thread")
    }

    /// `LayerChangeLog` and `LayoutQueue`: each belongs to one thread's transaction. Threads changing
    /// their own layers at once each find only their own layers in their log and queue.
    func testEachThreadsChangeLogAndLayoutQueueHoldOnlyItsOwnLayers() {
        // What earlier tests left in this thread's implicit transaction goes first.
        CATransaction.flush()
        struct Seen: Sendable {
            var own: Set<ObjectIdentifier>
            var logged: Set<ObjectIdentifier>
            var newlyQueued: Int
            var leftAfterCommit: Set<ObjectIdentifier>
        }
        let seen = CollectedValues<Seen>()
        let keepAlive = CollectedValues<HandedOver<[CALayer]>>()  // no identity reused while compared
        DispatchQueue.concurrentPerform(iterations: Self.threads) { _ in
            let queuedBefore = LayoutQueue.current.pendingLayerCount
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            let layers = (0..<10).map { _ in CALayer() }
            keepAlive.append(HandedOver(layers))
            for (index, layer) in layers.enumerated() {
                layer.opacity = Float(index) / 10
                layer.setNeedsLayout()
            }
            let logged = Set(LayerChangeLog.current.pendingLayers.map(ObjectIdentifier.init))
            let newlyQueued = LayoutQueue.current.pendingLayerCount - queuedBefore
            CATransaction.commit()
            let left = Set(LayerChangeLog.current.pendingLayers.map(ObjectIdentifier.init))
            seen.append(Seen(own: Set(layers.map(ObjectIdentifier.init)), logged: logged, newlyQueued: newlyQueued,
                             leftAfterCommit: left))
        }
        let all = seen.all
        XCTAssertEqual(all.count, Self.threads)
        for (index, thread) in all.enumerated() {
            let others = all.enumerated().filter { $0.offset != index }.reduce(into: Set<ObjectIdentifier>()) { $0.formUnion($1.element.own) }
            XCTAssertTrue(thread.own.isSubset(of: thread.logged), "every layer the thread changed is in its own log")
            XCTAssertTrue(thread.logged.isDisjoint(with: others), "no other thread's layer is in its log")
            XCTAssertEqual(thread.newlyQueued, 10, "its layout queue took its own marked layers only")
            XCTAssertTrue(thread.leftAfterCommit.isDisjoint(with: thread.own), "its commit drained its own changes")
        }
    }

    // MARK: - Immutable once made

    /// `LayerDefaults`: the per-class tables are behind a lock (`Locked`) and immutable once made. Asked
    /// for the first time from many threads at once, every thread gets the subclass's defaults.
    func testLayerDefaultsMadeConcurrentlyHoldTheSubclassDefaults() {
        final class ProbeLayer: CALayer {
            override class func defaultValue(forKey key: String) -> Any? {
                key == "opacity" ? Float(0.5) : super.defaultValue(forKey: key)
            }
        }
        let opacities = CollectedValues<Float>()
        DispatchQueue.concurrentPerform(iterations: 32) { _ in
            let table = LayerDefaults.table(for: ProbeLayer.self)
            opacities.append(table.values[Int(LayerPropertyKey.opacity.rawValue)] as! Float)
        }
        XCTAssertEqual(opacities.all, Array(repeating: 0.5, count: 32))
        XCTAssertTrue(LayerDefaults.table(for: ProbeLayer.self) === LayerDefaults.table(for: ProbeLayer.self), "kept once made")
    }

    /// `CGPath` is immutable, so threads share one; a `CGMutablePath` goes to other threads as a
    /// `copy()`, which later mutation of the original does not reach. `DiscreteValue` wraps an immutable
    /// payload the same way.
    func testImmutablePathsAndDiscreteValuesReadTheSameOnEveryThread() {
        let mutable = CGMutablePath()
        mutable.addRect(CGRect(x: 1, y: 2, width: 30, height: 40))
        mutable.addEllipse(in: CGRect(x: 50, y: 50, width: 10, height: 20))
        let shared: CGPath = mutable.copy()!
        let image = CGImage(width: 1, height: 1, bytesPerRow: 4, premultipliedRGBA: [1, 2, 3, 255], alphaInfo: .premultipliedLast)!
        let discrete = DiscreteValue(image)
        let expectedBox = CGRect(x: 1, y: 2, width: 59, height: 68)
        let wrong = CollectedValues<String>()
        let readers = DispatchGroup()
        for thread in 0..<Self.threads {
            DispatchQueue.global().async(group: readers) {
                if shared.boundingBoxOfPath != expectedBox { wrong.append("bounding box on \(thread)") }
                if !shared.contains(CGPoint(x: 55, y: 60)) || shared.contains(CGPoint(x: 40, y: 40)) { wrong.append("containment on \(thread)") }
                if discrete != DiscreteValue(image) { wrong.append("discrete value on \(thread)") }
            }
        }
        // The original changes while the readers run: the copy they share does not.
        mutable.addRect(CGRect(x: 100, y: 100, width: 1, height: 1))
        readers.wait()
        XCTAssertEqual(wrong.all, [])
        XCTAssertEqual(shared.boundingBoxOfPath, expectedBox)
    }
}
