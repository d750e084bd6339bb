import Foundation
import LayerKitRender

/// `report.html`: one self-contained page about a `SceneProfile` — inline SVG charts and CSS, pictures
/// as files beside it, no script, font or anything fetched.
///
/// Sections, top to bottom: a summary (medians, 95th percentiles and maxima of each stage), the frame
/// time per stage (CPU stages stacked, GPU time as a line), counters per frame (draw calls and batches,
/// passes, fragments, overdraw, uploads, offscreen memory, layers), offscreen passes by reason, the
/// worst frames with what they cost, the median and worst frames in each debug view, and the table of
/// every `FrameStatistics` field for every frame (`StatisticsColumns`; row `frame-N`).
struct ReportPage {
    var profile: SceneProfile
    /// How many of the costliest frames are listed.
    var worstListed = 10

    /// The CPU stages, their colours, and how to read each from the statistics (seconds).
    static let stages: [(name: String, color: String, seconds: @Sendable (FrameStatistics) -> Double)] = [
        ("commit apply", "#8e6c8a", { $0.cpuTime.commitApply }),
        ("animation", "#e0a030", { $0.cpuTime.animation }),
        ("graph build", "#3a7dc9", { $0.cpuTime.graphBuild }),
        ("cull and batch", "#47a266", { $0.cpuTime.cullAndBatch }),
        ("record", "#c94b4b", { $0.cpuTime.record }),
    ]

    var html: String {
        let frames = profile.frames
        let statistics = frames.map(\.statistics)
        func series(_ name: String, _ color: String, _ value: (FrameStatistics) -> Double?) -> FrameChart.Series {
            FrameChart.Series(name: name, color: color, values: statistics.map(value))
        }
        let stageChart = FrameChart(
            title: "Frame time per stage (CPU stages stacked; GPU time from timestamp queries as a line)", unit: "ms",
            style: .stackedBars,
            series: Self.stages.map { stage in series(stage.name, stage.color) { stage.seconds($0) * 1000 } },
            overlay: [series("GPU", "#111", { $0.gpuTime.map { $0 * 1000 } })])
        let counterCharts = [
            FrameChart(title: "Draw calls and batches", unit: "count", style: .lines, series: [
                series("draw calls", "#c94b4b") { Double($0.drawCalls) }, series("batches", "#3a7dc9") { Double($0.batches) }]),
            FrameChart(title: "Passes", unit: "passes", style: .lines, series: [
                series("passes", "#3a7dc9") { Double($0.passes) }, series("offscreen passes", "#e0a030") { Double($0.offscreenPasses) }]),
            FrameChart(title: "Fragments shaded", unit: "fragments", style: .lines, series: [
                series("fragments", "#47a266") { $0.fragmentsShaded.map(Double.init) }]),
            FrameChart(title: "Overdraw (fragments per target pixel)", unit: "×", style: .lines, series: [
                series("overdraw", "#8e6c8a") { $0.overdraw }]),
            FrameChart(title: "Uploads", unit: "KiB", style: .lines, series: [
                series("texels uploaded", "#c94b4b") { Double($0.bytesUploaded) / 1024 },
                series("instance data written", "#3a7dc9") { Double($0.instanceBytesWritten) / 1024 }]),
            FrameChart(title: "Offscreen memory", unit: "MiB", style: .lines, series: [
                series("offscreen targets", "#e0a030") { Double($0.offscreenTargetBytes) / 1_048_576 }]),
            FrameChart(title: "Layers and quads", unit: "count", style: .lines, series: [
                series("layers visible", "#3a7dc9") { Double($0.layersVisible) },
                series("quads drawn", "#47a266") { Double($0.layerQuads) },
                series("quads culled", "#999") { Double($0.quadsCulled) }]),
        ]
        var body = "<h1>LayerKit profile · \(profile.options.scene.htmlEscaped)</h1>"
        body += "<p>\(frames.count) frames at \(profile.options.pixelWidth)×\(profile.options.pixelHeight) pixels, scene time k/60 s for frame k, "
            + String(format: "rendered in %.2f s (pictures %.2f s). ", profile.runSeconds, profile.pictureSeconds)
            + "The trace of the run is <a href=\"trace.json\">trace.json</a>: open it in Perfetto (ui.perfetto.dev, "
            + "“Open trace file”) or chrome://tracing.</p>"
        body += summary(statistics)
        body += "<h2>Frame time</h2>" + stageChart.html
        body += "<h2>Counters per frame</h2>" + counterCharts.map(\.html).joined()
        body += reasons(statistics)
        body += worst(frames)
        body += pictures()
        body += table(frames)
        return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>LayerKit profile · \(profile.options.scene.htmlEscaped)</title>"
            + "<style>\(Self.css)</style></head><body>\(body)</body></html>\n"
    }

    /// Median, 95th percentile and maximum of each stage, the GPU and the whole.
    private func summary(_ statistics: [FrameStatistics]) -> String {
        var rows = Self.stages.map { stage in (stage.name, statistics.map { stage.seconds($0) * 1000 }) }
        rows.append(("CPU total", statistics.map { $0.cpuTime.total * 1000 }))
        let gpu = statistics.compactMap { $0.gpuTime.map { $0 * 1000 } }
        if !gpu.isEmpty { rows.append(("GPU", gpu)) }
        func percentile(_ values: [Double], _ p: Double) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
        }
        let lines = rows.map { name, values in
            "<tr><th>\(name)</th>" + [0.5, 0.95, 1].map { String(format: "<td>%.3f</td>", percentile(values, $0)) }.joined() + "</tr>"
        }
        return "<h2>Summary</h2><table class=\"summary\"><tr><th>ms</th><th>median</th><th>p95</th><th>max</th></tr>"
            + lines.joined() + "</table>"
    }

    /// Offscreen passes by reason: in how many frames, how many in all.
    private func reasons(_ statistics: [FrameStatistics]) -> String {
        let rows = OffscreenReason.allCases.compactMap { reason -> String? in
            let perFrame = statistics.map { $0.offscreenReasons.filter { $0 == reason }.count }
            let total = perFrame.reduce(0, +)
            guard total > 0 else { return nil }
            return "<tr><th>\(reason)</th><td>\(perFrame.filter { $0 > 0 }.count)</td><td>\(total)</td><td>\(perFrame.max() ?? 0)</td></tr>"
        }
        guard !rows.isEmpty else { return "<h2>Offscreen passes by reason</h2><p>No offscreen pass in any frame.</p>" }
        return "<h2>Offscreen passes by reason</h2><table><tr><th>reason</th><th>frames</th><th>passes in all</th><th>most in a frame</th></tr>"
            + rows.joined() + "</table>"
    }

    /// The costliest frames (`ProfiledFrame.cost`) with their stages and counters.
    private func worst(_ frames: [ProfiledFrame]) -> String {
        let header = "<tr><th>frame</th><th>cost ms</th>" + Self.stages.map { "<th>\($0.name) ms</th>" }.joined()
            + "<th>GPU ms</th><th>draw calls</th><th>passes</th><th>offscreen</th><th>uploaded KiB</th><th>layers recomputed</th></tr>"
        let rows = ProfiledFrame.worst(worstListed, of: frames).map { frame in
            let s = frame.statistics
            let reasons = StatisticsColumns.reasonCounts(s.offscreenReasons).map { "\($0.reason) \($0.count)" }.joined(separator: ", ")
            return "<tr><td><a href=\"#frame-\(frame.number)\">\(frame.number)</a></td>" + String(format: "<td>%.3f</td>", frame.cost * 1000)
                + Self.stages.map { String(format: "<td>%.3f</td>", $0.seconds(s) * 1000) }.joined()
                + "<td>\(s.gpuTime.map { String(format: "%.3f", $0 * 1000) } ?? "n/a")</td><td>\(s.drawCalls)</td><td>\(s.passes)</td>"
                + "<td>\(s.offscreenPasses)\(reasons.isEmpty ? "" : " (\(reasons))")</td>"
                + String(format: "<td>%.1f</td>", Double(s.bytesUploaded) / 1024) + "<td>\(s.layersRecomputed)</td></tr>"
        }
        return "<h2>Worst frames</h2><p>Ranked by cost: the CPU stages plus the GPU time.</p><table>" + header + rows.joined() + "</table>"
    }

    /// The median and worst frame in each view.
    private func pictures() -> String {
        var html = "<h2>Pictures</h2>"
        for role in ProfiledFrame.Role.allCases {
            let shown = profile.pictures.filter { $0.role == role }
            guard let frame = shown.first?.frame else { continue }
            html += "<h3>\(role.rawValue.capitalized) frame (\(frame))</h3><div class=\"pictures\">"
            for picture in shown {
                html += "<figure><img src=\"\(picture.fileName)\" alt=\"\(role.rawValue) frame, \(picture.view.rawValue)\" "
                    + "width=\"\(picture.image.width)\" height=\"\(picture.image.height)\">"
                    + "<figcaption><b>\(picture.view.rawValue)</b> · \(picture.view.legend.htmlEscaped)</figcaption></figure>"
            }
            html += "</div>"
        }
        return html
    }

    /// Every field of every frame.
    private func table(_ frames: [ProfiledFrame]) -> String {
        let columns = StatisticsColumns().columns
        let header = "<tr><th>frame</th>" + columns.map { "<th>\($0.name.htmlEscaped)</th>" }.joined() + "</tr>"
        let rows = frames.map { frame in
            "<tr id=\"frame-\(frame.number)\"><th>\(frame.number)</th>"
                + columns.map { "<td>\($0.value(frame.statistics).htmlEscaped)</td>" }.joined() + "</tr>"
        }
        return "<h2>Every counter of every frame</h2><div class=\"scroll\"><table class=\"frames\">" + header + rows.joined() + "</table></div>"
    }

    static let css = """
        body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
        h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ddd}
        table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ddd;padding:2px 6px;text-align:right}
        th{background:#f4f4f4}.scroll{overflow-x:auto;max-width:100%}table.frames td,table.frames th{white-space:nowrap}
        figure{margin:12px 0}figcaption{font-weight:600;margin-bottom:4px}
        .chart{width:100%;height:auto;background:#fff;border:1px solid #eee}
        .chart text{font-size:10px;fill:#555}.chart .grid{stroke:#eee}.chart .axis{font-style:italic}
        .legend{font-size:12px}.key{margin-right:14px}.swatch{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:middle}
        .pictures{display:grid;grid-template-columns:repeat(2,1fr);gap:12px}
        .pictures img{width:100%;height:auto;border:1px solid #ccc;image-rendering:pixelated}
        .pictures figcaption{font-weight:400;font-size:12px}
        """
}
