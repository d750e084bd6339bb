import Foundation
import LayerKit

/// The content sample's drawing panel: a layer that draws itself in `draw(in:)`. Its curve's two
/// control points are custom properties declared with `needsDisplay(forKey:)`, animated by the render
/// server, so the layer is redrawn with presentation values every frame they move.
enum DrawingPanel {
    static func populate(_ stage: CALayer) {
        let curve = CurveLayer()
        curve.name = "drawing.curve"
        curve.bounds = CGRect(x: 0, y: 0, width: 300, height: 190)
        curve.constraints = ContentScene.centered()
        curve.contentsScale = 2
        curve.controlPoint1 = CGPoint(x: 80, y: 10)
        curve.controlPoint2 = CGPoint(x: 220, y: 180)
        curve.add(ContentScene.repeating("controlPoint1", from: CGPoint(x: 80, y: 10), to: CGPoint(x: 60, y: 180), duration: 1.7),
                  forKey: "first")
        curve.add(ContentScene.repeating("controlPoint2", from: CGPoint(x: 220, y: 180), to: CGPoint(x: 250, y: 10), duration: 2.3),
                  forKey: "second")
        stage.addSublayer(curve)
    }
}

/// A layer drawing a cubic Bézier from its left edge to its right edge, with its control polygon.
public final class CurveLayer: CALayer {
    /// The curve's first control point, in the layer's bounds space (animatable).
    public var controlPoint1: CGPoint {
        get { value(forKey: "controlPoint1") as? CGPoint ?? .zero }
        set { setValue(newValue, forKey: "controlPoint1") }
    }

    /// The curve's second control point, in the layer's bounds space (animatable).
    public var controlPoint2: CGPoint {
        get { value(forKey: "controlPoint2") as? CGPoint ?? .zero }
        set { setValue(newValue, forKey: "controlPoint2") }
    }

    public override class func needsDisplay(forKey key: String) -> Bool {
        key == "controlPoint1" || key == "controlPoint2" || super.needsDisplay(forKey: key)
    }

    public override class func defaultValue(forKey key: String) -> Any? {
        key == "controlPoint1" || key == "controlPoint2" ? CGPoint.zero : super.defaultValue(forKey: key)
    }

    public override func draw(in ctx: CGContext) {
        let start = CGPoint(x: 10, y: bounds.midY), end = CGPoint(x: bounds.maxX - 10, y: bounds.midY)
        let (c1, c2) = (controlPoint1, controlPoint2)
        // The control polygon, dashed.
        ctx.setStrokeColor(CGColor(gray: 1, alpha: 0.35))
        ctx.setLineWidth(1)
        ctx.setLineDash(phase: 0, lengths: [4, 4])
        ctx.move(to: start)
        ctx.addLine(to: c1)
        ctx.addLine(to: c2)
        ctx.addLine(to: end)
        ctx.strokePath()
        // The curve.
        ctx.setLineDash(phase: 0, lengths: [])
        ctx.setStrokeColor(CGColor(red: 0.98, green: 0.45, blue: 0.40, alpha: 1))
        ctx.setLineWidth(4)
        ctx.setLineCap(.round)
        ctx.move(to: start)
        ctx.addCurve(to: end, control1: c1, control2: c2)
        ctx.strokePath()
        // The control points.
        ctx.setFillColor(CGColor(red: 0.98, green: 0.78, blue: 0.25, alpha: 1))
        for point in [c1, c2] {
            ctx.fillEllipse(in: CGRect(x: point.x - 5, y: point.y - 5, width: 10, height: 10))
        }
    }
}
