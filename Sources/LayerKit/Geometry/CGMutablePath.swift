import Foundation

// CGMutablePath: the path you build, with Core Graphics' names and element order.
//
// Every add or move call either appends all of its elements or none: the elements are appended, and if
// any new point is NaN or infinite (a non-finite argument, or a finite one the transform overflowed) they
// are taken back and `CGPath.refuseNonFinite(_:)` is called. A segment with no current point to start
// from is refused the same way (Core Graphics logs "no current point" and adds nothing).
// Arcs are in CGPath+Arcs.swift.

/// A path you can add to. Apple's `CGMutablePath`: every `transform` argument maps the new points before
/// they are appended.
public final class CGMutablePath: CGPath {
    /// An empty path.
    public init() {
        super.init(storage: CGPathStorage())
    }

    init(copying storage: CGPathStorage) {
        super.init(storage: storage)
    }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        storage.appendAtomically("move(to:transform:)") { $0.move(to: point.applying(transform)) }
    }

    /// Appends a straight line from the current point to `point`. Nothing is added without a current
    /// point. After `closeSubpath()` the line starts a new subpath at the closed one's start.
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        let operation = "addLine(to:transform:)"
        guard storage.requireCurrentPoint(operation) else { return }
        storage.appendAtomically(operation) { $0.line(to: point.applying(transform)) }
    }

    /// Moves to the first point, then adds a line to each following point. Nothing for an empty array.
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        storage.appendAtomically("addLines(between:transform:)") { storage in
            storage.move(to: first.applying(transform))
            for point in points.dropFirst() {
                storage.line(to: point.applying(transform))
            }
        }
    }

    /// Appends a quadratic Bézier from the current point to `end` with one `control` point.
    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        let operation = "addQuadCurve(to:control:transform:)"
        guard storage.requireCurrentPoint(operation) else { return }
        storage.appendAtomically(operation) { $0.quadCurve(control: control.applying(transform), end: end.applying(transform)) }
    }

    /// Appends a cubic Bézier from the current point to `end` with controls `control1` and `control2`.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint, transform: CGAffineTransform = .identity) {
        let operation = "addCurve(to:control1:control2:transform:)"
        guard storage.requireCurrentPoint(operation) else { return }
        storage.appendAtomically(operation) {
            $0.curve(control1: control1.applying(transform), control2: control2.applying(transform), end: end.applying(transform))
        }
    }

    /// Adds a closed rectangle as its own subpath: move to (minX, minY), lines to (maxX, minY),
    /// (maxX, maxY), (minX, maxY), close.
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        storage.appendRect(rect, transform: transform)
    }

    /// Adds each rectangle as in `addRect(_:transform:)`, in order. Refused as a whole if any is not finite.
    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        storage.appendAtomically("addRects(_:transform:)") { storage in
            for rect in rects {
                storage.rectElements(rect, transform: transform)
            }
        }
    }

    /// Adds a closed ellipse inscribed in `rect` as its own subpath: four cubic Béziers from
    /// (maxX, midY) through (midX, maxY), (minX, midY), (midX, minY) and back, then close.
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        storage.appendEllipse(in: rect, transform: transform)
    }

    /// Adds a closed rounded rectangle whose corners are quarter ellipses `cornerWidth` wide and
    /// `cornerHeight` tall, in Core Graphics' order: move to (maxX, midY), then up the max-x side, around
    /// the (maxX, maxY) corner, along the max-y side, and so on, each corner one cubic Bézier, then close.
    ///
    /// Core Graphics traps on a negative corner size or one more than half the rectangle; LayerKit clamps
    /// each into `0...width/2` and `0...height/2` instead. A zero corner size adds a plain rectangle.
    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: CGAffineTransform = .identity) {
        storage.appendRoundedRect(rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight, transform: transform)
    }

    /// Appends all of `path`'s elements, mapped by `transform`. The first of them is a move, so the added
    /// path is not connected to this one.
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        let other = path.storage
        guard !other.types.isEmpty else { return }
        storage.appendAtomically("addPath(_:transform:)") { storage in
            var p = 0
            for type in other.types {
                switch type {
                case .moveToPoint: storage.move(to: other.points[p].applying(transform))
                case .addLineToPoint: storage.line(to: other.points[p].applying(transform))
                case .addQuadCurveToPoint:
                    storage.quadCurve(control: other.points[p].applying(transform), end: other.points[p + 1].applying(transform))
                case .addCurveToPoint:
                    storage.curve(
                        control1: other.points[p].applying(transform),
                        control2: other.points[p + 1].applying(transform),
                        end: other.points[p + 2].applying(transform)
                    )
                case .closeSubpath: storage.close()
                }
                p += type.pointCount
            }
        }
    }

    /// Closes the current subpath with a line back to its start. The current point becomes that start.
    /// Nothing happens on an empty path or one whose subpath is already closed.
    public func closeSubpath() {
        storage.close()
    }
}

// MARK: - Building blocks shared by CGMutablePath and the CGPath initialisers

extension CGPathStorage {
    /// Kappa for a quarter ellipse as one cubic Bézier: the control-point distance over the radius.
    /// Core Graphics' ellipses and rounded rectangles use this 10-digit value.
    static let quarterEllipseKappa: CGFloat = 0.5522847498

    /// Runs `build`, keeping what it appended only if every new point is finite; otherwise restores the
    /// path and reports the refusal.
    mutating func appendAtomically(_ operation: String, _ build: (inout CGPathStorage) -> Void) {
        let typeMark = types.count, pointMark = points.count, savedStart = subpathStart
        build(&self)
        if points[pointMark...].allSatisfy(CGPathStorage.isFinite) { return }
        types.removeSubrange(typeMark...)
        points.removeSubrange(pointMark...)
        subpathStart = savedStart
        CGPath.refuseNonFinite(operation)
    }

    /// True when a segment has a point to start from; otherwise reports the refusal.
    mutating func requireCurrentPoint(_ operation: String) -> Bool {
        if currentPoint != nil { return true }
        CGPath.refuseInvalidArgument(operation, reason: "no current point")
        return false
    }

    mutating func move(to point: CGPoint) {
        types.append(.moveToPoint)
        points.append(point)
        subpathStart = point
    }

    /// After a close, a new segment starts a new subpath at the closed one's start, which Core Graphics
    /// records as an explicit move.
    private mutating func beginSegment() {
        if types.last == .closeSubpath { move(to: subpathStart) }
    }

    mutating func line(to point: CGPoint) {
        beginSegment()
        types.append(.addLineToPoint)
        points.append(point)
    }

    mutating func quadCurve(control: CGPoint, end: CGPoint) {
        beginSegment()
        types.append(.addQuadCurveToPoint)
        points.append(control)
        points.append(end)
    }

    mutating func curve(control1: CGPoint, control2: CGPoint, end: CGPoint) {
        beginSegment()
        types.append(.addCurveToPoint)
        points.append(control1)
        points.append(control2)
        points.append(end)
    }

    mutating func close() {
        guard let last = types.last, last != .closeSubpath else { return }
        types.append(.closeSubpath)
    }

    /// A line to `point` unless the path is already there (Core Graphics adds the connecting line only when
    /// the points differ); a move when the path is empty.
    mutating func connect(to point: CGPoint) {
        if let current = currentPoint {
            if current != point { line(to: point) }
        } else {
            move(to: point)
        }
    }

    // MARK: Shapes

    mutating func rectElements(_ rect: CGRect, transform t: CGAffineTransform) {
        move(to: CGPoint(x: rect.minX, y: rect.minY).applying(t))
        line(to: CGPoint(x: rect.maxX, y: rect.minY).applying(t))
        line(to: CGPoint(x: rect.maxX, y: rect.maxY).applying(t))
        line(to: CGPoint(x: rect.minX, y: rect.maxY).applying(t))
        close()
    }

    mutating func appendRect(_ rect: CGRect, transform: CGAffineTransform) {
        appendAtomically("addRect(_:transform:)") { $0.rectElements(rect, transform: transform) }
    }

    mutating func appendEllipse(in rect: CGRect, transform t: CGAffineTransform) {
        appendAtomically("addEllipse(in:transform:)") { storage in
            let cx = rect.midX, cy = rect.midY
            let rx = rect.width / 2, ry = rect.height / 2  // CGRect.width/height are standardized.
            let kx = rx * CGPathStorage.quarterEllipseKappa, ky = ry * CGPathStorage.quarterEllipseKappa
            func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y).applying(t) }
            storage.move(to: p(cx + rx, cy))
            storage.curve(control1: p(cx + rx, cy + ky), control2: p(cx + kx, cy + ry), end: p(cx, cy + ry))
            storage.curve(control1: p(cx - kx, cy + ry), control2: p(cx - rx, cy + ky), end: p(cx - rx, cy))
            storage.curve(control1: p(cx - rx, cy - ky), control2: p(cx - kx, cy - ry), end: p(cx, cy - ry))
            storage.curve(control1: p(cx + kx, cy - ry), control2: p(cx + rx, cy - ky), end: p(cx + rx, cy))
            storage.close()
        }
    }

    mutating func appendRoundedRect(_ rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform t: CGAffineTransform) {
        let operation = "addRoundedRect(in:cornerWidth:cornerHeight:transform:)"
        guard cornerWidth.isFinite, cornerHeight.isFinite else {
            CGPath.refuseNonFinite(operation)
            return
        }
        let cw = min(max(cornerWidth, 0), rect.width / 2)
        let ch = min(max(cornerHeight, 0), rect.height / 2)
        guard cw > 0, ch > 0 else {
            appendAtomically(operation) { $0.rectElements(rect, transform: t) }
            return
        }
        appendAtomically(operation) { storage in
            let minX = rect.minX, maxX = rect.maxX, minY = rect.minY, maxY = rect.maxY
            let kx = cw * CGPathStorage.quarterEllipseKappa, ky = ch * CGPathStorage.quarterEllipseKappa
            func p(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: x, y: y).applying(t) }
            storage.move(to: p(maxX, rect.midY))
            storage.connect(to: p(maxX, maxY - ch))
            storage.curve(control1: p(maxX, maxY - ch + ky), control2: p(maxX - cw + kx, maxY), end: p(maxX - cw, maxY))
            storage.connect(to: p(minX + cw, maxY))
            storage.curve(control1: p(minX + cw - kx, maxY), control2: p(minX, maxY - ch + ky), end: p(minX, maxY - ch))
            storage.connect(to: p(minX, minY + ch))
            storage.curve(control1: p(minX, minY + ch - ky), control2: p(minX + cw - kx, minY), end: p(minX + cw, minY))
            storage.connect(to: p(maxX - cw, minY))
            storage.curve(control1: p(maxX - cw + kx, minY), control2: p(maxX, minY + ch - ky), end: p(maxX, minY + ch))
            storage.close()
        }
    }
}
