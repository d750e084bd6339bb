// Particles: a fire, a field of sparkles, and text ("LK") written on by an emitter that follows a path —
// each one CAEmitterLayer with a cell. Particles stay where they were born while the emitter moves on.
// Space switches the fire off and on by animating the emitter's birthRate.
import Foundation
import LayerKit
import LayerKitScenes

public final class ParticlesDemo: GalleryDemo {
    public static let name = "particles"
    public static let title = "Particles"
    public static let summary = "CAEmitterLayer: fire, sparkles, and text written on by an emitter along a path. Space: fire."

    private let fire = CAEmitterLayer()

    public init(root: CALayer, startTime: CFTimeInterval) {
        root.backgroundColor = CGColor(red: 0.02, green: 0.02, blue: 0.06, alpha: 1)
        let size = root.bounds.size

        // Fire: a short line of flames rising, added up where they overlap, reddening as they fade.
        fire.frame = root.bounds
        fire.emitterPosition = CGPoint(x: size.width * 0.3, y: size.height - 60)
        fire.emitterSize = CGSize(width: 80, height: 0)
        fire.emitterShape = .line
        fire.renderMode = .additive
        let flame = CAEmitterCell()
        flame.name = "flame"
        flame.birthRate = 500
        flame.lifetime = 1.2
        flame.lifetimeRange = 0.4
        flame.velocity = 120
        flame.velocityRange = 40
        flame.emissionLongitude = -.pi / 2
        flame.emissionRange = 0.35
        flame.scale = 1.6
        flame.scaleSpeed = -0.9
        flame.color = CGColor(red: 1, green: 0.55, blue: 0.15, alpha: 0.6)
        flame.greenSpeed = -0.4
        flame.blueSpeed = -0.2
        flame.alphaSpeed = -0.45
        flame.contents = ParticlesScene.dot(side: 16)
        fire.emitterCells = [flame]
        root.addSublayer(fire)

        // Sparkles: a rectangle of small stars that appear, turn and fade.
        let sparkles = CAEmitterLayer()
        sparkles.frame = root.bounds
        sparkles.emitterPosition = CGPoint(x: size.width * 0.72, y: size.height * 0.45)
        sparkles.emitterSize = CGSize(width: size.width * 0.4, height: size.height * 0.6)
        sparkles.emitterShape = .rectangle
        sparkles.emitterMode = .surface
        let sparkle = CAEmitterCell()
        sparkle.birthRate = 60
        sparkle.lifetime = 1.5
        sparkle.velocity = 8
        sparkle.emissionRange = 2 * .pi
        sparkle.spin = 2
        sparkle.spinRange = 2
        sparkle.scale = 0.5
        sparkle.scaleRange = 0.4
        sparkle.color = CGColor(red: 0.8, green: 0.9, blue: 1, alpha: 1)
        sparkle.blueRange = 0.2
        sparkle.alphaSpeed = -0.66
        sparkle.contents = ParticlesScene.dot(side: 8)
        sparkles.emitterCells = [sparkle]
        root.addSublayer(sparkles)

        // Write-on: an emitter whose position follows the letters' stroke; each particle stays where the
        // pen was when it was born, and fades, so the text is written and dries behind the pen.
        let pen = CAEmitterLayer()
        pen.frame = root.bounds
        pen.renderMode = .additive
        let ink = CAEmitterCell()
        ink.birthRate = 600
        ink.lifetime = 2.4
        ink.velocity = 6
        ink.emissionRange = .pi
        ink.scale = 0.6
        ink.color = CGColor(red: 0.5, green: 0.8, blue: 1, alpha: 1)
        ink.alphaSpeed = -0.4
        ink.contents = ParticlesScene.dot(side: 8)
        pen.emitterCells = [ink]
        // "LK" in one stroke, as a hand would write it: the L, a joining stroke up to the K's stem, the
        // stem, and the K's two arms from its middle.
        let signature = CGMutablePath()
        let (x, y, h) = (size.width * 0.06, size.height * 0.08, size.height * 0.22)
        signature.move(to: CGPoint(x: x, y: y))
        for point in [(x, y + h), (x + h * 0.5, y + h), (x + h * 0.8, y), (x + h * 0.8, y + h), (x + h * 0.8, y + h * 0.5),
                      (x + h * 1.3, y), (x + h * 0.8, y + h * 0.5), (x + h * 1.3, y + h)] {
            signature.addLine(to: CGPoint(x: point.0, y: point.1))
        }
        let write = CAKeyframeAnimation(keyPath: "emitterPosition")
        write.path = signature
        write.calculationMode = .paced
        write.duration = 2.5
        write.repeatCount = .infinity
        pen.add(write, forKey: "write")
        pen.emitterPosition = CGPoint(x: x, y: y)
        root.addSublayer(pen)
    }

    public func keyDown(_ key: GalleryKey) {
        guard key == .space else { return }
        CATransaction.begin()
        CATransaction.setAnimationDuration(0.5)
        fire.birthRate = fire.birthRate > 0 ? 0 : 1  // animates implicitly: the fire dies down or flares up
        CATransaction.commit()
    }

    public func script(frame: Int, time: CFTimeInterval) {
        if frame == 40 || frame == 70 { keyDown(.space) }
    }
}
