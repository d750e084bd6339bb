import Foundation

extension CGPath {
    /// The path `fraction` of the way to `other`, point by point — path morphing, as Core Animation
    /// animates `path` — or nil when the two paths do not have the same elements in the same order.
    package func interpolated(to other: CGPath, fraction: Double) -> CGPath? {
        let from = elements, to = other.elements
        guard from.count == to.count,
              zip(from, to).allSatisfy({ $0.type == $1.type && $0.points.count == $1.points.count }) else { return nil }
        let f = CGFloat(fraction)
        let path = CGMutablePath()
        for (a, b) in zip(from, to) {
            let points = zip(a.points, b.points).map { CGPoint(x: $0.x + ($1.x - $0.x) * f, y: $0.y + ($1.y - $0.y) * f) }
            switch a.type {
            case .moveToPoint: path.move(to: points[0])
            case .addLineToPoint: path.addLine(to: points[0])
            case .addQuadCurveToPoint: path.addQuadCurve(to: points[1], control: points[0])
            case .addCurveToPoint: path.addCurve(to: points[2], control1: points[0], control2: points[1])
            case .closeSubpath: path.closeSubpath()
            }
        }
        return path
    }
}
