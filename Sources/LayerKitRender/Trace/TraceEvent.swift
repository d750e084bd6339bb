import Foundation

/// One event of the Chrome trace event format (the JSON that Perfetto's UI and chrome://tracing open).
///
/// Only the phases LayerKit writes: complete events (`X`: a slice with a start and a duration), counters
/// (`C`: named values at an instant, one track per argument) and metadata (`M`: process and thread
/// names). Times are microseconds, as the format wants. Written by `json`, a hand-built encoding so the
/// key order is fixed and numbers keep nanosecond precision (three decimals of a microsecond).
package struct TraceEvent: Equatable, Sendable {
    /// The event's `ph` field.
    package enum Phase: String, Sendable {
        case complete = "X"
        case counter = "C"
        case metadata = "M"
    }

    /// An argument value (`args`).
    package enum Argument: Equatable, Sendable {
        case int(Int)
        case double(Double)
        case string(String)
    }

    package var name: String
    package var category: String
    package var phase: Phase
    /// Microseconds since the trace's origin (`ts`); metadata events have none.
    package var timestamp: Double?
    /// Microseconds (`dur`), complete events only.
    package var duration: Double?
    package var processID: Int
    package var threadID: Int
    /// `args`, in the order written.
    package var arguments: [(key: String, value: Argument)]

    package init(name: String, category: String, phase: Phase, timestamp: Double? = nil, duration: Double? = nil,
                 processID: Int, threadID: Int, arguments: [(key: String, value: Argument)] = []) {
        self.name = name
        self.category = category
        self.phase = phase
        self.timestamp = timestamp
        self.duration = duration
        self.processID = processID
        self.threadID = threadID
        self.arguments = arguments
    }

    package static func == (lhs: TraceEvent, rhs: TraceEvent) -> Bool {
        lhs.name == rhs.name && lhs.category == rhs.category && lhs.phase == rhs.phase && lhs.timestamp == rhs.timestamp
            && lhs.duration == rhs.duration && lhs.processID == rhs.processID && lhs.threadID == rhs.threadID
            && lhs.arguments.map(\.key) == rhs.arguments.map(\.key) && lhs.arguments.map(\.value) == rhs.arguments.map(\.value)
    }

    /// The event as one JSON object.
    package var json: String {
        var fields = ["\"name\":\(Self.quoted(name))", "\"cat\":\(Self.quoted(category))", "\"ph\":\"\(phase.rawValue)\""]
        if let timestamp { fields.append("\"ts\":\(Self.number(timestamp))") }
        if let duration { fields.append("\"dur\":\(Self.number(duration))") }
        fields.append("\"pid\":\(processID)")
        fields.append("\"tid\":\(threadID)")
        let args = arguments.map { "\(Self.quoted($0.key)):\(Self.encode($0.value))" }
        fields.append("\"args\":{\(args.joined(separator: ","))}")
        return "{" + fields.joined(separator: ",") + "}"
    }

    private static func encode(_ argument: Argument) -> String {
        switch argument {
        case .int(let value): String(value)
        case .double(let value): number(value)
        case .string(let value): quoted(value)
        }
    }

    /// A JSON number; JSON has no NaN or infinity, so those become 0.
    private static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        return String(format: "%.3f", value)
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    package static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
