/// Puts the planes of one 3D rendering context in painter's order (DESIGN.md §4), cheaply when it can.
///
/// Input: the context's planes as `DrawPolygon`s in depth space, in draw order.
/// Output: the polygons, or pieces of them, back to front for a viewer at +z.
/// Algorithm (WebKit TextureMapper's 3D context first, Chromium's BSP when needed): sweep and prune over
/// x finds the pairs whose bounding boxes overlap in x and y on screen; a pair is unambiguous when their
/// depth ranges are apart by more than the thick plane (`DrawPolygon.splitThreshold`) — a separating
/// axis along z. When every overlapping pair is unambiguous, sorting whole planes by nearest-to-farthest
/// minimum depth (stable, so ties keep draw order) is exact: any two planes that can share a pixel are
/// ordered by their disjoint depth ranges, and others may go in any order. Otherwise the whole context
/// goes through a `BSPTree`, which splits planes that intersect. A context of more than
/// `maximumTreePlanes` ambiguous planes is sorted by the depth of each plane's centre instead (planes
/// that intersect then show one over the other), so one frame's cost stays bounded.
/// Cost: O(n log n + overlapping pairs) for the test, plus the BSP tree's when it is needed
/// (O(n²) classifications at worst).
package enum PlaneSorter {
    /// What sorting found, for statistics and tests.
    package struct Result: Sendable {
        package var polygons: [DrawPolygon]
        /// Whether the BSP tree was needed.
        package var usedBSPTree: Bool
        /// Polygons cut in two.
        package var splitCount: Int
    }

    /// Above this many planes a context is depth-sorted by centres rather than split.
    package static let maximumTreePlanes = 512

    package static func paintersOrder(_ polygons: [DrawPolygon]) -> Result {
        guard polygons.count > 1 else { return Result(polygons: polygons, usedBSPTree: false, splitCount: 0) }
        struct Box { var minX, maxX, minY, maxY, minZ, maxZ: Double }
        let boxes = polygons.map { polygon -> Box in
            var box = Box(minX: .infinity, maxX: -.infinity, minY: .infinity, maxY: -.infinity, minZ: .infinity, maxZ: -.infinity)
            for p in polygon.points {
                box.minX = min(box.minX, p.x); box.maxX = max(box.maxX, p.x)
                box.minY = min(box.minY, p.y); box.maxY = max(box.maxY, p.y)
                box.minZ = min(box.minZ, p.z); box.maxZ = max(box.maxZ, p.z)
            }
            return box
        }
        let byMinX = boxes.indices.sorted { boxes[$0].minX < boxes[$1].minX }
        var active: [Int] = []
        var ambiguous = false
        sweep: for index in byMinX {
            let box = boxes[index]
            active.removeAll { boxes[$0].maxX <= box.minX }
            for other in active {
                let o = boxes[other]
                guard o.minY < box.maxY && box.minY < o.maxY else { continue }
                let apart = o.maxZ + DrawPolygon.splitThreshold < box.minZ || box.maxZ + DrawPolygon.splitThreshold < o.minZ
                if !apart {
                    ambiguous = true
                    break sweep
                }
            }
            active.append(index)
        }
        if !ambiguous {
            let sorted = polygons.indices.sorted { boxes[$0].minZ != boxes[$1].minZ ? boxes[$0].minZ < boxes[$1].minZ : $0 < $1 }
            return Result(polygons: sorted.map { polygons[$0] }, usedBSPTree: false, splitCount: 0)
        }
        guard polygons.count <= maximumTreePlanes else {
            let depths = polygons.map { polygon in polygon.points.reduce(0) { $0 + $1.z } / Double(max(polygon.points.count, 1)) }
            let sorted = polygons.indices.sorted { depths[$0] != depths[$1] ? depths[$0] < depths[$1] : $0 < $1 }
            return Result(polygons: sorted.map { polygons[$0] }, usedBSPTree: false, splitCount: 0)
        }
        let tree = BSPTree(polygons)
        return Result(polygons: tree.paintersOrder, usedBSPTree: true, splitCount: tree.splitCount)
    }
}
