import Foundation

// CGPath and its element types, with Core Graphics' names and semantics.
//
// Contract
//   Input:  elements appended through CGMutablePath (or the CGPath convenience initialisers).
//   Output: an immutable sequence of elements — move, line, quadratic, cubic, close — read back with
//           `elements` / `applyWithBlock(_:)`, and queried for bounds (CGPath+BoundingBox.swift) and
//           point containment (CGPath+Containment.swift).
//   Storage: flat — one type per element, and the points of all elements end to end — held in a
//           copy-on-write value (`CGPathStorage`), so copying a path is O(1) until one side mutates.
//   Coordinates are Core Graphics' math convention: angles run from +x toward +y. LayerKit's layers are
//   y-down (iOS), so an arc that is counterclockwise in the math sense looks clockwise on screen.
//
// Does NOT: stroke, dash, or render paths (CGContext and the render server do that); it never reads
// render-thread state.

/// The kind of one element of a `CGPath`.
public enum CGPathElementType: Int32, Sendable {
    /// Starts a new subpath at `points[0]`.
    case moveToPoint = 0
    /// A straight line from the current point to `points[0]`.
    case addLineToPoint = 1
    /// A quadratic Bézier from the current point: control `points[0]`, end `points[1]`.
    case addQuadCurveToPoint = 2
    /// A cubic Bézier from the current point: controls `points[0]`, `points[1]`, end `points[2]`.
    case addCurveToPoint = 3
    /// A line back to the start of the current subpath, which it ends.
    case closeSubpath = 4

    /// How many points an element of this type carries.
    var pointCount: Int {
        switch self {
        case .moveToPoint, .addLineToPoint: 1
        case .addQuadCurveToPoint: 2
        case .addCurveToPoint: 3
        case .closeSubpath: 0
        }
    }
}

/// One element of a path: its type and its points (1 for move and line, 2 for a quadratic curve,
/// 3 for a cubic curve, none for close).
///
/// Apple's `CGPathElement` points at a C buffer of points; LayerKit's holds a Swift array, so an element
/// can be kept, compared and printed. `points[i]` reads the same in both.
public struct CGPathElement: Hashable, Sendable {
    public var type: CGPathElementType
    public var points: [CGPoint]

    /// Creates an element. `points.count` must match `type` (1, 1, 2, 3 or 0).
    public init(type: CGPathElementType, points: [CGPoint]) {
        precondition(points.count == type.pointCount, "\(type) takes \(type.pointCount) points, got \(points.count)")
        self.type = type
        self.points = points
    }
}

/// Which regions of a path count as its interior.
public enum CGPathFillRule: Int, Sendable {
    /// Nonzero winding: inside where the path winds around the point a nonzero number of times.
    case winding = 0
    /// Even-odd: inside where a ray from the point crosses the path an odd number of times.
    case evenOdd = 1
}

/// An immutable graphics path: lines and Bézier curves grouped into subpaths, as in Core Graphics.
///
/// Paths compare equal when their elements are equal, point for point. A `CGPath` never changes after it
/// is made, so it may be shared freely, across threads too; its subclass `CGMutablePath` is the one to
/// build with. Take `copy()` of a mutable path before handing it to another thread.
open class CGPath: Equatable, Hashable, CustomDebugStringConvertible {
    /// The elements, flat. Only `CGMutablePath` mutates it, and only through its public API.
    var storage: CGPathStorage

    init(storage: CGPathStorage) {
        self.storage = storage
    }

    // MARK: Creating immutable paths

    /// A closed rectangular path: move to (minX, minY), lines to (maxX, minY), (maxX, maxY), (minX, maxY),
    /// then close — counterclockwise in the math sense (clockwise on a y-down screen).
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil) {
        var storage = CGPathStorage()
        storage.appendRect(rect, transform: transform?.pointee ?? .identity)
        self.init(storage: storage)
    }

    /// A closed ellipse inscribed in `rect`: four cubic Béziers from (maxX, midY) through (midX, maxY),
    /// (minX, midY) and (midX, minY).
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil) {
        var storage = CGPathStorage()
        storage.appendEllipse(in: rect, transform: transform?.pointee ?? .identity)
        self.init(storage: storage)
    }

    /// A closed rounded rectangle whose corners are quarter ellipses of `cornerWidth` by `cornerHeight`.
    /// See `CGMutablePath.addRoundedRect(in:cornerWidth:cornerHeight:transform:)` for the element order.
    public convenience init(
        roundedRect rect: CGRect,
        cornerWidth: CGFloat,
        cornerHeight: CGFloat,
        transform: UnsafePointer<CGAffineTransform>? = nil
    ) {
        var storage = CGPathStorage()
        storage.appendRoundedRect(rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight, transform: transform?.pointee ?? .identity)
        self.init(storage: storage)
    }

    // MARK: Reading

    /// Whether the path has no elements at all. A lone `move(to:)` makes it non-empty.
    public var isEmpty: Bool { storage.types.isEmpty }

    /// The point a new segment would start from: the last element's end point, or the start of the
    /// subpath after `closeSubpath()`. `.zero` for an empty path, as Core Graphics returns.
    public var currentPoint: CGPoint { storage.currentPoint ?? .zero }

    /// The elements in order, as values. (A LayerKit addition for Swift iteration; Core Graphics offers
    /// only the applier functions.)
    public var elements: [CGPathElement] {
        var result: [CGPathElement] = []
        result.reserveCapacity(storage.types.count)
        storage.forEachElement { result.append($0) }
        return result
    }

    /// Calls `block` with a pointer to each element in order, exactly as Core Graphics does.
    public func applyWithBlock(_ block: (UnsafePointer<CGPathElement>) -> Void) {
        storage.forEachElement { element in
            withUnsafePointer(to: element) { block($0) }
        }
    }

    /// Calls `block` with each element in order, by value — the Swift-friendly form. A closure that
    /// could take either form (`{ _ in … }`) gets Core Graphics' pointer form.
    @_disfavoredOverload
    public func applyWithBlock(_ block: (CGPathElement) -> Void) {
        storage.forEachElement(block)
    }

    /// Whether the path is exactly one axis-aligned rectangle — move, three or four lines around the
    /// corners, close — and if so, writes it (standardized) to `rect`.
    public func isRect(_ rect: UnsafeMutablePointer<CGRect>?) -> Bool {
        guard let found = storage.rectangle else { return false }
        rect?.pointee = found
        return true
    }

    // MARK: Copying

    /// An immutable copy: `self` when the path is already immutable.
    public func copy() -> CGPath? {
        self is CGMutablePath ? CGPath(storage: storage) : self
    }

    /// An immutable copy with every point mapped by `transform` (nil: unchanged).
    public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
        guard let transform else { return copy() }
        return CGPath(storage: storage.transformed(by: transform.pointee))
    }

    /// An immutable copy with every point mapped by `transform`. (A LayerKit addition that takes the
    /// transform by value.)
    public func copy(transform: CGAffineTransform) -> CGPath {
        CGPath(storage: storage.transformed(by: transform))
    }

    /// A mutable copy; later changes to either path do not affect the other.
    public func mutableCopy() -> CGMutablePath? {
        CGMutablePath(copying: storage)
    }

    /// A mutable copy with every point mapped by `transform` (nil: unchanged).
    public func mutableCopy(using transform: UnsafePointer<CGAffineTransform>?) -> CGMutablePath? {
        guard let transform else { return mutableCopy() }
        return CGMutablePath(copying: storage.transformed(by: transform.pointee))
    }

    // MARK: Equality

    /// Paths are equal when they have the same elements with the same points (`CGPathEqualToPath`).
    public static func == (lhs: CGPath, rhs: CGPath) -> Bool {
        lhs === rhs || lhs.storage == rhs.storage
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.types)
        hasher.combine(storage.points)
    }

    /// The elements in SVG-like shorthand, for test failures and logs: `M 0 0 L 10 0 Q … C … Z`.
    public var debugDescription: String {
        var parts: [String] = []
        storage.forEachElement { element in
            let letter: String
            switch element.type {
            case .moveToPoint: letter = "M"
            case .addLineToPoint: letter = "L"
            case .addQuadCurveToPoint: letter = "Q"
            case .addCurveToPoint: letter = "C"
            case .closeSubpath: letter = "Z"
            }
            parts.append(([letter] + element.points.map { "\($0.x) \($0.y)" }).joined(separator: " "))
        }
        return "CGPath(\(parts.joined(separator: " ")))"
    }

    // MARK: Refusals

    /// Called when an add or move call is refused because a coordinate (or a value that makes one) is
    /// NaN or infinite; the path is left as it was. A hook for diagnostics, deliberately silent for now.
    static func refuseNonFinite(_ operation: String) {
        LayerKitDiagnostics.emit(.nonFinitePathGeometry(operation: operation))
    }

    /// Called when an add call is refused for a reason other than non-finite input — no current point
    /// for a segment to start from, or a negative tangent-arc radius; the path is left as it was. Core
    /// Graphics logs these; LayerKit emits a diagnostic.
    static func refuseInvalidArgument(_ operation: String, reason: String) {
        LayerKitDiagnostics.emit(.invalidPathOperation(operation: operation, reason: reason))
    }
}

// An immutable path never changes after init, so sharing it is safe. A CGMutablePath has to restate the
// conformance (Swift requires it of subclasses) but is not safe to mutate while another thread reads it:
// hand over `copy()` instead.
extension CGPath: @unchecked Sendable {}
extension CGMutablePath: @unchecked Sendable {}

/// The flat element store behind `CGPath`.
///
/// Invariants: `types` holds one entry per element and `points` the points of all elements end to end
/// (`type.pointCount` each); the first element, and the first after every close, is a move;
/// `subpathStart` is the point of the last move (`.zero` while empty).
struct CGPathStorage: Equatable {
    var types: [CGPathElementType] = []
    var points: [CGPoint] = []
    var subpathStart: CGPoint = .zero

    static func == (lhs: CGPathStorage, rhs: CGPathStorage) -> Bool {
        // subpathStart is derived from the elements, so it takes no part.
        lhs.types == rhs.types && lhs.points == rhs.points
    }

    /// Where the next segment starts; nil when the path is empty.
    var currentPoint: CGPoint? {
        guard let last = types.last else { return nil }
        return last == .closeSubpath ? subpathStart : points.last
    }

    /// Calls `body` with each element as a value.
    func forEachElement(_ body: (CGPathElement) -> Void) {
        var p = 0
        for type in types {
            let n = type.pointCount
            body(CGPathElement(type: type, points: Array(points[p ..< p + n])))
            p += n
        }
    }

    /// The same elements with every point mapped by `t`.
    func transformed(by t: CGAffineTransform) -> CGPathStorage {
        var result = self
        result.points = points.map { $0.applying(t) }
        result.subpathStart = subpathStart.applying(t)
        return result
    }

    static func isFinite(_ p: CGPoint) -> Bool { p.x.isFinite && p.y.isFinite }

    /// The rectangle this path is exactly (see `CGPath.isRect(_:)`), or nil.
    var rectangle: CGRect? {
        let shapeA: [CGPathElementType] = [.moveToPoint, .addLineToPoint, .addLineToPoint, .addLineToPoint, .closeSubpath]
        let shapeB: [CGPathElementType] = [.moveToPoint, .addLineToPoint, .addLineToPoint, .addLineToPoint, .addLineToPoint, .closeSubpath]
        if types == shapeB {
            guard points[4] == points[0] else { return nil }
        } else if types != shapeA {
            return nil
        }
        let corners = Array(points[0 ..< 4])
        // Edges must alternate horizontal and vertical, starting either way.
        func horizontal(_ i: Int) -> Bool { corners[i].y == corners[(i + 1) % 4].y }
        func vertical(_ i: Int) -> Bool { corners[i].x == corners[(i + 1) % 4].x }
        let startsHorizontal = horizontal(0) && vertical(1) && horizontal(2) && vertical(3)
        let startsVertical = vertical(0) && horizontal(1) && vertical(2) && horizontal(3)
        guard startsHorizontal || startsVertical else { return nil }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let minX = xs.min()!, maxX = xs.max()!, minY = ys.min()!, maxY = ys.max()!
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
