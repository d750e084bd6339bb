// Gallery: Core Animation's classic demos in one window — a launcher of demos, each written with
// LayerKit's public API as an app would (Samples/Gallery/Demos). Headless (no display, or --headless),
// every demo renders PNG frames with scripted input, one folder per demo.
//
//   bash Tools/hello                                   # the launcher in a window (headless without a display)
//   swift run -c release Gallery --demo coverflow      # one demo alone
//   swift run -c release Gallery --headless            # out/gallery/<demo>/frame-NNN.png for every demo
import ArgumentParser
import Foundation
import GalleryDemos
import LayerKitSDL
import SampleSupport

struct GalleryApp: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "Gallery", abstract: "Core Animation's classic demos, written with LayerKit.",
        discussion: "Demos: " + Gallery.demos.map { $0.name }.joined(separator: ", "))

    @OptionGroup var options: SampleOptions

    @Option(help: "Run this demo alone (see the list below).")
    var demo: String?

    func run() throws {
        let chosen = try demo.map { name -> any GalleryDemo.Type in
            guard let type = Gallery.demo(named: name) else {
                throw ValidationError("no demo named \(name); demos: \(Gallery.demos.map { $0.name }.joined(separator: ", "))")
            }
            return type
        }
        let hasDisplay = ProcessInfo.processInfo.environment["DISPLAY"] != nil || ProcessInfo.processInfo.environment["WAYLAND_DISPLAY"] != nil
        if !options.headless && hasDisplay {
            try host(chosen, name: "Gallery").run(options)
            return
        }
        // Headless: the launcher walking its menu, then each demo (or the chosen one) alone.
        let folder = options.out ?? "out/gallery"
        var headless = options
        headless.headless = true
        for type in chosen.map({ [$0] }) ?? Gallery.demos {
            headless.out = "\(folder)/\(type.name)"
            try host(type, name: type.title).run(headless)
        }
        if chosen == nil {
            headless.out = "\(folder)/launcher"
            try host(nil, name: "Gallery").run(headless)
        }
    }

    /// A host for the launcher with `demo` open (or the menu), routing input to it.
    private func host(_ demo: (any GalleryDemo.Type)?, name: String) -> SampleHost {
        final class Session { var launcher: GalleryLauncher? }
        let session = Session()
        var host = SampleHost(name: name, size: CGSize(width: 960, height: 540), defaultFrames: 90) { root, start in
            let launcher = GalleryLauncher(root: root, startTime: start, demo: demo)
            session.launcher = launcher
            return { time in launcher.update(at: time) }
        }
        host.onKeyDown = { event in
            guard let key = GalleryKey(event) else { return }
            session.launcher?.keyDown(key)
        }
        host.onPointerDown = { session.launcher?.pointerDown(at: $0.location) }
        host.onPointerMove = { session.launcher?.pointerMoved(to: $0.location) }
        host.onPointerUp = { session.launcher?.pointerUp(at: $0.location) }
        host.headlessScript = { frame, time in session.launcher?.script(frame: frame, time: time) }
        host.headlessFramesAtWallClock = true
        host.onFrameDrawn = { statistics, time in session.launcher?.frameDrawn(statistics, at: time) }
        return host
    }
}

extension GalleryKey {
    /// The key SDL names in `event`, if a demo reacts to it.
    init?(_ event: KeyEvent) {
        switch event.keyName {
        case "Left": self = .left
        case "Right": self = .right
        case "Up": self = .up
        case "Down": self = .down
        case "Return", "Keypad Enter": self = .enter
        case "Space": self = .space
        case "Escape": self = .escape
        case let name where name.count == 1: self = .character(name.lowercased())
        default: return nil
        }
    }
}

GalleryApp.main()
