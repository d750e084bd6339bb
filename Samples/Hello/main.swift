// Hello: LayerKit's flagship sample. A handful of layers — an image, rounded corners, a gradient card
// with a border, a spinning square, a perspective tilt, a text title and a shape with marching ants —
// in an SDL window, or headless into PNG frames.
//
//   swift run Hello                                  # a window (falls back to headless without a display)
//   swift run Hello --headless --frames 60 --out DIR # PNG frames at 60 fps of animation time
import ArgumentParser
import Foundation
import LayerKitScenes
import SampleSupport

struct Hello: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "LayerKit's flagship sample.")

    @OptionGroup var options: SampleOptions

    func run() throws {
        let host = SampleHost(name: "Hello", size: CGSize(width: 960, height: 540)) { root, _ in
            HelloScene.populate(root, size: root.bounds.size)
            return nil
        }
        try host.run(options)
    }
}

Hello.main()
