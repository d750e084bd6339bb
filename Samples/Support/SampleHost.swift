// What every sample shares: its command line, and running its scene in an SDL window or headless into
// PNG frames (DESIGN.md: samples open windows and also run headless).
import ArgumentParser
import Foundation
import LayerKitSDL

/// The options every sample takes.
public struct SampleOptions: ParsableArguments {
    @Flag(help: "Render offscreen into PNG files instead of opening a window.")
    public var headless = false

    @Option(help: "Frames to render (headless: the sample's default; window: run until closed when omitted).")
    public var frames: Int?

    @Option(help: "Folder for the PNG frames (headless; default out/<sample>).")
    public var out: String?

    @Option(help: "Width in points.")
    public var width: Int?

    @Option(help: "Height in points.")
    public var height: Int?

    public init() {}
}

/// A sample's scene and how a host drives it.
///
/// `build` fills the root layer (already sized) and returns what the host calls once a frame on the
/// main thread before the commit, with the frame's time (nil: nothing to drive). A window falls back to
/// headless when there is no display. Headless, frames are rendered at 60 fps of scene time, one PNG
/// each; `headlessResize`, when given, resizes the root halfway through, as a window resize would.
public struct SampleHost {
    public var name: String
    public var size: CGSize
    public var defaultFrames: Int
    public var build: (_ root: CALayer, _ startTime: CFTimeInterval) -> ((CFTimeInterval) -> Void)?
    public var headlessResize: ((CGSize) -> CGSize)?
    /// Input in a window, after the debug-view keys (1–6, 0) have been taken.
    public var onKeyDown: ((KeyEvent) -> Void)?
    public var onPointerDown: ((PointerEvent) -> Void)?
    public var onPointerMove: ((PointerEvent) -> Void)?
    public var onPointerUp: ((PointerEvent) -> Void)?
    /// Headless: called before each frame with its number and time, in place of a user's input.
    public var headlessScript: ((Int, CFTimeInterval) -> Void)?
    /// Headless: frames at the wall clock instead of 60 fps of scene time. Animations that input starts
    /// mid-run (implicit ones, transitions) begin at the wall clock, so a scripted sample needs it for
    /// its frames to show them.
    public var headlessFramesAtWallClock = false
    /// Called after each frame with its counters (a window's: without the GPU's results) and its time.
    public var onFrameDrawn: ((FrameStatistics, CFTimeInterval) -> Void)?

    public init(name: String, size: CGSize, defaultFrames: Int = 60,
                build: @escaping (_ root: CALayer, _ startTime: CFTimeInterval) -> ((CFTimeInterval) -> Void)?,
                headlessResize: ((CGSize) -> CGSize)? = nil) {
        self.name = name
        self.size = size
        self.defaultFrames = defaultFrames
        self.build = build
        self.headlessResize = headlessResize
    }

    /// Runs the sample as `options` say.
    public func run(_ options: SampleOptions) throws {
        let width = options.width ?? Int(size.width), height = options.height ?? Int(size.height)
        if !options.headless {
            do {
                let window = try LayerWindow(title: "LayerKit — \(name)", width: width, height: height)
                let update = build(window.rootLayer, CACurrentMediaTime())
                let frameDrawn = onFrameDrawn
                if update != nil || frameDrawn != nil {
                    window.onFrame = { [unowned window] time in
                        frameDrawn?(window.lastFrameStatistics, time)
                        update?(time)
                    }
                }
                let keyDown = onKeyDown
                window.onKeyDown = { [unowned window] event in
                    if !Self.toggleDebugView(for: event, in: window) { keyDown?(event) }
                }
                window.onPointerDown = onPointerDown
                window.onPointerMove = onPointerMove
                window.onPointerUp = onPointerUp
                if let frames = options.frames { try window.run(frames: frames) } else { try window.run() }
                return
            } catch let error as LayerWindowError {
                print("No window (\(error)); rendering headless instead.")
            }
        }
        try runHeadless(width: width, height: height, frames: options.frames ?? defaultFrames,
                        out: options.out ?? "out/\(name.lowercased())")
    }

    /// Keys 1–6 switch a debug view on or off in the window (blended, offscreen, overdraw, batches,
    /// rasterize-cache, flash-updates, as `LK_DEBUG` names them); 0 switches them all off.
    static let debugViewKeys: [String: DebugOptions] = [
        "1": .blended, "2": .offscreen, "3": .overdraw, "4": .batches, "5": .rasterizeCache, "6": .flashUpdates,
    ]

    /// Whether `event` was a debug-view key (and switched the view).
    private static func toggleDebugView(for event: KeyEvent, in window: LayerWindow) -> Bool {
        if event.keyName == "0" {
            window.debugOptions.subtract(DebugOptions.views)
        } else if let view = debugViewKeys[event.keyName] {
            window.debugOptions.formSymmetricDifference(view)
        } else {
            return false
        }
        let names = DebugOptions.named.filter { window.debugOptions.contains($0.option) }.map(\.name)
        print("debug views: \(names.isEmpty ? "none" : names.joined(separator: ", "))")
        return true
    }

    private func runHeadless(width: Int, height: Int, frames count: Int, out: String) throws {
        let renderer = try CARenderer(width: width, height: height)
        renderer.clearColor = CGColor(gray: 0, alpha: 1)
        let root = CALayer()
        func resize(to size: CGSize) {
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            root.bounds = CGRect(origin: .zero, size: size)
            root.position = CGPoint(x: size.width / 2, y: size.height / 2)
            CATransaction.commit()
        }
        let full = CGSize(width: width, height: height)
        resize(to: full)
        let start = CACurrentMediaTime()
        let update = build(root, start)
        renderer.layer = root
        let folder = URL(fileURLWithPath: out, isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for frame in 0..<count {
            let time = headlessFramesAtWallClock ? CACurrentMediaTime() : start + Double(frame) / 60
            if frame == count / 2, let headlessResize { resize(to: headlessResize(full)) }
            headlessScript?(frame, time)
            update?(time)
            CATransaction.flush()
            renderer.beginFrame(atTime: time)
            renderer.render()
            renderer.endFrame()
            onFrameDrawn?(renderer.lastFrameStatistics, time)
            let url = folder.appendingPathComponent(String(format: "frame-%03d.png", frame))
            try renderer.snapshot().pngData().write(to: url)
        }
        print("Wrote \(count) frames (\(width)x\(height)) to \(folder.standardizedFileURL.path)/frame-000.png … frame-\(String(format: "%03d", count - 1)).png")
    }
}
