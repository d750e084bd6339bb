import Foundation
import LayerKit

/// Writes a `SceneProfile` as a report folder: `report.html` (`ReportPage`), `trace.json` (the run's
/// `LK_TRACE`-format trace) and the pictures as PNG (`median-frame.png`, `worst-overdraw.png`, …).
/// The folder is created if needed; files of the same names are replaced.
public enum ReportFolder {
    /// The default folder for a scene: `out/profile/NAME`.
    public static func defaultURL(scene: String) -> URL {
        URL(fileURLWithPath: "out/profile/\(scene)", isDirectory: true)
    }

    /// Writes the report; returns the page's URL.
    @discardableResult
    public static func write(_ profile: SceneProfile, to folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for picture in profile.pictures {
            try picture.image.pngData().write(to: folder.appendingPathComponent(picture.fileName))
        }
        try Data(profile.traceJSON.utf8).write(to: folder.appendingPathComponent("trace.json"))
        let page = folder.appendingPathComponent("report.html")
        try Data(ReportPage(profile: profile).html.utf8).write(to: page)
        return page
    }
}
