import Foundation

/// What a trace shows, and how the stages are laid out.
///
/// Per frame, on the rendering thread's track: a `frame N` slice from the frame's beginning to the
/// backend's return, holding one slice per stage of `FrameStatistics.cpuTime` — commit apply (ending where
/// `produceFrame` starts), then animation, graph build, cull and batch (end to end from there), then
/// record (from where the backend starts). The stages are timed as durations inside the producer and the
/// backend; animation is evaluated interleaved with the graph walk, so its slice is the sum of those
/// evaluations placed first. Every slice is clamped into its bracket (`FrameTimeline`), so stages always
/// nest inside their frame. On a "GPU" track: the frame's GPU time (timestamp queries), placed where the
/// recording ended — the GPU's clock is not correlated with the CPU's, so the start is the submission,
/// the length is measured. Counters (`C`) per frame: draw calls and batches, passes and offscreen passes,
/// fragments shaded where counted. Per commit, on the committing thread: a `commit` slice from the
/// commit's beginning (layout and display included) to the packet's arrival at the host. Metadata names
/// the process and every thread.
extension TraceRecorder {
    /// The track the GPU's slices go on (no real thread has this id: real ones count up from 1).
    package static let gpuTrackID = 0

    /// The trace as the JSON object Perfetto and chrome://tracing open.
    package func traceJSON() -> String {
        let events = traceEvents()
        let kept = retained
        let other = "\"otherData\":{\"producer\":\"LayerKit\",\"frameCapacity\":\(frameCapacity),"
            + "\"framesDropped\":\(kept.framesDropped),\"commitsDropped\":\(kept.commitsDropped)}"
        return "{\"traceEvents\":[\n" + events.map(\.json).joined(separator: ",\n") + "\n],\"displayTimeUnit\":\"ms\"," + other + "}\n"
    }

    /// Every event of the retained frames and commits, metadata first.
    package func traceEvents() -> [TraceEvent] {
        let kept = retained
        let pid = Int(ProcessInfo.processInfo.processIdentifier)
        // Threads get small ids in order of first appearance (pthread keys are too large for some viewers).
        var threadIDs: [UInt: Int] = [:]
        var threadNames: [(id: Int, name: String)] = []
        func tid(_ thread: TraceThread) -> Int {
            if let id = threadIDs[thread.key] { return id }
            let id = threadIDs.count + 1
            threadIDs[thread.key] = id
            threadNames.append((id, thread.name))
            return id
        }
        var events: [TraceEvent] = []
        for commit in kept.commits {
            events.append(TraceEvent(
                name: "commit", category: "commit", phase: .complete, timestamp: microseconds(commit.began),
                duration: Double(commit.ended &- commit.began) / 1000, processID: pid, threadID: tid(commit.thread),
                arguments: [("changes", .int(commit.changes)), ("released", .int(commit.released))]))
        }
        var hasGPUTrack = false
        for frame in kept.frames {
            let frameEvents = self.frameEvents(of: frame, processID: pid, threadID: tid(frame.timeline.thread))
            hasGPUTrack = hasGPUTrack || frameEvents.contains { $0.threadID == Self.gpuTrackID }
            events += frameEvents
        }
        var metadata = [TraceEvent(name: "process_name", category: "__metadata", phase: .metadata, processID: pid, threadID: 0,
                                   arguments: [("name", .string("LayerKit · \(ProcessInfo.processInfo.processName)"))])]
        for (id, name) in threadNames {
            metadata.append(TraceEvent(name: "thread_name", category: "__metadata", phase: .metadata, processID: pid, threadID: id,
                                       arguments: [("name", .string(name))]))
        }
        if hasGPUTrack {
            metadata.append(TraceEvent(name: "thread_name", category: "__metadata", phase: .metadata, processID: pid,
                                       threadID: Self.gpuTrackID, arguments: [("name", .string("GPU (timestamp queries)"))]))
        }
        return metadata + events
    }

    /// The slices and counters of one frame (see the extension's comment for the layout).
    private func frameEvents(of frame: FrameRecord, processID pid: Int, threadID tid: Int) -> [TraceEvent] {
        let line = frame.timeline
        let statistics = frame.statistics
        let times = statistics.cpuTime
        let executeEnded = max(line.executeEnded, line.executeStarted)
        let frameBegan = min(line.began, line.produceStarted)
        var events: [TraceEvent] = []
        func slice(_ name: String, from start: UInt64, seconds: TimeInterval, within end: UInt64) -> UInt64 {
            let start = min(start, end)
            let stop = min(start &+ Self.nanoseconds(seconds), end)
            events.append(TraceEvent(name: name, category: "stage", phase: .complete, timestamp: microseconds(start),
                                     duration: Double(stop &- start) / 1000, processID: pid, threadID: tid))
            return stop
        }
        let applyStart = max(frameBegan, line.produceStarted &- min(line.produceStarted, Self.nanoseconds(times.commitApply)))
        _ = slice("commit apply", from: applyStart, seconds: times.commitApply, within: line.produceStarted)
        let produceEnd = max(line.executeStarted, line.produceStarted)
        var cursor = line.produceStarted
        cursor = slice("animation", from: cursor, seconds: times.animation, within: produceEnd)
        cursor = slice("graph build", from: cursor, seconds: times.graphBuild, within: produceEnd)
        _ = slice("cull and batch", from: cursor, seconds: times.cullAndBatch, within: produceEnd)
        let recordEnd = slice("record", from: produceEnd, seconds: times.record, within: executeEnded)
        events.insert(TraceEvent(
            name: "frame \(frame.number)", category: "frame", phase: .complete, timestamp: microseconds(frameBegan),
            duration: Double(executeEnded &- frameBegan) / 1000, processID: pid, threadID: tid,
            arguments: frameArguments(statistics)), at: 0)
        if let gpu = statistics.gpuTime {
            events.append(TraceEvent(name: "GPU frame \(frame.number)", category: "gpu", phase: .complete,
                                     timestamp: microseconds(recordEnd), duration: max(0, gpu) * 1e6, processID: pid,
                                     threadID: Self.gpuTrackID, arguments: [("placed", .string("at submission; length from timestamp queries"))]))
        }
        let at = microseconds(frameBegan)
        events.append(TraceEvent(name: "draw calls", category: "counters", phase: .counter, timestamp: at, processID: pid, threadID: tid,
                                 arguments: [("drawCalls", .int(statistics.drawCalls)), ("batches", .int(statistics.batches))]))
        events.append(TraceEvent(name: "passes", category: "counters", phase: .counter, timestamp: at, processID: pid, threadID: tid,
                                 arguments: [("passes", .int(statistics.passes)), ("offscreen", .int(statistics.offscreenPasses))]))
        if let fragments = statistics.fragmentsShaded {
            events.append(TraceEvent(name: "fragments", category: "counters", phase: .counter, timestamp: at, processID: pid,
                                     threadID: tid, arguments: [("fragments", .int(fragments))]))
        }
        return events
    }

    /// The frame slice's arguments: its counters and its stage times in milliseconds.
    private func frameArguments(_ statistics: FrameStatistics) -> [(key: String, value: TraceEvent.Argument)] {
        var arguments: [(key: String, value: TraceEvent.Argument)] = [
            ("layersVisible", .int(statistics.layersVisible)), ("layerQuads", .int(statistics.layerQuads)),
            ("drawCalls", .int(statistics.drawCalls)), ("batches", .int(statistics.batches)),
            ("passes", .int(statistics.passes)), ("offscreenPasses", .int(statistics.offscreenPasses)),
            ("offscreenReasons", .string(statistics.offscreenReasons.map { "\($0)" }.joined(separator: ", "))),
            ("bytesUploaded", .int(statistics.bytesUploaded)), ("offscreenTargetBytes", .int(statistics.offscreenTargetBytes)),
            ("commitsApplied", .int(statistics.commitsApplied)),
            ("cpuMilliseconds", .double(statistics.cpuTime.total * 1000)),
        ]
        if let fragments = statistics.fragmentsShaded { arguments.append(("fragmentsShaded", .int(fragments))) }
        if let overdraw = statistics.overdraw { arguments.append(("overdraw", .double(overdraw))) }
        if let gpu = statistics.gpuTime { arguments.append(("gpuMilliseconds", .double(gpu * 1000))) }
        return arguments
    }

    /// Microseconds from the trace's origin to `instant` (negative for what happened before it).
    private func microseconds(_ instant: UInt64) -> Double {
        Double(Int64(bitPattern: instant &- origin)) / 1000
    }

    private static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        seconds.isFinite && seconds > 0 ? UInt64((seconds * 1e9).rounded()) : 0
    }
}
