import Foundation

// The current path of a CGContext, and filling, stroking and clipping with it.
//
// Contract
//   Input:  Core Graphics' path calls in user space.
//   Output: the current path, a CGMutablePath in base space: each call hands its points to CGMutablePath
//           with the ctm as the `transform` argument, so arcs, ellipses, non-finite refusals
//           (`nonFinitePathGeometry`) and "no current point" refusals (`invalidPathOperation`) are
//           CGMutablePath's own. `addArc(tangent1End:…)` depends on the current point in user space, so it
//           is built in user space in a scratch CGMutablePath and its elements replayed through the ctm.
//   Painting: `fillPath`, `strokePath`, `drawPath` and the rect/ellipse shorthands paint through
//           `composite` (blend mode, alpha, shadow, clip) and clear the current path, as Core Graphics does.
//           Fill coverage is evaluated in pixel space; strokes use the line width and dashes in the user
//           space of the ctm at stroke time.
//   Clipping: `clip(using:)` intersects Cairo's clip (saved by saveGState) with the current path.

/// How `drawPath(using:)` paints the current path.
public enum CGPathDrawingMode: Int32, Sendable {
    case fill = 0
    case eoFill = 1
    case stroke = 2
    case fillStroke = 3
    case eoFillStroke = 4
}

extension CGContext {
    // MARK: Building the path

    /// Discards the current path.
    public func beginPath() { path = CGMutablePath() }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint) { path.move(to: point, transform: state.ctm) }

    /// A line from the current point to `point`; refused (with a diagnostic) without a current point.
    public func addLine(to point: CGPoint) { path.addLine(to: point, transform: state.ctm) }

    /// Moves to the first point and adds lines to each following one.
    public func addLines(between points: [CGPoint]) { path.addLines(between: points, transform: state.ctm) }

    /// A cubic Bézier from the current point.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        path.addCurve(to: end, control1: control1, control2: control2, transform: state.ctm)
    }

    /// A quadratic Bézier from the current point.
    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        path.addQuadCurve(to: end, control: control, transform: state.ctm)
    }

    /// An arc of the circle around `center`, with a line to its start from the current point (if any).
    /// Angles and `clockwise` are in user space with Core Graphics' meaning (`clockwise` is decreasing
    /// angle); see `CGMutablePath.addArc(center:radius:startAngle:endAngle:clockwise:transform:)`.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        path.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise, transform: state.ctm)
    }

    /// An arc of `radius` tangent to the lines current point → `tangent1End` → `tangent2End`, as
    /// `CGMutablePath.addArc(tangent1End:tangent2End:radius:transform:)`, computed in user space.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat) {
        let scratch = CGMutablePath()
        if !path.isEmpty {
            scratch.move(to: path.currentPoint.applying(state.ctm.inverted()))
        }
        scratch.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius)
        // Replay everything after the scratch path's own move, so the arc continues this subpath.
        for element in scratch.elements.dropFirst() {
            let p = element.points
            switch element.type {
            case .moveToPoint: path.move(to: p[0], transform: state.ctm)
            case .addLineToPoint: path.addLine(to: p[0], transform: state.ctm)
            case .addQuadCurveToPoint: path.addQuadCurve(to: p[1], control: p[0], transform: state.ctm)
            case .addCurveToPoint: path.addCurve(to: p[2], control1: p[0], control2: p[1], transform: state.ctm)
            case .closeSubpath: path.closeSubpath()
            }
        }
    }

    /// A closed rectangle as its own subpath.
    public func addRect(_ rect: CGRect) { path.addRect(rect, transform: state.ctm) }

    /// Each rectangle as its own subpath.
    public func addRects(_ rects: [CGRect]) { path.addRects(rects, transform: state.ctm) }

    /// A closed ellipse inscribed in `rect` as its own subpath.
    public func addEllipse(in rect: CGRect) { path.addEllipse(in: rect, transform: state.ctm) }

    /// `path`'s elements, mapped by the ctm.
    public func addPath(_ path: CGPath) { self.path.addPath(path, transform: state.ctm) }

    /// Closes the current subpath with a line back to its start.
    public func closePath() { path.closeSubpath() }

    // MARK: Reading the path

    /// Whether the current path has no elements.
    public var isPathEmpty: Bool { path.isEmpty }

    /// The current point in user space; `.zero` for an empty path.
    public var currentPointOfPath: CGPoint {
        path.isEmpty ? .zero : path.currentPoint.applying(state.ctm.inverted())
    }

    /// The box of every point of the current path (control points included), in user space; `.null` when
    /// the path is empty.
    public var boundingBoxOfPath: CGRect {
        path.isEmpty ? .null : path.copy(transform: state.ctm.inverted()).boundingBox
    }

    // MARK: Painting the path

    /// Fills the current path with the fill color by `rule`, then clears the path.
    public func fillPath(using rule: CGPathFillRule = .winding) {
        let shape = takePath()
        fill(shape, rule: rule)
        didDraw("fillPath(using:)")
    }

    /// Strokes the current path with the stroke color and line style, then clears the path.
    public func strokePath() {
        let shape = takePath()
        stroke(shape)
        didDraw("strokePath()")
    }

    /// Fills and/or strokes the current path (fill first), then clears the path.
    public func drawPath(using mode: CGPathDrawingMode) {
        let shape = takePath()
        switch mode {
        case .fill: fill(shape, rule: .winding)
        case .eoFill: fill(shape, rule: .evenOdd)
        case .stroke: stroke(shape)
        case .fillStroke: fill(shape, rule: .winding); stroke(shape)
        case .eoFillStroke: fill(shape, rule: .evenOdd); stroke(shape)
        }
        didDraw("drawPath(using:)")
    }

    /// Fills `rect` with the fill color. Clears the current path, as Core Graphics does.
    public func fill(_ rect: CGRect) { fill([rect]) }

    /// Fills each rectangle (nonzero winding over all of them). Clears the current path.
    public func fill(_ rects: [CGRect]) {
        beginPath()
        addRects(rects)
        fillPath()
    }

    /// Fills the ellipse inscribed in `rect`. Clears the current path.
    public func fillEllipse(in rect: CGRect) {
        beginPath()
        addEllipse(in: rect)
        fillPath()
    }

    /// Strokes the outline of `rect`. Clears the current path.
    public func stroke(_ rect: CGRect) {
        beginPath()
        addRect(rect)
        strokePath()
    }

    /// Strokes the outline of `rect` with line width `width`; the graphics state's width is unchanged.
    public func stroke(_ rect: CGRect, width: CGFloat) {
        guard width.isFinite, width >= 0 else { return refuse("stroke(_:width:)", "line width must be finite and non-negative, got \(width)") }
        let saved = state.stroke.width
        state.stroke.width = width
        stroke(rect)
        state.stroke.width = saved
    }

    /// Strokes the ellipse inscribed in `rect`. Clears the current path.
    public func strokeEllipse(in rect: CGRect) {
        beginPath()
        addEllipse(in: rect)
        strokePath()
    }

    /// Strokes separate segments between points 0–1, 2–3, …; an odd last point is ignored. Clears the path.
    public func strokeLineSegments(between points: [CGPoint]) {
        beginPath()
        var i = 0
        while i + 1 < points.count {
            move(to: points[i])
            addLine(to: points[i + 1])
            i += 2
        }
        strokePath()
    }

    /// Makes the pixels of `rect` (in user space, within the clip) transparent — opaque black in an
    /// opaque context — whatever the blend mode, alpha and shadow. The current path is kept.
    public func clear(_ rect: CGRect) {
        let shape = CGMutablePath()
        shape.addRect(rect, transform: state.ctm)
        guard !shape.isEmpty else { return }
        surface.save()
        surface.setAntialias(state.shouldAntialias)
        surface.setBlendMode(.clear)
        surface.setMatrix(baseToPixels)
        surface.newPath()
        surface.appendPath(shape)
        surface.fill(.winding)
        surface.restore()
        didDraw("clear(_:)")
    }

    // MARK: Clipping

    /// Intersects the clip with the current path's interior by `rule`, then clears the path. With an
    /// empty path, nothing can be drawn until the clip is restored.
    public func clip(using rule: CGPathFillRule = .winding) {
        let shape = takePath()
        surface.setAntialias(state.shouldAntialias)
        surface.setMatrix(baseToPixels)
        surface.newPath()
        surface.appendPath(shape)
        surface.clip(rule)
    }

    /// Intersects the clip with `rect` (in user space). Clears the current path.
    public func clip(to rect: CGRect) { clip(to: [rect]) }

    /// Intersects the clip with the union of `rects`. Clears the current path.
    public func clip(to rects: [CGRect]) {
        beginPath()
        addRects(rects)
        clip()
    }

    /// Removes the clip: the whole bitmap is drawable again (until the next restore brings a saved clip back).
    public func resetClip() { surface.resetClip() }

    /// The bounding box of the clip in user space: the whole bitmap's when there is no clip, `.null` when
    /// the ctm is singular.
    public var boundingBoxOfClipPath: CGRect {
        surface.save()
        defer { surface.restore() }
        guard surface.setMatrix(userToPixels) else { return .null }
        return surface.clipExtents()
    }

    // MARK: Marks

    /// The current path, leaving the context with an empty one.
    private func takePath() -> CGPath {
        let shape = path
        path = CGMutablePath()
        return shape
    }

    /// Fills `shape` (base space) with the fill color.
    func fill(_ shape: CGPath, rule: CGPathFillRule) {
        guard !shape.isEmpty else { return }
        let toPixels = baseToPixels
        composite(.color(state.fillColor)) { surface, _ in
            surface.setMatrix(toPixels)
            surface.newPath()
            surface.appendPath(shape)
            surface.fill(rule)
        }
    }

    /// Strokes `shape` (base space) with the stroke color and style, in the ctm's user space.
    func stroke(_ shape: CGPath) {
        guard !shape.isEmpty, state.stroke.width > 0, CairoSurface.isInvertible(userToPixels) else { return }
        let toPixels = baseToPixels, userToPixels = userToPixels, style = state.stroke
        composite(.color(state.strokeColor)) { surface, _ in
            surface.setMatrix(toPixels)
            surface.newPath()
            surface.appendPath(shape)
            surface.setMatrix(userToPixels)
            surface.setStrokeStyle(style)
            surface.stroke()
        }
    }
}
