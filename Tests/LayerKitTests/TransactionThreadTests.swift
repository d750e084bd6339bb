import Foundation
import LayerKitTestSupport
import XCTest
@testable import LayerKit

/// Transactions are per thread, as Core Animation's are: a thread's open transaction is its own, a
/// commit sends its own thread's changes, and `CATransaction.lock()` holds every commit off. The
/// threads meet at semaphores, so each step happens in a known order. (Part of `TransactionTests`:
/// the same packet counter and committed layers.)
extension TransactionTests {
    /// The opacity `layer` was committed with, in the packets so far; nil when none carried it.
    private func committedOpacity(of layer: CALayer) -> CGFloat? {
        for packet in receiver.packets.reversed() {
            for change in packet.changes where change.layer == layer.layerID {
                for case (.opacity, .float(let value)) in change.values { return value }
            }
        }
        return nil
    }

    func testABackgroundThreadsOpenTransactionIsNeitherCommittedNorBlockedByTheMainThread() {
        let background = HandedOver(committedLayer())
        let main = committedLayer()
        let opened = DispatchSemaphore(value: 0), mainCommitted = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        let thread = Thread {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            background.value.opacity = 0.25
            opened.signal()
            mainCommitted.wait()
            CATransaction.commit()
            done.signal()
        }
        thread.start()
        opened.wait()
        // The main thread's implicit transaction commits its own change, not the open one of the other
        // thread (whose begin() does not nest the main thread's flush either).
        CATransaction.setDisableActions(true)
        main.opacity = 0.75
        CATransaction.flush()
        XCTAssertEqual(committedOpacity(of: main), 0.75)
        XCTAssertNil(committedOpacity(of: background.value), "still inside the other thread's open transaction")
        mainCommitted.signal()
        done.wait()
        XCTAssertEqual(committedOpacity(of: background.value), 0.25, "sent by that thread's commit")
    }

    func testTransactionPropertiesAndNestingArePerThread() {
        CATransaction.begin()
        CATransaction.setAnimationDuration(3)
        let seen = DispatchSemaphore(value: 0)
        let background = Observed()
        let thread = Thread {
            background.set(duration: CATransaction.animationDuration(), disabled: CATransaction.disableActions())
            seen.signal()
        }
        thread.start()
        seen.wait()
        XCTAssertEqual(background.duration, 0.25, "another thread's implicit transaction has the defaults")
        XCTAssertFalse(background.disabled)
        XCTAssertEqual(CATransaction.animationDuration(), 3)
        CATransaction.commit()
    }

    func testTheTransactionLockHoldsOtherThreadsCommitsOff() {
        let layer = HandedOver(committedLayer())
        CATransaction.lock()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            layer.value.opacity = 0.5
            CATransaction.commit()  // waits for the lock
            done.signal()
        }
        thread.start()
        // However long the other thread has, it cannot commit while the lock is held.
        XCTAssertEqual(done.wait(timeout: .now() + 0.2), .timedOut)
        XCTAssertNil(committedOpacity(of: layer.value))
        CATransaction.unlock()
        done.wait()
        XCTAssertEqual(committedOpacity(of: layer.value), 0.5)
    }
}

/// What the other thread saw, handed over under a lock.
private final class Observed: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var values: (duration: CFTimeInterval, disabled: Bool) = (-1, true)

    func set(duration: CFTimeInterval, disabled: Bool) {
        lock.lock()
        values = (duration, disabled)
        lock.unlock()
    }

    var duration: CFTimeInterval { lock.withLock { values.duration } }
    var disabled: Bool { lock.withLock { values.disabled } }
}
