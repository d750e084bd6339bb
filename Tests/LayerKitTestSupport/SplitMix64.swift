import Foundation

/// A tiny deterministic generator (SplitMix64), so that random inputs are the same on every run: the
/// test modules' one source of seeded numbers (geometry, PNG round trips, rotation angles, random scenes).
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The top byte of `next()`.
    public mutating func nextByte() -> UInt8 {
        UInt8(truncatingIfNeeded: next() >> 56)
    }

    /// A uniform value in 0..<1 (the top 53 bits of `next()`).
    public mutating func unit() -> CGFloat {
        CGFloat(Double(next() >> 11) / Double(1 << 53))
    }
}
