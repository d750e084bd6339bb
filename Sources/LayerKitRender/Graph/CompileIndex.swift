/// What `DrawListCompiler` decided for a graph, kept so the next frame can patch the compiled frame
/// pass (`DrawListCompiler.patch`) and compile single offscreen passes again (`recompile`) instead of
/// compiling the whole graph.
///
/// Recorded only for a graph compiled without debug options or tiling, and with stencil clip commands
/// only in the frame pass: then every builder draw is either culled or kept at a known index of its
/// compiled pass.
/// Holds: for the frame pass (the builder's last), each builder draw's compiled index, the draws that
/// occlude (by builder index; a change that could be hidden by one of them, or that is one, cannot be
/// patched), and whether the plan kept the non-opaque draws in painter's order (so replacing one by a
/// draw of the same batch key and phase keeps the plan valid whatever its footprint); for every builder
/// pass, the compiled pass it became (none where nothing samples its surface any more) and which of its
/// draws were culled. Cost: O(n) when the graph is compiled in full.
package struct CompileIndex: Sendable {
    /// For each builder draw, its index in the compiled pass; -1 for a culled one.
    package private(set) var compiledIndex: [Int32]
    /// Draws that may hide earlier ones (`OcclusionCuller` occluders), by builder index, with their rects.
    package private(set) var occluders: [(index: Int, rect: PixelRect)] = []
    /// Whether the plan draws every non-opaque draw in painter's order (no batch reordering).
    package private(set) var translucentInPainterOrder = true
    /// Whether the pass is depth-ordered (opaque draws first, with their own depth).
    package private(set) var depthOrdered = false
    package let targetWidth: Int
    package let targetHeight: Int
    /// Occluders smaller than this (pixels) are ignored by the culler, as `OcclusionCuller.minimumOccluderArea`.
    package let minimumOccluderArea: Int
    /// For each builder pass, the index of the compiled pass it became; nil where it was dropped.
    package internal(set) var compiledPass: [Int?] = []
    /// For each builder pass, the builder indices of its culled draws (ascending).
    package internal(set) var culledDraws: [[Int]] = []

    init(_ pass: RenderPass, occlusion: OcclusionCuller) {
        targetWidth = pass.target.width
        targetHeight = pass.target.height
        minimumOccluderArea = occlusion.minimumOccluderArea
        compiledIndex = Array(0..<Int32(pass.items.count))
        // Read where they lie: enumerating copied each draw out (and retained its references).
        pass.items.withUnsafeBufferPointer { items in
            for index in items.indices {
                if let rect = occluderRect(at: items.baseAddress! + index) { occluders.append((index, rect)) }
            }
        }
    }

    /// The rect the draw at `item` occludes with, when the culler would use it.
    func occluderRect(at item: UnsafePointer<DrawItem>) -> PixelRect? {
        guard let rect = OcclusionCuller.occluderRect(at: item, targetWidth: targetWidth, targetHeight: targetHeight),
              rect.width * rect.height >= minimumOccluderArea else { return nil }
        return rect
    }

    /// Records which builder draws were culled (ascending indices).
    mutating func recordCulled(_ culled: [Int]) {
        guard !culled.isEmpty else { return }
        var next = 0
        var kept: Int32 = 0
        for index in compiledIndex.indices {
            if next < culled.count && culled[next] == index {
                compiledIndex[index] = -1
                next += 1
            } else {
                compiledIndex[index] = kept
                kept += 1
            }
        }
    }

    /// Records the plan's order (compiled indices) and phases.
    mutating func recordPlan(_ order: [Int], phases: [DepthPhase]?) {
        depthOrdered = phases != nil
        var last = -1
        for index in order where phases?[index] != .opaque {
            if index < last {
                translucentInPainterOrder = false
                return
            }
            last = index
        }
    }
}
