import Foundation

/// Lays out a layer's sublayers from the `constraints` each of them carries: Core Animation's
/// `CAConstraintLayoutManager`. Set one as the superlayer's `layoutManager`.
///
/// Input: the superlayer's bounds, and for each sublayer its current frame, `name` and `constraints`.
/// Output: the frame of every constrained sublayer, set only where it changed.
///
/// Algorithm: each sublayer has two unknowns, its horizontal and its vertical extent. A constraint
/// `attribute = scale × source.sourceAttribute + offset` reads the superlayer's bounds (`"superlayer"`) or
/// the frame of the first sibling whose `name` is `sourceName`; an extent that reads a sibling's extent
/// is solved after it (depth first, in sublayer order), so a constraint on a constrained sibling reads
/// the sibling's laid-out frame. A read of an extent still being solved closes a cycle: that constraint is
/// ignored, with a `constraintCycleRefused` diagnostic, and the rest are applied. A source that names no
/// sibling is ignored with `unknownConstraintSource`.
///
/// On each axis the constraints give values for some of min, mid, max and size (a later constraint of
/// the same attribute replaces an earlier one). Two of them fix both position and size; the first two
/// attributes given are used and any further ones ignored. One alone keeps the rest from the current
/// frame: an edge or the middle keeps the size, a size alone keeps the min edge. An axis with no
/// constraint keeps the current frame.
///
/// Cost: O(sublayers + constraints) per layout.
open class CAConstraintLayoutManager: CALayoutManager {
    public init() {}

    /// Sets the frames of `layer`'s constrained sublayers (see the type's description).
    open func layoutSublayers(of layer: CALayer) {
        var solver = ConstraintSolver(superlayer: layer)
        solver.solve()
        solver.apply()
    }

    /// The preferred size: the bounds size through the transform, as without a layout manager.
    open func preferredSize(of layer: CALayer) -> CGSize {
        layer.transformedBoundsSize
    }

    /// The manager caches nothing, so there is nothing to invalidate.
    open func invalidateLayout(of layer: CALayer) {}
}

/// Solves the frames of one superlayer's constrained sublayers.
private struct ConstraintSolver {
    private enum State { case unvisited, inProgress, solved }

    /// A sublayer's extent on one axis: node `2 × index + (vertical ? 1 : 0)`.
    private struct Node {
        var index: Int
        var vertical: Bool
        var id: Int { 2 * index + (vertical ? 1 : 0) }
    }

    /// An extent being solved: where it is in its constraints and the values found so far.
    private struct Visit {
        var node: Node
        var next = 0
        var given = AxisValues()
    }

    private let superlayer: CALayer
    private let bounds: CGRect
    private let sublayers: [CALayer]
    private let constraints: [[CAConstraint]]
    private var frames: [CGRect]
    private var states: [State]
    private var indexByName: [String: Int] = [:]

    init(superlayer: CALayer) {
        self.superlayer = superlayer
        bounds = superlayer.bounds
        sublayers = superlayer.storedSublayers
        constraints = sublayers.map { $0.constraints ?? [] }
        frames = sublayers.map(\.frame)
        states = Array(repeating: .unvisited, count: 2 * sublayers.count)
        for (index, sublayer) in sublayers.enumerated() {
            if let name = sublayer.name, indexByName[name] == nil { indexByName[name] = index }
        }
    }

    /// Solves every extent that has constraints.
    mutating func solve() {
        for index in sublayers.indices where !constraints[index].isEmpty {
            solve(Node(index: index, vertical: false))
            solve(Node(index: index, vertical: true))
        }
    }

    /// Sets the solved frames that differ from the current ones.
    func apply() {
        for (index, sublayer) in sublayers.enumerated() where !constraints[index].isEmpty {
            if frames[index] != sublayer.frame { sublayer.frame = frames[index] }
        }
    }

    /// Solves `start` and, first, every extent it reads. Iterative, so a long chain of siblings cannot
    /// exhaust the stack.
    private mutating func solve(_ start: Node) {
        guard states[start.id] == .unvisited else { return }
        states[start.id] = .inProgress
        var stack = [Visit(node: start)]
        while !stack.isEmpty {
            let top = stack.count - 1
            let node = stack[top].node
            let list = constraints[node.index]
            guard stack[top].next < list.count else {
                frames[node.index] = stack[top].given.solve(frames[node.index], vertical: node.vertical)
                states[node.id] = .solved
                stack.removeLast()
                continue
            }
            let constraint = list[stack[top].next]
            guard constraint.attribute.isVertical == node.vertical else {
                stack[top].next += 1
                continue
            }
            let sourceRect: CGRect
            if constraint.isRelativeToSuperlayer {
                sourceRect = bounds
            } else if let source = indexByName[constraint.sourceName] {
                let sourceNode = Node(index: source, vertical: constraint.sourceAttribute.isVertical)
                switch states[sourceNode.id] {
                case .unvisited where !constraints[source].isEmpty:
                    // Solve the source first; this constraint is read again when it is done.
                    states[sourceNode.id] = .inProgress
                    stack.append(Visit(node: sourceNode))
                    continue
                case .inProgress:
                    LayerKitDiagnostics.emit(.constraintCycleRefused(
                        layer: sublayers[node.index].diagnosticName, source: constraint.sourceName,
                        attribute: "\(constraint.attribute)"))
                    stack[top].next += 1
                    continue
                case .unvisited, .solved:
                    sourceRect = frames[source]
                }
            } else {
                LayerKitDiagnostics.emit(.unknownConstraintSource(
                    layer: sublayers[node.index].diagnosticName, source: constraint.sourceName))
                stack[top].next += 1
                continue
            }
            stack[top].given.set(constraint.attribute.role, constraint.apply(to: constraint.sourceAttribute.value(in: sourceRect)))
            stack[top].next += 1
        }
    }
}

/// The values the constraints of one axis give, and the first two attributes given (the ones used).
private struct AxisValues {
    private var values: (CGFloat, CGFloat, CGFloat, CGFloat) = (0, 0, 0, 0)
    private var first: CAConstraintAxisRole?
    private var second: CAConstraintAxisRole?

    mutating func set(_ role: CAConstraintAxisRole, _ value: CGFloat) {
        if first == nil {
            first = role
        } else if second == nil && first != role {
            second = role
        }
        switch role {
        case .min: values.0 = value
        case .mid: values.1 = value
        case .max: values.2 = value
        case .size: values.3 = value
        }
    }

    private func value(_ role: CAConstraintAxisRole) -> CGFloat {
        switch role {
        case .min: values.0
        case .mid: values.1
        case .max: values.2
        case .size: values.3
        }
    }

    /// `frame` with this axis replaced by what the values determine.
    func solve(_ frame: CGRect, vertical: Bool) -> CGRect {
        var origin = vertical ? frame.minY : frame.minX
        var size = vertical ? frame.height : frame.width
        // The two roles in axis order (min, mid, max, size).
        var (low, high) = (first, second)
        if let first, let second, second.rawValue < first.rawValue { (low, high) = (second, first) }
        switch (low, high) {
        case (nil, _):
            return frame
        case let (role?, nil):
            let v = value(role)
            switch role {
            case .min: origin = v
            case .mid: origin = v - size / 2
            case .max: origin = v - size
            case .size: size = v
            }
        case let (first?, second?):
            let a = value(first), b = value(second)
            switch (first, second) {
            case (.min, .mid): origin = a; size = 2 * (b - a)
            case (.min, .max): origin = a; size = b - a
            case (.min, .size): origin = a; size = b
            case (.mid, .max): size = 2 * (b - a); origin = b - size
            case (.mid, .size): size = b; origin = a - b / 2
            case (.max, .size): size = b; origin = a - b
            default: return frame // unreachable: two distinct roles in ascending order
            }
        }
        var result = frame
        if vertical {
            result.origin.y = origin
            result.size.height = size
        } else {
            result.origin.x = origin
            result.size.width = size
        }
        return result
    }
}
