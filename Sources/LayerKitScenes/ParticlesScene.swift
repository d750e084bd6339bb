import Foundation
import LayerKit

/// LayerKit's own scene `particles` (the emitter issue): one emitter of about 100,000 live particles,
/// from two cells, one with a sub-emitter.
///
/// - A `CAEmitterLayer` covering the window, a circle of radius 100 at (640, 520), seed 1; render mode
///   additive.
/// - Cell "spark": 10,000 born a second living 2 s (20,000 live), 180 ± 60 pt/s upward (longitude −π/2,
///   range 0.6), 120 pt/s² down, spin 2 ± 2 rad/s, an 8×8 white dot tinted orange (1, 0.6, 0.2), alpha
///   −0.4 per second.
///   - Its sub-cell "ember": every spark emits 2 a second while it lives, each living 1.5 s (about
///     60,000 live), drifting 10 ± 10 pt/s in any direction, a 4×4 dot tinted red (1, 0.3, 0.1), alpha
///     −0.6 per second.
/// - Cell "smoke": 5,000 born a second living 4 s (20,000 live), 40 ± 20 pt/s up (range 0.3), scale 1
///   growing 0.5 a second, a 16×16 grey dot at alpha 0.3.
/// The emitter is 6 s in at the scene's start (`beginTime`), so every frame shows its steady state;
/// nothing else moves: every frame the render thread works out every live particle from the time. The
/// live count varies a little from frame to frame (lifetimes are spread), so the scene keeps no counter
/// baselines.
public final class ParticlesScene: BenchmarkScene {
    public static let name = "particles"
    public let root: CALayer
    public let emitter = CAEmitterLayer()
    public var layerCount: Int { 1 }

    public init(startTime: CFTimeInterval) {
        root = BenchmarkScenes.makeRoot(name: Self.name)
        BenchmarkScenes.place(emitter, topLeft: .zero, size: BenchmarkScenes.windowSize)
        emitter.emitterPosition = CGPoint(x: 640, y: 520)
        emitter.emitterShape = .circle
        emitter.emitterSize = CGSize(width: 200, height: 200)
        emitter.renderMode = .additive
        emitter.seed = 1
        // Six seconds in at the scene's start: every frame shows the steady state (~100,000 live).
        emitter.beginTime = startTime - 6

        let ember = CAEmitterCell()
        ember.name = "ember"
        ember.birthRate = 2
        ember.lifetime = 1.5
        ember.velocity = 10
        ember.velocityRange = 10
        ember.emissionRange = .pi
        ember.color = CGColor(red: 1, green: 0.3, blue: 0.1, alpha: 1)
        ember.alphaSpeed = -0.6
        ember.contents = Self.dot(side: 4)

        let spark = CAEmitterCell()
        spark.name = "spark"
        spark.birthRate = 10_000
        spark.lifetime = 2
        spark.velocity = 180
        spark.velocityRange = 60
        spark.emissionLongitude = -.pi / 2
        spark.emissionRange = 0.6
        spark.yAcceleration = 120
        spark.spin = 2
        spark.spinRange = 2
        spark.color = CGColor(red: 1, green: 0.6, blue: 0.2, alpha: 1)
        spark.alphaSpeed = -0.4
        spark.contents = Self.dot(side: 8)
        spark.emitterCells = [ember]

        let smoke = CAEmitterCell()
        smoke.name = "smoke"
        smoke.birthRate = 5_000
        smoke.lifetime = 4
        smoke.velocity = 40
        smoke.velocityRange = 20
        smoke.emissionLongitude = -.pi / 2
        smoke.emissionRange = 0.3
        smoke.scaleSpeed = 0.5
        smoke.color = CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 0.3)
        smoke.contents = Self.dot(side: 16)

        emitter.emitterCells = [spark, smoke]
        root.addSublayer(emitter)
    }

    public func stopMotion() {
        emitter.birthRate = 0
    }

    /// A round white dot, antialiased, `side` pixels across.
    public static func dot(side: Int) -> CGImage {
        let radius = Double(side) / 2
        var bytes: [UInt8] = []
        for y in 0..<side {
            for x in 0..<side {
                let d = ((Double(x) + 0.5 - radius) * (Double(x) + 0.5 - radius) + (Double(y) + 0.5 - radius) * (Double(y) + 0.5 - radius)).squareRoot()
                let a = UInt8(max(0, min(1, radius - d)) * 255)
                bytes += [a, a, a, a]
            }
        }
        return CGImage(width: side, height: side, bytesPerRow: side * 4, premultipliedRGBA: bytes, alphaInfo: .premultipliedLast)!
    }
}
