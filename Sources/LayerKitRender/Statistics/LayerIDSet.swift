import LayerKit

/// A set of layer IDs, for counting the layers a frame draws and culls (`DrawListCompiler`).
///
/// Layer IDs come from one counter (`LayerID.next()`), so the layers of a frame lie mostly within a
/// narrow range of IDs: the set is a bitmap over the range of the IDs inserted so far, widened at either
/// end as IDs arrive, one bit per ID. (A hashed table of 8-byte slots spread 10,000 layers over 256 KB,
/// and each insert missed the cache: a twelfth of compiling such a frame.) IDs spread over more than
/// `maximumSpan` go to a hashed set instead, so a long-lived app's old and new layers cost memory in
/// proportion to their number, not to the gap between them.
/// Cost: O(1) per insert and lookup; O(span / 64) to widen, O(span / 64) for `count` and `elements`.
struct LayerIDSet {
    /// The widest range of IDs held as bits (a bitmap of 512 KB).
    static let maximumSpan: UInt64 = 1 << 22

    /// The first ID the bitmap's word 0 stands for (a multiple of 64).
    private var base: UInt64 = 0
    private var words: [UInt64] = []
    /// Where the IDs went once they spread too far.
    private var spread: Set<UInt64>?
    /// The word of `words` the last inserts went to (-1: none), and the bits they set there, held apart
    /// until an insert goes to another word: a frame's draws mostly come in runs of layers with
    /// neighbouring IDs, and each write into `words` checked that its buffer was not shared (a third of
    /// an insert).
    private var pendingWord = -1
    private var pendingBits: UInt64 = 0

    init() {}

    // Inlined for a run within the pending word: called per draw of a frame, the call was most of it.
    @inline(__always)
    mutating func insert(_ layer: LayerID) {
        // (No pending word while `spread` holds the IDs: `words` is empty then.)
        let offset = layer.rawValue &- base
        if offset < UInt64(words.count) &* 64, Int(offset >> 6) == pendingWord {
            pendingBits |= 1 << (offset & 63)
            return
        }
        insertElsewhere(layer.rawValue)
    }

    /// `insert` of an ID outside the pending word: its word becomes the pending one.
    private mutating func insertElsewhere(_ raw: UInt64) {
        settlePendingBits()
        if spread != nil {
            spread?.insert(raw)
            return
        }
        if words.isEmpty {
            base = raw & ~63
            words = [0]
        } else if raw < base || raw - base >= UInt64(words.count) * 64 {
            guard widen(toHold: raw) else {
                spread = Set(elements)
                spread?.insert(raw)
                words = []
                return
            }
        }
        let offset = raw - base
        (pendingWord, pendingBits) = (Int(offset >> 6), 1 << (offset & 63))
    }

    /// Writes the pending bits into their word.
    private mutating func settlePendingBits() {
        guard pendingWord >= 0 else { return }
        words[pendingWord] |= pendingBits
        (pendingWord, pendingBits) = (-1, 0)
    }

    /// Word `index` of the bitmap, the pending bits included.
    private func word(_ index: Int) -> UInt64 {
        index == pendingWord ? words[index] | pendingBits : words[index]
    }

    func contains(_ raw: UInt64) -> Bool {
        if let spread { return spread.contains(raw) }
        guard !words.isEmpty, raw >= base, raw - base < UInt64(words.count) * 64 else { return false }
        let offset = raw - base
        return word(Int(offset >> 6)) & (1 << (offset & 63)) != 0
    }

    var count: Int {
        if let spread { return spread.count }
        let pending = pendingWord >= 0 ? (pendingBits & ~words[pendingWord]).nonzeroBitCount : 0
        return words.reduce(pending) { $0 + $1.nonzeroBitCount }
    }

    /// The IDs held, as raw values.
    var elements: [UInt64] {
        if let spread { return Array(spread) }
        var result: [UInt64] = []
        for index in words.indices {
            var bits = word(index)
            while bits != 0 {
                result.append(base + UInt64(index) * 64 + UInt64(bits.trailingZeroBitCount))
                bits &= bits - 1
            }
        }
        return result
    }

    /// Widens the bitmap to hold `raw`, at least doubling it (so that widening stays rare; the room added
    /// on the side `raw` lay, as far as ID 0 goes); false when that would span more than `maximumSpan` IDs.
    private mutating func widen(toHold raw: UInt64) -> Bool {
        let end = base + UInt64(words.count) * 64
        let needBelow = raw < base ? Int((base - (raw & ~63)) >> 6) : 0
        let needAbove = raw >= end ? Int(((raw | 63) + 1 - end) >> 6) : 0
        let spanWords = words.count + needBelow + needAbove
        let maximumWords = Int(Self.maximumSpan >> 6)
        guard spanWords <= maximumWords else { return false }
        let total = max(spanWords, min(words.count * 2, maximumWords))
        // Words below the old ones: those `raw` needs, and when it lay below, the added room too.
        let below = needBelow == 0 ? 0 : needBelow + min(total - spanWords, Int(base >> 6) - needBelow)
        var widened = [UInt64](repeating: 0, count: total)
        widened.withUnsafeMutableBufferPointer { widened in
            for (index, word) in words.enumerated() { widened[below + index] = word }
        }
        base -= UInt64(below) * 64
        words = widened
        return true
    }
}
