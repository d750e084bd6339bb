/// Trims the opaque draws of a depth-ordered pass to the part nearer opaque draws leave in view.
///
/// The depth test keeps a hidden fragment from being shaded, not from being rasterized: a CPU
/// rasterizer (lavapipe) still walks every 4×4 block of a hidden part and tests its depth, and where 6,000
/// rotated tiles overlap twelve deep (`city`) that is most of the frame's work. Rect occlusion
/// (`OcclusionCuller`) drops only draws hidden whole by axis-aligned occluders; this shrinks each draw.
/// A draw stays one quad: splitting it into pieces would cost more than it spares, as lavapipe pays about
/// 0.6 µs for each quad it sets up and bins.
///
/// It runs only for such a rasterizer (`BackendCapabilities.rasterizerPaysForHiddenFragments`): a GPU's
/// early depth test rejects hidden fragments in hardware, before shading, at no cost to the render thread.
/// It runs where the next frame could not patch this one anyway (many layers animating, as in `city`;
/// `FrameProducer`): trimmed draws no longer line up with the builder's, which patching relies on.
///
/// Input: a pass's items in painter's order with their footprints and depth phases (`DepthPhase`), and
/// the target's size. Output: the items with each trimmed draw's quad (and texture coordinates)
/// shrunk, draws nothing of which shows dropped, footprints and phases to match, and counts; nil when
/// nothing changes.
/// Algorithm: walk the opaque-phase draws front to back keeping an `OpaqueBlockMask` of the blocks nearer
/// opaque draws paint completely. A draw of `minimumArea`…`maximumArea` pixels that maps to the target
/// without perspective and needs no coverage (its quad lies within its shape: every fragment it
/// rasterizes it paints) asks the mask for its exposure: the range of its quad's parameters holding every
/// pixel centre of it in an unmarked block (`OpaqueBlockMask.exposure`). The quad becomes that sub-rect
/// (a side moves only by a pixel or more; the texture coordinates of its corners are interpolated as the
/// shader would); a draw with no exposure is dropped. Then the region the kept draw paints is filled
/// into the mask.
/// Pixels: unchanged. What a trimmed quad no longer covers holds only pixel centres in marked blocks,
/// which nearer opaque draws paint and where it loses the depth test anyway; the new sides lie inside
/// the old quad, so no pixel outside it is drawn. Translucent draws, groups resolved by depth and draws
/// under perspective are neither trimmed nor counted as hiding anything.
/// Cost: a few multiplications per unmarked block within each trimmed draw's bounds, plus one mask row
/// per block row a kept draw covers; no GPU.
package struct OcclusionTrimmer: Sendable {
    /// Draws covering fewer pixels are not trimmed (there is little to spare).
    package var minimumArea = 24.0 * 24.0
    /// Nor draws covering more (a quarter of a 1280×720 target): finding what shows costs a few
    /// multiplications per block left in view, which for large draws could outweigh what it spares.
    package var maximumArea = 480.0 * 480.0

    package init() {}

    /// What `trim` changed.
    package struct Trim {
        /// Draws whose quad shrank.
        package var itemsTrimmed = 0
        /// Draws dropped: nothing of them in view.
        package var itemsHidden = 0
        /// The layers of the dropped draws.
        package var hiddenLayers: [LayerID] = []
    }

    /// Trims `items` (with their `footprints` and `phases`) in place; see the type's contract.
    package func trim(_ items: inout [DrawItem], footprints: inout [PixelRect], phases: inout [DepthPhase],
                      targetWidth: Int, targetHeight: Int) -> Trim? {
        precondition(items.count == footprints.count && items.count == phases.count, "one footprint and phase per item")
        guard items.count > 1, targetWidth > 0, targetHeight > 0 else { return nil }
        var mask = OpaqueBlockMask(width: targetWidth, height: targetHeight)
        var trim = Trim()
        var hidden: [Int] = []
        let target = PixelRect(x: 0, y: 0, width: targetWidth, height: targetHeight)
        for index in items.indices.reversed() where phases[index] == .opaque {
            let instance = items[index].instance
            guard !instance.flags.contains(.pieceCorners),
                  let map = AffinePixelMap(instance, targetWidth: targetWidth, targetHeight: targetHeight) else { continue }
            let quad = instance.quad, shape = instance.shape
            let paintsWholeQuad = quad.x >= shape.x && quad.y >= shape.y && quad.z <= shape.z && quad.w <= shape.w
            let shapeOnTarget = map.parallelogram(quad)
            var kept = quad
            if paintsWholeQuad && !mask.isEmpty && (minimumArea...maximumArea).contains(shapeOnTarget.area) {
                if var exposed = mask.exposure(of: shapeOnTarget) {
                    // A side moves only by a pixel or more: a sliver without pixel centres spares nothing,
                    // and a draw left as it was keeps the frame patchable (`CompileIndex`).
                    let pixel = SIMD2(1 / shapeOnTarget.edgeX.length, 1 / shapeOnTarget.edgeY.length)
                    exposed.low.replace(with: SIMD2<Double>.zero, where: exposed.low .< pixel)
                    exposed.high.replace(with: SIMD2(repeating: 1), where: exposed.high .> 1 - pixel)
                    let rect = Self.subRect(of: quad, from: exposed.low, to: exposed.high)
                    if rect != quad {
                        trim.itemsTrimmed += 1
                        items[index].instance.quad = rect
                        kept = rect
                        if instance.flags.contains(.textured) && !instance.flags.contains(.gradient) {
                            items[index].instance.uv = Self.textureCoordinates(of: rect, in: quad, uv: instance.uv)
                        }
                        let bounds = map.parallelogram(rect).bounds
                        if let footprint = PixelRect(covering: bounds.minX, bounds.minY, bounds.maxX, bounds.maxY)?.intersection(target) {
                            footprints[index] = footprint
                        }
                    }
                } else {
                    hidden.append(index)
                    if let layer = items[index].layer { trim.hiddenLayers.append(layer) }
                    // Every pixel centre of it lies in a marked block already: it would mark nothing.
                    continue
                }
            }
            // What the draw still paints (its kept quad within its shape) now hides what lies under it.
            // The part trimmed away lies in marked blocks already; filling it too would add only blocks
            // that straddle the new side, which in `city` spared nothing measurable (quads 2.31 windows
            // either way) for half the rows filled (cull and batch 4.7-4.9 -> 4.2 ms).
            let painted = SIMD4(max(kept.x, shape.x), max(kept.y, shape.y), min(kept.z, shape.z), min(kept.w, shape.w))
            if painted.z > painted.x && painted.w > painted.y { mask.fill(map.parallelogram(painted)) }
        }
        guard trim.itemsTrimmed > 0 || !hidden.isEmpty else { return nil }
        if !hidden.isEmpty {
            // `hidden` is descending; compacted in place (a swap moves a draw without retaining its texture).
            trim.itemsHidden = hidden.count
            var next = hidden.count - 1
            var kept = 0
            for index in items.indices {
                if next >= 0 && hidden[next] == index {
                    next -= 1
                    continue
                }
                if kept != index {
                    items.swapAt(kept, index)
                    footprints.swapAt(kept, index)
                    phases.swapAt(kept, index)
                }
                kept += 1
            }
            items.removeLast(items.count - kept)
            footprints.removeLast(footprints.count - kept)
            phases.removeLast(phases.count - kept)
        }
        return trim
    }

    /// The part of `quad` between fractions `low` and `high` of its width and height; a side at 0 or 1
    /// is the quad's own, exactly.
    static func subRect(of quad: SIMD4<Float>, from low: SIMD2<Double>, to high: SIMD2<Double>) -> SIMD4<Float> {
        func at(_ fraction: Double, _ from: Float, _ to: Float) -> Float {
            fraction <= 0 ? from : fraction >= 1 ? to : Float(Double(from) + fraction * Double(to - from))
        }
        return SIMD4(at(low.x, quad.x, quad.z), at(low.y, quad.y, quad.w), at(high.x, quad.x, quad.z), at(high.y, quad.y, quad.w))
    }

    /// The texture coordinates at the corners of `rect`, a sub-rect of `quad` whose corners have `uv`
    /// (the shader interpolates them linearly across the quad).
    static func textureCoordinates(of rect: SIMD4<Float>, in quad: SIMD4<Float>, uv: SIMD4<Float>) -> SIMD4<Float> {
        let quadOrigin = SIMD4(quad.x, quad.y, quad.x, quad.y)
        let quadSize = SIMD4(quad.z - quad.x, quad.w - quad.y, quad.z - quad.x, quad.w - quad.y)
        let uvOrigin = SIMD4(uv.x, uv.y, uv.x, uv.y)
        let uvSize = SIMD4(uv.z - uv.x, uv.w - uv.y, uv.z - uv.x, uv.w - uv.y)
        return uvOrigin + (rect - quadOrigin) / quadSize * uvSize
    }
}
