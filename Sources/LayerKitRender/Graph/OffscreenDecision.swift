/// The "draw directly when it is mathematically the same" rules of DESIGN.md §4, as pure functions the
/// graph builder asks while it walks the tree.
///
/// Input: the draw items a subtree produced (in its target's clip space) and the target's size.
/// Output: each item's pixel footprint, and whether any two footprints share a pixel.
/// Group opacity: fading each draw by α and fading their composite by α agree exactly where no pixel
/// receives two draws, so a subtree whose footprints are pairwise disjoint has its opacity folded into
/// every item; only overlapping footprints cost an offscreen surface. Footprints are conservative (a
/// bounding box of the covered region, grown to whole pixels, cut by the item's analytic clip), so an
/// overlap may be reported for shapes that merely have overlapping boxes — never the reverse.
/// Cost: O(1) per footprint; the overlap test is a sweep over x with the live y-intervals kept sorted,
/// O(n log n) comparisons for n footprints (plus array moves bounded by the live set).
package enum OffscreenDecision {
    /// The pixels `item` can touch in a `targetWidth`×`targetHeight` target, clipped to the target unless
    /// `clippedToTarget` is false; nil when it touches none. An item whose projection crosses the w = 0
    /// plane (perspective behind the eye) is taken to cover the whole target.
    package static func footprint(of item: DrawItem, targetWidth: Int, targetHeight: Int, clippedToTarget: Bool = true) -> PixelRect? {
        footprint(of: item.instance, targetWidth: targetWidth, targetHeight: targetHeight, clippedToTarget: clippedToTarget)
    }

    /// `footprint(of:targetWidth:targetHeight:clippedToTarget:)` of a draw's instance, which is all it
    /// reads: a loop over draws passes each one's instance from where the draw lies.
    package static func footprint(of instance: LayerInstance, targetWidth: Int, targetHeight: Int, clippedToTarget: Bool = true) -> PixelRect? {
        let target = PixelRect(x: 0, y: 0, width: targetWidth, height: targetHeight)
        let covered = coveredRegion(of: instance)
        let minX = Double(covered.x), minY = Double(covered.y), maxX = Double(covered.z), maxY = Double(covered.w)
        guard maxX > minX, maxY > minY else { return nil }

        let toClipSpace = layerToNormalizedDevice(instance)
        guard var bounds = projectedBounds(minX, minY, maxX, maxY, through: toClipSpace, targetWidth: targetWidth, targetHeight: targetHeight)
        else { return target }
        if instance.flags.contains(.clip) {
            let clip = instance.clipRect
            guard clip.z > clip.x, clip.w > clip.y else { return nil }  // clipped away entirely
        }
        if instance.flags.contains(.clip), let clipBounds = clipFootprint(instance, layerToDevice: toClipSpace,
                                                                          targetWidth: targetWidth, targetHeight: targetHeight) {
            guard let clipped = bounds.intersection(clipBounds) else { return nil }
            bounds = clipped
        }
        return clippedToTarget ? bounds.intersection(target) : bounds
    }

    /// The region an instance may cover, in its layer's space (min x, min y, max x, max y; empty when a
    /// max is not above its min): the shape, within the drawn quad (or piece). A blurred shadow covers its
    /// whole quad (the shape grown by the blur). What `footprint` bounds, before its analytic clip.
    package static func coveredRegion(of instance: LayerInstance) -> SIMD4<Float> {
        let quad = instance.drawnBounds, shape = instance.flags.contains(.shadow) ? quad : instance.shape
        return SIMD4(max(quad.x, shape.x), max(quad.y, shape.y), min(quad.z, shape.z), min(quad.w, shape.w))
    }

    /// Whether any two of `rects` share a pixel.
    ///
    /// Sweep over x in order of `minX`. Every live rect (one whose x-range contains the sweep line) meets
    /// every other live rect in x, so until an overlap is found the live y-ranges are pairwise disjoint
    /// and sorted by `minY` and by `maxY` alike: a new rect can meet only the contiguous run of them a
    /// binary search finds. A rect of that run that has ended in x is retired; one still live is an overlap.
    package static func anyOverlap(_ rects: [PixelRect]) -> Bool {
        guard rects.count > 1 else { return false }
        let sorted = rects.filter { !$0.isEmpty }.sorted { $0.minX < $1.minX }
        var live: [PixelRect] = []  // sorted by minY, y-ranges pairwise disjoint
        for rect in sorted {
            // First live rect whose maxY is past rect.minY (live is sorted by maxY too).
            var low = 0, high = live.count
            while low < high {
                let mid = (low + high) / 2
                if live[mid].maxY <= rect.minY { low = mid + 1 } else { high = mid }
            }
            let index = low
            while index < live.count && live[index].minY < rect.maxY {
                if live[index].maxX > rect.minX { return true }
                live.remove(at: index)  // ended before the sweep line: it can meet nothing from here on
            }
            live.insert(rect, at: index)
        }
        return false
    }

    // MARK: - Projection

    /// Layer space → clip space (x, y, w) of the instance, as a plane homography (row vectors).
    private static func layerToNormalizedDevice(_ instance: LayerInstance) -> PlaneHomography {
        let (c0, c1, _, c3) = instance.localToClip
        return PlaneHomography(r0: SIMD3(Double(c0.x), Double(c0.y), Double(c0.w)),
                               r1: SIMD3(Double(c1.x), Double(c1.y), Double(c1.w)),
                               r2: SIMD3(Double(c3.x), Double(c3.y), Double(c3.w)))
    }

    /// The pixel bounds of a rectangle's image under `toClipSpace`; nil when a corner lies on or behind
    /// the w = 0 plane (the image is then unbounded).
    private static func projectedBounds(_ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double,
                                        through toClipSpace: PlaneHomography, targetWidth: Int, targetHeight: Int) -> PixelRect? {
        // The four corners at once, one lane each (every draw's footprint is asked for every frame).
        let x = SIMD4(minX, maxX, minX, maxX), y = SIMD4(minY, minY, maxY, maxY)
        let (r0, r1, r2) = (toClipSpace.r0, toClipSpace.r1, toClipSpace.r2)
        var hx = x * r0.x + y * r1.x + r2.x, hy = x * r0.y + y * r1.y + r2.y
        // x − x is 0 exactly where x is finite and NaN where it is not, so the eight lanes' sum is 0 exactly
        // when all are finite: one test (two lane-wise `all`s took 46 instructions of SSE2 lane shuffles).
        guard ((hx - hx) + (hy - hy)).sum() == 0 else { return nil }
        // An affine map (every 2D draw's) leaves w at 1 exactly: dividing by it would change no bit, and
        // the divisions were a fifth of this function's time.
        if r0.z != 0 || r1.z != 0 || r2.z != 1 {
            let hz = x * r0.z + y * r1.z + r2.z
            guard all(hz .> 1e-9) else { return nil }
            hx /= hz
            hy /= hz
        }
        let px = (hx + 1) * Double(targetWidth) / 2, py = (hy + 1) * Double(targetHeight) / 2
        // No lane is NaN here (finite, or infinite past a division by a tiny w): plain comparisons give the
        // extremes `Double.minimum` and `maximum` give, without their tests for NaN, two branches a lane.
        return PixelRect(covering: min(min(px.x, px.y), min(px.z, px.w)), min(min(py.x, py.y), min(py.z, py.w)),
                         max(max(px.x, px.y), max(px.z, px.w)), max(max(py.x, py.y), max(py.z, py.w)))
    }

    /// The pixel bounds of the instance's analytic clip, or nil when they cannot be bounded.
    private static func clipFootprint(_ instance: LayerInstance, layerToDevice: PlaneHomography,
                                      targetWidth: Int, targetHeight: Int) -> PixelRect? {
        // clipFromLocal holds the rows of the column-vector map layer → clip space, i.e. the columns of
        // the row-vector one.
        let (f0, f1, f2) = instance.clipFromLocal
        let layerToClip = PlaneHomography(r0: SIMD3(Double(f0.x), Double(f1.x), Double(f2.x)),
                                          r1: SIMD3(Double(f0.y), Double(f1.y), Double(f2.y)),
                                          r2: SIMD3(Double(f0.z), Double(f1.z), Double(f2.z)))
        guard let clipToLayer = layerToClip.inverted() else { return nil }
        let rect = instance.clipRect
        return projectedBounds(Double(rect.x), Double(rect.y), Double(rect.z), Double(rect.w),
                               through: clipToLayer.concatenating(layerToDevice), targetWidth: targetWidth, targetHeight: targetHeight)
    }
}
