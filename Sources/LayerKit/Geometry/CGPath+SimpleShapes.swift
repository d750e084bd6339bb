import Foundation

// Recognizing the simple shapes a path may be built as, so that a renderer can draw them analytically
// (a layer's `shadowPath` made with `CGPath(rect:)`, `CGPath(roundedRect:…)` or `CGPath(ellipseIn:)` of a
// square needs no rasterized image).

extension CGPath {
    /// The rectangle and circular corner radius when the path is exactly what `CGPath(rect:)`,
    /// `CGPath(roundedRect:cornerWidth:cornerHeight:)` with equal corner sizes, or `CGPath(ellipseIn:)`
    /// of a square builds (with no transform); nil for any other path.
    package var roundedRectShape: (rect: CGRect, radius: CGFloat)? {
        var rect = CGRect.null
        if isRect(&rect) { return (rect, 0) }
        let box = boundingBoxOfPath
        guard !box.isNull, box.width > 0, box.height > 0 else { return nil }
        if box.width == box.height, storage == CGPath(ellipseIn: box).storage { return (box, box.width / 2) }
        // A rounded rect's first curve ends `radius` in from the max-x side on the max-y side.
        guard let firstCurve = storage.types.firstIndex(of: .addCurveToPoint) else { return nil }
        var pointIndex = 0
        for type in storage.types[..<firstCurve] { pointIndex += type.pointCount }
        let end = storage.points[pointIndex + 2]
        let radius = box.maxX - end.x
        // A radius past half a side would be clamped on that axis: the corners would not be circular.
        guard radius > 0, radius <= min(box.width, box.height) / 2,
              storage == CGPath(roundedRect: box, cornerWidth: radius, cornerHeight: radius).storage else { return nil }
        return (box, radius)
    }
}
