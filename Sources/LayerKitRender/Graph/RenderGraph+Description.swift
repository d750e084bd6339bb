/// The render graph as text: a header line, then each pass that no later pass reads (the frame's pass)
/// as the root of a tree whose children are the passes drawing the surfaces it samples, indented two
/// spaces per level, in the order the parent first samples them. Pass numbers are execution order.
///
///     RenderGraph · 3 passes · 2 offscreen (mask 2)
///     pass 2 · frame → frame 64×64 · 2 items
///       pass 1 · masked layer #3 → surface 1 32×24 · mask · 2 items
///         pass 0 · mask of layer #3 → surface 0 32×24 · mask · 1 item
///
/// A surface reused from the rasterization cache (drawn by no pass of this graph) shows under the pass
/// sampling it as `cached · rasterized layer 3 → surface 4 40×40`; one copied from the target's kept
/// pixels (`targetPixelCopies`) as `copied · target pixels (8, 8)–(72, 40) → surface 0 64×32`.
///
/// A compiled pass (`DrawListCompiler`) also says its batches, whether it is depth-ordered and what was
/// culled: `pass 0 · frame → frame 64×64 · 1 item · 1 batch · depth-ordered · culled 0 off-target, 63 occluded`.
///
/// Appears in test failures, invariant failures and behind `LK_STATS=graph`. Cost: O(passes + items).
extension RenderGraph: CustomStringConvertible {
    package var description: String {
        let offscreen = passes.compactMap(\.reason)
        var header = "RenderGraph · \(passes.count) pass\(passes.count == 1 ? "" : "es") · \(offscreen.count) offscreen"
        if !offscreen.isEmpty {
            let counts = OffscreenReason.allCases.compactMap { reason -> String? in
                let count = offscreen.filter { $0 == reason }.count
                return count > 0 ? "\(reason) \(count)" : nil
            }
            header += " (" + counts.joined(separator: ", ") + ")"
        }
        var lines = [header]

        var drawnBy: [SurfaceID: Int] = [:]
        for (index, pass) in passes.enumerated() {
            if let surface = pass.target.surface, drawnBy[surface] == nil { drawnBy[surface] = index }
        }
        // Children: the passes drawing the surfaces each pass samples, first use first.
        var children = [[Int]](repeating: [], count: passes.count)
        var isRead = [Bool](repeating: false, count: passes.count)
        for (index, pass) in passes.enumerated() {
            for case let surface? in pass.items.lazy.map({ $0.texture?.surface }) {
                guard let child = drawnBy[surface], child < index, !children[index].contains(child) else { continue }
                children[index].append(child)
                isRead[child] = true
            }
        }
        var printed = Set<Int>()
        func describe(_ index: Int, depth: Int) {
            let indent = String(repeating: "  ", count: depth)
            guard printed.insert(index).inserted else {
                lines.append(indent + "pass \(index) (above)")
                return
            }
            lines.append(indent + Self.line(for: passes[index], index: index))
            for child in children[index] { describe(child, depth: depth + 1) }
            var cached = Set<SurfaceID>()
            for case let surface? in passes[index].items.lazy.map({ $0.texture?.surface }) {
                guard let reused = rasterization.reused[surface], cached.insert(surface).inserted else { continue }
                lines.append(indent + "  cached · \(reused.entry) → \(surface) \(reused.width)×\(reused.height)")
            }
            for copy in targetPixelCopies where passes[index].items.contains(where: { $0.texture?.surface == copy.surface }) {
                let region = copy.region
                lines.append(indent + "  copied · target pixels (\(region.minX), \(region.minY))–(\(region.maxX), \(region.maxY)) → \(copy.surface) \(region.width)×\(region.height)")
            }
        }
        for index in passes.indices.reversed() where !isRead[index] {
            describe(index, depth: 0)
        }
        return lines.joined(separator: "\n")
    }

    private static func line(for pass: RenderPass, index: Int) -> String {
        let target = switch pass.target {
        case let .frame(width, height): "frame \(width)×\(height)"
        case let .offscreen(surface, width, height): "\(surface) \(width)×\(height)"
        }
        var line = "pass \(index) · \(pass.name) → \(target)"
        if let reason = pass.reason { line += " · \(reason)" }
        line += " · \(pass.items.count) item\(pass.items.count == 1 ? "" : "s")"
        // What the draw-list compiler did, once it has.
        if !pass.batches.isEmpty {
            line += " · \(pass.batches.count) batch\(pass.batches.count == 1 ? "" : "es")"
            // Which shader variants run (`Material`), each once, in first-drawn order.
            var materials: [Material] = []
            for batch in pass.batches where !materials.contains(batch.material) { materials.append(batch.material) }
            line += " [" + materials.map(\.description).joined(separator: "; ") + "]"
        }
        if let layer = pass.clearPaintsLayer { line += " · clear paints \(layer)" }
        if pass.depthOrdered { line += " · depth-ordered" }
        if pass.culled.total > 0 { line += " · culled \(pass.culled.offTarget) off-target, \(pass.culled.occluded) occluded" }
        return line
    }
}
