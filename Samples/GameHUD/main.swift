// GameHUD: a LayerKit HUD drawn over a game's own Vulkan frame.
//
// The game (`TileMapGame`) owns its instance, device, queue, frame image, render pass and command
// buffer, and draws a scrolling tile map each frame. LayerKit draws the HUD inside the game's render pass,
// on the game's device, in the game's command buffer (`CARenderer(vulkanTarget:)` with a
// `VulkanRenderPass`; `prepareRender(recordingInto:)` before the pass, `render(inRenderPassOf:)` in it): a
// health bar with a gradient, damage numbers that float up and fade, a round minimap scrolling with the
// map, a spinner — no render pass of LayerKit's and no submission of its own for the frame, and no Vulkan
// instance or device of its own in the process.
//
// The pause panel that slides in from 2.5 s frosts the tiles behind it (`backgroundFilters`, a Gaussian
// blur). Inside the game's pass LayerKit cannot read the tiles: its offscreen passes, where the blur runs,
// are recorded before the pass draws them. So while the panel shows, the game ends its pass first and
// LayerKit draws the HUD in a render pass of its own after it, over the game's frame image
// (`initialLayout` keeps its pixels, which the backdrop copies; `render(recordingInto:)`, same command
// buffer, still no submission of LayerKit's): one render pass more for those frames, the price of
// blurring pixels that must exist before they are blurred. `--hud-in-own-pass` draws every frame that way.
//
//   swift run GameHUD                                   (the game's window, until closed or Escape)
//   swift run GameHUD --headless --out out/gamehud      (PNG frames: the game's tiles with the HUD over them)
import ArgumentParser
import Foundation
import LayerKit
import LayerKitVulkan

struct GameHUD: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "A LayerKit HUD over a game's own Vulkan frame.")

    @Flag(help: "Render offscreen into PNG files instead of the game's window.")
    var headless = false
    @Option(help: "Frames to render (headless: default 240; window: until closed when omitted).")
    var frames: Int?
    @Option(help: "Folder for the PNG frames.")
    var out = "out/gamehud"
    @Option(help: "Width in pixels.")
    var width = 960
    @Option(help: "Height in pixels.")
    var height = 540
    @Flag(help: "Draw the HUD in a render pass of LayerKit's after the game's, instead of inside the game's.")
    var hudInOwnPass = false

    func run() throws {
        var window: GameWindow?
        if !headless {
            do {
                window = try GameWindow(title: "GameHUD", width: width, height: height)
            } catch {
                print("No window (\(error)); rendering headless instead.")
            }
        }
        let game = try TileMapGame(width: width, height: height, window: window)
        /// Where the HUD is drawn: after the game's pass (over its kept frame) or inside it.
        func target(afterGamePass: Bool) -> CARenderer.VulkanTarget {
            var target = afterGamePass ? game.hudTarget : game.hudPassTarget
            target.timelineSemaphores = true  // the game's device has them: its submission completes the HUD's frames
            return target
        }
        var hudAfterGamePass = hudInOwnPass
        let renderer = try CARenderer(vulkanTarget: target(afterGamePass: hudAfterGamePass))
        let hud = HUD(size: renderer.bounds.size)
        renderer.layer = hud.root

        let folder = URL(fileURLWithPath: out, isDirectory: true)
        if window == nil { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let count = frames ?? (window == nil ? 240 : Int.max)
        let start = CACurrentMediaTime()
        var frame = 0
        while frame < count, window?.pumpEvents() ?? true {
            // Headless: 60 frames a second of game time; in the window, the clock (FIFO paces the loop).
            let t = window == nil ? Double(frame) / 60 : CACurrentMediaTime() - start
            let commands = try game.beginFrame()      // the game's frame, in its command buffer
            hud.update(at: t)                          // the HUD's model, as the game's logic would change it
            CATransaction.flush()
            // The frosted pause panel needs the tiles drawn before LayerKit's passes: the HUD moves after the
            // game's pass while it shows (the last frame is done: the game waited for it in `beginFrame`).
            let afterGamePass = hudInOwnPass || hud.pausePanelShows(at: t)
            if afterGamePass != hudAfterGamePass {
                hudAfterGamePass = afterGamePass
                try renderer.setVulkanTarget(target(afterGamePass: afterGamePass))
            }
            renderer.beginFrame(atTime: start + t)
            if hudAfterGamePass {
                try game.drawMap(at: t)
                try renderer.render(recordingInto: commands)  // the HUD over the game's pixels, in the same buffer
            } else {
                try renderer.prepareRender(recordingInto: commands)  // uploads and offscreen passes, before the game's pass
                try game.drawMap(at: t) { try renderer.render(inRenderPassOf: $0) }  // the HUD's draws, in the game's pass
            }
            renderer.endFrame()
            try game.submitFrame(signalling: renderer.frameCompletion)  // the frame's one submission (and present): the game's
            if window == nil {
                try game.readFrame().pngData().write(to: folder.appendingPathComponent(String(format: "frame-%03d.png", frame)))
            }
            frame += 1
        }
        let statistics = renderer.lastFrameStatistics
        // LayerKit's passes: over the game's frame (none inside the game's pass) and offscreen (effects).
        let offscreenPasses = statistics.offscreenReasons.count
        let shown = window == nil ? "Wrote \(frame) frames (\(width)x\(height)) to \(folder.standardizedFileURL.path)/frame-000.png …"
            : "Presented \(game.presenter?.framesPresented ?? 0) frames in the game's window"
        print("\(shown); the HUD's last frame: \(statistics.drawCalls) draw calls, \(statistics.passes - offscreenPasses) render passes of LayerKit's "
            + "over the game's frame and \(offscreenPasses) offscreen; "
            + "LayerKit made \(renderer.queueSubmissions) queue submissions; LayerKit created \(VulkanCensus.created.instances) Vulkan instances and \(VulkanCensus.created.devices) devices "
            + "in this process")
    }
}

/// The HUD's layers, and how the game's state moves them: every value is worked out from the game's
/// time, so each frame is the same on every run.
final class HUD {
    let root = CALayer()
    private let healthFill = CAGradientLayer()
    private let healthFrame = CALayer()
    private let damageNumbers: [CATextLayer]
    private let minimap = CALayer()
    private let spinner = CAReplicatorLayer()
    private let pausePanel = CALayer()
    private let size: CGSize
    static let healthWidth: CGFloat = 260
    static let hitInterval = 0.8
    /// When the pause panel starts sliding in, in seconds of game time.
    static let pauseBegins = 2.5
    /// The pause panel's backdrop blur: CIGaussianBlur's `inputRadius`, its standard deviation in points.
    static let pauseBlurRadius = 8.0

    /// Whether the pause panel is on screen at `t` (it slides in from `pauseBegins` and stays).
    func pausePanelShows(at t: Double) -> Bool { t >= Self.pauseBegins }

    init(size: CGSize) {
        self.size = size
        root.frame = CGRect(origin: .zero, size: size)

        // Health: a rounded dark frame with a white border, filled by a red → yellow → green gradient.
        healthFrame.frame = CGRect(x: 24, y: 24, width: Self.healthWidth + 8, height: 28)
        healthFrame.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0.55)
        healthFrame.cornerRadius = 8
        healthFrame.borderWidth = 2
        healthFrame.borderColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.85)
        healthFrame.masksToBounds = true
        healthFill.colors = [CGColor(red: 0.9, green: 0.15, blue: 0.1, alpha: 1), CGColor(red: 0.95, green: 0.8, blue: 0.1, alpha: 1),
                             CGColor(red: 0.2, green: 0.85, blue: 0.3, alpha: 1)]
        healthFill.startPoint = CGPoint(x: 0, y: 0.5)
        healthFill.endPoint = CGPoint(x: 1, y: 0.5)
        healthFill.anchorPoint = CGPoint(x: 0, y: 0.5)
        healthFill.cornerRadius = 5
        healthFrame.addSublayer(healthFill)
        root.addSublayer(healthFrame)

        // Damage numbers: a few text layers, reused as hits come in.
        damageNumbers = (0..<3).map { _ in
            let text = CATextLayer()
            text.fontSize = 28
            text.alignmentMode = .center
            text.foregroundColor = CGColor(red: 1, green: 0.35, blue: 0.25, alpha: 1)
            text.bounds = CGRect(x: 0, y: 0, width: 120, height: 36)
            text.opacity = 0
            return text
        }
        damageNumbers.forEach(root.addSublayer)

        // Minimap: the map, one pixel a tile, magnified and scrolled through `contentsRect`, cut to a
        // circle (a corner radius of half its side with `masksToBounds`: an analytic clip, no offscreen
        // pass, where a `mask` layer would take one), with a ring and the player's dot.
        let map = CALayer()
        map.frame = CGRect(x: size.width - 184, y: 24, width: 160, height: 160)
        map.contents = Self.mapImage(columns: 256, rows: 48)
        map.magnificationFilter = .nearest
        map.cornerRadius = 80
        map.masksToBounds = true
        let ring = CALayer()
        ring.frame = map.frame
        ring.cornerRadius = 80
        ring.borderWidth = 3
        ring.borderColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.9)
        let player = CALayer()
        player.frame = CGRect(x: 74, y: 74, width: 12, height: 12)
        player.cornerRadius = 6
        player.backgroundColor = CGColor(red: 1, green: 0.9, blue: 0.2, alpha: 1)
        ring.addSublayer(player)
        minimap.addSublayer(map)
        minimap.addSublayer(ring)
        root.addSublayer(minimap)

        // A loading spinner: one bar, replicated twelve times around, each fading a step later.
        spinner.frame = CGRect(x: 24, y: size.height - 88, width: 64, height: 64)
        spinner.instanceCount = 12
        spinner.instanceTransform = CATransform3DMakeRotation(2 * .pi / 12, 0, 0, 1)
        spinner.instanceAlphaOffset = -1.0 / 12
        let bar = CALayer()
        bar.frame = CGRect(x: 29, y: 2, width: 6, height: 18)
        bar.cornerRadius = 3
        bar.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        spinner.addSublayer(bar)
        root.addSublayer(spinner)

        // The pause panel, off screen to the right until the game pauses: frosted glass over the game, its
        // tiles blurred behind it (σ = 8 px) under a half-transparent tint.
        pausePanel.bounds = CGRect(x: 0, y: 0, width: 280, height: 220)
        pausePanel.backgroundColor = CGColor(red: 0.08, green: 0.1, blue: 0.16, alpha: 0.5)
        pausePanel.backgroundFilters = [CIFilter(name: "CIGaussianBlur", parameters: ["inputRadius": Self.pauseBlurRadius])!]
        pausePanel.cornerRadius = 18
        pausePanel.shadowOpacity = 0.5
        pausePanel.shadowRadius = 12
        pausePanel.shadowOffset = CGSize(width: 0, height: 6)
        // The shadow's shape, said: an analytic blurred rounded rect, not one worked out from the panel's
        // drawing (offscreen passes every frame: a layer with a backdrop is never drawn from a cached bitmap).
        let shadowShape = CGMutablePath()
        shadowShape.addRoundedRect(in: pausePanel.bounds, cornerWidth: 18, cornerHeight: 18)
        pausePanel.shadowPath = shadowShape
        for (row, title) in ["PAUSED", "Resume", "Settings", "Quit"].enumerated() {
            let label = CATextLayer()
            label.string = title
            label.fontSize = row == 0 ? 30 : 22
            label.alignmentMode = .center
            label.foregroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: row == 0 ? 1 : 0.85)
            label.frame = CGRect(x: 20, y: 24 + CGFloat(row) * 46, width: 240, height: 36)
            pausePanel.addSublayer(label)
        }
        root.addSublayer(pausePanel)
        update(at: 0)
    }

    /// The HUD at game time `t` (seconds).
    func update(at t: Double) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        // Health: loses 9 a hit, regains 6 a second, within 0…100.
        let hits = Int(t / Self.hitInterval)
        let health = max(0, min(100, 100 - 9 * Double(hits) + 6 * t))
        healthFill.frame = CGRect(x: 4, y: 4, width: Self.healthWidth * CGFloat(health / 100), height: 20)

        // Damage numbers: hit k shows "-9" rising 50 pt and fading over 1 s.
        for (slot, text) in damageNumbers.enumerated() {
            let k = hits - slot
            let age = t - Double(k) * Self.hitInterval
            guard k >= 1, age < 1 else { text.opacity = 0; continue }
            text.string = "-9"
            text.position = CGPoint(x: size.width / 2 + CGFloat((k * 37) % 80 - 40), y: size.height / 2 - 20 - CGFloat(age) * 50)
            text.opacity = Float(1 - age)
        }

        // Minimap: a 24-tile window of the map, scrolling with the game.
        let tiles = TileMapGame.scroll(at: t) / Double(TileMapGame.tileSize)
        let map = minimap.sublayers![0]
        map.contentsRect = CGRect(x: tiles.truncatingRemainder(dividingBy: 256 - 24) / 256, y: 0, width: 24 / 256, height: 24 / 48)

        // Spinner: a twelfth of a turn every 1/12 s.
        spinner.transform = CATransform3DMakeRotation(CGFloat((t * 12).rounded(.down)) * 2 * .pi / 12, 0, 0, 1)

        // Pause: from 2.5 s the panel slides in over 0.4 s, eased out.
        let p = min(max((t - Self.pauseBegins) / 0.4, 0), 1)
        let eased = 1 - (1 - p) * (1 - p) * (1 - p)
        pausePanel.position = CGPoint(x: size.width + 160 - CGFloat(eased) * (size.width / 2 + 160), y: size.height / 2)
        CATransaction.commit()
    }

    /// The tile map, one pixel a tile (`TileMapGame.terrain`).
    static func mapImage(columns: Int, rows: Int) -> CGImage? {
        var bytes = [UInt8](repeating: 255, count: columns * rows * 4)
        for y in 0..<rows {
            for x in 0..<columns {
                let c = TileMapGame.terrainColors[TileMapGame.terrain(x, y)]
                let i = (y * columns + x) * 4
                (bytes[i], bytes[i + 1], bytes[i + 2]) = (UInt8(c.x * 255), UInt8(c.y * 255), UInt8(c.z * 255))
            }
        }
        return CGImage(width: columns, height: rows, bytesPerRow: columns * 4, premultipliedRGBA: bytes)
    }
}

GameHUD.main()
