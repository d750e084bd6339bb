/// What a draw's fragments must compute: which paints its batch may use and how much coverage math it
/// needs. The backend draws each batch with the layer shader specialized to its material
/// (`layer_quad.frag`, specialization constants 2 and 3), so a flat opaque rectangle samples no texture
/// and evaluates no rounded rect, and an opaque draw that needs no coverage keeps early depth testing
/// (nothing can discard it).
///
/// A batch's material is the join of its draws' (`joined(with:)`): draws of different materials still
/// share a draw call, which then runs the paints and coverage any of them needs (the shader still reads
/// each draw's flags inside what its material allows). Materials change cost, never pixels.
package struct Material: Hashable, Sendable, CustomStringConvertible {
    /// The paints a batch may use.
    package struct Paint: OptionSet, Hashable, Sendable {
        package let rawValue: UInt32
        package init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Samples the batch's texture.
        package static let textured = Paint(rawValue: 1 << 0)
        /// Samples with texture coordinates clamped to a rect (an image in an atlas page).
        package static let clampedUV = Paint(rawValue: 1 << 1)
        /// Evaluates a gradient from stops in the instance buffer.
        package static let gradient = Paint(rawValue: 1 << 2)
        /// Debug views (fragment counting, overdraw heat map).
        package static let debug = Paint(rawValue: 1 << 3)
        /// Blurs the shape's coverage for a shadow (`LayerInstance.Flags.shadow`).
        package static let shadow = Paint(rawValue: 1 << 4)
        /// Reads a surface through a filter kernel and colour matrix (`LayerInstance.Flags.filterKernel`,
        /// `.colorMatrix`).
        package static let filter = Paint(rawValue: 1 << 5)
    }

    /// How much coverage the fragments compute.
    package enum Coverage: UInt32, Comparable, Sendable {
        /// None: every fragment the rasterizer produces is fully covered (a square-cornered, hard-edged
        /// quad within its shape, no border, no clip).
        case none = 0
        /// The shape's rounded rect, antialiased or hard, for a draw whose map to the target's pixels is a
        /// similarity (`LayerInstance.Flags.similarityMap`): the same coverage as `shape`, its distance
        /// scaled by one number of pixels per layer unit, which the vertex shader hands on flat.
        case similarShape = 1
        /// The shape's rounded rect, antialiased or hard, for a draw whose map to the target is affine:
        /// the same coverage as `shape`, its ramp widths worked out from the map's pixel metric, which the
        /// vertex shader hands on flat, instead of from six derivatives per fragment
        /// (`include/affine_rounded_rect_coverage.glsl`).
        case affineShape = 2
        /// The shape's rounded rect, antialiased or hard, under any map (derivatives per fragment).
        case shape = 3
        /// The shape, its border ring and its analytic clip.
        case shapeBorderClip = 4

        package static func < (lhs: Coverage, rhs: Coverage) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    package var paint: Paint
    package var coverage: Coverage

    package init(paint: Paint, coverage: Coverage) {
        self.paint = paint
        self.coverage = coverage
    }

    /// Everything the layer shader does (stencil clip shapes, and anything no material names).
    package static let general = Material(paint: [.textured, .clampedUV, .gradient, .debug, .shadow, .filter], coverage: .shapeBorderClip)

    /// The material `instance` needs.
    package init(_ instance: LayerInstance) {
        self = withUnsafePointer(to: instance) { Material(instanceAt: $0) }
    }

    /// `init(_:)` of the instance at `instance`, read where it lies: passed by value, each draw's 256-byte
    /// instance was copied out for this call, for every draw of every batch each frame.
    private init(instanceAt instance: UnsafePointer<LayerInstance>) {
        let flags = instance.pointee.flags
        if flags.contains(.countFragments) || flags.contains(.overdrawHeatMap) {
            self = .general
            return
        }
        let shapeRadii = instance.pointee.shapeRadii, quad = instance.pointee.quad, shape = instance.pointee.shape
        if flags.contains(.filterKernel) || flags.contains(.colorMatrix) {
            // A surface quad: covered wherever drawn, unless a clip (an ancestor's, a backdrop's shape) cuts
            // it; an image taking a colour matrix keeps its rounded corners and antialiased edges.
            let shaped = flags.contains(.antialiasEdges) || shapeRadii != .zero || !Self.quad(quad, liesWithin: shape)
            self.init(paint: .filter, coverage: flags.contains(.clip) ? .shapeBorderClip : shaped ? Self.shapeCoverage(of: instance) : .none)
            return
        }
        var paint: Paint = []
        if flags.contains(.shadow) { paint.insert(.shadow) }
        if flags.contains(.textured) { paint.insert(.textured) }
        if flags.contains(.clampUV) { paint.insert(.clampedUV) }
        if flags.contains(.gradient) { paint.insert(.gradient) }
        let coverage: Coverage
        if flags.contains(.border) || flags.contains(.clip) {
            coverage = .shapeBorderClip
        } else if flags.contains(.shadow) {
            // A shadow blurs the shape with the derivative-based coverage's inputs.
            coverage = .shape
        } else if flags.contains(.antialiasEdges) || flags.contains(.pieceCorners) || shapeRadii != .zero
                    || !Self.quad(quad, liesWithin: shape) {
            coverage = Self.shapeCoverage(of: instance)
        } else {
            coverage = .none
        }
        self.init(paint: paint, coverage: coverage)
    }

    /// The material `item` needs: its instance's, or the whole shader for a stencil clip shape (its
    /// pipeline discards outside the shape).
    package init(_ item: DrawItem) {
        self = withUnsafePointer(to: item) { Material(at: $0) }
    }

    /// `init(_:)` of the draw at `item`, read where it lies: a draw passed whole is copied out (384
    /// bytes, and its references retained), for every draw of a batch.
    package init(at item: UnsafePointer<DrawItem>) {
        guard item.pointee.stencilCommand == nil, let instance = item.pointer(to: \.instance) else {
            self = .general
            return
        }
        self.init(instanceAt: instance)
    }

    /// The material of a batch of `items` (indices into `all`): the join of theirs.
    package init<Indices: Sequence<Int>>(of items: Indices, in all: [DrawItem]) {
        var material: Material?
        all.withUnsafeBufferPointer { all in
            guard let first = all.baseAddress else { return }
            for index in items {
                let own = Material(at: first + index)
                material = material.map { $0.joined(with: own) } ?? own
            }
        }
        self = material ?? Material(paint: [], coverage: .none)
    }

    /// The shape coverage `instance` needs: without derivatives where its map is affine, that is where the
    /// clip-space w of a layer point (x, y, 0, 1) does not depend on x or y (the rows' w of `localToClip`'s
    /// first two columns are zero; the third multiplies z = 0), with one scale where it is a similarity.
    private static func shapeCoverage(of instance: UnsafePointer<LayerInstance>) -> Coverage {
        let (x, y, _, translation) = instance.pointee.localToClip
        guard x.w == 0 && y.w == 0 && translation.w != 0 else { return .shape }
        return instance.pointee.flags.contains(.similarityMap) ? .similarShape : .affineShape
    }

    /// With a hard edge the shader's coverage is a step at the pixel centre, the rasterizer's own
    /// decision, so a quad inside its shape is covered wherever it produces fragments.
    private static func quad(_ quad: SIMD4<Float>, liesWithin shape: SIMD4<Float>) -> Bool {
        quad.x >= shape.x && quad.y >= shape.y && quad.z <= shape.z && quad.w <= shape.w
    }

    /// The material of a batch holding draws of both.
    package func joined(with other: Material) -> Material {
        Material(paint: paint.union(other.paint), coverage: max(coverage, other.coverage))
    }

    package var description: String {
        var parts: [String] = []
        if paint.contains(.textured) { parts.append("textured") }
        if paint.contains(.clampedUV) { parts.append("clamped uv") }
        if paint.contains(.gradient) { parts.append("gradient") }
        if paint.contains(.debug) { parts.append("debug") }
        if paint.contains(.shadow) { parts.append("shadow") }
        if paint.contains(.filter) { parts.append("filter") }
        if parts.isEmpty { parts.append("flat") }
        switch coverage {
        case .none: break
        case .similarShape: parts.append("similar shape coverage")
        case .affineShape: parts.append("affine shape coverage")
        case .shape: parts.append("shape coverage")
        case .shapeBorderClip: parts.append("shape, border and clip coverage")
        }
        return parts.joined(separator: ", ")
    }
}
