import Foundation
import LayerKitRender

/// Every field of `FrameStatistics` as a table column, found by reflection so that a counter added to
/// the struct shows up in reports without a change here.
///
/// Stored fields come in declaration order; `cpuTime` opens into one column per stage (milliseconds);
/// `offscreenReasons` prints as counts per reason ("groupOpacity 2, mask 1"); a value the device did not
/// measure prints "n/a". Derived figures (offscreen passes, quads culled, overdraw) follow.
struct StatisticsColumns {
    struct Column {
        var name: String
        var value: (FrameStatistics) -> String
    }

    let columns: [Column]

    init() {
        var columns: [Column] = []
        for child in Mirror(reflecting: FrameStatistics()).children {
            guard let label = child.label else { continue }
            if child.value is FrameStatistics.StageTimes {
                for stage in Mirror(reflecting: FrameStatistics.StageTimes()).children {
                    guard let stageLabel = stage.label else { continue }
                    columns.append(Column(name: "\(label).\(stageLabel) ms") { statistics in
                        let times = Mirror(reflecting: statistics.cpuTime).children.first { $0.label == stageLabel }?.value
                        return (times as? Double).map { String(format: "%.3f", $0 * 1000) } ?? "n/a"
                    })
                }
                continue
            }
            columns.append(Column(name: label == "gpuTime" ? "gpuTime ms" : label) { statistics in
                let value = Mirror(reflecting: statistics).children.first { $0.label == label }?.value
                return Self.format(value as Any, field: label)
            })
        }
        columns.append(Column(name: "offscreenPasses") { String($0.offscreenPasses) })
        columns.append(Column(name: "quadsCulled") { String($0.quadsCulled) })
        columns.append(Column(name: "overdraw") { $0.overdraw.map { String(format: "%.2f", $0) } ?? "n/a" })
        self.columns = columns
    }

    /// The counts of each offscreen reason in `reasons`, in `OffscreenReason`'s order.
    static func reasonCounts(_ reasons: [OffscreenReason]) -> [(reason: OffscreenReason, count: Int)] {
        OffscreenReason.allCases.compactMap { reason in
            let count = reasons.filter { $0 == reason }.count
            return count > 0 ? (reason, count) : nil
        }
    }

    private static func format(_ value: Any, field: String) -> String {
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            guard let wrapped = mirror.children.first?.value else { return "n/a" }
            return format(wrapped, field: field)
        }
        if let reasons = value as? [OffscreenReason] {
            let counts = reasonCounts(reasons)
            return counts.isEmpty ? "–" : counts.map { "\($0.reason) \($0.count)" }.joined(separator: ", ")
        }
        if let seconds = value as? Double, field == "gpuTime" { return String(format: "%.3f", seconds * 1000) }
        if let double = value as? Double { return String(format: "%.3f", double) }
        return "\(value)"
    }
}
