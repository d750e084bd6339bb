import Foundation
import LayerKit

/// SCENES.md `translucent`: 2,000 translucent rounded rectangles, every one moving every frame.
///
/// Layers `i` = 0…1999, 64×64, corner radius 12 (circular arcs), fill only, antialiased edges (about a
/// 1 px fringe: `allowsEdgeAntialiasing`, rounded corners always are), colour `palette[i mod 8]` with
/// alpha 0.5 — red, green, blue, yellow, cyan, magenta, orange, white.
/// - Top-left: `x = (((211·i) mod 1280) + 100·t) mod 1280`, `y = (137·i) mod 657`. A layer past the right
///   edge is clipped, not wrapped.
///
/// `x` is a render-thread sawtooth of `position.x` over 1280 px in 12.8 s, phase `((211·i) mod 1280)/1280`.
public final class TranslucentScene: BenchmarkScene {
    public static let name = "translucent"
    public static let layerCount = 2_000
    public static let layerSize = CGSize(width: 64, height: 64)
    public static let cornerRadius: CGFloat = 12
    /// Straight RGB of `palette[i mod 8]`.
    public static let palette: [SIMD3<Double>] = [
        SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1), SIMD3(1, 1, 0),
        SIMD3(0, 1, 1), SIMD3(1, 0, 1), SIMD3(1, 0.5, 0), SIMD3(1, 1, 1),
    ]
    /// Pixels per second of the horizontal motion, and the width it wraps at.
    static let speed: Double = 100
    static let wrapWidth: Double = 1280

    public let root: CALayer
    public let layers: [CALayer]
    public var layerCount: Int { layers.count }

    public init(startTime: CFTimeInterval) {
        root = BenchmarkScenes.makeRoot(name: Self.name)
        var layers: [CALayer] = []
        layers.reserveCapacity(Self.layerCount)
        let halfWidth = Self.layerSize.width / 2
        for i in 0..<Self.layerCount {
            let layer = CALayer()
            let x0 = Double((211 * i) % 1280)
            BenchmarkScenes.place(layer, topLeft: CGPoint(x: x0, y: Double((137 * i) % 657)), size: Self.layerSize)
            let rgb = Self.palette[i % 8]
            layer.backgroundColor = CGColor(red: rgb.x, green: rgb.y, blue: rgb.z, alpha: 0.5)
            layer.cornerRadius = Self.cornerRadius
            layer.allowsEdgeAntialiasing = true
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
