import Foundation
import LayerKit

/// LayerKit's own content scene `gradients`: 1,000 translucent gradient layers of all three kinds,
/// every one moving every frame, so each frame shades every gradient again.
///
/// Layers `i` = 0…999, 96×64, corner radius 8: `type` = axial, radial, conic for `i mod 3`; `2 + (i mod 5)`
/// colors, color `k` being `palette[(i + k) mod 8]` (SCENES.md translucent's palette) at alpha 0.75,
/// evenly spaced; axial from (0, 0) to (1, 1), radial and conic centred at (0.5, 0.5) towards (1, 1).
/// - Top-left: `x = (((131·i) mod 1184) + 80·t) mod 1184`, `y = (89·i) mod 656`, a render-thread sawtooth
///   of `position.x` as `translucent` has.
public final class GradientsScene: BenchmarkScene {
    public static let name = "gradients"
    public static let layerCount = 1_000
    public static let layerSize = CGSize(width: 96, height: 64)
    static let speed: Double = 80
    static let wrapWidth: Double = 1184

    public let root: CALayer
    public let layers: [CAGradientLayer]
    public var layerCount: Int { layers.count }

    public init(startTime: CFTimeInterval) {
        root = BenchmarkScenes.makeRoot(name: Self.name)
        var layers: [CAGradientLayer] = []
        layers.reserveCapacity(Self.layerCount)
        let halfWidth = Self.layerSize.width / 2
        let kinds: [CAGradientLayerType] = [.axial, .radial, .conic]
        for i in 0..<Self.layerCount {
            let layer = CAGradientLayer()
            let x0 = Double((131 * i) % 1184)
            BenchmarkScenes.place(layer, topLeft: CGPoint(x: x0, y: Double((89 * i) % 656)), size: Self.layerSize)
            layer.type = kinds[i % 3]
            layer.colors = (0..<(2 + i % 5)).map { k in
                let rgb = TranslucentScene.palette[(i + k) % 8]
                return CGColor(red: rgb.x, green: rgb.y, blue: rgb.z, alpha: 0.75)
            }
            layer.startPoint = i % 3 == 0 ? .zero : CGPoint(x: 0.5, y: 0.5)
            layer.endPoint = CGPoint(x: 1, y: 1)
            layer.cornerRadius = 8
            layer.add(PeriodicMotion.sawtooth("position.x", from: halfWidth, to: halfWidth + Self.wrapWidth,
                                              period: Self.wrapWidth / Self.speed, phase: x0 / Self.wrapWidth,
                                              startTime: startTime),
                      forKey: "drift")
            root.addSublayer(layer)
            layers.append(layer)
        }
        self.layers = layers
    }

    public func stopMotion() {
        for layer in layers { layer.removeAllAnimations() }
    }
}
