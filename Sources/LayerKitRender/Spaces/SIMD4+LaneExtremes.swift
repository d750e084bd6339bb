extension SIMD4 where Scalar: FloatingPoint {
    /// The least lane, as `min()` gives it (`minimum` taken lane after lane in order), written out and
    /// always inlined: the library's reduction was a call per use, on paths run for every draw each frame
    /// (a footprint's corners, an occluder's radii).
    @inline(__always)
    package var leastLane: Scalar { Scalar.minimum(Scalar.minimum(Scalar.minimum(x, y), z), w) }

    /// The greatest lane, as `max()` gives it; see `leastLane`.
    @inline(__always)
    package var greatestLane: Scalar { Scalar.maximum(Scalar.maximum(Scalar.maximum(x, y), z), w) }
}
