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
import SampleSupport

struct Content: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "LayerKit's content sample.")

    @OptionGroup var options: SampleOptions

    func run() throws {
        let host = SampleHost(
            name: "Content", size: CGSize(width: 1280, height: 720), defaultFrames: 120,
            build: { root, start in
                let scene = ContentScene(root: root, startTime: start)
                return { time in scene.update(at: time) }
            },
            headlessResize: { CGSize(width: $0.width * 0.75, height: $0.height * 0.85) })
        try host.run(options)
    }
}

Content.main()
