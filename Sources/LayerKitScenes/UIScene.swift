import Foundation
import LayerKit

/// LayerKit's own scene `ui`: a game-style HUD as a Core Animation programmer would build it — about
/// 330 layers of interleaved kinds, which is what batching across kinds is for.
///
/// - A translucent panel: 1240×680 at (20, 20), corner radius 16, grey (0.1, 0.1, 0.12) at alpha 0.7.
/// - An inventory grid: 6 rows × 12 columns of slots, slot `(r, c)` at `(40 + 76c, 60 + 76r)`: a rounded
///   translucent card (68×68, radius 10, white at alpha 0.12) with an icon (44×44 at (12, 8) in the card;
///   tile `(6r + c) mod 16` of `atlas.png` through `contentsRect`) and a count label (`CATextLayer`
///   "×n", n = 1 + (7r + 3c) mod 20, 11 pt, white, at (8, 52) 52×14 in the card).
/// - A health bar: a 300×18 `CAGradientLayer` (red → yellow → green, corner radius 9) at (40, 540) whose
///   width breathes between 150 and 300 with period 4 s (render-thread animation of `bounds.size.width`,
///   anchored at its left edge).
/// - A minimap: 180×180 at (1060, 500), clipped to a circle (`cornerRadius` 90, `masksToBounds`), showing
///   the whole atlas, with 5 marker dots (8×8, radius 4, cyan) inside.
/// - A spinner: 12 bars (4×12, radius 2, white, alpha 0.25 + 0.75·k/11) around a 48×48 layer at
///   (600, 560), rotating once a second (`transform.rotation.z`).
/// - 8 floating labels (`CATextLayer`, 14 pt, yellow, "+{10k}") bobbing 12 px with period 2 s.
/// All motion is render-thread animation; nothing updates per frame.
public final class UIScene: BenchmarkScene {
    public static let name = "ui"
    public static let rows = 6
    public static let columns = 12

    public let root: CALayer
    public let panel = CALayer()
    public private(set) var slots: [CALayer] = []
    public let healthBar = CAGradientLayer()
    public let minimap = CALayer()
    public let spinner = CALayer()
    public private(set) var floatingLabels: [CATextLayer] = []
    private var animated: [CALayer] = []
    public var layerCount: Int { Self.descendants(of: root) }

    public init(startTime: CFTimeInterval) {
        root = BenchmarkScenes.makeRoot(name: Self.name)
        let atlas = CityScene.loadAtlas()
        let white = CGColor(red: 1, green: 1, blue: 1, alpha: 1)

        Self.frame(panel, x: 20, y: 20, width: 1240, height: 680)
        panel.backgroundColor = CGColor(red: 0.1, green: 0.1, blue: 0.12, alpha: 0.7)
        panel.cornerRadius = 16
        root.addSublayer(panel)

        for r in 0..<Self.rows {
            for c in 0..<Self.columns {
                let card = CALayer()
                Self.frame(card, x: 40 + 76 * CGFloat(c), y: 60 + 76 * CGFloat(r), width: 68, height: 68)
                card.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.12)
                card.cornerRadius = 10
                let icon = CALayer()
                Self.frame(icon, x: 12, y: 8, width: 44, height: 44)
                let k = (6 * r + c) % 16
                icon.contents = atlas
                icon.contentsRect = CGRect(x: CGFloat(k % 4) * 0.25, y: CGFloat(k / 4) * 0.25, width: 0.25, height: 0.25)
                card.addSublayer(icon)
                let label = CATextLayer()
                Self.frame(label, x: 8, y: 52, width: 52, height: 14)
                label.string = "×\(1 + (7 * r + 3 * c) % 20)"
                label.fontSize = 11
                label.foregroundColor = white
                card.addSublayer(label)
                root.addSublayer(card)
                slots.append(card)
            }
        }

        healthBar.anchorPoint = CGPoint(x: 0, y: 0.5)
        healthBar.bounds = CGRect(x: 0, y: 0, width: 300, height: 18)
        healthBar.position = CGPoint(x: 40, y: 549)
        healthBar.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 1, green: 1, blue: 0, alpha: 1),
                            CGColor(red: 0, green: 1, blue: 0, alpha: 1)]
        healthBar.startPoint = CGPoint(x: 0, y: 0.5)
        healthBar.endPoint = CGPoint(x: 1, y: 0.5)
        healthBar.cornerRadius = 9
        healthBar.add(PeriodicMotion.sine("bounds.size.width", amplitude: 75, period: 4, phase: 0, startTime: startTime),
                      forKey: "breathe")
        healthBar.bounds.size.width = 225
        root.addSublayer(healthBar)
        animated.append(healthBar)

        Self.frame(minimap, x: 1060, y: 500, width: 180, height: 180)
        minimap.contents = atlas
        minimap.cornerRadius = 90
        minimap.masksToBounds = true
        for m in 0..<5 {
            let dot = CALayer()
            Self.frame(dot, x: 30 + 28 * CGFloat(m), y: 40 + 19 * CGFloat(m), width: 8, height: 8)
            dot.backgroundColor = CGColor(red: 0, green: 1, blue: 1, alpha: 1)
            dot.cornerRadius = 4
            minimap.addSublayer(dot)
        }
        root.addSublayer(minimap)

        Self.frame(spinner, x: 600, y: 560, width: 48, height: 48)
        for k in 0..<12 {
            let bar = CALayer()
            bar.bounds = CGRect(x: 0, y: 0, width: 4, height: 12)
            bar.anchorPoint = CGPoint(x: 0.5, y: 2)  // rotates about the spinner's centre, 24 pt below its own
            bar.position = CGPoint(x: 24, y: 24)
            bar.setValue(CGFloat(k) * .pi / 6, forKeyPath: "transform.rotation.z")
            bar.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.25 + 0.75 * CGFloat(k) / 11)
            bar.cornerRadius = 2
            spinner.addSublayer(bar)
        }
        spinner.add(PeriodicMotion.sawtooth("transform.rotation.z", from: 0, to: 2 * .pi, period: 1, phase: 0, startTime: startTime),
                    forKey: "spin")
        root.addSublayer(spinner)
        animated.append(spinner)

        for j in 0..<8 {
            let label = CATextLayer()
            Self.frame(label, x: 120 + 130 * CGFloat(j), y: 620, width: 60, height: 18)
            label.string = "+\(10 * (j + 1))"
            label.fontSize = 14
            label.foregroundColor = CGColor(red: 1, green: 0.9, blue: 0.2, alpha: 1)
            label.add(PeriodicMotion.sine("position.y", amplitude: 6, period: 2, phase: Double(j) / 8, startTime: startTime),
                      forKey: "bob")
            root.addSublayer(label)
            floatingLabels.append(label)
            animated.append(label)
        }
    }

    public func stopMotion() {
        for layer in animated { layer.removeAllAnimations() }
    }

    /// Places `layer` with its top-left corner at (x, y) in its superlayer.
    private static func frame(_ layer: CALayer, x: CGFloat, y: CGFloat, width: CGFloat, height: CGFloat) {
        BenchmarkScenes.place(layer, topLeft: CGPoint(x: x, y: y), size: CGSize(width: width, height: height))
    }

    private static func descendants(of layer: CALayer) -> Int {
        (layer.sublayers ?? []).reduce(0) { $0 + 1 + descendants(of: $1) }
    }
}
