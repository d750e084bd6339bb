import Foundation
import LayerKit

/// The calibration scene `empty` (as `peers/qtquick/empty.qml`): one 100×100 opaque white rectangle
/// moving across the black window. It measures the per-frame floor of a host's loop: clear, one small
/// draw, present.
///
/// The rectangle's top-left corner is at `x = (100·t) mod 1180`, `y = 310`: a render-thread sawtooth of
/// `position.x` with period 11.8 s.
public final class EmptyScene: BenchmarkScene {
    public static let name = "empty"
    static let size = CGSize(width: 100, height: 100)
    static let speed: Double = 100
    static let wrapWidth: Double = 1180

    public let root: CALayer
    public let rectangle = CALayer()
    public var layerCount: Int { 1 }

    public init(startTime: CFTimeInterval) {
        root = BenchmarkScenes.makeRoot(name: Self.name)
        BenchmarkScenes.place(rectangle, topLeft: CGPoint(x: 0, y: 310), size: Self.size)
        rectangle.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        rectangle.isOpaque = true
        let halfWidth = Self.size.width / 2
        rectangle.add(PeriodicMotion.sawtooth("position.x", from: halfWidth, to: halfWidth + Self.wrapWidth,
                                              period: Self.wrapWidth / Self.speed, phase: 0, startTime: startTime),
                      forKey: "drift")
        root.addSublayer(rectangle)
    }

    public func stopMotion() {
        rectangle.removeAllAnimations()
    }
}
