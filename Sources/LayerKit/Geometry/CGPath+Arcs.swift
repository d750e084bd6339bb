import Foundation

// Circular arcs for CGMutablePath, as Core Graphics builds them.
//
// Input:  a centre, radius and start angle with a signed sweep (the three public forms reduce to that),
//         in the arc's own space; `transform` maps the result into the path.
// Output: a line from the current point to the arc's start (a move when the path is empty; nothing when
//         the path is already there), then one cubic Bézier per 90° of sweep, the last taking the
//         remainder: 225° is 90° + 90° + 45°, as Core Graphics splits it.
// Angles are Core Graphics' math convention: from +x toward +y, positive sweeps increase the angle.
// Each cubic puts its controls on the end tangents at 4/3·tan(δ/4)·r, which is exact at both ends and
// the middle of the segment (radial error under 0.03 % of r for 90°).

extension CGMutablePath {
    /// Adds an arc of the circle around `center` from `startAngle` to `endAngle`, preceded by a line
    /// from the current point to the arc's start (a move if the path is empty).
    ///
    /// `clockwise` is Core Graphics' and means decreasing angle in its y-up math space; on LayerKit's
    /// y-down screen a `clockwise: true` arc therefore looks counterclockwise. The arc always runs in the
    /// requested direction: when `endAngle` already lies that way it is reached exactly (a whole number
    /// of turns draws one full circle); when it lies the other way the arc wraps around to it, and a whole
    /// number of turns the other way draws no arc at all — `0` to `2π` with `clockwise: true` adds only
    /// the connecting line, as on Apple platforms.
    public func addArc(
        center: CGPoint,
        radius: CGFloat,
        startAngle: CGFloat,
        endAngle: CGFloat,
        clockwise: Bool,
        transform: CGAffineTransform = .identity
    ) {
        let operation = "addArc(center:radius:startAngle:endAngle:clockwise:transform:)"
        guard center.x.isFinite, center.y.isFinite, radius.isFinite, startAngle.isFinite, endAngle.isFinite else {
            CGPath.refuseNonFinite(operation)
            return
        }
        let sweep = CGMutablePath.arcSweep(from: startAngle, to: endAngle, clockwise: clockwise)
        storage.appendAtomically(operation) {
            $0.arc(center: center, radius: radius, startAngle: startAngle, sweep: sweep, transform: transform)
        }
    }

    /// Adds an arc of the circle around `center` starting at `startAngle` and sweeping `delta` radians:
    /// positive deltas increase the angle (counterclockwise in the math sense, clockwise on a y-down
    /// screen). The sweep is taken as given, so more than 2π winds around more than once. Preceded by a
    /// line from the current point, as `addArc(center:…)`.
    public func addRelativeArc(
        center: CGPoint,
        radius: CGFloat,
        startAngle: CGFloat,
        delta: CGFloat,
        transform: CGAffineTransform = .identity
    ) {
        let operation = "addRelativeArc(center:radius:startAngle:delta:transform:)"
        guard center.x.isFinite, center.y.isFinite, radius.isFinite, startAngle.isFinite, delta.isFinite else {
            CGPath.refuseNonFinite(operation)
            return
        }
        storage.appendAtomically(operation) {
            $0.arc(center: center, radius: radius, startAngle: startAngle, sweep: delta, transform: transform)
        }
    }

    /// Adds an arc of `radius` tangent to the line from the current point to `tangent1End` and to the line
    /// from `tangent1End` to `tangent2End` (PostScript's `arct`), preceded by a line from the current
    /// point to the first tangent point when they differ. The arc ends at the second tangent point, which
    /// becomes the current point; it need not reach `tangent2End`.
    ///
    /// Needs a current point. When the three points are collinear, either tangent line has zero length, or
    /// `radius` is zero, only a line to `tangent1End` is added. A negative radius adds nothing.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat, transform: CGAffineTransform = .identity) {
        let operation = "addArc(tangent1End:tangent2End:radius:transform:)"
        guard tangent1End.x.isFinite, tangent1End.y.isFinite, tangent2End.x.isFinite, tangent2End.y.isFinite, radius.isFinite else {
            CGPath.refuseNonFinite(operation)
            return
        }
        guard radius >= 0 else {
            CGPath.refuseInvalidArgument(operation, reason: "negative radius")
            return
        }
        guard storage.requireCurrentPoint(operation), let current = storage.currentPoint else { return }
        storage.appendAtomically(operation) { storage in
            storage.tangentArc(from: current, tangent1End: tangent1End, tangent2End: tangent2End, radius: radius, transform: transform)
        }
    }

    /// The signed sweep of `addArc(center:…)`: see its documentation for the rule. Angles within 1e-9 rad
    /// of a whole turn count as a whole turn, so `π/4 … π/4 + 2π` is a full circle even when the
    /// subtraction rounds a hair past 2π.
    static func arcSweep(from startAngle: CGFloat, to endAngle: CGFloat, clockwise: Bool) -> CGFloat {
        let turn = 2 * CGFloat.pi
        let tolerance: CGFloat = 1e-9
        // Work in the requested direction: `along` > 0 means endAngle already lies that way.
        let along = clockwise ? startAngle - endAngle : endAngle - startAngle
        var sweep = along.truncatingRemainder(dividingBy: turn)  // keeps the sign of `along`: (-turn, turn)
        if along > 0 {
            // Already the requested way: a whole number of turns is one full turn.
            if sweep < tolerance || sweep > turn - tolerance { sweep = turn }
        } else {
            // The other way: wrap round; a whole number of turns leaves no arc.
            sweep += turn
            if sweep < tolerance || sweep > turn - tolerance { sweep = 0 }
        }
        return clockwise ? -sweep : sweep
    }
}

extension CGPathStorage {
    /// Appends the arc (connecting line or move first) as cubic Béziers of at most 90° each.
    mutating func arc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, sweep: CGFloat, transform t: CGAffineTransform) {
        func point(at angle: CGFloat) -> CGPoint {
            CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
        }
        connect(to: point(at: startAngle).applying(t))
        guard sweep != 0 else { return }

        let quarter = CGFloat.pi / 2
        let magnitude = abs(sweep)
        var count = Int((magnitude / quarter).rounded(.up))
        // A remainder of rounding noise (2π computed as -π/2 … 3π/2, say) would make a sliver of a segment.
        if count > 1, magnitude - CGFloat(count - 1) * quarter < 1e-9 { count -= 1 }
        let step = sweep < 0 ? -quarter : quarter

        var from = startAngle
        for i in 1 ... count {
            let to = i == count ? startAngle + sweep : startAngle + CGFloat(i) * step
            let delta = to - from
            let handle = 4 / 3 * tan(delta / 4) * radius
            let p0 = point(at: from), p3 = point(at: to)
            // Controls lie along the tangents, which point toward increasing angle: (-sin, cos).
            let c1 = CGPoint(x: p0.x - handle * sin(from), y: p0.y + handle * cos(from))
            let c2 = CGPoint(x: p3.x + handle * sin(to), y: p3.y - handle * cos(to))
            curve(control1: c1.applying(t), control2: c2.applying(t), end: p3.applying(t))
            from = to
        }
    }

    /// Appends the tangent arc of `addArc(tangent1End:tangent2End:radius:transform:)`. `current` is in
    /// path space; the construction happens in the arc's space, so `current` is mapped back through the
    /// inverse of `t` first.
    mutating func tangentArc(from current: CGPoint, tangent1End p1: CGPoint, tangent2End p2: CGPoint, radius: CGFloat, transform t: CGAffineTransform) {
        let det = t.a * t.d - t.b * t.c
        // A singular transform flattens any arc onto a line: the line to the first tangent end is all
        // that remains visible.
        guard det != 0, det.isFinite else {
            connect(to: p1.applying(t))
            return
        }
        let p0 = current.applying(t.inverted())

        let u = CGPoint(x: p0.x - p1.x, y: p0.y - p1.y)  // from the corner back along the first tangent
        let v = CGPoint(x: p2.x - p1.x, y: p2.y - p1.y)  // from the corner along the second tangent
        let lu = hypot(u.x, u.y), lv = hypot(v.x, v.y)
        guard radius > 0, lu > 0, lv > 0 else {
            connect(to: p1.applying(t))
            return
        }
        let du = CGPoint(x: u.x / lu, y: u.y / lu), dv = CGPoint(x: v.x / lv, y: v.y / lv)
        let sine = du.x * dv.y - du.y * dv.x
        let cosine = du.x * dv.x + du.y * dv.y
        // Collinear tangents (the corner angle is 0 or π) have no circle touching both.
        guard abs(sine) > 1e-12 else {
            connect(to: p1.applying(t))
            return
        }
        let corner = atan2(abs(sine), cosine)  // the angle at p1 between the tangents, in (0, π)
        let distance = radius / tan(corner / 2)  // from p1 to each tangent point
        let start = CGPoint(x: p1.x + du.x * distance, y: p1.y + du.y * distance)
        // The centre sits on the corner's bisector, r / sin(corner/2) from p1.
        let bx = du.x + dv.x, by = du.y + dv.y
        let lb = hypot(bx, by)
        let centreDistance = radius / sin(corner / 2)
        let center = CGPoint(x: p1.x + bx / lb * centreDistance, y: p1.y + by / lb * centreDistance)
        // The path turns left (counterclockwise, increasing angle) when (p1 - p0) × (p2 - p1) > 0, which
        // is -u × v; the arc turns with it through π minus the corner angle.
        let turnsLeft = -(u.x * v.y - u.y * v.x) > 0
        let sweep = (CGFloat.pi - corner) * (turnsLeft ? 1 : -1)
        let startAngle = atan2(start.y - center.y, start.x - center.x)
        arc(center: center, radius: radius, startAngle: startAngle, sweep: sweep, transform: t)
    }
}
