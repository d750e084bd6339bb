import Foundation
import LayerKit

/// The content sample's shapes panel: `CAShapeLayer` stroking and filling, with a write-on star,
/// marching ants around a ring, and a path morphing between two paths of the same structure.
enum ShapesPanel {
    static func populate(_ stage: CALayer) {
        let gold = CGColor(red: 0.98, green: 0.78, blue: 0.25, alpha: 1)
        let teal = CGColor(red: 0.25, green: 0.80, blue: 0.78, alpha: 1)

        // A star whose outline is written on and off: strokeEnd 0 → 1 and back.
        let star = shapeLayer("shapes.star", size: 90, offset: CGPoint(x: -100, y: 0))
        star.path = starPath(center: CGPoint(x: 45, y: 45), outer: 42, inner: 18)
        star.fillColor = CGColor(red: 0.98, green: 0.78, blue: 0.25, alpha: 0.25)
        star.strokeColor = gold
        star.lineWidth = 4
        star.lineJoin = .round
        star.lineCap = .round
        star.add(ContentScene.repeating("strokeEnd", from: 0, to: 1, duration: 2), forKey: "writeOn")
        stage.addSublayer(star)

        // A ring with marching ants: the dash phase runs one dash period a cycle.
        let ring = shapeLayer("shapes.ring", size: 90, offset: .zero)
        ring.path = CGPath(ellipseIn: CGRect(x: 4, y: 4, width: 82, height: 82), transform: nil)
        ring.fillColor = nil
        ring.strokeColor = teal
        ring.lineWidth = 3
        ring.lineDashPattern = [10, 6]
        ring.add(ContentScene.repeating("lineDashPhase", from: 0, to: -16, duration: 0.6, autoreverses: false), forKey: "ants")
        stage.addSublayer(ring)

        // A path morphing between a star and a decagon (both: a move, nine lines, a close).
        let morph = shapeLayer("shapes.morph", size: 90, offset: CGPoint(x: 100, y: 0))
        let from = starPath(center: CGPoint(x: 45, y: 45), outer: 42, inner: 18)
        let to = starPath(center: CGPoint(x: 45, y: 45), outer: 39, inner: 37)
        morph.path = from
        morph.fillColor = CGColor(red: 0.55, green: 0.45, blue: 0.98, alpha: 1)
        morph.strokeColor = CGColor(gray: 1, alpha: 0.8)
        morph.lineWidth = 2
        morph.add(ContentScene.repeating("path", from: from, to: to, duration: 1.6), forKey: "morph")
        stage.addSublayer(morph)
    }

    /// A square shape layer `size` points wide, centred in its superlayer at `offset` from the centre.
    private static func shapeLayer(_ name: String, size: CGFloat, offset: CGPoint) -> CAShapeLayer {
        let layer = CAShapeLayer()
        layer.name = name
        layer.bounds = CGRect(x: 0, y: 0, width: size, height: size)
        layer.constraints = ContentScene.centered(offset: offset)
        return layer
    }

    /// A five-pointed star: ten vertices alternating between the outer and inner radius, the first
    /// pointing up (y down).
    static func starPath(center: CGPoint, outer: CGFloat, inner: CGFloat) -> CGPath {
        let path = CGMutablePath()
        for vertex in 0..<10 {
            let radius = vertex.isMultiple(of: 2) ? outer : inner
            let angle = -CGFloat.pi / 2 + CGFloat(vertex) * .pi / 5
            let point = CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
            if vertex == 0 { path.move(to: point) } else { path.addLine(to: point) }
        }
        path.closeSubpath()
        return path
    }
}
