/// Drops draws that later opaque draws paint over completely (rect occlusion on the CPU, as WebRender's
/// `rectangle_occlusion.rs`).
///
/// Input: a pass's items in painter's order, their footprints (`TargetCuller`; nil = already culled) and
/// the target's size. Output: for each item, whether it is hidden.
/// Occluders: an item paints a set of pixels opaquely when it blends source-over at full alpha — an
/// untextured fill whose premultiplied alpha is 1, or an opaque image (`CGImage.isOpaque`) sampled with
/// nearest or linear filtering at opacity 1 — and it maps to the target by scale and translation only (no
/// rotation, shear or perspective). Its occluder rect is the whole pixels inside its shape (quad ∩ shape,
/// inset by the largest corner radius, inset one more pixel where its edges or its clip antialias),
/// within its analytic clip when that clip is itself axis-aligned. Those pixels have coverage exactly 1,
/// so whatever lies under them cannot show. Borders, pieces of split planes, surfaces (unknown alpha) and debug
/// draws never occlude. Occluders smaller than `minimumOccluderArea` pixels are ignored to bound the cost.
/// Algorithm: walk the items front to back keeping the occluders seen so far in a grid of
/// `gridCellSize`-pixel cells; an item is hidden when its footprint lies inside one occluder, or inside
/// their union (the footprint minus each overlapping occluder leaves nothing, giving up as not hidden past
/// `maximumPieces` pieces). An item that is hidden adds no occluder (its pixels are covered already).
/// Never changes a pixel. Cost: O(n · k) for k occluders per overlapped cell, usually a handful.
package struct OcclusionCuller {
    /// Occluders covering fewer pixels than this are ignored (64 × 64).
    package var minimumOccluderArea = 64 * 64
    /// Side of the grid cells occluders are filed in, in pixels.
    package var gridCellSize = 128
    /// The union test gives up (item not hidden) beyond this many uncovered pieces.
    package var maximumPieces = 32

    package init() {}

    /// Which items are hidden by later opaque items.
    package func hiddenItems(_ items: [DrawItem], footprints: [PixelRect?], targetWidth: Int, targetHeight: Int) -> [Bool] {
        precondition(items.count == footprints.count, "one footprint per item")
        var hidden = [Bool](repeating: false, count: items.count)
        guard items.count > 1, targetWidth > 0, targetHeight > 0 else { return hidden }
        var grid = OccluderGrid(width: targetWidth, height: targetHeight, cellSize: gridCellSize)
        // Items are read where they lie: `items[index]` as an argument copies the item out (384 bytes and
        // its references) for every draw of every frame.
        items.withUnsafeBufferPointer { items in
            for index in items.indices.reversed() {
                guard let footprint = footprints[index] else { continue }
                if grid.covers(footprint, maximumPieces: maximumPieces) {
                    hidden[index] = true
                    continue
                }
                if let rect = Self.occluderRect(at: items.baseAddress! + index, targetWidth: targetWidth, targetHeight: targetHeight),
                   rect.width * rect.height >= minimumOccluderArea {
                    grid.insert(rect)
                }
            }
        }
        return hidden
    }

    // MARK: - Occluders

    /// The target pixels `item` certainly paints with full opacity, or nil (see the type's contract).
    package static func occluderRect(of item: DrawItem, targetWidth: Int, targetHeight: Int) -> PixelRect? {
        withUnsafePointer(to: item) { occluderRect(at: $0, targetWidth: targetWidth, targetHeight: targetHeight) }
    }

    /// `occluderRect(of:targetWidth:targetHeight:)` of the draw at `item`, read where it lies: a draw
    /// passed whole is copied out (384 bytes, and its references retained), for every draw of a pass.
    package static func occluderRect(at item: UnsafePointer<DrawItem>, targetWidth: Int, targetHeight: Int) -> PixelRect? {
        guard isOpaque(at: item), let layerToPixels = AxisAlignedMap(item.pointee.instance, targetWidth: targetWidth, targetHeight: targetHeight)
        else { return nil }
        let instance = item.pointee.instance
        let flags = instance.flags
        // Split pieces of 3D-context planes cover only part of their quad.
        guard flags.isDisjoint(with: [.border, .pieceCorners]) else { return nil }
        // The covered region in layer space: shape ∩ quad, inset by the largest corner radius.
        let quad = instance.quad, shape = instance.shape
        let radius = Double(max(0, instance.shapeRadii.greatestLane))
        var minX = Double(max(quad.x, shape.x)) + radius, maxX = Double(min(quad.z, shape.z)) - radius
        var minY = Double(max(quad.y, shape.y)) + radius, maxY = Double(min(quad.w, shape.w)) - radius
        guard maxX > minX, maxY > minY else { return nil }
        var antialiased = flags.contains(.antialiasEdges)
        if flags.contains(.clip) {
            // Only a clip whose own space maps onto the layer's by scale and translation is a rectangle here.
            guard let clipInLayer = clipRectInLayerSpace(instance) else { return nil }
            minX = max(minX, clipInLayer.minX); maxX = min(maxX, clipInLayer.maxX)
            minY = max(minY, clipInLayer.minY); maxY = min(maxY, clipInLayer.maxY)
            guard maxX > minX, maxY > minY else { return nil }
            antialiased = true  // clips always antialias
        }
        let (x0, x1) = layerToPixels.x(minX, maxX)
        let (y0, y1) = layerToPixels.y(minY, maxY)
        // Whole pixels inside; one pixel less per side where coverage ramps (its centre may sit just
        // inside an antialiased edge, where coverage is a hair under 1).
        let inset = antialiased ? 1 : 0
        let rect = PixelRect(minX: Int(clamped(x0).rounded(.up)) + inset, minY: Int(clamped(y0).rounded(.up)) + inset,
                             maxX: Int(clamped(x1).rounded(.down)) - inset, maxY: Int(clamped(y1).rounded(.down)) - inset)
        guard !rect.isEmpty else { return nil }
        return rect.intersection(PixelRect(x: 0, y: 0, width: targetWidth, height: targetHeight))
    }

    /// Whether every pixel `item` covers fully it paints at alpha 1, replacing what was there: a
    /// source-over fill at alpha 1, a gradient whose stops are all opaque at opacity 1, or an opaque image sampled nearest or linear at opacity 1.
    package static func isOpaque(_ item: DrawItem) -> Bool {
        withUnsafePointer(to: item) { isOpaque(at: $0) }
    }

    /// `isOpaque(_:)` of the draw at `item`, read where it lies.
    package static func isOpaque(at item: UnsafePointer<DrawItem>) -> Bool {
        let flags = item.pointee.instance.flags
        // Inside a stencil clip an item paints only part of its shape.
        guard item.pointee.blend == .sourceOver, item.pointee.instance.color.w >= 1, item.pointee.stencilLevel == 0,
              item.pointee.stencilCommand == nil, flags.isDisjoint(with: [.countFragments, .overdrawHeatMap]) else { return false }
        if flags.contains(.gradient) { return item.pointee.gradient?.isOpaque ?? false }
        // A blurred shadow fades out; a filtered surface may hold anything.
        if flags.contains(.shadow) && item.pointee.instance.shadowSigma > 0 { return false }
        if !flags.isDisjoint(with: [.filterKernel, .colorMatrix]) { return false }
        guard flags.contains(.textured) else { return true }
        guard let texture = item.pointee.texture, texture.minification != .trilinear, texture.magnification != .trilinear else { return false }
        switch texture.source {
        case let .image(image): return image.isOpaque
        case let .imageTile(image, _): return image.isOpaque
        case .surface, .atlas: return false
        }
    }

    private static func clamped(_ value: Double) -> Double { min(max(value, -1e9), 1e9) }

    /// The instance's clip rect (inset by its largest radius) in layer space, when the clip's space maps
    /// onto the layer's by scale and translation; nil otherwise.
    private static func clipRectInLayerSpace(_ instance: LayerInstance) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        // Rows of the column-vector map layer → clip space: clip = (f0 · h, f1 · h, f2 · h), h = (x, y, 1).
        let (f0, f1, f2) = instance.clipFromLocal
        let tolerance: Float = 1e-6
        guard abs(f0.y) <= tolerance * abs(f0.x), abs(f1.x) <= tolerance * abs(f1.y), abs(f2.x) <= tolerance, abs(f2.y) <= tolerance,
              f2.z > 0, f0.x != 0, f1.y != 0 else { return nil }
        let clip = instance.clipRect, r = Double(max(0, instance.clipRadii.greatestLane))
        let (cx0, cx1) = (Double(clip.x) + r, Double(clip.z) - r)
        let (cy0, cy1) = (Double(clip.y) + r, Double(clip.w) - r)
        guard cx1 > cx0, cy1 > cy0 else { return nil }
        // clip.x = (f0.x · x + f0.z) / f2.z  ⇒  x = (clip.x · f2.z − f0.z) / f0.x.
        func layerX(_ c: Double) -> Double { (c * Double(f2.z) - Double(f0.z)) / Double(f0.x) }
        func layerY(_ c: Double) -> Double { (c * Double(f2.z) - Double(f1.z)) / Double(f1.y) }
        let (ax, bx) = (layerX(cx0), layerX(cx1)), (ay, by) = (layerY(cy0), layerY(cy1))
        return (min(ax, bx), min(ay, by), max(ax, bx), max(ay, by))
    }
}

/// A layer space → target pixels map made of scale and translation only.
struct AxisAlignedMap {
    var scale: SIMD2<Double>
    var offset: SIMD2<Double>

    /// The instance's map, or nil when it rotates, shears or projects.
    init?(_ instance: LayerInstance, targetWidth: Int, targetHeight: Int) {
        // Clip = localToClip · (x, y, 0, 1) with columns c0…c3; pixel = (clip.xy / clip.w + 1) · size / 2.
        let (c0, c1, _, c3) = instance.localToClip
        let tolerance: Float = 1e-6
        guard abs(c0.y) <= tolerance * abs(c0.x), abs(c1.x) <= tolerance * abs(c1.y), abs(c0.w) <= tolerance, abs(c1.w) <= tolerance,
              abs(c3.w - 1) <= tolerance, c0.x != 0, c1.y != 0 else { return nil }
        let half = SIMD2(Double(targetWidth), Double(targetHeight)) / 2
        scale = SIMD2(Double(c0.x), Double(c1.y)) * half
        offset = (SIMD2(Double(c3.x), Double(c3.y)) + 1) * half
    }

    /// The pixel x-range of the layer x-range a…b, ordered.
    func x(_ a: Double, _ b: Double) -> (Double, Double) {
        let (p, q) = (a * scale.x + offset.x, b * scale.x + offset.x)
        return (min(p, q), max(p, q))
    }

    func y(_ a: Double, _ b: Double) -> (Double, Double) {
        let (p, q) = (a * scale.y + offset.y, b * scale.y + offset.y)
        return (min(p, q), max(p, q))
    }
}

/// Occluder rects filed in a grid of square cells by the cells they overlap.
struct OccluderGrid {
    private var rects: [PixelRect] = []
    private var cells: [[Int32]]
    private let columns: Int
    private let rows: Int
    private let cellSize: Int
    /// `stamp[i] == query` when occluder `i` was already gathered by the current query.
    private var stamp: [Int] = []
    private var query = 0

    init(width: Int, height: Int, cellSize: Int) {
        self.cellSize = max(1, cellSize)
        columns = max(1, (width + self.cellSize - 1) / self.cellSize)
        rows = max(1, (height + self.cellSize - 1) / self.cellSize)
        cells = Array(repeating: [], count: columns * rows)
    }

    private func cellRange(_ rect: PixelRect) -> (ClosedRange<Int>, ClosedRange<Int>)? {
        let c0 = max(0, rect.minX / cellSize), c1 = min(columns - 1, (rect.maxX - 1) / cellSize)
        let r0 = max(0, rect.minY / cellSize), r1 = min(rows - 1, (rect.maxY - 1) / cellSize)
        guard rect.maxX > 0, rect.maxY > 0, c0 <= c1, r0 <= r1 else { return nil }
        return (c0...c1, r0...r1)
    }

    mutating func insert(_ rect: PixelRect) {
        guard let (columnRange, rowRange) = cellRange(rect) else { return }
        let index = Int32(rects.count)
        rects.append(rect)
        stamp.append(0)
        for row in rowRange {
            for column in columnRange { cells[row * columns + column].append(index) }
        }
    }

    /// Whether the occluders' union covers every pixel of `rect`.
    mutating func covers(_ rect: PixelRect, maximumPieces: Int) -> Bool {
        guard !rects.isEmpty, let (columnRange, rowRange) = cellRange(rect) else { return false }
        query += 1
        var candidates: [PixelRect] = []
        for row in rowRange {
            for column in columnRange {
                for index in cells[row * columns + column] where stamp[Int(index)] != query {
                    stamp[Int(index)] = query
                    let occluder = rects[Int(index)]
                    if occluder.contains(rect) { return true }
                    if occluder.intersects(rect) { candidates.append(occluder) }
                }
            }
        }
        guard !candidates.isEmpty else { return false }
        // What is left of the rect after taking away each occluder in turn.
        var pieces = [rect]
        for occluder in candidates {
            pieces = pieces.flatMap { $0.subtracting(occluder) }
            if pieces.isEmpty { return true }
            if pieces.count > maximumPieces { return false }
        }
        return pieces.isEmpty
    }
}

extension PixelRect {
    /// Whether every pixel of `other` is in this rect.
    package func contains(_ other: PixelRect) -> Bool {
        other.minX >= minX && other.maxX <= maxX && other.minY >= minY && other.maxY <= maxY
    }

    /// This rect without the pixels of `other`: up to four disjoint rects (bands above and below, then
    /// the left and right parts of the middle band).
    package func subtracting(_ other: PixelRect) -> [PixelRect] {
        guard intersects(other) else { return [self] }
        var pieces: [PixelRect] = []
        if other.minY > minY { pieces.append(PixelRect(minX: minX, minY: minY, maxX: maxX, maxY: other.minY)) }
        if other.maxY < maxY { pieces.append(PixelRect(minX: minX, minY: other.maxY, maxX: maxX, maxY: maxY)) }
        let bandMinY = max(minY, other.minY), bandMaxY = min(maxY, other.maxY)
        if other.minX > minX { pieces.append(PixelRect(minX: minX, minY: bandMinY, maxX: other.minX, maxY: bandMaxY)) }
        if other.maxX < maxX { pieces.append(PixelRect(minX: other.maxX, minY: bandMinY, maxX: maxX, maxY: bandMaxY)) }
        return pieces
    }
}
