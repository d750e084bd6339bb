import Foundation
import LayerKit

/// LayerKit's own scene `replicated` (the replicator issue): 3,072 drawn instances from 5 model layers.
///
/// - An outer `CAReplicatorLayer` covering the window, 16 instances, each 44 px lower
///   (`instanceTransform` a translation of (0, 44)), instance colour offsets fading red out (−1/16 per
///   instance).
/// - Inside it an inner replicator, 64 instances, each 19 px to the right, green offset −1/64.
/// - Inside that a 3-layer subtree at (8, 8): a 16×16 opaque white square holding a 8×8 blue square at
///   (4, 4) and a 4×4 yellow square at (6, 6).
/// - The inner replicator's step breathes: `instanceTransform` is a translation of
///   (19 + 0.4·sin(2πt/4), 0) (a render-thread animation of `instanceTransform`), so every frame redraws all
///   3,072 instances, every one of them on screen.
public final class ReplicatedScene: BenchmarkScene {
    public static let name = "replicated"
    public static let outerCount = 16
    public static let innerCount = 64

    public let root: CALayer
    public let outer = CAReplicatorLayer()
    public let inner = CAReplicatorLayer()
    public var layerCount: Int { 5 }

    public init(startTime: CFTimeInterval) {
        root = BenchmarkScenes.makeRoot(name: Self.name)
        BenchmarkScenes.place(outer, topLeft: .zero, size: BenchmarkScenes.windowSize)
        outer.instanceCount = Self.outerCount
        outer.instanceTransform = CATransform3DMakeTranslation(0, 44, 0)
        outer.instanceRedOffset = -1.0 / Float(Self.outerCount)
        root.addSublayer(outer)

        BenchmarkScenes.place(inner, topLeft: .zero, size: CGSize(width: 1280, height: 40))
        inner.instanceCount = Self.innerCount
        inner.instanceTransform = CATransform3DMakeTranslation(19, 0, 0)
        inner.instanceGreenOffset = -1.0 / Float(Self.innerCount)
        inner.add(PeriodicMotion.keyframes("instanceTransform", period: 4, samples: 32, phase: 0, startTime: startTime) { t in
            CATransform3DMakeTranslation(19 + 0.4 * sin(2 * .pi * t / 4), 0, 0)
        }, forKey: "sway")
        outer.addSublayer(inner)

        let square = CALayer()
        BenchmarkScenes.place(square, topLeft: CGPoint(x: 8, y: 8), size: CGSize(width: 16, height: 16))
        square.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let blue = CALayer()
        BenchmarkScenes.place(blue, topLeft: CGPoint(x: 4, y: 4), size: CGSize(width: 8, height: 8))
        blue.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let yellow = CALayer()
        BenchmarkScenes.place(yellow, topLeft: CGPoint(x: 6, y: 6), size: CGSize(width: 4, height: 4))
        yellow.backgroundColor = CGColor(red: 1, green: 1, blue: 0, alpha: 1)
        square.addSublayer(blue)
        blue.addSublayer(yellow)
        inner.addSublayer(square)
    }

    public func stopMotion() {
        inner.removeAllAnimations()
    }
}
