import Foundation

/// The trace files of the process: one `TraceRecorder` per path, shared by every host that traces to it
/// (a process with two windows writes one trace with both render threads), each written again at exit.
///
/// Hosts write their recorder when they go away; an app that exits with a host still open (top-level
/// objects of `main.swift` are never deinitialized) gets its trace from the `atexit` handler registered
/// with the first recorder. Ownership: `recorders` is the process's, behind `lock`; it only grows, by
/// one entry per distinct `LK_TRACE` path (one in practice).
package final class TraceFiles: @unchecked Sendable {
    package static let shared = TraceFiles()

    private let lock = NSLock()
    private var recorders: [String: TraceRecorder] = [:]
    private var writesAtExit = false

    private init() {}

    /// The recorder writing to `url`, made (keeping `frameCapacity` frames) on first use.
    package func recorder(writingTo url: URL, frameCapacity: Int) -> TraceRecorder {
        lock.lock()
        defer { lock.unlock() }
        if let recorder = recorders[url.path] { return recorder }
        let recorder = TraceRecorder(destination: url, frameCapacity: frameCapacity)
        recorders[url.path] = recorder
        if !writesAtExit {
            writesAtExit = true
            atexit { TraceFiles.shared.writeAll() }
        }
        return recorder
    }

    /// Writes every recorder's trace.
    package func writeAll() {
        lock.lock()
        let all = Array(recorders.values)
        lock.unlock()
        for recorder in all { recorder.write() }
    }
}
