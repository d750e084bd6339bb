import Foundation

/// The name of one of Core Animation's predefined timing functions.
public struct CAMediaTimingFunctionName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Even pacing: control points (0, 0) and (1, 1).
    public static let linear = CAMediaTimingFunctionName(rawValue: "linear")
    /// Starts slowly: control points (0.42, 0) and (1, 1).
    public static let easeIn = CAMediaTimingFunctionName(rawValue: "easeIn")
    /// Ends slowly: control points (0, 0) and (0.58, 1).
    public static let easeOut = CAMediaTimingFunctionName(rawValue: "easeOut")
    /// Starts and ends slowly: control points (0.42, 0) and (0.58, 1).
    public static let easeInEaseOut = CAMediaTimingFunctionName(rawValue: "easeInEaseOut")
    /// The curve of implicit (action) animations: control points (0.25, 0.1) and (0.25, 1).
    public static let `default` = CAMediaTimingFunctionName(rawValue: "default")
}

/// The pacing of an animation: a cubic Bézier curve from (0, 0) to (1, 1) whose two inner control points
/// the caller chooses, mapping the fraction of time elapsed (x) to the fraction of the change made (y).
///
/// Immutable, so one instance may be shared by any number of animations and threads. Two functions are
/// equal when their control points are.
///
/// The x coordinates of the control points are clamped to 0…1 when the curve is evaluated, which keeps
/// x(t) increasing so that every input has exactly one output; y is left as given, so a curve may
/// overshoot (y outside 0…1) as Core Animation's may. `getControlPoint(at:values:)` returns the points as
/// given.
public final class CAMediaTimingFunction: Hashable, Sendable, CustomStringConvertible {
    /// The first inner control point (P1), as given.
    package let c1x: Float, c1y: Float
    /// The second inner control point (P2), as given.
    package let c2x: Float, c2y: Float

    // x(t) = ((ax·t + bx)·t + cx)·t and likewise y(t): the Bézier with P0 = (0, 0) and P3 = (1, 1) in
    // power form (cx = 3·p1, bx = 3·(p2 − p1) − cx, ax = 1 − cx − bx).
    private let ax: Double, bx: Double, cx: Double
    private let ay: Double, by: Double, cy: Double

    /// A curve with inner control points (c1x, c1y) and (c2x, c2y).
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        self.c1x = c1x
        self.c1y = c1y
        self.c2x = c2x
        self.c2y = c2y
        let x1 = min(max(Double(c1x), 0), 1), x2 = min(max(Double(c2x), 0), 1)
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        let y1 = Double(c1y), y2 = Double(c2y)
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    /// One of Core Animation's predefined curves. A name that is none of them gives `.linear`'s curve.
    public convenience init(name: CAMediaTimingFunctionName) {
        switch name {
        case .easeIn: self.init(controlPoints: 0.42, 0, 1, 1)
        case .easeOut: self.init(controlPoints: 0, 0, 0.58, 1)
        case .easeInEaseOut: self.init(controlPoints: 0.42, 0, 0.58, 1)
        case .default: self.init(controlPoints: 0.25, 0.1, 0.25, 1)
        default: self.init(controlPoints: 0, 0, 1, 1)
        }
    }

    /// Writes control point `idx` (0 through 3) as two floats, x then y, to `ptr[0]` and `ptr[1]`. Point 0
    /// is (0, 0) and point 3 is (1, 1); points 1 and 2 are the ones the curve was made with.
    public func getControlPoint(at idx: Int, values ptr: UnsafeMutablePointer<Float>) {
        precondition((0...3).contains(idx), "CAMediaTimingFunction control point index \(idx) is not in 0...3")
        switch idx {
        case 0: (ptr[0], ptr[1]) = (0, 0)
        case 1: (ptr[0], ptr[1]) = (c1x, c1y)
        case 2: (ptr[0], ptr[1]) = (c2x, c2y)
        default: (ptr[0], ptr[1]) = (1, 1)
        }
    }

    /// The curve's y at `x`, the fraction of time elapsed; x is clamped to 0…1 (NaN reads as 0).
    ///
    /// Solves x(t) = x for the curve parameter t, then returns y(t). The solve starts Newton's method at
    /// t = x and stops when a step moves t by less than 1e-10; when the slope is too flat for Newton
    /// (|x′(t)| < 1e-6) or a step leaves 0…1, it bisects 0…1 instead (x(t) is increasing there because
    /// the x control points are clamped to 0…1) until the bracket is narrower than 1e-10. Either way t
    /// is within about 1e-10 of the exact root, so y is well within 1e-6 of the exact value even for
    /// overshooting curves.
    ///
    /// Cost: typically 2–5 Newton steps of one cubic and one quadratic evaluation each; at worst 8 failed
    /// Newton steps plus 34 bisection steps (one cubic each). No allocation.
    package func value(at x: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        return sampleY(solveForT(x))
    }

    private func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    private func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    private func slopeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The t in 0…1 with x(t) = x, for x strictly inside 0…1.
    private func solveForT(_ x: Double) -> Double {
        var t = x
        for _ in 0..<8 {
            let slope = slopeX(t)
            guard abs(slope) >= 1e-6 else { break }
            let step = (sampleX(t) - x) / slope
            t -= step
            guard t >= 0, t <= 1 else { break }
            if abs(step) < 1e-10 { return t }
        }
        var low = 0.0, high = 1.0
        while high - low >= 1e-10 {
            let mid = 0.5 * (low + high)
            if sampleX(mid) < x { low = mid } else { high = mid }
        }
        return 0.5 * (low + high)
    }

    public static func == (lhs: CAMediaTimingFunction, rhs: CAMediaTimingFunction) -> Bool {
        lhs.c1x == rhs.c1x && lhs.c1y == rhs.c1y && lhs.c2x == rhs.c2x && lhs.c2y == rhs.c2y
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(c1x)
        hasher.combine(c1y)
        hasher.combine(c2x)
        hasher.combine(c2y)
    }

    public var description: String { "CAMediaTimingFunction(\(c1x), \(c1y), \(c2x), \(c2y))" }
}
