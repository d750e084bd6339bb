import Foundation

/// A chart of one value (or a few) per frame, as inline SVG: no script, no font file, readable offline.
///
/// Stacked bars add their series per frame (the CPU stages of a frame); lines draw each series on its
/// own (counters, GPU time), a missing value breaking the line. The y axis starts at 0 and ends at a
/// round number above the largest value (the largest sum, for bars); four gridlines are labelled. Each
/// bar and point carries a `<title>`, which browsers show as a tooltip.
struct FrameChart {
    struct Series {
        var name: String
        /// A CSS colour.
        var color: String
        var values: [Double?]
    }

    enum Style {
        case stackedBars
        case lines
    }

    var title: String
    /// What the values are in, for the axis ("ms", "draw calls").
    var unit: String
    var style: Style
    var series: [Series]
    /// Series drawn as lines over stacked bars (GPU time over the CPU stages).
    var overlay: [Series] = []

    private let width = 960.0
    private let height = 240.0
    private let left = 64.0
    private let right = 12.0
    private let top = 12.0
    private let bottom = 28.0

    /// The chart and its legend, as HTML (a `figure` holding an `svg`).
    var html: String {
        let frames = (series + overlay).map(\.values.count).max() ?? 0
        let plotWidth = width - left - right
        let plotHeight = height - top - bottom
        let largest: Double
        switch style {
        case .stackedBars:
            let sums = (0..<frames).map { k in series.reduce(0) { $0 + ($1.values.indices.contains(k) ? $1.values[k] ?? 0 : 0) } }
            largest = max(sums.max() ?? 0, overlay.flatMap { $0.values.compactMap { $0 } }.max() ?? 0)
        case .lines:
            largest = (series + overlay).flatMap { $0.values.compactMap { $0 } }.max() ?? 0
        }
        let top = Self.roundedUp(largest)
        let slot = frames > 0 ? plotWidth / Double(frames) : plotWidth
        func x(_ k: Int) -> Double { left + slot * Double(k) }
        func y(_ value: Double) -> Double { self.top + plotHeight * (1 - min(value, top) / top) }

        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" "
            + "aria-label=\"\(title.htmlEscaped)\" class=\"chart\">"
        // Gridlines and their labels.
        for step in 0...4 {
            let value = top * Double(step) / 4
            let gy = y(value)
            svg += "<line x1=\"\(f(left))\" y1=\"\(f(gy))\" x2=\"\(f(width - right))\" y2=\"\(f(gy))\" class=\"grid\"/>"
            svg += "<text x=\"\(f(left - 6))\" y=\"\(f(gy + 4))\" text-anchor=\"end\">\(Self.label(value))</text>"
        }
        let labelEvery = max(1, Int((Double(frames) / 12).rounded(.up)))
        for k in stride(from: 0, to: frames, by: labelEvery) {
            svg += "<text x=\"\(f(x(k) + slot / 2))\" y=\"\(f(height - 10))\" text-anchor=\"middle\">\(k)</text>"
        }
        svg += "<text x=\"\(f(left))\" y=\"\(f(height - 0))\" class=\"axis\">frame</text>"
        svg += "<text x=\"4\" y=\"\(f(self.top + 10))\" class=\"axis\">\(unit.htmlEscaped)</text>"

        switch style {
        case .stackedBars:
            for k in 0..<frames {
                var base = 0.0
                for series in series {
                    guard series.values.indices.contains(k), let value = series.values[k], value > 0 else { continue }
                    let y0 = y(base + value), y1 = y(base)
                    svg += "<rect x=\"\(f(x(k) + slot * 0.1))\" y=\"\(f(y0))\" width=\"\(f(slot * 0.8))\" height=\"\(f(max(0, y1 - y0)))\" "
                        + "fill=\"\(series.color)\"><title>frame \(k) · \(series.name.htmlEscaped) \(Self.label(value)) \(unit.htmlEscaped)</title></rect>"
                    base += value
                }
            }
            for series in overlay { svg += polyline(series, x: { x($0) + slot / 2 }, y: y) }
        case .lines:
            for series in series + overlay { svg += polyline(series, x: { x($0) + slot / 2 }, y: y) }
        }
        svg += "</svg>"
        let legend = (series + overlay).map {
            "<span class=\"key\"><span class=\"swatch\" style=\"background:\($0.color)\"></span>\($0.name.htmlEscaped)</span>"
        }.joined(separator: " ")
        return "<figure><figcaption>\(title.htmlEscaped)</figcaption>\(svg)<div class=\"legend\">\(legend)</div></figure>"
    }

    /// A line through a series' values (broken where one is missing), with a titled dot per value.
    private func polyline(_ series: Series, x: (Int) -> Double, y: (Double) -> Double) -> String {
        var svg = ""
        var run: [String] = []
        func flush() {
            if run.count > 1 { svg += "<polyline fill=\"none\" stroke=\"\(series.color)\" stroke-width=\"1.5\" points=\"\(run.joined(separator: " "))\"/>" }
            run.removeAll()
        }
        for (k, value) in series.values.enumerated() {
            guard let value else { flush(); continue }
            run.append("\(f(x(k))),\(f(y(value)))")
            svg += "<circle cx=\"\(f(x(k)))\" cy=\"\(f(y(value)))\" r=\"1.6\" fill=\"\(series.color)\"><title>frame \(k) · "
                + "\(series.name.htmlEscaped) \(Self.label(value)) \(unit.htmlEscaped)</title></circle>"
        }
        flush()
        return svg
    }

    private func f(_ value: Double) -> String { String(format: "%.1f", value) }

    /// The smallest of 1, 2, 2.5, 5 × 10ⁿ at or above `value` (1 for nothing to show).
    static func roundedUp(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let magnitude = pow(10, (log10(value)).rounded(.down))
        for step in [1.0, 2, 2.5, 5, 10] where step * magnitude >= value { return step * magnitude }
        return 10 * magnitude
    }

    /// A value for an axis or a tooltip: up to three significant decimals, thousands as k and M.
    static func label(_ value: Double) -> String {
        if value >= 1_000_000 { return String(format: "%.3gM", value / 1_000_000) }
        if value >= 10_000 { return String(format: "%.3gk", value / 1000) }
        if value == value.rounded() { return String(Int(value)) }
        return String(format: "%.3g", value)
    }
}
