// LayerKitProfile: runs a benchmark scene headless and writes a report folder — report.html (charts of
// every stage and counter per frame, the worst frames, pictures in the debug views) and trace.json.
//
//   swift run -c release LayerKitProfile SCENE [--frames N] [--out DIR]     (or: bash Tools/profile SCENE)
import ArgumentParser
import Foundation
import LayerKitScenes
import ProfileReport

@main
struct LayerKitProfile: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Profiles a LayerKit benchmark scene and writes an HTML report with its trace.",
        discussion: "Scenes: \(BenchmarkScenes.all.map { $0.name }.joined(separator: ", ")).")

    @Argument(help: "The scene to profile.")
    var scene: String

    @Option(help: "Frames to render.")
    var frames = 120

    @Option(help: "The report folder (default out/profile/SCENE).")
    var out: String?

    @Flag(help: "Only render the frames, untraced, and print how long that took (what the report's cost compares with).")
    var sceneOnly = false

    func run() throws {
        let start = Date()
        if sceneOnly {
            let seconds: Double
            do {
                seconds = try SceneProfile.timeSceneAlone(SceneProfile.Options(scene: scene, frames: frames))
            } catch let failure as SceneProfile.Failure {
                throw ValidationError(failure.description)
            }
            print(String(format: "%@: %d frames rendered alone in %.2f s (%.2f s with start-up)", scene, frames, seconds,
                         Date().timeIntervalSince(start)))
            return
        }
        let profile: SceneProfile
        do {
            profile = try SceneProfile(SceneProfile.Options(scene: scene, frames: frames))
        } catch let failure as SceneProfile.Failure {
            throw ValidationError(failure.description)
        }
        let folder = out.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? ReportFolder.defaultURL(scene: scene)
        let page = try ReportFolder.write(profile, to: folder)
        let total = Date().timeIntervalSince(start)
        print(String(format: "%@: %d frames rendered in %.2f s, pictures %.2f s, report written in %.2f s in all",
                     scene, profile.frames.count, profile.runSeconds, profile.pictureSeconds, total))
        print("Report: \(page.path)")
        print("Trace:  \(folder.appendingPathComponent("trace.json").path) (open in ui.perfetto.dev or chrome://tracing)")
    }
}
