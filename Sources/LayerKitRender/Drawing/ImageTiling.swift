/// Splits draws of images larger than the device's largest texture into one draw per tile.
///
/// Input: a draw item and the largest texture side the backend can sample (`maxImageDimension2D`).
/// Output: the item unchanged when its texture fits (or it samples no image); otherwise one item per
/// tile it shows, each sampling `TextureSource.imageTile` — a region of the image uploaded as a texture
/// of its own.
/// Tiles: the image is cut into cores of `maxTextureSize − 2` texels a side; a tile's texture is its core
/// plus one texel of each neighbour (clamped to the image), so linear filtering inside the core reads
/// what it would read from the whole image. An item's quad is cut where its texture coordinates cross a
/// core boundary (uv is linear across the quad, so the cut is a line of constant x or y in layer space),
/// and each piece keeps the item's shape, corners and clip: coverage is evaluated exactly as for the
/// whole item, and pieces meet edge to edge (the shared edge is computed once), so the rasterizer covers
/// every pixel once. Pieces outside the image (uv beyond 0…1, antialiasing padding) go to the edge tiles,
/// whose clamp-to-edge sampling matches the whole image's. Trilinear draws read each tile's own mip
/// chain, which near a seam differs slightly from the whole image's. A piece of a split 3D plane is tiled
/// through the rect around it, each tile cut to the piece. Cost: O(tiles shown) per item.
package enum ImageTiling {
    /// Whether `item` samples an image larger than `maxTextureSize` texels a side.
    package static func needsTiling(_ item: DrawItem, maxTextureSize: Int) -> Bool {
        guard let texture = item.texture, case let .image(image) = texture.source else { return false }
        return (image.width > maxTextureSize || image.height > maxTextureSize) && maxTextureSize >= 3
    }

    /// Appends `item`, or its tile pieces, to `output`.
    package static func split(_ item: DrawItem, maxTextureSize: Int, into output: inout [DrawItem]) {
        guard needsTiling(item, maxTextureSize: maxTextureSize), let texture = item.texture, case let .image(image) = texture.source else {
            output.append(item)
            return
        }
        if item.instance.flags.contains(.pieceCorners) {
            splitPiece(item, maxTextureSize: maxTextureSize, into: &output)
            return
        }
        let core = maxTextureSize - 2
        let instance = item.instance
        let columns = segments(from: instance.quad.x, to: instance.quad.z, u0: instance.uv.x, u1: instance.uv.z,
                               texels: image.width, core: core)
        let rows = segments(from: instance.quad.y, to: instance.quad.w, u0: instance.uv.y, u1: instance.uv.w,
                            texels: image.height, core: core)
        for row in rows {
            for column in columns {
                var piece = item
                piece.instance.quad = SIMD4(column.minX, row.minX, column.maxX, row.maxX)
                piece.instance.uv = SIMD4(column.uvAtMin, row.uvAtMin, column.uvAtMax, row.uvAtMax)
                let region = PixelRect(minX: column.texels.lowerBound, minY: row.texels.lowerBound,
                                       maxX: column.texels.upperBound, maxY: row.texels.upperBound)
                piece.texture = TextureBinding(source: .imageTile(image, region: region), minification: texture.minification,
                                               magnification: texture.magnification)
                output.append(piece)
            }
        }
    }

    /// A piece of a split plane (`LayerInstance.Flags.pieceCorners`): the rect around its corners is
    /// tiled as any quad, then each tile is cut to the piece (`DrawItem.restricted(to:)`).
    private static func splitPiece(_ item: DrawItem, maxTextureSize: Int, into output: inout [DrawItem]) {
        let (a, b, c, d) = item.instance.pieceCorners
        let polygon = [a, b, d, c].map(SIMD2<Double>.init)
        let bounds = item.instance.drawnBounds, shape = item.instance.shape, uv = item.instance.uv
        // The piece's uv is given at the shape's corners; the rect's is read off the same linear map.
        func u(_ x: Float) -> Float { uv.x + (x - shape.x) / (shape.z - shape.x) * (uv.z - uv.x) }
        func v(_ y: Float) -> Float { uv.y + (y - shape.y) / (shape.w - shape.y) * (uv.w - uv.y) }
        var whole = item
        whole.instance.flags.remove(.pieceCorners)
        whole.instance.quad = bounds
        whole.instance.uvClamp = .zero
        whole.instance.uv = SIMD4(u(bounds.x), v(bounds.y), u(bounds.z), v(bounds.w))
        var tiles: [DrawItem] = []
        split(whole, maxTextureSize: maxTextureSize, into: &tiles)
        for tile in tiles { output.append(contentsOf: tile.restricted(to: polygon)) }
    }

    /// One piece of a quad along one axis: its layer-space extent, its tile's texel range (the texture),
    /// and the tile-relative texture coordinate at each end.
    struct Segment {
        var minX: Float
        var maxX: Float
        var texels: Range<Int>
        var uvAtMin: Float
        var uvAtMax: Float
    }

    /// The pieces of the quad extent `from…to` whose texture coordinate runs `u0…u1` over an image
    /// `texels` wide, cut at multiples of `core` texels.
    static func segments(from q0: Float, to q1: Float, u0: Float, u1: Float, texels: Int, core: Int) -> [Segment] {
        let tileCount = (texels + core - 1) / core
        func texelRange(_ tile: Int) -> Range<Int> {
            max(0, tile * core - 1)..<min(texels, (tile + 1) * core + 1)
        }
        func tileUV(_ t: Float, _ tile: Int) -> Float {
            let range = texelRange(tile)
            return (t - Float(range.lowerBound)) / Float(range.count)
        }
        let t0 = u0 * Float(texels), t1 = u1 * Float(texels)
        guard tileCount > 1, t0 != t1, q0 != q1 else {
            let tile = max(0, min(tileCount - 1, Int(((t0 + t1) / 2 / Float(core)).rounded(.down))))
            return [Segment(minX: q0, maxX: q1, texels: texelRange(tile), uvAtMin: tileUV(t0, tile), uvAtMax: tileUV(t1, tile))]
        }
        // Cut points in texels, increasing, strictly inside the quad's texel span, with their layer x.
        let (tLow, tHigh) = (min(t0, t1), max(t0, t1))
        let qAtLow = t0 < t1 ? q0 : q1, qAtHigh = t0 < t1 ? q1 : q0
        var cuts: [(t: Float, q: Float)] = [(tLow, qAtLow)]
        for tile in 1..<tileCount {
            let t = Float(tile * core)
            guard t > tLow && t < tHigh else { continue }
            cuts.append((t, q0 + (t - t0) / (t1 - t0) * (q1 - q0)))
        }
        cuts.append((tHigh, qAtHigh))
        var result: [Segment] = []
        for index in 0..<(cuts.count - 1) {
            let (a, b) = (cuts[index], cuts[index + 1])
            let tile = max(0, min(tileCount - 1, Int(((a.t + b.t) / 2 / Float(core)).rounded(.down))))
            let (low, high) = a.q <= b.q ? (a, b) : (b, a)
            result.append(Segment(minX: low.q, maxX: high.q, texels: texelRange(tile), uvAtMin: tileUV(low.t, tile),
                                  uvAtMax: tileUV(high.t, tile)))
        }
        return result
    }
}
