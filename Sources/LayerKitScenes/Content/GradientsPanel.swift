import Foundation
import LayerKit

/// The content sample's gradients panel: one `CAGradientLayer` of each type, drawn by the GPU's layer
/// shader, each with something animating — the axial one's colors, the radial one's locations, the
/// conic one's start direction.
enum GradientsPanel {
    static func populate(_ stage: CALayer) {
        let sunrise: [CGColor] = [CGColor(red: 0.98, green: 0.45, blue: 0.35, alpha: 1),
                                  CGColor(red: 0.98, green: 0.78, blue: 0.25, alpha: 1),
                                  CGColor(red: 0.35, green: 0.62, blue: 0.98, alpha: 1)]
        let dusk: [CGColor] = [CGColor(red: 0.35, green: 0.25, blue: 0.70, alpha: 1),
                               CGColor(red: 0.90, green: 0.35, blue: 0.55, alpha: 1),
                               CGColor(red: 0.98, green: 0.70, blue: 0.35, alpha: 1)]

        let axial = gradientLayer("gradients.axial", type: .axial, offset: -100)
        axial.colors = sunrise
        axial.startPoint = CGPoint(x: 0, y: 0)
        axial.endPoint = CGPoint(x: 1, y: 1)
        axial.add(ContentScene.repeating("colors", from: sunrise, to: dusk, duration: 2.5), forKey: "colors")
        stage.addSublayer(axial)

        let radial = gradientLayer("gradients.radial", type: .radial, offset: 0)
        radial.colors = [CGColor(red: 1, green: 1, blue: 0.85, alpha: 1), CGColor(red: 0.98, green: 0.55, blue: 0.20, alpha: 1),
                         CGColor(red: 0.30, green: 0.10, blue: 0.35, alpha: 1)]
        radial.locations = [0, 0.3, 1]
        radial.startPoint = CGPoint(x: 0.5, y: 0.5)
        radial.endPoint = CGPoint(x: 1, y: 1)
        radial.add(ContentScene.repeating("locations", from: [0, 0.3, 1], to: [0, 0.8, 1], duration: 1.8), forKey: "locations")
        stage.addSublayer(radial)

        let conic = gradientLayer("gradients.conic", type: .conic, offset: 100)
        conic.colors = [CGColor(red: 1, green: 0.3, blue: 0.3, alpha: 1), CGColor(red: 1, green: 0.9, blue: 0.3, alpha: 1),
                        CGColor(red: 0.3, green: 0.9, blue: 0.5, alpha: 1), CGColor(red: 0.3, green: 0.6, blue: 1, alpha: 1),
                        CGColor(red: 0.8, green: 0.4, blue: 1, alpha: 1), CGColor(red: 1, green: 0.3, blue: 0.3, alpha: 1)]
        conic.startPoint = CGPoint(x: 0.5, y: 0.5)
        conic.endPoint = CGPoint(x: 0.5, y: 0)
        conic.cornerRadius = 45
        conic.add(ContentScene.repeating("endPoint", from: CGPoint(x: 0.5, y: 0), to: CGPoint(x: 0.5, y: 1), duration: 3),
                  forKey: "turn")
        stage.addSublayer(conic)
    }

    /// A 90-point square gradient layer centred in its superlayer, `offset` points right of the centre.
    private static func gradientLayer(_ name: String, type: CAGradientLayerType, offset: CGFloat) -> CAGradientLayer {
        let layer = CAGradientLayer()
        layer.name = name
        layer.type = type
        layer.bounds = CGRect(x: 0, y: 0, width: 90, height: 90)
        layer.cornerRadius = 12
        layer.constraints = ContentScene.centered(offset: CGPoint(x: offset, y: 0))
        return layer
    }
}
