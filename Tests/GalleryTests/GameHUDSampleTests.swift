import Foundation
import LayerKit
import XCTest

/// The GameHUD sample, run as a user runs it (the built executable, validation on, the HUD drawn inside
/// the game's render pass, in the game's command buffer): in the game's window, and headless, where the
/// game's tiles show where the HUD leaves them alone and the HUD's health bar and pause panel are drawn
/// over them. The sample reports what LayerKit cost the game's frame: no render pass of its own (one with
/// `--hud-in-own-pass`), and no Vulkan instance or device of its own in the process — the game's are the
/// only ones.
///
/// The expected tile colours are the sample's terrain function worked out again here: tile (column, row)
/// has height sin(0.21c) + sin(0.27r + 1.3) + 0.6 sin(0.11(c + r)) + 0.4 sin(0.63c − 0.41r), terrain
/// ⌊1.5 (height + 2.2)⌋ clamped to 0…5; at time t the map has moved ⌊48 t⌋ pixels left.
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
    func runSample(_ arguments: [String], layerKitRenderPasses: Int = 0, file: StaticString = #filePath, line: UInt = #line) throws -> String {
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
        XCTAssertTrue(printed.contains("\(layerKitRenderPasses) render passes of LayerKit's;"),
                      "the HUD in \(layerKitRenderPasses) render passes of LayerKit's: \(printed)", file: file, line: line)
        XCTAssertTrue(printed.contains("LayerKit made 0 queue submissions;"), "the game's submission is the only one: \(printed)",
                      file: file, line: line)
        XCTAssertTrue(printed.contains("LayerKit created 0 Vulkan instances and 0 devices in this process"),
                      "nothing created twice: \(printed)", file: file, line: line)
        return printed
    }

    func testTheGameShowsItsFrameWithTheHUDInItsWindow() throws {
        // The test suite runs under a display (Xvfb): the game's own window, swapchain and presents.
        let printed = try runSample(["--frames", "30"])
        XCTAssertTrue(printed.contains("Presented 30 frames in the game's window"), printed)
    }

    func testTheHUDDrawsOverTheGamesOwnFrame() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("gamehud-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        _ = try runSample(["--headless", "--frames", "180", "--out", out.path])

        // Frame 0: the game's tiles untouched by the HUD; the health bar full, yellow at its middle.
        let first = try CGImage(contentsOfPNGFile: out.appendingPathComponent("frame-000.png"))
        for (x, y) in [(400, 300), (700, 420), (100, 200)] {
            assertPixel(first, x, y, tileColor(x: x, y: y, time: 0), tolerance: 1, "the game's tile")
        }
        assertPixel(first, 158, 38, (0.95, 0.8, 0.1), tolerance: 6, "the health gradient's middle stop")

        // Frame 179 (t = 179/60): the pause panel has slid in (centred at (480, 270), 280×220). 40 pt inside
        // its left edge, more than 3σ of its shadow's blur (σ = 12) from every edge, its black shadow covers
        // the tile fully: at shadowOpacity 0.5 times the panel's alpha 0.8 (a shadow follows the layer's
        // alpha), and the panel lies over that at 0.8: 0.8 · panel + 0.2 · (1 − 0.4) · tile.
        let last = try CGImage(contentsOfPNGFile: out.appendingPathComponent("frame-179.png"))
        let time = 179.0 / 60
        let tile = tileColor(x: 380, y: 300, time: time)
        let panel = (0.08, 0.1, 0.16)
        assertPixel(last, 380, 300, (0.8 * panel.0 + 0.12 * tile.0, 0.8 * panel.1 + 0.12 * tile.1, 0.8 * panel.2 + 0.12 * tile.2),
                    tolerance: 2, "the pause panel and its shadow over the game")
        assertPixel(last, 100, 300, tileColor(x: 100, y: 300, time: time), tolerance: 1, "the game's tile beside the panel")
    }

    func testTheHUDCanStillBeDrawnInARenderPassOfLayerKitsAfterTheGames() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("gamehud-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        _ = try runSample(["--headless", "--hud-in-own-pass", "--frames", "2", "--out", out.path], layerKitRenderPasses: 1)
        let first = try CGImage(contentsOfPNGFile: out.appendingPathComponent("frame-000.png"))
        assertPixel(first, 400, 300, tileColor(x: 400, y: 300, time: 0), tolerance: 1, "the game's tile")
        assertPixel(first, 158, 38, (0.95, 0.8, 0.1), tolerance: 6, "the health gradient's middle stop")
    }
}
