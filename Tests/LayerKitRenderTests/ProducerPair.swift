import XCTest
@testable import LayerKitRender

/// One scene's commits applied to two `FrameProducer`s made alike but for what a test compares:
/// `subject`, the way under test, and `reference`, whose frames it must draw exactly.
final class ProducerPair {
    let root = CALayer()
    let receiver = CommitInbox()
    var subject: FrameProducer
    var reference: FrameProducer

    /// A `width`×`height` root (anchored at its top-left) holding what `build` adds, given to two
    /// producers that `configure` sets up alike and `vary` then sets apart.
    init(width: Int, height: Int, configure: (inout FrameProducer) -> Void = { _ in },
         vary: (_ subject: inout FrameProducer, _ reference: inout FrameProducer) -> Void, build: (CALayer) -> Void) {
        CATransaction.flush()
        root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        root.anchorPoint = .zero
        build(root)
        CATransaction.flush()
        let root = self.root
        func producer() -> FrameProducer {
            var producer = FrameProducer(builder: RenderGraphBuilder(
                targetWidth: width, targetHeight: height, viewport: CGRect(x: 0, y: 0, width: width, height: height), scale: 1),
                debugOptions: [])
            configure(&producer)
            producer.reset(root: root.layerID, snapshot: .snapshot(of: root))
            return producer
        }
        subject = producer()
        reference = producer()
        vary(&subject, &reference)
        _ = receiver.take()
    }

    /// Commits `changes` in a transaction (actions off) and applies it to both producers.
    func commit(_ changes: () -> Void = {}) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        changes()
        CATransaction.commit()
        CATransaction.flush()
        for packet in receiver.take() {
            subject.apply(packet)
            reference.apply(packet)
        }
    }

    /// Both producers' frames at `time`; fails the test where they differ (`assertSameDraws`).
    func frames(at time: Double, file: StaticString = #filePath, line: UInt = #line) -> (subject: RenderGraph, reference: RenderGraph) {
        let (subjectFrame, _) = subject.produceFrame(at: time)
        let (referenceFrame, _) = reference.produceFrame(at: time)
        assertSameDraws(subjectFrame, referenceFrame, "frame at \(time)", file: file, line: line)
        return (subjectFrame, referenceFrame)
    }
}
