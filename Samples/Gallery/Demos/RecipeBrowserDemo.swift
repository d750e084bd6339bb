// Recipe browser: the card in the middle is replaced by the next one inside a push transition, the
// title cross-fades, and a glow slides along the thumbnails under it — three kinds of animation from
// three lines of layer code each.
import Foundation
import LayerKit
import LayerKitScenes

public final class RecipeBrowserDemo: GalleryDemo {
    public static let name = "recipes"
    public static let title = "Recipe browser"
    public static let summary = "Cards pushed in and out by a CATransition; ← → to browse, or click a thumbnail."

    static let recipes = ["Lemon tart", "Mushroom risotto", "Green curry", "Shakshuka", "Plum galette", "Miso ramen"]

    private let stage = CALayer()
    private let title: CATextLayer
    private let glow = CALayer()
    private var thumbnails: [CALayer] = []
    private var selected = 0
    private let pictures = CityScene.loadAtlas()

    public init(root: CALayer, startTime: CFTimeInterval) {
        let size = root.bounds.size
        root.backgroundColor = DemoStyle.background
        title = DemoStyle.label(Self.recipes[0], fontSize: 30, frame: CGRect(x: 40, y: 24, width: size.width - 80, height: 40))
        root.addSublayer(title)

        // The stage holds one card at a time; it masks to its bounds so cards slide within it.
        stage.frame = CGRect(x: 40, y: 80, width: size.width - 80, height: size.height - 220)
        stage.masksToBounds = true
        stage.cornerRadius = 18
        root.addSublayer(stage)
        stage.addSublayer(card(for: 0))

        // Thumbnails, and a glow behind the selected one.
        glow.bounds = CGRect(x: 0, y: 0, width: 84, height: 84)
        glow.cornerRadius = 14
        glow.backgroundColor = DemoStyle.accent
        glow.shadowColor = DemoStyle.accent
        glow.shadowOpacity = 0.9
        glow.shadowRadius = 10
        glow.shadowOffset = .zero
        root.addSublayer(glow)
        for k in Self.recipes.indices {
            let thumbnail = CALayer()
            thumbnail.frame = CGRect(x: 40 + CGFloat(k) * 96, y: size.height - 116, width: 76, height: 76)
            thumbnail.contents = pictures
            thumbnail.contentsRect = DemoStyle.pictureRect(k * 3)
            thumbnail.cornerRadius = 10
            thumbnail.masksToBounds = true
            root.addSublayer(thumbnail)
            thumbnails.append(thumbnail)
        }
        glow.position = thumbnails[0].position
    }

    /// A recipe's card: a picture, its name and a line of text.
    private func card(for index: Int) -> CALayer {
        let card = CALayer()
        card.frame = stage.bounds
        card.backgroundColor = DemoStyle.card
        let picture = CALayer()
        picture.frame = CGRect(x: 0, y: 0, width: card.bounds.height, height: card.bounds.height)
        picture.contents = pictures
        picture.contentsRect = DemoStyle.pictureRect(index * 3)
        card.addSublayer(picture)
        let textX = card.bounds.height + 28
        card.addSublayer(DemoStyle.label(Self.recipes[index], fontSize: 26, frame: CGRect(x: textX, y: 28, width: 400, height: 34)))
        card.addSublayer(DemoStyle.label("Serves \(2 + index % 3) · \(20 + 10 * index) minutes", fontSize: 16, color: DemoStyle.dimText,
                                         frame: CGRect(x: textX, y: 70, width: 400, height: 22)))
        return card
    }

    /// Shows recipe `index`: the new card pushes the old one out, the title cross-fades, the glow slides.
    private func select(_ index: Int) {
        guard index != selected, Self.recipes.indices.contains(index) else { return }
        let push = CATransition()
        push.type = .push
        push.subtype = index > selected ? .fromRight : .fromLeft
        push.duration = 0.45
        push.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        stage.sublayers = [card(for: index)]
        stage.add(push, forKey: kCATransition)

        let fade = CATransition()
        fade.duration = 0.3
        title.string = Self.recipes[index]
        title.add(fade, forKey: kCATransition)

        glow.position = thumbnails[index].position  // an implicit animation
        selected = index
    }

    public func keyDown(_ key: GalleryKey) {
        switch key {
        case .right: select(selected + 1)
        case .left: select(selected - 1)
        default: break
        }
    }

    public func pointerDown(at point: CGPoint) {
        if let index = thumbnails.firstIndex(where: { $0.frame.contains(point) }) { select(index) }
    }

    public func script(frame: Int, time: CFTimeInterval) {
        if frame > 0 && frame % 30 == 10 { keyDown(.right) }
    }
}
