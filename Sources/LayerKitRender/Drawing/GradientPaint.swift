import LayerKit

/// A gradient layer's gradient as the layer shader paints it (`Shaders/include/gradient_paint.glsl`).
///
/// Input: a (presented) render node carrying `CAGradientLayer`'s committed properties — `type`, `colors`,
/// `locations`, `startPoint`, `endPoint` as custom properties (`CommittedCustomValues`) — and its bounds.
/// Output: the geometry in layer space (points), and the color stops: premultiplied gamma-encoded RGBA
/// with non-decreasing locations. nil when the node is not a gradient layer, has no colors, or no size.
/// The draw item carries it (`DrawItem.gradient`); the backend writes the stops after the frame's
/// instances (`stopWords`) and points the instance at them (`LayerInstance.gradientStopWord`).
///
/// Geometry (CAGradientLayer's unit points mapped to the bounds): axial — `start`, `end`; radial —
/// centre `start`, radii `end` (|Δx| · width, |Δy| · height); conic — centre `start`, reference direction
/// towards `end`. Why premultiplied gamma-encoded interpolation: every other color the renderer makes
/// (blending, filtering, opacity) is premultiplied sRGB-encoded, so a stop fading to a transparent color
/// fades as a layer fading out would, with no dark fringe from a transparent stop's black.
/// Cost: O(colors) per gradient layer per frame.
package struct GradientPaint: Equatable, Sendable {
    /// The gradient's shape; the raw value is the shader's `GRADIENT_*` constant.
    package enum Kind: UInt32, Sendable {
        case axial = 0, radial = 1, conic = 2
    }

    package var kind: Kind
    /// Layer space: the axial start, or the radial and conic centre.
    package var start: SIMD2<Float>
    /// Layer space: the axial end, the conic reference point; for radial, the radii (x, y).
    package var end: SIMD2<Float>
    /// Premultiplied, gamma-encoded RGBA, one per stop.
    package var colors: [SIMD4<Float>]
    /// Where each stop lies, 0…1 along the gradient; non-decreasing, one per color.
    package var locations: [Float]

    package init(kind: Kind, start: SIMD2<Float>, end: SIMD2<Float>, colors: [SIMD4<Float>], locations: [Float]) {
        self.kind = kind
        self.start = start
        self.end = end
        self.colors = colors
        self.locations = locations
    }

    /// The gradient of a gradient layer's node (see the type's contract); nil for any other node.
    package init?(of node: RenderNode) {
        guard node.renderKind == .gradient else { return nil }
        let properties = node.customProperties
        guard case .colors(let straight)? = properties["colors"], !straight.isEmpty,
              node.bounds.width > 0, node.bounds.height > 0 else { return nil }
        switch properties.string("type") {
        case "radial": kind = .radial
        case "conic": kind = .conic
        default: kind = .axial
        }
        let bounds = node.bounds
        func inBounds(_ unit: CGPoint) -> SIMD2<Float> {
            SIMD2(Float(bounds.minX + unit.x * bounds.width), Float(bounds.minY + unit.y * bounds.height))
        }
        let startUnit = Self.point(properties["startPoint"]) ?? CGPoint(x: 0.5, y: 0)
        let endUnit = Self.point(properties["endPoint"]) ?? CGPoint(x: 0.5, y: 1)
        start = inBounds(startUnit)
        switch kind {
        case .radial:
            end = SIMD2(Float(abs(endUnit.x - startUnit.x) * bounds.width), Float(abs(endUnit.y - startUnit.y) * bounds.height))
        case .axial, .conic:
            end = inBounds(endUnit)
        }
        guard start.x.isFinite, start.y.isFinite, end.x.isFinite, end.y.isFinite else { return nil }

        func unit(_ v: Double) -> Float { v.isFinite ? Float(min(max(v, 0), 1)) : 0 }
        colors = straight.map { c in
            let alpha = unit(c.w)
            return SIMD4(unit(c.x) * alpha, unit(c.y) * alpha, unit(c.z) * alpha, alpha)
        }
        let given = properties.numbers("locations")
        if given.count == straight.count, given.allSatisfy(\.isFinite) {
            // Out-of-order locations: each is at least the one before (the shader searches in order).
            var running = -Float.greatestFiniteMagnitude
            locations = given.map { running = max(running, Float($0)); return running }
        } else {
            let n = straight.count
            locations = n == 1 ? [0] : (0..<n).map { Float($0) / Float(n - 1) }
        }
    }

    /// Whether every pixel it paints is opaque (every stop's alpha is 1).
    package var isOpaque: Bool { colors.allSatisfy { $0.w >= 1 } }

    /// The stops as the shader reads them, 16-byte words: the colors, then the locations four to a word.
    package var stopWords: [SIMD4<Float>] {
        var words = colors
        for first in stride(from: 0, to: locations.count, by: 4) {
            var word = SIMD4<Float>.zero
            for i in first..<min(first + 4, locations.count) { word[i - first] = locations[i] }
            words.append(word)
        }
        return words
    }

    /// The number of words `stopWords` holds.
    package var stopWordCount: Int { colors.count + (locations.count + 3) / 4 }

    /// `instance` set up to paint this gradient: the flag, the geometry and the stop count (the backend
    /// fills in where the stops are).
    package func configure(_ instance: inout LayerInstance) {
        instance.flags.insert(.gradient)
        instance.flags.remove(.textured)
        instance.gradientGeometry = SIMD4(start.x, start.y, end.x, end.y)
        instance.gradientKind = kind.rawValue
        instance.gradientStopCount = UInt32(colors.count)
    }

    private static func point(_ value: AnimatableValue?) -> CGPoint? {
        if case .point(let p)? = value, p.x.isFinite, p.y.isFinite { return p }
        return nil
    }
}
