import Foundation
import LayerKitScenes

/// The test modules' one source of seeded numbers (geometry, PNG round trips, rotation angles, random
/// scenes): the scenes' SplitMix64 generator, under its algorithm's name.
public typealias SplitMix64 = SeededGenerator

extension SeededGenerator {
    /// The top byte of `next()`.
    public mutating func nextByte() -> UInt8 {
        UInt8(truncatingIfNeeded: next() >> 56)
    }

    /// A uniform value in 0..<1 (the top 53 bits of `next()`).
    public mutating func unit() -> CGFloat {
        CGFloat(Double(next() >> 11) / Double(1 << 53))
    }
}
