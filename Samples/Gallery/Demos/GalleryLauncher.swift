// The gallery's launcher: a grid of cards, one per demo; arrows and Enter (or a click) open a demo,
// which pushes the menu out, and Escape pushes it back. The launcher hosts one demo at a time and passes
// it time and input.
import Foundation
import LayerKit
import LayerKitRender

/// The launcher screen and the demo it has open (see the file's header).
public final class GalleryLauncher {
    private let root: CALayer
    private let menu = CALayer()
    private var cards: [CALayer] = []
    private let ring = CALayer()
    private var selected = 0
    private let columns = 4
    /// The open demo and the layer it was built into.
    public private(set) var openDemo: (demo: any GalleryDemo, layer: CALayer)?

    /// Whether the headless script tours the menu (the launcher did not start with a demo open).
    private let toursMenu: Bool

    /// The launcher in `root`, showing the menu, or `demo` alone when given.
    public init(root: CALayer, startTime: CFTimeInterval, demo: (any GalleryDemo.Type)? = nil) {
        self.root = root
        toursMenu = demo == nil
        root.backgroundColor = DemoStyle.background
        menu.frame = root.bounds
        let size = root.bounds.size
        menu.addSublayer(DemoStyle.label("LayerKit Gallery", fontSize: 34, frame: CGRect(x: 40, y: 24, width: size.width - 80, height: 44)))
        menu.addSublayer(DemoStyle.label("Core Animation's classic demos. Arrows and Enter, or click; Esc comes back; 1–6 debug views.",
                                         fontSize: 15, color: DemoStyle.dimText, frame: CGRect(x: 40, y: 72, width: size.width - 80, height: 22)))
        let gap: CGFloat = 16
        let width = (size.width - 80 - gap * CGFloat(columns - 1)) / CGFloat(columns)
        let rows = (Gallery.demos.count + columns - 1) / columns
        let height = min(120, (size.height - 116 - 12) / CGFloat(rows) - gap)
        ring.bounds = CGRect(x: 0, y: 0, width: width + 8, height: height + 8)
        ring.cornerRadius = 16
        ring.borderWidth = 3
        ring.borderColor = DemoStyle.accent
        ring.shadowColor = DemoStyle.accent
        ring.shadowOpacity = 0.8
        ring.shadowRadius = 8
        ring.shadowOffset = .zero
        menu.addSublayer(ring)
        for (k, demo) in Gallery.demos.enumerated() {
            let card = CALayer()
            card.frame = CGRect(x: 40 + CGFloat(k % columns) * (width + gap), y: 116 + CGFloat(k / columns) * (height + gap),
                                width: width, height: height)
            card.cornerRadius = 12
            card.backgroundColor = DemoStyle.card
            card.addSublayer(DemoStyle.label(demo.title, fontSize: 19, frame: CGRect(x: 16, y: 12, width: width - 32, height: 26)))
            let summary = DemoStyle.label(demo.summary, fontSize: 12, color: DemoStyle.dimText,
                                          frame: CGRect(x: 16, y: 40, width: width - 32, height: height - 46))
            summary.isWrapped = true
            card.addSublayer(summary)
            menu.addSublayer(card)
            cards.append(card)
        }
        ring.position = cards.first?.position ?? .zero
        root.addSublayer(menu)
        if let demo { open(demo, at: startTime, animated: false) }
    }

    /// Opens `type`, pushing the menu out (at once when not `animated`).
    public func open(_ type: any GalleryDemo.Type, at time: CFTimeInterval, animated: Bool = true) {
        close(animated: false)
        let layer = CALayer()
        layer.frame = root.bounds
        let demo = type.init(root: layer, startTime: time)
        openDemo = (demo, layer)
        swapScreens(to: layer, from: .fromRight, animated: animated)
    }

    /// Closes the open demo, pushing the menu back in.
    public func close(animated: Bool = true) {
        guard openDemo != nil else { return }
        openDemo = nil
        swapScreens(to: menu, from: .fromLeft, animated: animated)
    }

    private func swapScreens(to screen: CALayer, from side: CATransitionSubtype, animated: Bool) {
        CATransaction.begin()
        CATransaction.setDisableActions(!animated)
        root.sublayers = [screen]
        if animated {
            let push = CATransition()
            push.type = .push
            push.subtype = side
            push.duration = 0.4
            push.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
            root.add(push, forKey: kCATransition)
        }
        CATransaction.commit()
    }

    private func select(_ index: Int) {
        guard cards.indices.contains(index) else { return }
        selected = index
        ring.position = cards[index].position  // an implicit slide
    }

    public func update(at time: CFTimeInterval) {
        openDemo?.demo.update(at: time)
        lastTime = time
    }
    private var lastTime: CFTimeInterval = 0

    public func keyDown(_ key: GalleryKey) {
        if let open = openDemo {
            if key == .escape { close() } else { open.demo.keyDown(key) }
            return
        }
        switch key {
        case .left: select(selected - 1)
        case .right: select(selected + 1)
        case .up: select(selected - columns)
        case .down: select(selected + columns)
        case .enter, .space: open(Gallery.demos[selected], at: lastTime)
        default: break
        }
    }

    public func pointerDown(at point: CGPoint) {
        if let open = openDemo { open.demo.pointerDown(at: point); return }
        if let index = cards.firstIndex(where: { $0.frame.contains(point) }) {
            select(index)
            open(Gallery.demos[index], at: lastTime)
        }
    }

    /// Passes the host's last frame counters to the open demo.
    public func frameDrawn(_ statistics: FrameStatistics, at time: CFTimeInterval) { openDemo?.demo.frameDrawn(statistics, at: time) }

    public func pointerMoved(to point: CGPoint) { openDemo?.demo.pointerMoved(to: point) }
    public func pointerUp(at point: CGPoint) { openDemo?.demo.pointerUp(at: point) }

    /// Headless: plays the open demo's script; a launcher that started on its menu also walks the menu,
    /// opens the first demo and comes back.
    public func script(frame: Int, time: CFTimeInterval) {
        if let open = openDemo { open.demo.script(frame: frame, time: time) }
        guard toursMenu else { return }
        switch frame {
        case 10: keyDown(.right)
        case 20: keyDown(.left)
        case 30: keyDown(.enter)
        case 70: keyDown(.escape)
        default: break
        }
    }
}
