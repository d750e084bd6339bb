// Content: LayerKit's content sample. Shapes with marching ants and a write-on stroke, GPU gradients,
// text, a custom-drawn animated layer, a constraint layout that follows the window's size, and a tiled
// zoomable image — in an SDL window, or headless into PNG frames.
//
//   swift run -c release Content                                  # a window (headless without a display)
//   swift run -c release Content --headless --frames 120 --out DIR
//
// Headless, the root layer is resized halfway through (as if the window were), so the frames show the
// constraint layout following it.
import ArgumentParser
import Foundation
import LayerKitScenes
import LayerKitSDL

struct Content: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "LayerKit's content sample.")

    @Flag(help: "Render offscreen into PNG files instead of opening a window.")
    var headless = false

    @Option(help: "Frames to render (headless: default 120; window: run until closed when omitted).")
    var frames: Int?

    @Option(help: "Folder for the PNG frames (headless).")
    var out: String = "out/content"

    @Option(help: "Width in points.")
    var width: Int = 1280

    @Option(help: "Height in points.")
    var height: Int = 720

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
        let window = try LayerWindow(title: "LayerKit — Content", width: width, height: height)
        let scene = ContentScene(root: window.rootLayer)
        window.onFrame = { time in scene.update(at: time) }
        if let frames { try window.run(frames: frames) } else { try window.run() }
    }

    private func runHeadless() throws {
        let count = frames ?? 120
        let renderer = try CARenderer(width: width, height: height)
        renderer.clearColor = CGColor(gray: 0, alpha: 1)
        let root = CALayer()
        let full = CGSize(width: width, height: height)
        func resize(to size: CGSize) {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            root.bounds = CGRect(origin: .zero, size: size)
            root.position = CGPoint(x: size.width / 2, y: size.height / 2)
            CATransaction.commit()
        }
        resize(to: full)
        let start = CACurrentMediaTime()
        let scene = ContentScene(root: root, startTime: start)
        renderer.layer = root
        let folder = URL(fileURLWithPath: out, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for frame in 0..<count {
            let time = start + Double(frame) / 60
            if frame == count / 2 { resize(to: CGSize(width: full.width * 0.75, height: full.height * 0.85)) }
            scene.update(at: time)
            CATransaction.flush()
            renderer.beginFrame(atTime: time)
            renderer.render()
            renderer.endFrame()
            let url = folder.appendingPathComponent(String(format: "frame-%03d.png", frame))
            try renderer.snapshot().pngData().write(to: url)
        }
        print("Wrote \(count) frames (\(width)x\(height)) to \(folder.standardizedFileURL.path)/frame-000.png … frame-\(String(format: "%03d", count - 1)).png")
    }
}

Content.main()
