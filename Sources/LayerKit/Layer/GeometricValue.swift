import Foundation

/// Values whose components must be finite to be accepted by a geometric layer property.
package protocol GeometricValue {
    var isFiniteGeometry: Bool { get }
}

extension CGFloat: GeometricValue {
    package var isFiniteGeometry: Bool { isFinite }
}

extension Float: GeometricValue {
    package var isFiniteGeometry: Bool { isFinite }
}

extension CGPoint: GeometricValue {
    package var isFiniteGeometry: Bool { x.isFinite && y.isFinite }
}

extension CGSize: GeometricValue {
    package var isFiniteGeometry: Bool { width.isFinite && height.isFinite }
}

extension CGRect: GeometricValue {
    package var isFiniteGeometry: Bool { origin.isFiniteGeometry && size.isFiniteGeometry }
}

extension CATransform3D: GeometricValue {
    package var isFiniteGeometry: Bool {
        (0..<4).allSatisfy { row in
            let r = self[row: row]
            return r.x.isFinite && r.y.isFinite && r.z.isFinite && r.w.isFinite
        }
    }
}
