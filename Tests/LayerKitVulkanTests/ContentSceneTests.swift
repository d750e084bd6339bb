import LayerKitScenes
import XCTest
@testable import LayerKitVulkan

/// The content sample's scene: its constraint layout against frames worked out from the scene's rules
/// (at two root sizes, as a window resize changes it), and its rendering at sample pixels.
final class ContentSceneTests: CARendererTestCase {
    private func makeScene(width: CGFloat, height: CGFloat) -> CALayer {
        let root = makeRoot(width: width, height: height)
        _ = ContentScene(root: root)
        CATransaction.flush()
        return root
    }

    private func resize(_ root: CALayer, width: CGFloat, height: CGFloat) {
        withoutAnimation {
            root.bounds = CGRect(x: 0, y: 0, width: width, height: height)
            root.position = CGPoint(x: width / 2, y: height / 2)
        }
        CATransaction.flush()
    }

    /// The layout panel's chips in a stage of size `w`×`h` (the rules in `LayoutPanel`'s comment).
    private func chipFrames(stageWidth w: CGFloat, stageHeight h: CGFloat) -> [CGRect] {
        let chip = (w - 52) / 3
        let y = h / 2 - 20 - 20
        let a = CGRect(x: 16, y: y, width: chip, height: 40)
        let b = CGRect(x: a.maxX + 10, y: y, width: chip, height: 40)
        let c = CGRect(x: b.maxX + 10, y: y, width: w - 16 - (b.maxX + 10), height: 40)
        let bar = CGRect(x: 16, y: a.maxY + 14, width: w - 32, height: 12)
        return [a, b, c, bar]
    }

    private func assertLayout(_ root: CALayer, width: CGFloat, height: CGFloat, file: StaticString = #filePath, line: UInt = #line) {
        // Margin 12, 3 columns, 2 rows: width (W − 12)/3 − 12, height (H − 12)/2 − 12.
        let panelWidth = (width - 12) / 3 - 12, panelHeight = (height - 12) / 2 - 12
        let panels = root.sublayers ?? []
        XCTAssertEqual(panels.count, 6, file: file, line: line)
        for (index, panel) in panels.enumerated() {
            let column = CGFloat(index % 3), row = CGFloat(index / 3)
            let expected = CGRect(x: 12 + column * (panelWidth + 12), y: 12 + row * (panelHeight + 12),
                                  width: panelWidth, height: panelHeight)
            assertFrame(panel, expected, file: file, line: line)
            // The stage fills the panel below its 26-point caption.
            assertFrame(panel.sublayers![1], CGRect(x: 0, y: 26, width: panelWidth, height: panelHeight - 26), file: file, line: line)
        }
        let layoutStage = panels[4].sublayers![1]
        let chips = layoutStage.sublayers ?? []
        for (chip, expected) in zip(chips, chipFrames(stageWidth: panelWidth, stageHeight: panelHeight - 26)) {
            assertFrame(chip, expected, file: file, line: line)
        }
    }

    private func assertFrame(_ layer: CALayer, _ expected: CGRect, file: StaticString, line: UInt) {
        let frame = layer.frame, name = layer.name ?? "layer"
        XCTAssertEqual(frame.minX, expected.minX, accuracy: 1e-9, "\(name) minX", file: file, line: line)
        XCTAssertEqual(frame.minY, expected.minY, accuracy: 1e-9, "\(name) minY", file: file, line: line)
        XCTAssertEqual(frame.width, expected.width, accuracy: 1e-9, "\(name) width", file: file, line: line)
        XCTAssertEqual(frame.height, expected.height, accuracy: 1e-9, "\(name) height", file: file, line: line)
    }

    func testTheConstraintLayoutFollowsTheRootSize() {
        let root = makeScene(width: 1280, height: 720)
        assertLayout(root, width: 1280, height: 720)
        resize(root, width: 960, height: 612)
        assertLayout(root, width: 960, height: 612)
    }

    func testTheLayoutPanelRendersItsChipsWhereTheConstraintsPutThem() throws {
        let root = makeScene(width: 1280, height: 720)
        let renderer = try makeRenderer(width: 1280, height: 720)
        renderer.layer = root
        let frame = try renderFrame(renderer)
        // Layout panel: column 1, row 1 → origin (12 + 418.666…, 12 + 342) + stage offset 26.
        let panelWidth = (1280.0 - 12) / 3 - 12, panelHeight = (720.0 - 12) / 2 - 12
        let stageOrigin = CGPoint(x: 12 + panelWidth + 12, y: 12 + panelHeight + 12 + 26)
        let chips = chipFrames(stageWidth: panelWidth, stageHeight: panelHeight - 26)
        func probe(_ label: String, _ rect: CGRect, _ expected: PixelRGBA) -> Probe {
            Probe(label, Int(stageOrigin.x + rect.midX), Int(stageOrigin.y + rect.midY), expected)
        }
        assertPixels(frame, "chips", tolerance: 1, probes: [
            probe("a", chips[0], PixelRGBA(242, 115, 102, 255)),
            probe("b", chips[1], PixelRGBA(102, 191, 242, 255)),
            probe("c", chips[2], PixelRGBA(140, 224, 128, 255)),
            probe("bar", chips[3], PixelRGBA(204, 204, 204, 255)),
            // Between panels: the root's background (0.08, 0.09, 0.12).
            Probe("gap", Int(12 + panelWidth + 6), 100, PixelRGBA(20, 23, 31, 255)),
            // Inside the layout panel, above the chips: the panel's colour (0.14, 0.15, 0.19).
            Probe("panel", Int(stageOrigin.x + 8), Int(stageOrigin.y + 8), PixelRGBA(36, 38, 48, 255)),
        ])
    }
}
