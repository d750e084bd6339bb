import Foundation

/// The trace files of the process: one `TraceRecorder` per path, shared by every host that traces to it
/// (a process with two windows writes one trace with both render threads), each written again at exit.
///
/// Hosts write their recorder when they go away; an app that exits with a host still open (top-level
/// objects of `main.swift` are never deinitialized) gets its trace from the `atexit` handler registered
/// with the first recorder.
///
/// Process-wide by nature: a file is the process's, and hosts that trace to one path (one `LK_TRACE`)
/// must share one recorder or they overwrite each other's trace; the `atexit` writer is the process's
/// too. Ownership: `recorders` belongs to no thread; it is behind a lock (`Locked`; hence checked `Sendable`)
/// and only grows, by one entry per distinct path (one in practice).
package final class TraceFiles: Sendable {
    package static let shared = TraceFiles()

    private struct State {
        var recorders: [String: TraceRecorder] = [:]
        var writesAtExit = false
    }

    private let state = Locked(State())

    /// A table of its own (tests); hosts use `shared`.
    package init() {}

    /// The recorder writing to `url`, made (keeping `frameCapacity` frames) on first use.
    package func recorder(writingTo url: URL, frameCapacity: Int) -> TraceRecorder {
        let armExitWriter = self === TraceFiles.shared
        return state.withLock { state in
            if let recorder = state.recorders[url.path] { return recorder }
            let recorder = TraceRecorder(destination: url, frameCapacity: frameCapacity)
            state.recorders[url.path] = recorder
            if armExitWriter, !state.writesAtExit {
                state.writesAtExit = true
                atexit { TraceFiles.shared.writeAll() }
            }
            return recorder
        }
    }

    /// Writes every recorder's trace.
    package func writeAll() {
        let all = state.withLock { Array($0.recorders.values) }
        for recorder in all { recorder.write() }
    }
}
