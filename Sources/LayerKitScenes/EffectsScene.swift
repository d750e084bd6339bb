import Foundation
import LayerKit

/// LayerKit's own scene `effects` (the effects issue): shadows and filters as a UI uses them, over a
/// scrolling background.
///
/// - Background: a 2560×720 layer showing `atlas.png` stretched, scrolling left 1280 px every 12.8 s
///   (a sawtooth of `position.x`), so everything behind the panels changes every frame.
/// - 200 cards, 25 columns × 8 rows: card `(r, c)` 40×36 at `(6 + 51c, y_r)`, `y_r = 12 + 58r` for the
///   four rows above the tiles and `380 + 58(r − 4)` for the four below, near-white (0.95, 0.95, 0.97),
///   corner radius 8, with a rounded-rect shadow (black, opacity 0.5, radius 4, offset (0, 3)): all 200
///   are analytic, no offscreen pass. The tiles and the panels each keep to a band where the same cards
///   are within their blur's reach whatever the time, so the scene's counters do not depend on when
///   frames fall.
/// - 20 blurred tiles: tile `k = i mod 16` of the atlas, 36×36 at `(14 + 64i, 286)` (never touching one
///   another, blur included), with a
///   `CIGaussianBlur` whose `inputRadius` breathes between 1 and 4 (additive sine of amplitude 1.5 about
///   2.5, period 2 s, phase i/20) — every tile's blur is redrawn every frame, always at full resolution
///   (a radius past 4 would add a downsampling pass at some times and not others, and the scene's
///   counters would depend on when frames fall).
/// - 10 frosted panels: 80×120 at `(20 + 126j, 590)`, white at alpha 0.25, corner radius 12, with
///   `backgroundFilters = [CIGaussianBlur radius 10]`, over the scrolling background (they stay put: a
///   moving panel's backdrop region would change by a few quads how many of the cards behind it the depth
///   test culls, and the scene's counters would depend on when frames fall). They are more than the
///   blur's reach (3σ = 30 px) apart, so no panel's backdrop holds another panel (their passes share
///   targets; panels that did would each wait for the one below).
/// All motion is render-thread animation; nothing updates per frame.
public final class EffectsScene: BenchmarkScene {
    public static let name = "effects"
    public static let cardRows = 8
    public static let cardColumns = 25
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
                let y = r < 4 ? 12 + 58 * r : 380 + 58 * (r - 4)
                BenchmarkScenes.place(card, topLeft: CGPoint(x: 6 + 51 * c, y: y), size: CGSize(width: 40, height: 36))
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
            BenchmarkScenes.place(tile, topLeft: CGPoint(x: 14 + 64 * i, y: 286), size: CGSize(width: 36, height: 36))
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
            BenchmarkScenes.place(panel, topLeft: CGPoint(x: 20 + 126 * j, y: 590), size: CGSize(width: 80, height: 120))
            panel.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.25)
            panel.cornerRadius = 12
            panel.backgroundFilters = [CIFilter(name: "CIGaussianBlur", parameters: ["inputRadius": 10])!]
            root.addSublayer(panel)
            panels.append(panel)
        }
    }

    public func stopMotion() {
        for layer in animated { layer.removeAllAnimations() }
    }
}
