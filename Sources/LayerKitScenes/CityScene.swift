import Foundation
import LayerKit

/// SCENES.md `city`: 6,000 textured 40×40 layers sharing one atlas, each showing one 64×64 tile,
/// bobbing and rotating.
///
/// Layer `i` (0…5999), `col = i mod 100`, `row = floor(i/100)`, shows tile `k = i mod 16` of `atlas.png`
/// (4×4 tiles of 64×64 px; tile `k` at `(64·(k mod 4), 64·floor(k/4))`) through `contentsRect`, stretched
/// to 40×40 with bilinear filtering (`.linear` both ways: no mipmaps), opaque, no edge antialiasing.
/// - Top-left: `x = 26 + 12·col`, `y = 16 + 11·row + 10·sin(2π(t + i/100))`.
/// - Rotation about the centre: `angle = 2π(t/4 + i/6000)`, positive clockwise on screen.
///
/// Built with two render-thread animations per layer (`PeriodicMotion`): an additive sine of period
/// 1 s on `position.y` (phase `i/100`) and a sawtooth of `transform.rotation.z` from 0 to 2π over 4 s
/// (phase `i/6000`). All layers hold the same `CGImage`, so the atlas is one texture.
public final class CityScene: BenchmarkScene {
    public static let name = "city"
    public static let layerCount = 6_000
    public static let columns = 100
    public static let layerSize = CGSize(width: 40, height: 40)

    public let root: CALayer
    /// The 6,000 layers, in paint order (index `i`).
    public let layers: [CALayer]
    /// The shared atlas, 256×256.
    public let atlas: CGImage
    public var layerCount: Int { layers.count }

    public init(startTime: CFTimeInterval) {
        root = BenchmarkScenes.makeRoot(name: Self.name)
        atlas = Self.loadAtlas()
        var layers: [CALayer] = []
        layers.reserveCapacity(Self.layerCount)
        for i in 0..<Self.layerCount {
            let layer = CALayer()
            let k = i % 16
            BenchmarkScenes.place(layer, topLeft: Self.restingTopLeft(i), size: Self.layerSize)
            layer.contents = atlas
            layer.contentsRect = CGRect(x: CGFloat(k % 4) * 0.25, y: CGFloat(k / 4) * 0.25, width: 0.25, height: 0.25)
            layer.contentsGravity = .resize
            layer.minificationFilter = .linear
            layer.magnificationFilter = .linear
            layer.isOpaque = true
            layer.allowsEdgeAntialiasing = false
            layer.add(PeriodicMotion.sine("position.y", amplitude: 10, period: 1, phase: Double(i) / 100, startTime: startTime),
                      forKey: "bob")
            layer.add(PeriodicMotion.sawtooth("transform.rotation.z", from: 0, to: 2 * .pi, period: 4,
                                              phase: Double(i) / 6000, startTime: startTime),
                      forKey: "spin")
            root.addSublayer(layer)
            layers.append(layer)
        }
        self.layers = layers
    }

    public func stopMotion() {
        for layer in layers { layer.removeAllAnimations() }
    }

    /// Layer `i`'s top-left corner without the bob: `(26 + 12·col, 16 + 11·row)`.
    static func restingTopLeft(_ i: Int) -> CGPoint {
        CGPoint(x: 26 + 12 * (i % columns), y: 16 + 11 * (i / columns))
    }

    /// The file URL of the committed `atlas.png` (SCENES.md's; sha256 `3c9ce25d…bc76282f`).
    public static var atlasURL: URL {
        guard let url = Bundle.module.url(forResource: "atlas", withExtension: "png", subdirectory: "Resources") else {
            fatalError("LayerKitScenes' bundle lacks Resources/atlas.png; the package copies it at build time")
        }
        return url
    }

    /// Decodes `atlas.png`. The file ships inside the package, so failing to read it is a broken build.
    public static func loadAtlas() -> CGImage {
        do {
            return try CGImage(contentsOfPNGFile: atlasURL)
        } catch {
            fatalError("atlas.png does not decode: \(error)")
        }
    }
}
