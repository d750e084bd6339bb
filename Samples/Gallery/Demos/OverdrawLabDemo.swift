// Overdraw lab: a deliberately busy scene — overlapping translucent cards, a group faded as one, a
// masked picture, a frosted panel, shadows — with the host's counters shown live. The debug views
// (keys 1–6 in the window) show where pixels are shaded twice and which passes go offscreen, and why.
import Foundation
import LayerKit
import LayerKitRender
import LayerKitScenes

public final class OverdrawLabDemo: GalleryDemo {
    public static let name = "overdraw"
    public static let title = "Overdraw lab"
    public static let summary = "A busy scene with live counters; keys 1–6 switch the debug views (overdraw, offscreen, batches…)."

    private let counters: CATextLayer
    private var lastShown: CFTimeInterval = 0

    public init(root: CALayer, startTime: CFTimeInterval) {
        root.backgroundColor = DemoStyle.background
        let size = root.bounds.size
        let atlas = CityScene.loadAtlas()

        // Translucent cards drifting over one another: every overlap is shaded twice or more.
        for k in 0..<24 {
            let card = CALayer()
            card.frame = CGRect(x: 30 + CGFloat(k % 8) * (size.width - 400) / 8, y: 60 + CGFloat(k / 8) * 60, width: 120, height: 90)
            card.cornerRadius = 10
            card.backgroundColor = CGColor(red: CGFloat(k % 3) / 2, green: 0.5, blue: 1 - CGFloat(k % 4) / 3, alpha: 0.45)
            let drift = CABasicAnimation(keyPath: "position.x")
            drift.byValue = 40
            drift.duration = 1.5 + Double(k % 5) * 0.3
            drift.autoreverses = true
            drift.repeatCount = .infinity
            card.add(drift, forKey: "drift")
            root.addSublayer(card)
        }

        // A group faded as one (its children overlap, so it needs a surface: reason groupOpacity).
        let group = CALayer()
        group.frame = CGRect(x: size.width - 320, y: 60, width: 140, height: 140)
        group.opacity = 0.6
        for k in 0..<3 {
            let child = CALayer()
            child.frame = CGRect(x: CGFloat(k) * 30, y: CGFloat(k) * 30, width: 80, height: 80)
            child.backgroundColor = [DemoStyle.warm, DemoStyle.accent, DemoStyle.text][k]
            group.addSublayer(child)
        }
        root.addSublayer(group)

        // A picture masked by a circle (reason mask).
        let picture = CALayer()
        picture.frame = CGRect(x: size.width - 160, y: 60, width: 130, height: 130)
        picture.contents = atlas
        let circle = CAShapeLayer()
        circle.path = CGPath(ellipseIn: picture.bounds, transform: nil)
        picture.mask = circle
        root.addSublayer(picture)

        // A frosted panel over the cards (reason backgroundFilter), with a soft shadow (drawn in closed form).
        let panel = CALayer()
        panel.frame = CGRect(x: 60, y: 200, width: size.width / 2 - 80, height: 150)
        panel.cornerRadius = 16
        panel.backgroundColor = CGColor(gray: 1, alpha: 0.12)
        panel.backgroundFilters = [CIFilter(name: "CIGaussianBlur", parameters: ["inputRadius": 8])!]
        panel.masksToBounds = true
        root.addSublayer(panel)

        counters = DemoStyle.label("", fontSize: 13, color: DemoStyle.text,
                                   frame: CGRect(x: size.width / 2 + 20, y: size.height - 170, width: size.width / 2 - 60, height: 130))
        counters.isWrapped = true
        counters.backgroundColor = CGColor(gray: 0, alpha: 0.5)
        counters.cornerRadius = 8
        counters.shadowOpacity = 0.6
        counters.shadowRadius = 8
        root.addSublayer(counters)
    }

    /// Shows the last frame's counters, four times a second.
    public func frameDrawn(_ statistics: FrameStatistics, at time: CFTimeInterval) {
        guard time - lastShown >= 0.25 else { return }
        lastShown = time
        var reasons: [String: Int] = [:]
        for reason in statistics.offscreenReasons { reasons[reason.rawValue, default: 0] += 1 }
        let passes = reasons.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let overdraw = statistics.overdraw.map { String(format: "%.2f×", $0) } ?? "n/a"
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        counters.string = """
         draw calls \(statistics.drawCalls) · batches \(statistics.batches) · instances \(statistics.instances)
         layers visible \(statistics.layersVisible) · culled \(statistics.layersCulled)
         offscreen passes \(statistics.offscreenPasses): \(passes.isEmpty ? "none" : passes)
         overdraw \(overdraw) · uploads \(statistics.bytesUploaded) B
        """
        CATransaction.commit()
    }
}
