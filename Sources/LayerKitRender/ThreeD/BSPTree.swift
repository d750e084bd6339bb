/// A binary space partitioning of a 3D rendering context's planes, for painter's order when planes
/// intersect or overlap ambiguously (Chromium's `bsp_tree.cc`, our own code).
///
/// Input: polygons in depth space (`DrawPolygon`), in draw order.
/// Output: `paintersOrder`, every polygon or piece of one, back to front for a viewer at +z.
/// Algorithm: the first polygon of a list becomes the node; every other one is classified against its
/// thick plane — in front, behind, coplanar (kept at the node) or straddling (split into a front and a
/// back piece) — and the front and back lists are partitioned the same way. Walking the tree, a node
/// whose plane faces the viewer draws its back subtree, then its coplanar polygons, then its front
/// subtree; a node facing away the reverse. Coplanar polygons draw in their draw order (ties go to
/// sublayer order, as Core Animation's flattened siblings do). Splits are budgeted (`splitBudget`): past
/// it a straddling polygon goes whole to the side its centroid lies on, so a pathological context cannot
/// multiply its pieces without bound (its order is then approximate where those planes cross).
/// Cost: O(n²) classifications in the worst case plus one per piece; n is the planes of one context.
package struct BSPTree {
    private struct Node {
        var coplanar: [DrawPolygon]
        var front: Int?
        var back: Int?
    }

    private var nodes: [Node] = []
    private var root: Int?
    /// How many times a polygon was cut in two while building.
    package private(set) var splitCount = 0
    private let splitBudget: Int

    /// The tree of `polygons`; by default up to 4 splits per polygon plus 64.
    package init(_ polygons: [DrawPolygon], splitBudget: Int? = nil) {
        self.splitBudget = splitBudget ?? 4 * polygons.count + 64
        root = build(polygons)
    }

    private mutating func build(_ polygons: [DrawPolygon]) -> Int? {
        guard let first = polygons.first else { return nil }
        var coplanar = [first], front: [DrawPolygon] = [], back: [DrawPolygon] = []
        for polygon in polygons.dropFirst() {
            switch first.side(of: polygon) {
            case .front: front.append(polygon)
            case .back: back.append(polygon)
            case .coplanar: coplanar.append(polygon)
            case .straddling where splitCount >= splitBudget:
                let centroid = polygon.points.reduce(SIMD3<Double>.zero, +) / Double(polygon.points.count)
                if first.signedDistance(centroid) >= 0 { front.append(polygon) } else { back.append(polygon) }
            case .straddling:
                let pieces = first.split(polygon)
                splitCount += 1
                if let piece = pieces.front { front.append(piece) }
                if let piece = pieces.back { back.append(piece) }
            }
        }
        let index = nodes.count
        nodes.append(Node(coplanar: coplanar.sorted { $0.order < $1.order }, front: nil, back: nil))
        let frontIndex = build(front)
        let backIndex = build(back)
        nodes[index].front = frontIndex
        nodes[index].back = backIndex
        return index
    }

    /// Every polygon and piece, back to front.
    package var paintersOrder: [DrawPolygon] {
        var result: [DrawPolygon] = []
        walk(root, into: &result)
        return result
    }

    private func walk(_ index: Int?, into result: inout [DrawPolygon]) {
        guard let index else { return }
        let node = nodes[index]
        let facing = node.coplanar[0].facesViewer
        walk(facing ? node.back : node.front, into: &result)
        result.append(contentsOf: node.coplanar)
        walk(facing ? node.front : node.back, into: &result)
    }
}
