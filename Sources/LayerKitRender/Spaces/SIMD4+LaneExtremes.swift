extension SIMD4 where Scalar: FloatingPoint {
    /// The greatest lane, as `max()` gives it (`maximum` taken lane after lane in order), written out and
    /// always inlined: the library's reduction was a call per use, on a path run for every draw each frame
    /// (an occluder's radii).
    @inline(__always)
    package var greatestLane: Scalar { Scalar.maximum(Scalar.maximum(Scalar.maximum(x, y), z), w) }
}
