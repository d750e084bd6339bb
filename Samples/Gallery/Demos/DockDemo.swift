// Dock: icons laid out by a layout manager that magnifies them under the pointer (each layout's
// frame changes animate implicitly), and a bounce on click by a keyframe animation.
import Foundation
import LayerKit
import LayerKitScenes

public final class DockDemo: GalleryDemo {
    public static let name = "dock"
    public static let title = "Dock"
    public static let summary = "A layout manager magnifies icons near the pointer; a click bounces one. Move the mouse over the dock."

    /// Lays a dock's icons side by side along its bottom, each scaled by how close the pointer is.
    final class DockLayout: CALayoutManager {
        static let iconSide: CGFloat = 56
        static let gap: CGFloat = 8
        /// Where the pointer is along the dock (nil: away).
        var pointerX: CGFloat?

        func scale(ofIconCentredAt x: CGFloat) -> CGFloat {
            guard let pointerX else { return 1 }
            let distance = abs(x - pointerX) / (Self.iconSide * 2.5)
            return 1 + 0.8 * max(0, cos(min(distance, 1) * .pi / 2))
        }

        func layoutSublayers(of dock: CALayer) {
            let icons = dock.sublayers ?? []
            // Where each icon would be unmagnified, for the distances; then the magnified widths.
            let unmagnifiedWidth = CGFloat(icons.count) * (Self.iconSide + Self.gap) - Self.gap
            var x0 = (dock.bounds.width - unmagnifiedWidth) / 2
            let scales = icons.indices.map { k in scale(ofIconCentredAt: x0 + CGFloat(k) * (Self.iconSide + Self.gap) + Self.iconSide / 2) }
            let width = scales.reduce(0) { $0 + $1 * Self.iconSide } + Self.gap * CGFloat(icons.count - 1)
            x0 = (dock.bounds.width - width) / 2
            for (icon, scale) in zip(icons, scales) {
                let side = Self.iconSide * scale
                icon.frame = CGRect(x: x0, y: dock.bounds.height - 10 - side, width: side, height: side)
                x0 += side + Self.gap
            }
        }
    }

    private let dock = CALayer()
    private let shelf = CALayer()
    private let layout = DockLayout()

    public init(root: CALayer, startTime: CFTimeInterval) {
        let backdrop = CAGradientLayer()
        backdrop.frame = root.bounds
        backdrop.colors = [CGColor(red: 0.25, green: 0.35, blue: 0.6, alpha: 1), CGColor(red: 0.7, green: 0.45, blue: 0.5, alpha: 1)]
        root.addSublayer(backdrop)

        let size = root.bounds.size
        shelf.frame = CGRect(x: size.width / 2 - 360, y: size.height - 80, width: 720, height: 70)
        shelf.cornerRadius = 18
        shelf.backgroundColor = CGColor(gray: 1, alpha: 0.25)
        shelf.borderWidth = 1
        shelf.borderColor = CGColor(gray: 1, alpha: 0.4)
        root.addSublayer(shelf)

        dock.frame = CGRect(x: 0, y: size.height - 200, width: size.width, height: 190)
        dock.layoutManager = layout
        let atlas = CityScene.loadAtlas()
        for k in 0..<10 {
            let icon = CALayer()
            icon.contents = atlas
            icon.contentsRect = DemoStyle.pictureRect(k)
            icon.cornerRadius = 12
            icon.masksToBounds = true
            dock.addSublayer(icon)
        }
        root.addSublayer(dock)
    }

    public func pointerMoved(to point: CGPoint) {
        let over = dock.frame.contains(point)
        guard over || layout.pointerX != nil else { return }
        layout.pointerX = over ? point.x : nil
        CATransaction.begin()
        CATransaction.setAnimationDuration(0.12)
        dock.setNeedsLayout()
        dock.layoutIfNeeded()  // the icons' new frames animate implicitly
        CATransaction.commit()
    }

    public func pointerDown(at point: CGPoint) {
        let local = dock.convert(point, from: dock.superlayer)
        // A click in the gap between two icons counts for the nearer one, as in a dock.
        let gap = DockLayout.gap / 2
        guard let icon = dock.sublayers?.first(where: { $0.frame.insetBy(dx: -gap, dy: 0).contains(local) }) else { return }
        let bounce = CAKeyframeAnimation(keyPath: "position.y")
        let y = icon.position.y
        bounce.values = [y, y - 60, y, y - 25, y]
        bounce.keyTimes = [0, 0.3, 0.6, 0.8, 1]
        bounce.timingFunctions = [CAMediaTimingFunction(name: .easeOut), CAMediaTimingFunction(name: .easeIn),
                                  CAMediaTimingFunction(name: .easeOut), CAMediaTimingFunction(name: .easeIn)]
        bounce.duration = 0.8
        icon.add(bounce, forKey: "bounce")
    }

    public func script(frame: Int, time: CFTimeInterval) {
        // The pointer sweeps along the dock and clicks the icon under it at frame 30.
        let x = dock.bounds.width * (0.25 + 0.5 * CGFloat(frame % 60) / 60)
        let point = CGPoint(x: x, y: dock.frame.maxY - 30)
        pointerMoved(to: point)
        if frame == 30 { pointerDown(at: point) }
    }
}
