// Effects: shadows, filters, frosted glass, a blend mode, a reflection made by a replicator, and a
// particle emitter — the layer code an app writes for each, in an SDL window or headless into PNG frames.
//
//   bash Tools/sample Effects                            # a window (headless PNG frames without a display)
//   swift run Effects --headless --frames 60 --out DIR   # PNG frames at 60 fps of animation time
import ArgumentParser
import Foundation
import LayerKit
import LayerKitScenes
import SampleSupport

struct Effects: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Shadows, filters, blend modes, a reflection and particles.")

    @OptionGroup var options: SampleOptions

    func run() throws {
        let host = SampleHost(name: "Effects", size: CGSize(width: 960, height: 540)) { root, startTime in
            let photo = CityScene.loadAtlas()

            // A backdrop to show the effects against.
            let backdrop = CAGradientLayer()
            backdrop.frame = root.bounds
            backdrop.colors = [CGColor(red: 0.10, green: 0.12, blue: 0.30, alpha: 1), CGColor(red: 0.45, green: 0.20, blue: 0.40, alpha: 1)]
            root.addSublayer(backdrop)

            // A card with a soft rounded shadow: drawn in closed form, no offscreen pass.
            let card = CALayer()
            card.frame = CGRect(x: 40, y: 40, width: 220, height: 140)
            card.backgroundColor = CGColor(red: 0.96, green: 0.96, blue: 0.98, alpha: 1)
            card.cornerRadius = 16
            card.shadowOpacity = 0.5
            card.shadowRadius = 12
            card.shadowOffset = CGSize(width: 0, height: 8)
            root.addSublayer(card)

            // A picture with a reflection: a replicator draws it twice, the second copy flipped under the
            // first (about the replicator's centre) and faded.
            let reflection = CAReplicatorLayer()
            reflection.frame = CGRect(x: 320, y: 40, width: 160, height: 160)
            reflection.instanceCount = 2
            reflection.instanceTransform = CATransform3DTranslate(CATransform3DMakeScale(1, -1, 1), 0, -168, 0)
            reflection.instanceAlphaOffset = -0.75
            let picture = CALayer()
            picture.frame = reflection.bounds
            picture.contents = photo
            picture.cornerRadius = 8
            picture.masksToBounds = true
            reflection.addSublayer(picture)
            root.addSublayer(reflection)

            // Frosted glass: what lies behind the panel, blurred, under its translucent fill.
            let frosted = CALayer()
            frosted.frame = CGRect(x: 380, y: 110, width: 160, height: 100)
            frosted.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.2)
            frosted.cornerRadius = 14
            frosted.backgroundFilters = [CIFilter(name: "CIGaussianBlur", parameters: ["inputRadius": 8])!]
            root.addSublayer(frosted)

            // A picture whose blur breathes (the filter's radius animates on the render thread), and a
            // sepia copy of it.
            let blurred = CALayer()
            blurred.frame = CGRect(x: 580, y: 40, width: 140, height: 140)
            blurred.contents = photo
            blurred.filters = [CIFilter(name: "CIGaussianBlur", parameters: ["inputRadius": 0])!]
            let breathe = CABasicAnimation(keyPath: "filters.CIGaussianBlur.inputRadius")
            breathe.fromValue = 0.0
            breathe.toValue = 8.0
            breathe.duration = 1.5
            breathe.autoreverses = true
            breathe.repeatCount = .infinity
            breathe.beginTime = startTime
            blurred.add(breathe, forKey: "breathe")
            root.addSublayer(blurred)
            let sepia = CALayer()
            sepia.frame = CGRect(x: 760, y: 40, width: 140, height: 140)
            sepia.contents = photo
            sepia.filters = [CIFilter(name: "CISepiaTone")!]
            root.addSublayer(sepia)

            // A blend mode: a bright disc screened over the card.
            let glow = CALayer()
            glow.frame = CGRect(x: 180, y: 120, width: 120, height: 120)
            glow.cornerRadius = 60
            glow.backgroundColor = CGColor(red: 1, green: 0.5, blue: 0.1, alpha: 1)
            glow.compositingFilter = "screenBlendMode"
            root.addSublayer(glow)

            // Sparks from a point, added up where they overlap.
            let sparks = CAEmitterLayer()
            sparks.frame = root.bounds
            sparks.emitterPosition = CGPoint(x: 480, y: 470)
            sparks.renderMode = .additive
            sparks.beginTime = startTime
            let spark = CAEmitterCell()
            spark.birthRate = 300
            spark.lifetime = 1.5
            spark.velocity = 160
            spark.velocityRange = 60
            spark.emissionLongitude = -.pi / 2
            spark.emissionRange = 0.5
            spark.yAcceleration = 200
            spark.color = CGColor(red: 1, green: 0.7, blue: 0.3, alpha: 1)
            spark.alphaSpeed = -0.6
            spark.contents = ParticlesScene.dot(side: 6)
            sparks.emitterCells = [spark]
            root.addSublayer(sparks)
            return nil
        }
        try host.run(options)
    }
}

Effects.main()
