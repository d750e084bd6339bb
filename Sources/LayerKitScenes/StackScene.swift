import Foundation
import LayerKit

/// SCENES.md `stack`: 64 full-window opaque layers; only the top one shows, and its colour changes every
/// frame. What it measures is what the engine does with the 63 hidden layers (cull, early-z or overdraw).
///
/// Layers `j` = 0…63 (63 on top), each at (0, 0), 1280×720, opaque, square corners.
/// - `j < 63`: `(4j/255, (255−4j)/255, 128/255, 1)`, static.
/// - `j = 63`: `(0.5 + 0.5·sin(2πt), 0.5 + 0.5·sin(2π(t + 1/3)), 0.5 + 0.5·sin(2π(t + 2/3)), 1)`.
///
/// The top colour is a render-thread `backgroundColor` keyframe animation of period 1 s
/// (`PeriodicMotion.keyframes`, `topColorSamples` samples): the three channels have different phases,
/// which one spring cannot give. Its largest error, `0.5·(2π/samples)²/8`, is below 2·10⁻⁴ — under a
/// twentieth of an 8-bit step.
public final class StackScene: BenchmarkScene {
    public static let name = "stack"
    public static let layerCount = 64
    public static let topColorSamples = 120

    public let root: CALayer
    /// The 64 layers, bottom (0) to top (63).
    public let layers: [CALayer]
    public var layerCount: Int { layers.count }

    public init(startTime: CFTimeInterval) {
        root = BenchmarkScenes.makeRoot(name: Self.name)
        var layers: [CALayer] = []
        for j in 0..<Self.layerCount {
            let layer = CALayer()
            BenchmarkScenes.place(layer, topLeft: .zero, size: BenchmarkScenes.windowSize)
            layer.isOpaque = true
            let rgba = j < 63 ? Self.staticColor(j) : Self.topColor(at: 0)
            layer.backgroundColor = CGColor(red: rgba.x, green: rgba.y, blue: rgba.z, alpha: rgba.w)
            root.addSublayer(layer)
            layers.append(layer)
        }
        layers[63].add(PeriodicMotion.keyframes("backgroundColor", period: 1, samples: Self.topColorSamples, phase: 0,
                                                startTime: startTime) { t in
            let rgba = Self.topColor(at: t)
            return CGColor(red: rgba.x, green: rgba.y, blue: rgba.z, alpha: rgba.w)
        }, forKey: "cycle")
        self.layers = layers
    }

    public func stopMotion() {
        layers[63].removeAllAnimations()
    }

    /// Layer `j < 63`'s colour, straight RGBA.
    public static func staticColor(_ j: Int) -> SIMD4<Double> {
        SIMD4(Double(4 * j) / 255, Double(255 - 4 * j) / 255, 128 / 255, 1)
    }

    /// The top layer's colour at `t`, straight RGBA.
    public static func topColor(at t: CFTimeInterval) -> SIMD4<Double> {
        func channel(_ phase: Double) -> Double { 0.5 + 0.5 * sin(2 * .pi * (t + phase)) }
        return SIMD4(channel(0), channel(1.0 / 3), channel(2.0 / 3), 1)
    }
}
