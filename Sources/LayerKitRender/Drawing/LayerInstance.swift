/// One quad as the GPU sees it: the per-instance record of the layer shader (`Shaders/layer_quad.*`).
///
/// The layout is declared once here and once in `Shaders/include/layer_instance.glsl`; a test checks the
/// stride. Every member is a 16-byte vector so std430 and Swift agree without padding rules.
///
/// Spaces: *layer space* is the layer's bounds coordinate system in points (origin top-left, y down,
/// `bounds.origin` included). `localToClip` maps a layer-space point (x, y, 0, 1) to Vulkan clip space of
/// the target (column-major, `clip = localToClip * p`, column vectors as GLSL uses them; the engine's
/// row-vector `CATransform3D` is transposed when it is written here). Perspective comes through `w`.
package struct LayerInstance: Equatable, Sendable {
    /// Columns of the layer-space → clip-space matrix.
    package var localToClip: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    /// The quad this instance draws, in layer space: (minX, minY, maxX, maxY).
    package var quad: SIMD4<Float>
    /// Texture coordinates at the quad's (minX, minY) and (maxX, maxY) corners: (u0, v0, u1, v1).
    /// With `Flags.gradient` (never textured): the gradient's geometry instead (`gradientGeometry`).
    package var uv: SIMD4<Float>
    /// Premultiplied color. Untextured: the fill. Textured: multiplies the texel (opacity in all four).
    package var color: SIMD4<Float>
    /// The rounded rectangle whose inside is covered, in layer space: (minX, minY, maxX, maxY).
    package var shape: SIMD4<Float>
    /// Corner radii of `shape`: (top-left, top-right, bottom-right, bottom-left), y down.
    package var shapeRadii: SIMD4<Float>
    /// x: border width (only with `Flags.border`: covers the ring `shape` minus `shape` inset by it);
    /// y: flags (`Flags` raw value, stored as float bits); z: depth in 0…1 (`depth`); w: unused.
    package var params: SIMD4<Float>
    /// Rows of the homography from layer space to the clip's space: clip (x, y, w) = H * (x, y, 1), in
    /// x, y, z of each row. The rows' w hold a gradient piece's gradient header (`gradientKind`).
    package var clipFromLocal: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    /// The clip's rounded rectangle in its own space (minX, minY, maxX, maxY); only with `Flags.clip`.
    package var clipRect: SIMD4<Float>
    /// Corner radii of `clipRect`: (top-left, top-right, bottom-right, bottom-left).
    package var clipRadii: SIMD4<Float>
    /// With `Flags.clampUV`: the texture coordinates are clamped to (minU, minV, maxU, maxV) before
    /// sampling — an image's texel centres inside an atlas page, so filtering never reads a neighbour.
    /// With `Flags.gradient` (never atlased) and not a piece: x the gradient's kind, y its stop count, z the
    /// index of its first stop word in the instance buffer (all three as uint bits; see `gradientKind`).
    /// Also pads the record to sixteen vec4s (256 bytes), the instance stride the shader reads.
    package var uvClamp: SIMD4<Float> = .zero

    package struct Flags: OptionSet, Sendable {
        package let rawValue: UInt32
        package init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Sample the pass's texture and multiply by `color`.
        package static let textured = Flags(rawValue: 1 << 0)
        /// Cover only the border ring of `shape`.
        package static let border = Flags(rawValue: 1 << 1)
        /// Antialias the straight edges of `shape` (rounded corners are always antialiased).
        package static let antialiasEdges = Flags(rawValue: 1 << 2)
        /// Multiply coverage by the analytic rounded-rect clip.
        package static let clip = Flags(rawValue: 1 << 3)
        /// Clamp texture coordinates to `uvClamp` (images packed into an atlas page).
        package static let clampUV = Flags(rawValue: 1 << 4)
        /// Debug (overdraw): output 1/255 in every channel whatever the coverage, blended additively, so
        /// a surface counts the fragments shaded at each pixel.
        package static let countFragments = Flags(rawValue: 1 << 5)
        /// Debug (overdraw): the texture holds fragment counts; output the heat-map tint for the count
        /// (`DebugVisualization.heatMapTint(count:)`) instead of the texel.
        package static let overdrawHeatMap = Flags(rawValue: 1 << 6)
        /// Paint a gradient (`GradientPaint`) times `color` instead of the fill, ordered-dithered.
        package static let gradient = Flags(rawValue: 1 << 7)
        /// The instance draws a convex piece of its layer's quad (a plane split in a 3D rendering
        /// context): the four strip corners are `quad.xy`, `quad.zw`, `uvClamp.xy`, `uvClamp.zw`, in
        /// layer space, and `uv` holds the texture coordinates at `shape`'s corners, from which the shader
        /// interpolates them. Never set together with `clampUV` (pieces are not placed in the atlas). With
        /// `gradient`, `uv` keeps the gradient's geometry and the gradient header moves from `uvClamp` to
        /// the w of `clipFromLocal`'s rows (see `gradientKind`).
        package static let pieceCorners = Flags(rawValue: 1 << 8)
        /// A shadow: coverage is `shape` blurred by a Gaussian of standard deviation `shadowSigma` (layer
        /// units; 0 keeps the shape's own edge), times `color`. Never textured, never a border.
        package static let shadow = Flags(rawValue: 1 << 9)
        /// A filter kernel pass: the texture (a surface) is read through `filterKernel` instead of
        /// sampled once. Never with `clip`, `clampUV` or a piece (kernel draws are 1:1 surface quads).
        package static let filterKernel = Flags(rawValue: 1 << 10)
        /// Apply `colorMatrix` to the sampled colour (kept in the clip fields: such a draw has no clip).
        package static let colorMatrix = Flags(rawValue: 1 << 11)
        /// The map to the target's pixels is a similarity (rotation, uniform scale, mirror, translation):
        /// one pixel is the same layer length in every direction. Read on the CPU only, where it picks the
        /// cheapest shape coverage (`Material.Coverage.similarShape`); set by the builder, which knows the
        /// map to pixels (`localToClip` alone does not say what a pixel is).
        package static let similarityMap = Flags(rawValue: 1 << 12)
    }

    package var flags: Flags {
        get { Flags(rawValue: params.y.bitPattern) }
        set { params.y = Float(bitPattern: newValue.rawValue) }
    }

    /// With `Flags.pieceCorners`: the piece's four corners in triangle-strip order (a triangle repeats
    /// its last corner).
    package var pieceCorners: (SIMD2<Float>, SIMD2<Float>, SIMD2<Float>, SIMD2<Float>) {
        get { (SIMD2(quad.x, quad.y), SIMD2(quad.z, quad.w), SIMD2(uvClamp.x, uvClamp.y), SIMD2(uvClamp.z, uvClamp.w)) }
        set {
            quad = SIMD4(newValue.0.x, newValue.0.y, newValue.1.x, newValue.1.y)
            uvClamp = SIMD4(newValue.2.x, newValue.2.y, newValue.3.x, newValue.3.y)
        }
    }

    /// The layer-space bounding rect of what the instance rasterizes, (minX, minY, maxX, maxY): the quad,
    /// or for a piece the bounds of its corners.
    package var drawnBounds: SIMD4<Float> {
        guard flags.contains(.pieceCorners) else { return quad }
        let (a, b, c, d) = pieceCorners
        let low = pointwiseMin(pointwiseMin(a, b), pointwiseMin(c, d))
        let high = pointwiseMax(pointwiseMax(a, b), pointwiseMax(c, d))
        return SIMD4(low.x, low.y, high.x, high.y)
    }

    package var borderWidth: Float {
        get { params.x }
        set { params.x = newValue }
    }

    /// With `Flags.gradient`, in layer space: (start.x, start.y, end.x, end.y); for a radial gradient
    /// the end is the radii (see `GradientPaint`). Shares `uv`'s slot: a gradient samples no texture.
    package var gradientGeometry: SIMD4<Float> {
        get { uv }
        set { uv = newValue }
    }

    /// With `Flags.gradient`: `GradientPaint.Kind`'s raw value. The gradient header (kind, stop count,
    /// first stop word) is `uvClamp`'s x, y, z, or for a piece (`Flags.pieceCorners`, whose corners take
    /// `uvClamp`) the w of `clipFromLocal`'s three rows, which the homography does not use; set the flag
    /// before the header.
    package var gradientKind: UInt32 {
        get { flags.contains(.pieceCorners) ? clipFromLocal.0.w.bitPattern : uvClamp.x.bitPattern }
        set {
            if flags.contains(.pieceCorners) { clipFromLocal.0.w = Float(bitPattern: newValue) } else { uvClamp.x = Float(bitPattern: newValue) }
        }
    }

    /// With `Flags.gradient`: how many color stops the gradient has (see `gradientKind` for where).
    package var gradientStopCount: UInt32 {
        get { flags.contains(.pieceCorners) ? clipFromLocal.1.w.bitPattern : uvClamp.y.bitPattern }
        set {
            if flags.contains(.pieceCorners) { clipFromLocal.1.w = Float(bitPattern: newValue) } else { uvClamp.y = Float(bitPattern: newValue) }
        }
    }

    /// With `Flags.gradient`: where its stops start in the instance buffer, in 16-byte words from the
    /// buffer's start (set by the backend when it writes the frame's instances; see `gradientKind` for where).
    package var gradientStopWord: UInt32 {
        get { flags.contains(.pieceCorners) ? clipFromLocal.2.w.bitPattern : uvClamp.z.bitPattern }
        set {
            if flags.contains(.pieceCorners) { clipFromLocal.2.w = Float(bitPattern: newValue) } else { uvClamp.z = Float(bitPattern: newValue) }
        }
    }

    /// The depth the vertex shader writes (`gl_Position.z = depth · w`): 0 unless the pass is drawn with
    /// a depth test (`RenderPass.depthOrdered`), where later items get smaller depths (nearer).
    package var depth: Float {
        get { params.z }
        set { params.z = newValue }
    }

    package init(
        localToClip: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>),
        quad: SIMD4<Float>,
        uv: SIMD4<Float> = SIMD4(0, 0, 1, 1),
        color: SIMD4<Float>,
        shape: SIMD4<Float>,
        shapeRadii: SIMD4<Float> = .zero,
        borderWidth: Float = 0,
        flags: Flags = [],
        clipFromLocal: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) = (SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0)),
        clipRect: SIMD4<Float> = .zero,
        clipRadii: SIMD4<Float> = .zero
    ) {
        self.localToClip = localToClip
        self.quad = quad
        self.uv = uv
        self.color = color
        self.shape = shape
        self.shapeRadii = shapeRadii
        self.params = SIMD4(borderWidth, Float(bitPattern: flags.rawValue), 0, 0)
        self.clipFromLocal = clipFromLocal
        self.clipRect = clipRect
        self.clipRadii = clipRadii
    }

    package static func == (lhs: LayerInstance, rhs: LayerInstance) -> Bool {
        lhs.localToClip == rhs.localToClip && lhs.quad == rhs.quad && lhs.uv == rhs.uv && lhs.color == rhs.color
            && lhs.shape == rhs.shape && lhs.shapeRadii == rhs.shapeRadii && lhs.params == rhs.params
            && lhs.clipFromLocal == rhs.clipFromLocal && lhs.clipRect == rhs.clipRect && lhs.clipRadii == rhs.clipRadii
            && lhs.uvClamp == rhs.uvClamp
    }

    /// With `Flags.shadow`: the Gaussian's standard deviation in layer units (shares the border width's
    /// slot: a shadow has no border).
    package var shadowSigma: Float {
        get { params.x }
        set { params.x = newValue }
    }

    /// With `Flags.filterKernel`: the kernel (`FilterKernel`), its kind in `params.x` and its parameters
    /// in `uvClamp` (a kernel draw is never atlased).
    package var filterKernel: FilterKernel {
        get { FilterKernel(kind: FilterKernel.Kind(rawValue: params.x.bitPattern) ?? .copy, parameters: uvClamp) }
        set {
            params.x = Float(bitPattern: newValue.kind.rawValue)
            uvClamp = newValue.parameters
        }
    }

    /// With `Flags.colorMatrix`: the matrix, in the five clip words (rows, then the bias).
    package var colorMatrix: ColorMatrix {
        get { ColorMatrix(red: clipFromLocal.0, green: clipFromLocal.1, blue: clipFromLocal.2, alpha: clipRect, bias: clipRadii) }
        set {
            clipFromLocal = (newValue.red, newValue.green, newValue.blue)
            clipRect = newValue.alpha
            clipRadii = newValue.bias
        }
    }

    /// Bytes per instance as the shader reads them (16 vec4s).
    package static let stride = 16 * MemoryLayout<SIMD4<Float>>.stride
}
