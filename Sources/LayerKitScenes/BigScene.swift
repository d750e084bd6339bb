import Foundation
import LayerKit

/// LayerKit's `big` (render-graph issue; not in SCENES.md, defined here to the same rules): 100,000 layers
/// of which 1,000 animate. It measures what a frame costs the render thread when 1% of a large tree moves,
/// and that a still tree costs nothing: once the animations are removed (`stopMotion()`), a host renders
/// no frame at all.
///
/// Window 1280×720, cleared to black. 1,000 panels and 99,000 leaves, 100,000 layers in all:
/// - Panel `p` = 0…999, `col = p mod 40`, `row = floor(p/40)` (40 × 25, tiling the window): top-left
///   `(32·col, 28.8·row)`, 32×28.8, opaque dark grey (0.12, 0.12, 0.14).
/// - Leaves `k` = 0…98 in each panel, `c = k mod 11`, `r = floor(k/11)` (11 × 9): top-left
///   `(1 + 2.8·c, 1 + 3·r)` in the panel, 2×2, opaque, colour `(c/10, r/8, p/999, 1)`.
/// - Leaf 0 of every panel (1,000 layers) spins about its centre: `angle = 2π(t/2 + p/1000)`, a
///   render-thread sawtooth of `transform.rotation.z` over 2 s. Everything else is still.
public final class BigScene: BenchmarkScene {
    public static let name = "big"
    public static let panelCount = 1_000
    public static let panelColumns = 40
    public static let panelSize = CGSize(width: 32, height: 28.8)
    public static let leavesPerPanel = 99
    public static let leafColumns = 11
    public static let leafSize = CGSize(width: 2, height: 2)
    /// Layers that animate: leaf 0 of each panel.
    public static let animatedCount = panelCount

    public let root: CALayer
    /// The 1,000 panels; each has its 99 leaves as sublayers.
    public let panels: [CALayer]
    /// The 1,000 spinning leaves, one per panel.
    public let spinningLeaves: [CALayer]
    public var layerCount: Int { panels.count * (1 + Self.leavesPerPanel) }

    public init(startTime: CFTimeInterval) {
        root = BenchmarkScenes.makeRoot(name: Self.name)
        var panels: [CALayer] = []
        var spinning: [CALayer] = []
        panels.reserveCapacity(Self.panelCount)
        spinning.reserveCapacity(Self.animatedCount)
        for p in 0..<Self.panelCount {
            let panel = CALayer()
            BenchmarkScenes.place(panel, topLeft: Self.panelTopLeft(p), size: Self.panelSize)
            panel.backgroundColor = CGColor(red: 0.12, green: 0.12, blue: 0.14, alpha: 1)
            panel.isOpaque = true
            for k in 0..<Self.leavesPerPanel {
                let leaf = CALayer()
                let c = k % Self.leafColumns, r = k / Self.leafColumns
                BenchmarkScenes.place(leaf, topLeft: Self.leafTopLeft(k), size: Self.leafSize)
                leaf.backgroundColor = CGColor(red: CGFloat(c) / 10, green: CGFloat(r) / 8, blue: CGFloat(p) / 999, alpha: 1)
                leaf.isOpaque = true
                if k == 0 {
                    leaf.add(PeriodicMotion.sawtooth("transform.rotation.z", from: 0, to: 2 * .pi, period: 2,
                                                     phase: Double(p) / 1000, startTime: startTime),
                             forKey: "spin")
                    spinning.append(leaf)
                }
                panel.addSublayer(leaf)
            }
            root.addSublayer(panel)
            panels.append(panel)
        }
        self.panels = panels
        spinningLeaves = spinning
    }

    public func stopMotion() {
        for leaf in spinningLeaves { leaf.removeAllAnimations() }
    }

    /// Panel `p`'s top-left corner in the window.
    public static func panelTopLeft(_ p: Int) -> CGPoint {
        CGPoint(x: 32 * CGFloat(p % panelColumns), y: 28.8 * CGFloat(p / panelColumns))
    }

    /// Leaf `k`'s top-left corner in its panel.
    public static func leafTopLeft(_ k: Int) -> CGPoint {
        CGPoint(x: 1 + 2.8 * CGFloat(k % leafColumns), y: 1 + 3 * CGFloat(k / leafColumns))
    }
}
