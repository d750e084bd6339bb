import Foundation

/// When a host did each part of one frame, as `StageClock.now()` readings, and on which thread: what a
/// trace (`TraceRecorder`) needs beyond the durations `FrameStatistics.cpuTime` holds.
///
/// The stages themselves are timed inside the producer and the backend as durations only; a host brackets
/// the calls it makes (applying commits, `FrameProducer.produceFrame`, the executor's `execute`) and the
/// trace lays the stages out inside those brackets (`TraceRecorder+Events.swift`).
package struct FrameTimeline: Sendable {
    /// When the frame's work began: before the host applied the frame's commits.
    package var began: UInt64
    /// When the host called `produceFrame` (animation, graph build, cull and batch follow).
    package var produceStarted: UInt64
    /// When the host handed the graph to the backend (recording, uploads and submission follow).
    package var executeStarted: UInt64
    /// When the backend returned.
    package var executeEnded: UInt64
    /// The thread that rendered the frame.
    package var thread: TraceThread

    package init(began: UInt64, produceStarted: UInt64, executeStarted: UInt64, executeEnded: UInt64,
                 thread: TraceThread = .current) {
        self.began = began
        self.produceStarted = produceStarted
        self.executeStarted = executeStarted
        self.executeEnded = executeEnded
        self.thread = thread
    }
}

/// A thread as a trace names it: a key that tells threads apart while they live (`pthread_self()`) and
/// the name shown on its track (the `Thread` name, "main" for the main thread).
package struct TraceThread: Hashable, Sendable {
    package var key: UInt
    package var name: String

    package init(key: UInt, name: String) {
        self.key = key
        self.name = name
    }

    /// The calling thread: "main", else its `Thread` name when Foundation knows it, else its key in hex.
    package static var current: TraceThread {
        let key = UInt(pthread_self())
        if Thread.isMainThread { return TraceThread(key: key, name: "main") }
        let name = Thread.current.name ?? ""
        return TraceThread(key: key, name: name.isEmpty ? "thread \(String(key, radix: 16))" : name)
    }

    /// The calling thread, named `name` (a thread the caller started and named: on Linux, Foundation
    /// does not always report a name given before `start()`).
    package static func current(named name: String) -> TraceThread {
        TraceThread(key: UInt(pthread_self()), name: name)
    }
}
