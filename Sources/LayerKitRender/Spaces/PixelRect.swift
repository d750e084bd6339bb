/// A rectangle of whole target pixels, half-open: columns `minX..<maxX`, rows `minY..<maxY`, origin at
/// the target's top-left, y down. The space offscreen surfaces are sized and placed in (WebRender's
/// `DeviceIntRect`).
package struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    package var minX: Int
    package var minY: Int
    package var maxX: Int
    package var maxY: Int

    package init(minX: Int, minY: Int, maxX: Int, maxY: Int) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.init(minX: x, minY: y, maxX: x + width, maxY: y + height)
    }

    /// The pixels a region with these real-valued bounds can touch: every pixel whose square meets
    /// [minX, maxX] × [minY, maxY] with positive area. Nil for a non-finite or empty region.
    package init?(covering minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double) {
        guard minX.isFinite, minY.isFinite, maxX.isFinite, maxY.isFinite, maxX > minX, maxY > minY else { return nil }
        self.init(minX: Self.floor(minX), minY: Self.floor(minY), maxX: Self.ceiling(maxX), maxY: Self.ceiling(maxY))
        if isEmpty { return nil }
    }

    /// Coordinates are clamped to ±2^40 pixels, far outside any target, so that far-away geometry cannot
    /// overflow Int.
    private static let limit = Double(1 << 40)

    /// ⌊v⌋ of a finite value clamped to ±2^40, by truncation and a correction (exact there): the rounding
    /// functions are calls into libm on this build's x86-64 baseline (no SSE4.1 rounding instruction),
    /// and footprints and occlusion masks round several coordinates per draw.
    @inline(__always)
    package static func floor(_ v: Double) -> Int {
        let clamped = min(max(v, -limit), limit), truncated = Int(clamped)
        return Double(truncated) > clamped ? truncated - 1 : truncated
    }

    /// ⌈v⌉ of a finite value clamped to ±2^40, as `floor`.
    @inline(__always)
    package static func ceiling(_ v: Double) -> Int {
        let clamped = min(max(v, -limit), limit), truncated = Int(clamped)
        return Double(truncated) < clamped ? truncated + 1 : truncated
    }

    package var width: Int { maxX - minX }
    package var height: Int { maxY - minY }
    package var isEmpty: Bool { maxX <= minX || maxY <= minY }

    /// The common pixels, or nil when there are none.
    package func intersection(_ other: PixelRect) -> PixelRect? {
        let result = PixelRect(minX: max(minX, other.minX), minY: max(minY, other.minY),
                               maxX: min(maxX, other.maxX), maxY: min(maxY, other.maxY))
        return result.isEmpty ? nil : result
    }

    /// The smallest rect holding both.
    package func union(_ other: PixelRect) -> PixelRect {
        PixelRect(minX: min(minX, other.minX), minY: min(minY, other.minY), maxX: max(maxX, other.maxX), maxY: max(maxY, other.maxY))
    }

    /// Whether the two share at least one pixel.
    package func intersects(_ other: PixelRect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    package var description: String { "(\(minX), \(minY)) \(width)×\(height)" }
}
