import Foundation
import LayerKit
import XCTest

/// The GameHUD sample, run as a user runs it (the built executable, validation on, the HUD drawn inside
/// the game's render pass, in the game's command buffer, until the frosted pause panel shows; then in a
/// render pass of LayerKit's after the game's, same buffer): in the game's window, and headless, where the
/// game's tiles show where the HUD leaves them alone and the HUD's health bar and pause panel are drawn
/// over them, the panel over the tiles blurred. The sample reports what LayerKit cost the game's last
/// frame: render passes of its own over the game's frame (none inside the game's pass, one after it), and
/// no Vulkan instance or device of its own in the process — the game's are the only ones.
///
/// The expected tile colours are the sample's terrain function worked out again here: tile (column, row)
/// has height sin(0.21c) + sin(0.27r + 1.3) + 0.6 sin(0.11(c + r)) + 0.4 sin(0.63c − 0.41r), terrain
/// ⌊1.5 (height + 2.2)⌋ clamped to 0…5; at time t the map has moved ⌊48 t⌋ pixels left.
///
/// The pause panel's backdrop is those tiles blurred by a Gaussian of σ = 8 px (CIGaussianBlur, inputRadius
/// 8). Tiles are axis-aligned squares of one colour, so the blur is separable and exact in closed form: a
/// pixel centre (x, y) gets Σ over tiles of colour · (Φ((x₁ − x)/σ) − Φ((x₀ − x)/σ)) · (Φ((y₁ − y)/σ) − Φ((y₀ − y)/σ)),
/// Φ(z) = ½ (1 + erf(z/√2)), for the tile spanning [x₀, x₁) × [y₀, y₁).
final class GameHUDSampleTests: XCTestCase {
    static let terrainColors: [(Double, Double, Double)] = [
        (0.05, 0.15, 0.40), (0.10, 0.30, 0.65), (0.85, 0.78, 0.50), (0.30, 0.62, 0.25), (0.12, 0.40, 0.18), (0.50, 0.48, 0.46),
    ]

    func tileColor(x: Int, y: Int, time: Double) -> (Double, Double, Double) {
        let column = (x + Int(time * 48)) / 32, row = y / 32
        let (c, r) = (Double(column), Double(row))
        let height = sin(c * 0.21) + sin(r * 0.27 + 1.3) + 0.6 * sin((c + r) * 0.11) + 0.4 * sin(c * 0.63 - r * 0.41)
        return Self.terrainColors[min(max(Int((height + 2.2) * 1.5), 0), 5)]
    }

    func assertPixel(_ image: CGImage, _ x: Int, _ y: Int, _ expected: (Double, Double, Double), tolerance: Int,
                     _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        let p = image.pixel(x: x, y: y)
        let e = [expected.0, expected.1, expected.2].map { Int(($0 * 255).rounded()) }
        let worst = zip([Int(p.r), Int(p.g), Int(p.b)], e).map { abs($0 - $1) }.max()!
        XCTAssertLessThanOrEqual(worst, tolerance, "\(what) at (\(x), \(y)): \(p), expected \(e)", file: file, line: line)
        XCTAssertEqual(p.a, 255, what, file: file, line: line)
    }

    /// Runs the built sample with `arguments` and validation on; returns what it printed, after checking it
    /// exited cleanly with no validation message from the game's or LayerKit's use of the device.
    /// `layerKitRenderPasses`: LayerKit's render passes over the game's frame in the last frame (nil: not checked).
    func runSample(_ arguments: [String], layerKitRenderPasses: Int?, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("GameHUD")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            XCTFail("the GameHUD sample is built beside the tests (\(executable.path))", file: file, line: line)
            return ""
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LK_VALIDATION"] = "1"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, printed, file: file, line: line)
        XCTAssertFalse(printed.contains("Validation"), "no validation message: \(printed)", file: file, line: line)
        if let layerKitRenderPasses {
            XCTAssertTrue(printed.contains("\(layerKitRenderPasses) render passes of LayerKit's over the game's frame"),
                          "the HUD in \(layerKitRenderPasses) render passes of LayerKit's: \(printed)", file: file, line: line)
        }
        XCTAssertTrue(printed.contains("LayerKit made 0 queue submissions;"), "the game's submission is the only one: \(printed)",
                      file: file, line: line)
        XCTAssertTrue(printed.contains("LayerKit created 0 Vulkan instances and 0 devices in this process"),
                      "nothing created twice: \(printed)", file: file, line: line)
        return printed
    }

    func testTheGameShowsItsFrameWithTheHUDInItsWindow() throws {
        // The test suite runs under a display (Xvfb): the game's own window, swapchain and presents. The
        // window's frames follow the clock, so whether the last one has paused (its HUD after the game's
        // pass) depends on how fast this machine draws: not checked.
        let printed = try runSample(["--frames", "30"], layerKitRenderPasses: nil)
        XCTAssertTrue(printed.contains("Presented 30 frames in the game's window"), printed)
    }

    func testTheHUDDrawsOverTheGamesOwnFrame() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("gamehud-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        // The last frame is paused: the HUD is drawn in a render pass of LayerKit's after the game's.
        _ = try runSample(["--headless", "--frames", "180", "--out", out.path], layerKitRenderPasses: 1)

        // Frame 0: the game's tiles untouched by the HUD; the health bar full, yellow at its middle.
        let first = try CGImage(contentsOfPNGFile: out.appendingPathComponent("frame-000.png"))
        for (x, y) in [(400, 300), (700, 420), (100, 200)] {
            assertPixel(first, x, y, tileColor(x: x, y: y, time: 0), tolerance: 1, "the game's tile")
        }
        assertPixel(first, 158, 38, (0.95, 0.8, 0.1), tolerance: 6, "the health gradient's middle stop")

        // Frame 179 (t = 179/60): the pause panel has slid in (centred at (480, 270), 280×220: x 340…620,
        // y 160…380). Its backdrop is the game's tiles blurred (σ = 8), drawn first; over it its black
        // shadow (offset 6 down), which 30 pt and more inside its edges (2.5σ of the shadow's blur, σ = 12:
        // coverage ≥ 0.99, less than half a level from full) covers fully, at shadowOpacity 0.5 (the shadow
        // of its `shadowPath`, which does not follow the panel's alpha); over that the panel's colour at
        // 0.5: 0.5 · panel + 0.5 · (1 − 0.5) · blurred = 0.5 · panel + 0.25 · blurred.
        // The probes lie away from the labels' glyphs and more than 3σ from the damage number behind the
        // panel ("-9" in a 120×36 box at (411…531, 203…239)), whose blur would join the tiles'.
        let last = try CGImage(contentsOfPNGFile: out.appendingPathComponent("frame-179.png"))
        let time = 179.0 / 60
        let panel = (0.08, 0.1, 0.16)
        func frosted(_ tiles: (Double, Double, Double)) -> (Double, Double, Double) {
            (0.5 * panel.0 + 0.25 * tiles.0, 0.5 * panel.1 + 0.25 * tiles.1, 0.5 * panel.2 + 0.25 * tiles.2)
        }
        for (x, y) in [(370, 345), (380, 300), (590, 200)] {
            // Tolerance 3: LayerKit blurs a σ over 4 texels at reduced resolution (here the backdrop halved
            // twice: its 4×4 average and the bilinear upsampling widen σ to about √(8² + 1.25 + 2.67) ≈ 8.2 px),
            // and quantises each step to 8 bits.
            assertPixel(last, x, y, frosted(blurredTiles(x: x, y: y, time: time, sigma: 8)), tolerance: 3, "the frosted pause panel")
        }
        // The blur shows: at (370, 345), 2 px below a tile row whose colours differ from the tile's own, the
        // blurred tiles are at least 10/255 away from the sharp tile in some channel (so the check above
        // would fail without the blur).
        let sharp = frosted(tileColor(x: 370, y: 345, time: time)), blurred = frosted(blurredTiles(x: 370, y: 345, time: time, sigma: 8))
        XCTAssertGreaterThan(max(abs(sharp.0 - blurred.0), abs(sharp.1 - blurred.1), abs(sharp.2 - blurred.2)) * 255, 10)
        assertPixel(last, 100, 300, tileColor(x: 100, y: 300, time: time), tolerance: 1, "the game's tile beside the panel")
    }

    /// The game's tiles at time `time` blurred by a Gaussian of `sigma` px, at the centre of pixel (x, y):
    /// the closed form in the type's comment, over the tiles within 5σ.
    func blurredTiles(x: Int, y: Int, time: Double, sigma: Double) -> (Double, Double, Double) {
        func phi(_ z: Double) -> Double { 0.5 * (1 + erf(z / 2.0.squareRoot())) }
        let scroll = Int(time * 48)
        let (cx, cy) = (Double(x) + 0.5, Double(y) + 0.5)
        var sum = (0.0, 0.0, 0.0)
        let reach = Int(5 * sigma)
        for column in (x - reach + scroll) / 32...(x + reach + scroll) / 32 {
            let x0 = Double(column * 32 - scroll)
            let wx = phi((x0 + 32 - cx) / sigma) - phi((x0 - cx) / sigma)
            for row in max(0, y - reach) / 32...(y + reach) / 32 {
                let y0 = Double(row * 32)
                let wy = phi((y0 + 32 - cy) / sigma) - phi((y0 - cy) / sigma)
                // The tile's colour, read at a pixel inside it.
                let color = tileColor(x: column * 32 - scroll + 16, y: row * 32 + 16, time: time)
                sum = (sum.0 + color.0 * wx * wy, sum.1 + color.1 * wx * wy, sum.2 + color.2 * wx * wy)
            }
        }
        return sum
    }

    func testTheHUDCanStillBeDrawnInARenderPassOfLayerKitsAfterTheGames() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("gamehud-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        _ = try runSample(["--headless", "--hud-in-own-pass", "--frames", "2", "--out", out.path], layerKitRenderPasses: 1)
        let first = try CGImage(contentsOfPNGFile: out.appendingPathComponent("frame-000.png"))
        assertPixel(first, 400, 300, tileColor(x: 400, y: 300, time: 0), tolerance: 1, "the game's tile")
        assertPixel(first, 158, 38, (0.95, 0.8, 0.1), tolerance: 6, "the health gradient's middle stop")
    }

    func testBeforeThePauseTheHUDIsDrawnInsideTheGamesPass() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("gamehud-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        _ = try runSample(["--headless", "--frames", "2", "--out", out.path], layerKitRenderPasses: 0)
        let first = try CGImage(contentsOfPNGFile: out.appendingPathComponent("frame-001.png"))
        assertPixel(first, 400, 300, tileColor(x: 400, y: 300, time: 1.0 / 60), tolerance: 1, "the game's tile")
    }
}
