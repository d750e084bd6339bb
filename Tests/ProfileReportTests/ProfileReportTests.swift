import Foundation
import LayerKit
import LayerKitRender
import LayerKitTestSupport
@testable import ProfileReport
import XCTest

/// The profile report of a small run: the folder holds report.html (inline SVG, no script, every frame's
/// counters), the pictures of the median and worst frames in each debug view (PNGs that decode at the
/// target's size) and a trace in the trace event format. The scene is `stack` at a quarter of its size,
/// four frames, validation on.
final class ProfileReportTests: XCTestCase {
    private static let width = 320, height = 180, frames = 4

    override func setUpWithError() throws {
        try super.setUpWithError()
        setenv("LK_VALIDATION", "1", 1)
    }

    func testReportFolderHoldsThePageThePicturesAndTheTrace() throws {
        let profile = try SceneProfile(SceneProfile.Options(scene: "stack", frames: Self.frames, pixelWidth: Self.width, pixelHeight: Self.height))
        XCTAssertEqual(profile.validationMessages, [])
        XCTAssertEqual(profile.frames.map(\.number), [0, 1, 2, 3])
        let folder = URL(fileURLWithPath: NSTemporaryDirectory() + "layerkit-profile-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try ReportFolder.write(profile, to: folder)

        let html = try String(contentsOf: folder.appendingPathComponent("report.html"), encoding: .utf8)
        XCTAssertTrue(html.contains("<svg"), "charts are inline SVG")
        XCTAssertFalse(html.lowercased().contains("<script"), "no script")
        XCTAssertFalse(html.contains("src=\"http"), "nothing fetched")
        XCTAssertFalse(html.contains("<link"), "no external style sheet or font")
        // Each frame's row holds its counters, in the columns the header names.
        let columns = StatisticsColumns().columns
        for frame in profile.frames {
            let row = try XCTUnwrap(Self.row(id: "frame-\(frame.number)", in: html), "a row for frame \(frame.number)")
            let cells = Self.cells(of: row)
            XCTAssertEqual(cells.count, columns.count)
            for (column, cell) in zip(columns, cells) where ["drawCalls", "passes", "layersVisible", "batches", "fragmentsShaded"].contains(column.name) {
                XCTAssertEqual(cell, column.value(frame.statistics), "frame \(frame.number) \(column.name)")
            }
        }
        for name in ["drawCalls", "offscreenReasons", "fragmentsShaded", "bytesUploaded", "offscreenTargetBytes", "cpuTime.record ms", "gpuTime ms"] {
            XCTAssertTrue(html.contains("<th>\(name)</th>"), "a column for \(name)")
        }

        // The pictures: every view of the median and the worst frame, at the target's size, shown in the page.
        XCTAssertEqual(profile.pictures.count, 2 * PictureView.allCases.count)
        for role in ProfiledFrame.Role.allCases {
            for view in PictureView.allCases {
                let name = "\(role.rawValue)-\(view.rawValue).png"
                let image = try CGImage(contentsOfPNGFile: folder.appendingPathComponent(name))
                XCTAssertEqual(image.width, Self.width, name)
                XCTAssertEqual(image.height, Self.height, name)
                XCTAssertTrue(html.contains("src=\"\(name)\""), "\(name) is shown in the page")
            }
        }
        // The debug views change the picture: the overdraw view of a frame is not the frame.
        let plain = try XCTUnwrap(profile.pictures.first { $0.role == .worst && $0.view == .frame })
        let blended = try XCTUnwrap(profile.pictures.first { $0.role == .worst && $0.view == .blended })
        XCTAssertNotEqual(plain.image.pngData(), blended.image.pngData())

        let check = try TraceFormatCheck(Data(contentsOf: folder.appendingPathComponent("trace.json")))
        XCTAssertEqual(check.violations, [], check.violations.joined(separator: "\n"))
        XCTAssertEqual(check.slices(category: "frame").count, Self.frames, "the pictures are not in the trace")
    }

    func testMedianAndWorstFramesAreRankedByCost() {
        func frame(_ number: Int, milliseconds: Double) -> ProfiledFrame {
            var statistics = FrameStatistics()
            statistics.cpuTime.record = milliseconds / 2000
            statistics.gpuTime = milliseconds / 2000
            return ProfiledFrame(number: number, sceneTime: 0, statistics: statistics)
        }
        let frames = [frame(0, milliseconds: 9), frame(1, milliseconds: 1), frame(2, milliseconds: 3), frame(3, milliseconds: 2), frame(4, milliseconds: 5)]
        let picked = ProfiledFrame.picked(from: frames)
        XCTAssertEqual(picked.map(\.role), [.median, .worst])
        XCTAssertEqual(picked.map(\.frame.number), [2, 0])
        XCTAssertEqual(ProfiledFrame.worst(2, of: frames).map(\.number), [0, 4])
    }

    func testAnUnknownSceneIsRefusedWithTheNamesThatExist() {
        XCTAssertThrowsError(try SceneProfile(SceneProfile.Options(scene: "nowhere", frames: 1))) { error in
            XCTAssertTrue("\(error)".contains("city"), "\(error)")
        }
    }

    /// The inside of `<tr id="ID">…</tr>`.
    private static func row(id: String, in html: String) -> String? {
        guard let start = html.range(of: "<tr id=\"\(id)\">"), let end = html.range(of: "</tr>", range: start.upperBound..<html.endIndex)
        else { return nil }
        return String(html[start.upperBound..<end.lowerBound])
    }

    /// The texts of a row's `<td>` cells (HTML entities for & < > " undone).
    private static func cells(of row: String) -> [String] {
        row.components(separatedBy: "<td>").dropFirst().map { cell in
            String(cell.prefix { $0 != "<" }).replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
                .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
        }
    }
}
