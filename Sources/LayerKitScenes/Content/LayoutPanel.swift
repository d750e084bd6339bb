import Foundation
import LayerKit

/// The content sample's layout panel: chips placed by `CAConstraint`s on one another and on the
/// panel, so they stretch and move as the window (and with it the panel) is resized.
///
/// Worked out for a stage of size W × H (tests check this): chip "a" spans `minX = 16`, width
/// `(W − 52)/3`; "b" starts 10 after a's maxX with a's width; "c" starts 10 after b and ends at `W − 16`;
/// all three are 40 high, centred at `H/2 − 20`; the bar below runs from a's minX to c's maxX, 12 high,
/// its minY 14 below a's maxY.
enum LayoutPanel {
    static func populate(_ stage: CALayer) {
        let colors = [CGColor(red: 0.95, green: 0.45, blue: 0.40, alpha: 1),
                      CGColor(red: 0.40, green: 0.75, blue: 0.95, alpha: 1),
                      CGColor(red: 0.55, green: 0.88, blue: 0.50, alpha: 1)]
        let a = chip("a", color: colors[0], [
            CAConstraint(attribute: .minX, relativeTo: "superlayer", attribute: .minX, offset: 16),
            CAConstraint(attribute: .width, relativeTo: "superlayer", attribute: .width, scale: 1.0 / 3, offset: -52.0 / 3),
        ])
        let b = chip("b", color: colors[1], [
            CAConstraint(attribute: .minX, relativeTo: "a", attribute: .maxX, offset: 10),
            CAConstraint(attribute: .width, relativeTo: "a", attribute: .width),
        ])
        let c = chip("c", color: colors[2], [
            CAConstraint(attribute: .minX, relativeTo: "b", attribute: .maxX, offset: 10),
            CAConstraint(attribute: .maxX, relativeTo: "superlayer", attribute: .maxX, offset: -16),
        ])
        let bar = CALayer()
        bar.name = "bar"
        bar.backgroundColor = CGColor(gray: 0.8, alpha: 1)
        bar.cornerRadius = 6
        bar.constraints = [
            CAConstraint(attribute: .minX, relativeTo: "a", attribute: .minX),
            CAConstraint(attribute: .maxX, relativeTo: "c", attribute: .maxX),
            CAConstraint(attribute: .minY, relativeTo: "a", attribute: .maxY, offset: 14),
            CAConstraint(attribute: .height, relativeTo: "a", attribute: .height, scale: 0, offset: 12),
        ]
        for layer in [a, b, c, bar] { stage.addSublayer(layer) }
    }

    private static func chip(_ name: String, color: CGColor, _ horizontal: [CAConstraint]) -> CALayer {
        let chip = CALayer()
        chip.name = name
        chip.backgroundColor = color
        chip.cornerRadius = 8
        chip.constraints = horizontal + [
            CAConstraint(attribute: .midY, relativeTo: "superlayer", attribute: .midY, offset: -20),
            CAConstraint(attribute: .height, relativeTo: "superlayer", attribute: .height, scale: 0, offset: 40),
        ]
        return chip
    }
}
