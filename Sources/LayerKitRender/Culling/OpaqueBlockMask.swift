/// Which square blocks of a target's pixels opaque draws already paint completely: one bit per block.
///
/// A block is marked when every pixel centre in it lies inside one parallelogram filled into the mask,
/// at least `margin` pixels from its outline (so the rasterizer, whatever its rounding, paints them
/// all). Never marks a block that is not covered so: a union of several draws that covers a block but
/// no single one of them leaves it unmarked. Blocks are 2^`blockShift` pixels square (4: lavapipe's
/// rasterizer shades 4×4 blocks); the last row and column may hold fewer pixels.
/// Cost: filling touches each block row of the parallelogram once; see `exposure` for queries.
package struct OpaqueBlockMask: Sendable {
    package let blockShift: Int
    package var blockSize: Int { 1 << blockShift }
    package let width: Int
    package let height: Int
    package let columns: Int
    package let rows: Int
    /// Pixels a pixel centre must lie inside a filled parallelogram's outline (1/32: far above the
    /// rasterizer's sub-pixel snapping, 1/256 on lavapipe).
    package var margin = 1.0 / 32
    private let wordsPerRow: Int
    private var words: [UInt64]
    /// Whether any block is marked.
    package private(set) var isEmpty = true

    package init(width: Int, height: Int, blockShift: Int = 2) {
        self.blockShift = min(max(0, blockShift), 8)
        self.width = max(0, width)
        self.height = max(0, height)
        let blockSize = 1 << self.blockShift
        columns = (self.width + blockSize - 1) >> self.blockShift
        rows = (self.height + blockSize - 1) >> self.blockShift
        wordsPerRow = (columns + 63) / 64
        words = Array(repeating: 0, count: wordsPerRow * rows)
    }

    /// Marks the blocks whose every pixel centre lies inside `shape` (by `margin`).
    package mutating func fill(_ shape: PixelParallelogram) {
        let bounds = shape.bounds
        guard bounds.minY.isFinite, bounds.maxY.isFinite, bounds.minX.isFinite, bounds.maxX.isFinite else { return }
        let spans = PixelParallelogram.Spans(shape, inset: margin)
        let perBlock = 1 / Double(blockSize)
        let firstRow = max(0, PixelRect.floor(bounds.minY * perBlock))
        let lastRow = min(rows - 1, PixelRect.floor(min(bounds.maxY, Double(height)) * perBlock))
        guard firstRow <= lastRow else { return }
        for row in firstRow...lastRow {
            // Inside the parallelogram shrunk by the margin, the x-range at every pixel centre of the row
            // is the intersection of the ranges at its top and bottom centres: the outline's left side is
            // convex and its right side concave in y.
            let top = Double(row * blockSize) + 0.5
            let bottom = Double(min((row + 1) * blockSize, height)) - 0.5
            guard let (left0, right0) = spans.span(atY: top), let (left1, right1) = spans.span(atY: bottom) else { continue }
            let left = max(left0, left1), right = min(right0, right1)
            guard right >= left else { continue }
            // Blocks whose first centre is at or right of `left` and whose last centre is at or left of `right`.
            let firstColumn = max(0, PixelRect.ceiling((left - 0.5) * perBlock))
            var lastColumn = PixelRect.floor((right + 0.5) * perBlock) - 1
            if right >= Double(width) - 0.5 { lastColumn = columns - 1 }
            lastColumn = min(lastColumn, columns - 1)
            guard firstColumn <= lastColumn else { continue }
            setBits(row: row, from: firstColumn, through: lastColumn)
            isEmpty = false
        }
    }

    /// Whether block (column, row) is marked.
    package func isMarked(column: Int, row: Int) -> Bool {
        guard column >= 0, column < columns, row >= 0, row < rows else { return false }
        return words[row * wordsPerRow + column >> 6] & (1 << UInt64(column & 63)) != 0
    }

    /// Where in `shape` a pixel centre of the target may lie outside every marked block: the range of its
    /// parameters (s along `edgeX`, t along `edgeY`, the shape being corner + s · edgeX + t · edgeY, s and t
    /// in 0…1) that holds every such centre, widened by `margin`. Nil when there is none (every pixel
    /// centre of `shape` on the target lies in a marked block).
    ///
    /// Per block row: the row's pixel centres that may lie in the shape are those within its x-extent over
    /// the row's height (`PixelParallelogram.BandExtents`), each widened by the margin. Of those, the ones in
    /// unmarked blocks lie between the first pixel of the first unmarked block and the last pixel of the
    /// last one (found from the row's words), and s and t, linear in x, are least and greatest over that
    /// rect at its corners: one rect per row is worked out, where it meets 0…1 (clamped to it). Cost: one
    /// word per row to skip a shape with no marked block near it; else per row, one word to skip a row
    /// marked across the bounds (in `city` most rows of a tile are: −13 % of its instructions per frame),
    /// else a band extent, a bit scan from either end and one rect's parameters. (Working out every
    /// unmarked block was a sixth of the render thread's CPU in a `city` window. Working out whole blocks
    /// from either end of the row until one met the shape cost as much as this, and left the pixels of
    /// those blocks outside the shape in the exposure: city's trimmed quads covered 2.316 windows, 2.270
    /// now.)
    package func exposure(of shape: PixelParallelogram) -> (low: SIMD2<Double>, high: SIMD2<Double>)? {
        let whole = (low: SIMD2<Double>(0, 0), high: SIMD2<Double>(1, 1))
        let bounds = shape.bounds
        guard bounds.minX.isFinite, bounds.minY.isFinite, bounds.maxX.isFinite, bounds.maxY.isFinite else { return whole }
        // The target's pixels whose centres may lie in the bounds.
        let firstX = max(0, PixelRect.ceiling(bounds.minX - 0.5 - margin)), lastX = min(width - 1, PixelRect.floor(bounds.maxX - 0.5 + margin))
        let firstY = max(0, PixelRect.ceiling(bounds.minY - 0.5 - margin)), lastY = min(height - 1, PixelRect.floor(bounds.maxY - 0.5 + margin))
        guard firstX <= lastX, firstY <= lastY else { return nil }
        let (firstColumn, lastColumn) = (firstX >> blockShift, lastX >> blockShift)
        let (firstRow, lastRow) = (firstY >> blockShift, lastY >> blockShift)
        guard !isEmpty, anyBits(rows: firstRow...lastRow, from: firstColumn, through: lastColumn) else { return whole }
        // s = a · (p − corner), t = b · (p − corner).
        let (a, b) = shape.inverseRows
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return whole }
        let extents = PixelParallelogram.BandExtents(shape)
        let blockSize = self.blockSize
        // Most shapes' blocks lie in one word of each row (64 blocks): then a row's unmarked blocks are
        // one masked word, read once, and its first and last a bit count each (a general scan of the
        // row's words for the test and for either end was two fifths of this function's instructions).
        let soleWord = firstColumn >> 6 == lastColumn >> 6 ? firstColumn >> 6 : nil
        let boundsBits = RowBlocks(firstColumn, lastColumn).bits(ofWord: firstColumn >> 6)
        // Scalars, not SIMD2: the generic lane-wise min and max were calls.
        var low = (s: Double.infinity, t: Double.infinity), high = (s: -Double.infinity, t: -Double.infinity)
        for row in firstRow...lastRow {
            // A row whose every block across the bounds is marked holds no such centre.
            let unmarkedInBounds = soleWord.map { ~words[row * wordsPerRow + $0] & boundsBits }
            if let unmarkedInBounds {
                if unmarkedInBounds == 0 { continue }
            } else if allBits(row: row, from: firstColumn, through: lastColumn) {
                continue
            }
            // The row's pixel centres (within the range), widened by the margin.
            let top = Double(max(row * blockSize, firstY)) + 0.5 - margin
            let bottom = Double(min(row * blockSize + blockSize - 1, lastY)) + 0.5 + margin
            guard let (left, right) = extents.xRange(fromY: top, toY: bottom) else { continue }
            let rowFirstX = max(firstX, PixelRect.ceiling(left - 0.5 - margin))
            let rowLastX = min(lastX, PixelRect.floor(right - 0.5 + margin))
            guard rowFirstX <= rowLastX else { continue }
            let first: Int, last: Int
            if let unmarkedInBounds, let word = soleWord {
                let unmarked = unmarkedInBounds & RowBlocks(rowFirstX >> blockShift, rowLastX >> blockShift).bits(ofWord: word)
                guard unmarked != 0 else { continue }
                (first, last) = (word << 6 + unmarked.trailingZeroBitCount, word << 6 + 63 - unmarked.leadingZeroBitCount)
            } else {
                guard let ascending = firstUnmarked(row: row, from: rowFirstX >> blockShift, through: rowLastX >> blockShift, ascending: true),
                      let descending = firstUnmarked(row: row, from: ascending, through: rowLastX >> blockShift, ascending: false)
                else { continue }
                (first, last) = (ascending, descending)
            }
            // The rect of those centres, relative to the corner.
            let x0 = Double(max(first * blockSize, rowFirstX)) + 0.5 - margin - shape.corner.x
            let x1 = Double(min(last * blockSize + blockSize - 1, rowLastX)) + 0.5 + margin - shape.corner.x
            let y0 = top - shape.corner.y, y1 = bottom - shape.corner.y
            let sLow = min(a.x * x0, a.x * x1) + min(a.y * y0, a.y * y1), sHigh = max(a.x * x0, a.x * x1) + max(a.y * y0, a.y * y1)
            let tLow = min(b.x * x0, b.x * x1) + min(b.y * y0, b.y * y1), tHigh = max(b.x * x0, b.x * x1) + max(b.y * y0, b.y * y1)
            guard sHigh >= 0, sLow <= 1, tHigh >= 0, tLow <= 1 else { continue }
            low = (min(low.s, max(sLow, 0)), min(low.t, max(tLow, 0)))
            high = (max(high.s, min(sHigh, 1)), max(high.t, min(tHigh, 1)))
        }
        return low.s <= high.s && low.t <= high.t ? (SIMD2(low.s, low.t), SIMD2(high.s, high.t)) : nil
    }

    private mutating func setBits(row: Int, from first: Int, through last: Int) {
        let blocks = RowBlocks(first, last)
        for word in blocks.words { words[row * wordsPerRow + word] |= blocks.bits(ofWord: word) }
    }

    // Loops written out, not `contains(where:)`: that was a call with a closure per row asked, for every
    // draw the trimmer asks about (1.3 M instructions of a `city` frame).

    /// Whether any block of `first...last` is marked in any of `rows`.
    private func anyBits(rows: ClosedRange<Int>, from first: Int, through last: Int) -> Bool {
        let blocks = RowBlocks(first, last)
        for row in rows {
            for word in blocks.words where words[row * wordsPerRow + word] & blocks.bits(ofWord: word) != 0 { return true }
        }
        return false
    }

    @inline(__always)
    private func allBits(row: Int, from first: Int, through last: Int) -> Bool {
        let blocks = RowBlocks(first, last)
        for word in blocks.words where ~words[row * wordsPerRow + word] & blocks.bits(ofWord: word) != 0 { return false }
        return true
    }

    /// The first unmarked block of `first...last` in `row`, counting up from `first` (or down from `last`).
    private func firstUnmarked(row: Int, from first: Int, through last: Int, ascending: Bool) -> Int? {
        guard first <= last else { return nil }
        let blocks = RowBlocks(first, last), rowStart = row * wordsPerRow
        for step in 0..<blocks.words.count {
            let word = ascending ? blocks.words.lowerBound + step : blocks.words.upperBound - step
            let unmarked = ~words[rowStart + word] & blocks.bits(ofWord: word)
            guard unmarked != 0 else { continue }
            return word << 6 + (ascending ? unmarked.trailingZeroBitCount : 63 - unmarked.leadingZeroBitCount)
        }
        return nil
    }

    /// Blocks `first...last` of a row (first ≤ last): the words of the row that hold them (indices within
    /// the row), and their bits in each.
    private struct RowBlocks {
        let first: Int
        let last: Int

        init(_ first: Int, _ last: Int) {
            self.first = first
            self.last = last
        }

        var words: ClosedRange<Int> { first >> 6 ... last >> 6 }

        /// The bits of `word` that stand for blocks within `first...last`.
        func bits(ofWord word: Int) -> UInt64 {
            var bits = UInt64.max
            if word == first >> 6 { bits &= .max << UInt64(first & 63) }
            if word == last >> 6 { bits &= .max >> UInt64(63 - last & 63) }
            return bits
        }
    }
}
