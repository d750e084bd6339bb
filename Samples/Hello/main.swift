// Hello: LayerKit's flagship sample. A handful of layers — an image, rounded corners, a border, a
// spinning square and a perspective tilt — in an SDL window, or headless into PNG frames.
//
//   swift run Hello                                  # a window (falls back to headless without a display)
//   swift run Hello --headless --frames 60 --out DIR # PNG frames at 60 fps of animation time
import ArgumentParser
import Foundation
import LayerKitScenes
import LayerKitSDL

struct Hello: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "LayerKit's flagship sample.")

    @Flag(help: "Render offscreen into PNG files instead of opening a window.")
    var headless = false

    @Option(help: "Frames to render (headless: default 60; window: run until closed when omitted).")
    var frames: Int?

    @Option(help: "Folder for the PNG frames (headless).")
    var out: String = "out/hello"

    @Option(help: "Width in points.")
    var width: Int = 960

    @Option(help: "Height in points.")
    var height: Int = 540

    func run() throws {
        if !headless {
            do {
                try runWindow()
                return
            } catch let error as LayerWindowError {
                print("No window (\(error)); rendering headless instead.")
            }
        }
        try runHeadless()
    }

    private func runWindow() throws {
        let window = try LayerWindow(title: "LayerKit — Hello", width: width, height: height)
        HelloScene.populate(window.rootLayer, size: window.rootLayer.bounds.size)
        if let frames { try window.run(frames: frames) } else { try window.run() }
    }

    private func runHeadless() throws {
        let count = frames ?? 60
        let renderer = try CARenderer(width: width, height: height)
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
        root.position = CGPoint(x: CGFloat(width) / 2, y: CGFloat(height) / 2)
        HelloScene.populate(root, size: root.bounds.size)
        renderer.layer = root
        let folder = URL(fileURLWithPath: out, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let start = CACurrentMediaTime()
        for frame in 0..<count {
            renderer.beginFrame(atTime: start + Double(frame) / 60)
            renderer.render()
            renderer.endFrame()
            let url = folder.appendingPathComponent(String(format: "frame-%03d.png", frame))
            try renderer.snapshot().pngData().write(to: url)
        }
        print("Wrote \(count) frames (\(width)x\(height)) to \(folder.standardizedFileURL.path)/frame-000.png … frame-\(String(format: "%03d", count - 1)).png")
    }
}

Hello.main()
