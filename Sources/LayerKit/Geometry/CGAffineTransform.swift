import Foundation

// Foundation on Linux (swift-corelibs-foundation) has CGFloat, CGPoint, CGSize and CGRect but no
// CGAffineTransform, so LayerKit declares it here with Apple's names and semantics.

/// A 2D affine transform with Core Graphics' layout and conventions.
///
/// Row-vector convention, as Core Graphics: the matrix is `[a b 0; c d 0; tx ty 1]` and a point maps as
/// `(x, y, 1) * M`, that is `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`. `t1.concatenating(t2)` is
/// `t1 * t2`: apply `t1`, then `t2`. `translatedBy`, `scaledBy` and `rotated(by:)` apply the new operation
/// *first*, then `self` — the order of Core Graphics' `CGAffineTransformTranslate/Scale/Rotate`.
public struct CGAffineTransform: Equatable, Hashable, Sendable {
    public var a: CGFloat
    public var b: CGFloat
    public var c: CGFloat
    public var d: CGFloat
    public var tx: CGFloat
    public var ty: CGFloat

    /// The all-zero transform, as Apple's imported C struct initializer gives — *not* the identity.
    public init() {
        self.init(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0)
    }

    /// Creates a transform from its six entries.
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }

    /// Creates a transform from its six entries (Apple's unlabeled form).
    public init(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat, _ d: CGFloat, _ tx: CGFloat, _ ty: CGFloat) {
        self.init(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
    }

    /// A translation by `(tx, ty)`.
    public init(translationX tx: CGFloat, y ty: CGFloat) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    /// A scale by `(sx, sy)`.
    public init(scaleX sx: CGFloat, y sy: CGFloat) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// A rotation by `angle` radians; positive angles take +x toward +y (clockwise on screen, as y grows
    /// down): `(1, 0)` rotated by π/2 becomes `(0, 1)`.
    public init(rotationAngle angle: CGFloat) {
        let s = sin(angle), c = cos(angle)
        self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }

    /// The identity transform.
    public static let identity = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// Whether this is exactly the identity.
    public var isIdentity: Bool { self == .identity }

    /// Translates by `(tx, ty)` first, then applies `self`.
    public func translatedBy(x tx: CGFloat, y ty: CGFloat) -> CGAffineTransform {
        CGAffineTransform(translationX: tx, y: ty).concatenating(self)
    }

    /// Scales by `(sx, sy)` first, then applies `self`.
    public func scaledBy(x sx: CGFloat, y sy: CGFloat) -> CGAffineTransform {
        CGAffineTransform(scaleX: sx, y: sy).concatenating(self)
    }

    /// Rotates by `angle` radians first, then applies `self`.
    public func rotated(by angle: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: angle).concatenating(self)
    }

    /// `self` then `t2`: the matrix product `self * t2`.
    public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(
            a: a * t2.a + b * t2.c,
            b: a * t2.b + b * t2.d,
            c: c * t2.a + d * t2.c,
            d: c * t2.b + d * t2.d,
            tx: tx * t2.a + ty * t2.c + t2.tx,
            ty: tx * t2.b + ty * t2.d + t2.ty
        )
    }

    /// The inverse, or `self` unchanged when the transform is singular (determinant `a·d − b·c` zero or
    /// not finite), as Core Graphics returns it.
    public func inverted() -> CGAffineTransform {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return self }
        let inverse = CGAffineTransform(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            tx: (c * ty - d * tx) / det,
            ty: (b * tx - a * ty) / det
        )
        let entries = [inverse.a, inverse.b, inverse.c, inverse.d, inverse.tx, inverse.ty]
        return entries.allSatisfy(\.isFinite) ? inverse : self
    }
}

extension CGAffineTransform: CustomStringConvertible {
    /// The six entries, for test failures and logs.
    public var description: String {
        "CGAffineTransform(a: \(a), b: \(b), c: \(c), d: \(d), tx: \(tx), ty: \(ty))"
    }
}

extension CGPoint {
    /// The point mapped by `t`: `(a·x + c·y + tx, b·x + d·y + ty)`.
    public func applying(_ t: CGAffineTransform) -> CGPoint {
        CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension CGSize {
    /// The size mapped by `t` as a vector: translation is ignored, and the result may be negative.
    public func applying(_ t: CGAffineTransform) -> CGSize {
        CGSize(width: t.a * width + t.c * height, height: t.b * width + t.d * height)
    }
}

extension CGRect {
    /// The smallest rectangle containing the four transformed corners. A null rectangle stays null and an
    /// infinite one stays infinite (its corners are not finite numbers to transform).
    public func applying(_ t: CGAffineTransform) -> CGRect {
        if isNull { return .null }
        if isInfinite { return .infinite }
        let r = standardized
        let corners = [
            CGPoint(x: r.minX, y: r.minY).applying(t),
            CGPoint(x: r.maxX, y: r.minY).applying(t),
            CGPoint(x: r.minX, y: r.maxY).applying(t),
            CGPoint(x: r.maxX, y: r.maxY).applying(t),
        ]
        return CGRect(boundingBoxOf: corners)
    }

    /// The smallest rectangle containing `points`; `.null` when there are none.
    package init(boundingBoxOf points: [CGPoint]) {
        guard let first = points.first else {
            self = .null
            return
        }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for p in points.dropFirst() {
            minX = Swift.min(minX, p.x); maxX = Swift.max(maxX, p.x)
            minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y)
        }
        self.init(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
