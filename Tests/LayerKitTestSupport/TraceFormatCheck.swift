import Foundation

/// Checks a trace against the Chrome trace event format as LayerKit writes it (`LK_TRACE`), parsing it
/// with `JSONSerialization` — independently of the encoder that wrote it.
///
/// What it checks: the top level is an object with a `traceEvents` array; every event has `name`, `ph`,
/// `pid` and `tid`; complete (`X`) and counter (`C`) events have a numeric `ts`; complete events a `dur`
/// of at least 0; every thread with a complete event is named by a `thread_name` metadata event; and each
/// `stage` slice lies inside the last `frame` slice written before it on its thread (the recorder writes
/// a frame's slice, then its stages). Times are written to a thousandth of a microsecond, so containment
/// allows 0.002 µs of rounding.
public struct TraceFormatCheck {
    /// The parsed events, in file order.
    public let events: [[String: Any]]
    /// The top-level object.
    public let document: [String: Any]
    /// What breaks the format, one line each; empty for a good trace.
    public private(set) var violations: [String] = []

    public init(_ data: Data) throws {
        guard let document = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CheckError.notAnObject
        }
        guard let events = document["traceEvents"] as? [[String: Any]] else { throw CheckError.noTraceEvents }
        self.document = document
        self.events = events
        check()
    }

    public enum CheckError: Error {
        case notAnObject, noTraceEvents
    }

    /// The complete events named `name`…, in file order.
    public func slices(category: String) -> [[String: Any]] {
        events.filter { $0["ph"] as? String == "X" && $0["cat"] as? String == category }
    }

    /// The names given to threads by metadata, by `tid`.
    public var threadNames: [Int: String] {
        var names: [Int: String] = [:]
        for event in events where event["ph"] as? String == "M" && event["name"] as? String == "thread_name" {
            if let tid = event["tid"] as? Int, let name = (event["args"] as? [String: Any])?["name"] as? String { names[tid] = name }
        }
        return names
    }

    private mutating func check() {
        var lastFrame: [Int: (name: String, start: Double, end: Double)] = [:]
        let named = threadNames
        let tolerance = 0.002
        for (index, event) in events.enumerated() {
            let label = "event \(index) (\(event["name"] ?? "?"))"
            for key in ["name", "ph", "pid", "tid"] where event[key] == nil { violations.append("\(label) has no \(key)") }
            guard let phase = event["ph"] as? String, let tid = event["tid"] as? Int else { continue }
            guard phase == "X" || phase == "C" else { continue }
            guard let ts = (event["ts"] as? NSNumber)?.doubleValue else {
                violations.append("\(label) has no numeric ts")
                continue
            }
            guard phase == "X" else { continue }
            guard let dur = (event["dur"] as? NSNumber)?.doubleValue, dur >= 0 else {
                violations.append("\(label) has no dur ≥ 0")
                continue
            }
            if named[tid] == nil { violations.append("\(label): thread \(tid) has no thread_name metadata") }
            switch event["cat"] as? String {
            case "frame":
                lastFrame[tid] = (event["name"] as? String ?? "?", ts, ts + dur)
            case "stage":
                guard let frame = lastFrame[tid] else {
                    violations.append("\(label) comes before any frame on thread \(tid)")
                    continue
                }
                if ts < frame.start - tolerance || ts + dur > frame.end + tolerance {
                    violations.append("\(label) [\(ts), \(ts + dur)] is not inside \(frame.name) [\(frame.start), \(frame.end)]")
                }
            default: break
            }
        }
    }
}
