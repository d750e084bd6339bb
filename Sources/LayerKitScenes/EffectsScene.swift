import Foundation
import LayerKit

/// LayerKit's own scene `effects` (the effects issue): shadows and filters as a UI uses them, over a
/// scrolling background.
///
/// - Background: a 2560×720 layer showing `atlas.png` stretched, scrolling left 1280 px every 12.8 s
///   (a sawtooth of `position.x`), so everything behind the panels changes every frame.
/// - 200 cards, 20 columns × 10 rows: card `(r, c)` 48×40 at `(8 + 64c, 16 + 70r)`, near-white
///   (0.95, 0.95, 0.97), corner radius 8, with a rounded-rect shadow (black, opacity 0.5, radius 4,
///   offset (0, 3)): all 200 are analytic, no offscreen pass.
/// - 20 blurred tiles: tile `k = i mod 16` of the atlas, 56×56 at `(32 + 62i, 300)`, with a
///   `CIGaussianBlur` whose `inputRadius` breathes between 1 and 4 (additive sine of amplitude 1.5 about
///   2.5, period 2 s, phase i/20) — every tile's blur is redrawn every frame, always at full resolution
///   (a radius past 4 would add a downsampling pass at some times and not others, and the scene's
///   counters would depend on when frames fall).
/// - 10 frosted panels: 80×120 at `(20 + 126j, 560)`, white at alpha 0.25, corner radius 12, with
///   `backgroundFilters = [CIGaussianBlur radius 10]`, bobbing ±6 px in y (period 3 s, phase j/10). They
///   stay more than the blur's reach (3σ = 30 px) apart, so no panel's backdrop holds another panel
///   (their passes can share targets; panels that did would each wait for the one below), and within
///   the bob the same cards lie within reach, so the scene's counters do not depend on time.
/// All motion is render-thread animation; nothing updates per frame.
public final class EffectsScene: BenchmarkScene {
    public static let name = "effects"
    public static let cardRows = 10
    public static let cardColumns = 20
    public static let blurredCount = 20
    public static let panelCount = 10

    public let root: CALayer
    public let background = CALayer()
    public private(set) var cards: [CALayer] = []
    public private(set) var blurred: [CALayer] = []
    public private(set) var panels: [CALayer] = []
    private var animated: [CALayer] = []
    public var layerCount: Int { 1 + cards.count + blurred.count + panels.count }

    public init(startTime: CFTimeInterval) {
        root = BenchmarkScenes.makeRoot(name: Self.name)
        let atlas = CityScene.loadAtlas()

        BenchmarkScenes.place(background, topLeft: .zero, size: CGSize(width: 2560, height: 720))
        background.contents = atlas
        background.add(PeriodicMotion.sawtooth("position.x", from: 1280, to: 0, period: 12.8, phase: 0, startTime: startTime),
                       forKey: "scroll")
        root.addSublayer(background)
        animated.append(background)

        for r in 0..<Self.cardRows {
            for c in 0..<Self.cardColumns {
                let card = CALayer()
                BenchmarkScenes.place(card, topLeft: CGPoint(x: 8 + 64 * c, y: 16 + 70 * r), size: CGSize(width: 48, height: 40))
                card.backgroundColor = CGColor(red: 0.95, green: 0.95, blue: 0.97, alpha: 1)
                card.cornerRadius = 8
                card.shadowOpacity = 0.5
                card.shadowRadius = 4
                card.shadowOffset = CGSize(width: 0, height: 3)
                root.addSublayer(card)
                cards.append(card)
            }
        }

        for i in 0..<Self.blurredCount {
            let tile = CALayer()
            BenchmarkScenes.place(tile, topLeft: CGPoint(x: 32 + 62 * i, y: 300), size: CGSize(width: 56, height: 56))
            let k = i % 16
            tile.contents = atlas
            tile.contentsRect = CGRect(x: CGFloat(k % 4) * 0.25, y: CGFloat(k / 4) * 0.25, width: 0.25, height: 0.25)
            tile.filters = [CIFilter(name: "CIGaussianBlur", parameters: ["inputRadius": 2.5])!]
            tile.add(PeriodicMotion.sine("filters.CIGaussianBlur.inputRadius", amplitude: 1.5, period: 2, phase: Double(i) / 20,
                                         startTime: startTime), forKey: "breathe")
            root.addSublayer(tile)
            blurred.append(tile)
            animated.append(tile)
        }

        for j in 0..<Self.panelCount {
            let panel = CALayer()
            BenchmarkScenes.place(panel, topLeft: CGPoint(x: 20 + 126 * j, y: 560), size: CGSize(width: 80, height: 120))
            panel.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.25)
            panel.cornerRadius = 12
            panel.backgroundFilters = [CIFilter(name: "CIGaussianBlur", parameters: ["inputRadius": 10])!]
            panel.add(PeriodicMotion.sine("position.y", amplitude: 6, period: 3, phase: Double(j) / 10, startTime: startTime),
                      forKey: "bob")
            root.addSublayer(panel)
            panels.append(panel)
            animated.append(panel)
        }
    }

    public func stopMotion() {
        for layer in animated { layer.removeAllAnimations() }
    }
}
