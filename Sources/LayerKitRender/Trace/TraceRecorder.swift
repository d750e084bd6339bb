import Foundation
import LayerKit
import Logging

/// Records commits and frames for a Chrome-format trace (`LK_TRACE=path.json`), keeping the last
/// `frameCapacity` frames.
///
/// Input: each frame's `FrameStatistics` with its `FrameTimeline` (`recordFrame`), from the thread that
/// renders; each commit packet as it reaches a host (`recordCommit`), on the committing thread.
/// Output: `traceJSON()`, a JSON object with a `traceEvents` array (`TraceRecorder+Events.swift` says
/// what events), written to `destination` by `write()` — which hosts call as they go away, and
/// `TraceFiles` at exit.
///
/// Bounded: a long run keeps only its last `frameCapacity` frames and last `frameCapacity` commits (the
/// trace's `otherData` says how many it dropped), so memory stays flat however long the app runs.
/// Ownership: one recorder may serve several hosts and the committing threads of each, so its records sit
/// behind `lock`; recording is an append under it. Cost: O(1) per frame and per commit; O(records) to write.
package final class TraceRecorder: @unchecked Sendable {
    /// Where the trace goes: `LK_TRACE=path.json`.
    package static let environmentVariable = "LK_TRACE"
    /// How many frames the trace keeps (`LK_TRACE_FRAMES=N`, default `defaultFrameCapacity`).
    package static let frameCapacityVariable = "LK_TRACE_FRAMES"
    /// One minute at 60 Hz.
    package static let defaultFrameCapacity = 3600

    /// The file `write()` writes; nil for a recorder read in memory only (`traceJSON()`).
    package let destination: URL?
    package let frameCapacity: Int
    /// The trace's time zero (a `StageClock.now()` reading): when the recorder was made.
    package let origin: UInt64

    /// A recorded frame: its statistics and when its parts happened.
    package struct FrameRecord: Sendable {
        package var number: Int
        package var statistics: FrameStatistics
        package var timeline: FrameTimeline
    }

    /// A commit as it reached a host: from when the commit began to when the packet arrived.
    package struct CommitRecord: Sendable {
        package var began: UInt64
        package var ended: UInt64
        package var thread: TraceThread
        package var changes: Int
        package var released: Int
    }

    private let lock = NSLock()
    private var frames: [FrameRecord] = []
    private var commits: [CommitRecord] = []
    private var framesRecorded = 0
    private var commitsRecorded = 0

    package init(destination: URL?, frameCapacity: Int = TraceRecorder.defaultFrameCapacity, origin: UInt64 = StageClock.now()) {
        self.destination = destination
        self.frameCapacity = max(1, frameCapacity)
        self.origin = origin
    }

    /// The recorder for `LK_TRACE`'s path (shared by every host of the process that traces to it, and
    /// written at exit), or nil when `LK_TRACE` is unset or empty.
    package static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> TraceRecorder? {
        guard let path = environment[environmentVariable], !path.isEmpty else { return nil }
        let capacity = environment[frameCapacityVariable].flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? defaultFrameCapacity
        return TraceFiles.shared.recorder(writingTo: URL(fileURLWithPath: path), frameCapacity: capacity)
    }

    /// Adds one frame, rendered on the calling thread (or the one `timeline` names).
    package func recordFrame(_ statistics: FrameStatistics, timeline: FrameTimeline) {
        lock.lock()
        defer { lock.unlock() }
        frames.append(FrameRecord(number: framesRecorded, statistics: statistics, timeline: timeline))
        framesRecorded += 1
        Self.trim(&frames, to: frameCapacity)
    }

    /// Adds the commit that made `packet`, which has just arrived on the committing thread.
    package func recordCommit(_ packet: CommitPacket, arrived: UInt64 = StageClock.now(), thread: TraceThread = .current) {
        // The packet's stamp is CACurrentMediaTime(): CLOCK_MONOTONIC as StageClock reads it, in seconds.
        let began = packet.commitBegan.map { UInt64((max(0, $0) * 1e9).rounded()) } ?? arrived
        // A commit that began before the trace did starts at the trace's origin.
        let record = CommitRecord(began: min(max(began, origin), arrived), ended: arrived, thread: thread,
                                  changes: packet.changes.count, released: packet.released.count)
        lock.lock()
        defer { lock.unlock() }
        commits.append(record)
        commitsRecorded += 1
        Self.trim(&commits, to: frameCapacity)
    }

    /// Drops the oldest records once there are twice `capacity`, so trimming costs O(1) per append
    /// amortized; readers take the last `capacity`.
    private static func trim<Record>(_ records: inout [Record], to capacity: Int) {
        if records.count >= 2 * capacity { records.removeFirst(records.count - capacity) }
    }

    /// What is kept: the last `frameCapacity` frames and commits, and how many were dropped before them.
    package var retained: (frames: [FrameRecord], commits: [CommitRecord], framesDropped: Int, commitsDropped: Int) {
        lock.lock()
        defer { lock.unlock() }
        let keptFrames = Array(frames.suffix(frameCapacity))
        let keptCommits = Array(commits.suffix(frameCapacity))
        return (keptFrames, keptCommits, framesRecorded - keptFrames.count, commitsRecorded - keptCommits.count)
    }

    /// Writes the trace to `destination` (replacing the file). Errors are logged, not thrown: a trace
    /// that cannot be written must not stop the app.
    package func write() {
        guard let destination else { return }
        do {
            try Data(traceJSON().utf8).write(to: destination, options: .atomic)
        } catch {
            Logger(label: "LayerKit.Trace").error("could not write the trace to \(destination.path): \(error)")
        }
    }
}
