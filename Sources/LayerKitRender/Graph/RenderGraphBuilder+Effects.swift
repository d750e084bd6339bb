import LayerKit

/// Filters and shadows that need offscreen passes: where the builder flattens a layer, runs filter
/// kernels over it, and draws a blurred shadow from its alpha.
///
/// Input: a layer with drawn `filters` (`LayerFilter`), or a shadow that is no rect or rounded rect
/// (`ShadowShape` nil), reached inside its opacity group and mask (Core Animation's order: the layer's
/// content, then its filters, then the shadow of the filtered alpha, all inside group opacity and mask).
/// Output, appended to the parent's list: the shadow's composite (tinted and offset), then the layer's
/// content — its own draws unchanged, or with filters the composite of the filtered surface.
/// Rules:
/// - Filters: the subtree (drawn as usual, opacity and analytic clips included) goes to a surface
///   (reason `filter`) grown by every filter's reach (`LayerFilter.reach(pixelsPerUnit:)`), so blurs spread
///   past the layer as Core Image's do, and cut to the target grown by the same reach (nothing farther
///   can reach a visible pixel). Colour filters in a row compose into one matrix applied where the surface
///   is next read; each blur or morphology is one kernel pass per axis (`FilterKernel`); a Gaussian wider
///   than `maximumSigmaTexels` first halves the surface (2× box downsamples) until it fits. The composite
///   carries the inherited analytic clip, so a blur stays inside a clipping ancestor.
/// - Shadow: its source is the filtered surface, or the `shadowPath` filled (rasterized and cached by
///   `ShapeRasterizer`), or the layer's own draws drawn again into a surface (reason `shadow`); blurred by
///   a Gaussian of σ = `ShadowShape.sigma(forRadius:)` layer units, and composited through a tint matrix
///   (`ColorMatrix.tint`: the shadow colour at shadowOpacity × the source's alpha) at the shadow offset
///   mapped to pixels. Offset and blur are in the layer's space, so they turn and scale with the layer.
/// - Lengths become pixels at the layer's scale on screen at its centre (the square root of its
///   linear map's determinant there).
/// - Surfaces up to `packableEffectSide` a side are packable: the packer puts the same step of many
///   layers' effects (every content, every x pass, every y pass) into one pass each.
/// Cost: per layer, one surface for the content, one per downsample, one or two per kernel (shared
/// passes when packed); kernel passes read 2R + 1 texels per pixel.
/// - Colour filters only (keeping alpha), over draws that do not overlap: no surface; each draw takes the
///   matrix (`applyPerDraw`): a fill on its colour, a gradient on its stops, an image in the shader (its
///   rounded corners, antialiased edges and own `masksToBounds` kept as its shape's coverage).
/// - Shared shadow paths: layers whose `shadowPath` (equal paths), blur and map to pixels agree up to a
///   whole-pixel move share one blurred surface per frame (the first one's, when it lies whole within
///   reach), each compositing it with its own colour, opacity and offset; the pixels are those of its own.
///   Such a frame is not retained (another subtree's surface is read), and patches do not share.
extension RenderGraphBuilder {
    /// The largest Gaussian standard deviation a kernel pass runs at, in texels; wider blurs downsample.
    static let maximumSigmaTexels = 4.0
    /// The most taps a kernel takes on each side of a line (a Gaussian wider than the surface allows to
    /// downsample, a box, a morphology, a motion blur).
    static let maximumKernelRadius = LayerFilter.maximumTaps
    /// The largest disc blur radius a pass runs at, in texels (wider discs downsample first).
    static let maximumDiscRadius = 16
    /// The longest length an effect takes, in target pixels: hostile radii and offsets (huge, infinite,
    /// NaN) are cut to it, or to 0, before anything becomes a count of texels.
    static let maximumEffectPixels = LayerFilter.maximumPixels

    /// `length` (target pixels) within 0…`maximumEffectPixels`; NaN is 0.
    static func pixelLength(_ length: Double) -> Double {
        length.isNaN ? 0 : min(max(length, 0), maximumEffectPixels)
    }

    /// Whether `node` draws through `visitWithEffects`: it has a filter the renderer draws, or a shadow
    /// the analytic path cannot draw.
    static func needsEffectPasses(_ node: RenderNode) -> Bool {
        if !node.filters.isEmpty && node.filters.contains(where: { LayerFilter($0) != nil }) { return true }
        guard ShadowShape.casts(node) else { return false }
        return ShadowShape(of: node, backgroundRadii: cornerRadii(of: node)) == nil
    }

    /// The one colour matrix `node`'s filters amount to, when they are all colour filters that keep alpha
    /// and no shadow needs the layer's alpha offscreen: such filters may be applied draw by draw.
    static func perDrawColorMatrix(of node: RenderNode) -> ColorMatrix? {
        var matrix = ColorMatrix.identity
        for value in node.filters {
            guard let filter = LayerFilter(value) else { continue }
            guard case .color(let next) = filter else { return nil }
            matrix = matrix.then(next)
        }
        guard matrix.keepsAlpha else { return nil }
        if ShadowShape.casts(node) && ShadowShape(of: node, backgroundRadii: cornerRadii(of: node)) == nil { return nil }
        return matrix
    }

    /// `content` with `matrix` applied to each draw, or nil when some draw cannot take it (a draw the
    /// surface path must flatten): draws must not overlap (then each pixel shows one draw, and filtering
    /// the draws is filtering their composite). A flat fill takes it on its colour; a gradient on its stops
    /// (the matrix is affine and the stops interpolate linearly, so this is exact while no stop leaves
    /// 0…1 under it); an image draw in the shader (`LayerInstance.Flags.colorMatrix`, whose words a clip
    /// and an atlas clamp would need: so no clip, clamp, border or piece; rounded corners and antialiased
    /// edges keep their coverage).
    func applyPerDraw(_ matrix: ColorMatrix, to content: [DrawItem]) -> [DrawItem]? {
        let footprints = content.compactMap { OffscreenDecision.footprint(of: $0, targetWidth: targetWidth, targetHeight: targetHeight) }
        guard !OffscreenDecision.anyOverlap(footprints) else { return nil }
        var result = content
        for index in result.indices {
            var item = result[index]
            let flags = item.instance.flags
            guard item.stencilCommand == nil, item.customKernel == nil, item.blend == .sourceOver,
                  flags.isDisjoint(with: [.filterKernel, .colorMatrix, .pieceCorners, .countFragments, .overdrawHeatMap]) else { return nil }
            if var gradient = item.gradient {
                gradient.colors = gradient.colors.map { Self.applying(matrix, toPremultiplied: $0) }
                item.gradient = gradient
            } else if flags.contains(.textured) {
                if flags.contains(.clip) {
                    // The layer's own rounded bounds clipping its contents: the same coverage as the draw's shape.
                    guard let shaped = Self.ownClipAsShape(item.instance) else { return nil }
                    item.instance = shaped
                }
                let flags = item.instance.flags
                guard flags.isDisjoint(with: [.clip, .clampUV, .border, .shadow]) else { return nil }
                item.instance.flags = flags.intersection(.antialiasEdges).union(.colorMatrix)
                item.instance.filterKernel = .copy
                item.instance.colorMatrix = matrix
            } else {
                // A fill: the matrix on its colour, alpha kept.
                item.instance.color = Self.applying(matrix, toPremultiplied: item.instance.color)
            }
            result[index] = item
        }
        return result
    }

    /// `instance` with its clip turned into its shape, when that is the same coverage: the clip lies in the
    /// draw's own space (a layer's `masksToBounds` over its contents) around exactly the draw's square
    /// quad; the clip's edges are always antialiased, so the shape's become so. Nil otherwise.
    static func ownClipAsShape(_ instance: LayerInstance) -> LayerInstance? {
        let (r0, r1, r2) = instance.clipFromLocal
        let scale = r2.z
        guard abs(scale) > 1e-12 else { return nil }
        let identity = [r0.x - scale, r0.y, r0.z, r1.x, r1.y - scale, r1.z, r2.x, r2.y].allSatisfy { abs($0) <= 1e-6 * abs(scale) }
        guard identity, instance.shapeRadii == .zero, instance.shape == instance.quad,
              (instance.quad - instance.clipRect).magnitudeBound <= 1e-4 else { return nil }
        var shaped = instance
        shaped.shape = instance.clipRect
        shaped.shapeRadii = instance.clipRadii
        shaped.flags = instance.flags.subtracting(.clip).union(.antialiasEdges)
        return shaped
    }

    /// The premultiplied colour `color` through `matrix` (which keeps alpha), on its straight colour.
    static func applying(_ matrix: ColorMatrix, toPremultiplied color: SIMD4<Float>) -> SIMD4<Float> {
        guard color.w > 0 else { return color }
        let straight = SIMD4(color.x / color.w, color.y / color.w, color.z / color.w, 1)
        let mapped = matrix.apply(straight)
        let clamped = SIMD3(min(max(mapped.x, 0), 1), min(max(mapped.y, 0), 1), min(max(mapped.z, 0), 1))
        return SIMD4(clamped * color.w, color.w)
    }

    /// A surface in the middle of a filter chain: which pixels of the target it covers, its texel size,
    /// and a colour matrix still to apply where it is next read.
    struct EffectSurface {
        var surface: SurfaceID
        var rect: PixelRect
        var size: (width: Int, height: Int)
        var pendingMatrix: ColorMatrix?
    }

    /// Draws `node` with its filters and shadow (see the extension's contract).
    func visitWithEffects(_ node: RenderNode, localTime: Double, parentSpace: CATransform3D, opacity: CGFloat, clip: Clip?,
                          contentsFlipped: Bool, isolated: Bool, context: inout VisitContext, into items: inout [DrawItem]) {
        var content: [DrawItem] = []
        visit(node, localTime: localTime, parentSpace: parentSpace, opacity: opacity, clip: clip, contentsFlipped: contentsFlipped,
              isolated: isolated, effectsDrawn: true, context: &context, into: &content)
        let layerToPixels = CATransform3DConcat(Self.placement(of: node), parentSpace).planeMap
        let toPixels = PlaneHomography(layerToPixels)
        let center = CGPoint(x: node.bounds.midX, y: node.bounds.midY)
        let pixelsPerUnit = Self.pixelsPerUnit(toPixels, at: center)
        let filters = node.filters.compactMap(LayerFilter.init)
        let name = "layer \(node.id)"

        let castsShadow = ShadowShape.casts(node)
        let shadowSigma = castsShadow ? Self.pixelLength(Double(ShadowShape.sigma(forRadius: node.shadowRadius)) * pixelsPerUnit) : 0
        var shadowOffset = castsShadow ? Self.pixelOffset(toPixels, at: center, by: node.shadowOffset) : .zero
        if !(abs(shadowOffset.x) <= Self.maximumEffectPixels && abs(shadowOffset.y) <= Self.maximumEffectPixels) { shadowOffset = .zero }
        let shadowMargin = castsShadow ? 3 * shadowSigma + Double(max(abs(shadowOffset.x), abs(shadowOffset.y))) : 0

        // Colour filters on draws that do not overlap need no surface: each draw takes the matrix itself.
        if let matrix = Self.perDrawColorMatrix(of: node), let recoloured = applyPerDraw(matrix, to: content) {
            if let backdrop = takeBackdrop(of: node, context: &context) { items.append(backdrop) }
            items.append(contentsOf: recoloured)
            return
        }
        var filtered: EffectSurface?
        if !filters.isEmpty && !content.isEmpty {
            let reach = Self.pixelLength(filters.reduce(0) { $0 + $1.reach(pixelsPerUnit: pixelsPerUnit) })
            let shadowReach = castsShadow && node.shadowPath == nil ? 3 * shadowSigma : 0
            guard let (rect, _) = effectRect(of: content, growingBy: reach + shadowReach, margin: reach + shadowMargin) else { return }
            var surface = makeEffectSurface(rect, items: content, reason: .filter, name: "filters of \(name)", context: &context)
            for filter in filters {
                apply(filter, to: &surface, toPixels: toPixels, pixelsPerUnit: pixelsPerUnit, name: name, context: &context)
            }
            filtered = surface
        }

        if let backdrop = takeBackdrop(of: node, context: &context) { items.append(backdrop) }
        if castsShadow {
            drawShadow(of: node, content: content, filtered: &filtered, sigma: shadowSigma, offset: shadowOffset, margin: shadowMargin,
                       layerToPixels: layerToPixels, opacity: isolated ? opacity : opacity * min(max(node.opacity, 0), 1), name: name,
                       context: &context, into: &items)
        }

        if var filtered {
            if filtered.pendingMatrix != nil && clip != nil {
                // The matrix and the clip share the composite's fields: apply the matrix in a pass first.
                resolveMatrix(&filtered, reason: .filter, name: "colour filters of \(name)", context: &context)
            }
            var composite = compositeItem(filtered, at: Self.cgRect(filtered.rect), tint: nil)
            if let clip { Self.setClip(clipInstanceFields(clip, localToPixels: .identity), on: &composite.instance) }
            composite.layer = node.id
            items.append(composite)
        } else {
            items.append(contentsOf: content)
        }
    }

    /// The general-path shadow: blurred source alpha, tinted, offset, appended to `items`.
    private func drawShadow(of node: RenderNode, content: [DrawItem], filtered: inout EffectSurface?, sigma: Double, offset: CGPoint,
                            margin: Double, layerToPixels: CATransform3D, opacity: CGFloat, name: String,
                            context: inout VisitContext, into items: inout [DrawItem]) {
        guard let color = node.shadowColor else { return }
        let (r, g, b, a) = color.rgba
        var straight = SIMD4<Float>(Float(r), Float(g), Float(b), Float(a))
        var source: EffectSurface
        var sharing: (key: SharedShadowKey, origin: SIMD2<Int>)?
        if let path = node.shadowPath {
            straight.w *= Float(opacity)
            let key = context.isPatching ? nil : SharedShadowKey.make(path: path, sigma: sigma, layerToPixels: layerToPixels)
            if let key, let shared = context.sharedShadows[key.key] {
                // Another layer blurred this path at this scale: composite its surface, moved by whole pixels.
                context.animations.sharedEffectSurfaces = true
                var moved = shared.surface
                let delta = key.origin &- shared.origin
                moved.rect = PixelRect(minX: moved.rect.minX + delta.x, minY: moved.rect.minY + delta.y,
                                       maxX: moved.rect.maxX + delta.x, maxY: moved.rect.maxY + delta.y)
                appendShadowComposite(moved, of: node, color: straight, offset: offset, into: &items)
                return
            }
            guard let shape = shapeRasterizer.rasterizedFill(of: path, toPixels: PlaneHomography(layerToPixels)) else { return }
            let localToClip = localToClipColumns(layerToPixels)
            let instance = LayerInstance(localToClip: localToClip, quad: Self.vector(shape.rect), color: SIMD4(repeating: 1),
                                         shape: Self.vector(shape.rect), flags: [.textured])
            let pathItem = DrawItem(instance: instance, texture: TextureBinding(image: shape.image), layer: node.id)
            guard let (rect, whole) = effectRect(of: [pathItem], growingBy: 3 * sigma, margin: margin) else { return }
            source = makeEffectSurface(rect, items: [pathItem], reason: .shadow, name: "shadow path of \(name)", context: &context)
            // Only a surface holding the whole blurred path serves other layers (this one's may be cut).
            if let key, whole { sharing = (key.key, key.origin) }
        } else if var surface = filtered {
            if let matrix = surface.pendingMatrix, !matrix.keepsAlpha {
                resolveMatrix(&surface, reason: .filter, name: "colour filters of \(name)", context: &context)
                filtered = surface
            }
            source = surface
            source.pendingMatrix = nil
        } else {
            guard !content.isEmpty, let (rect, _) = effectRect(of: content, growingBy: 3 * sigma, margin: margin) else { return }
            source = makeEffectSurface(rect, items: content, reason: .shadow, name: "shadow of \(name)", context: &context)
        }
        gaussianBlur(&source, sigmaPixels: sigma, reason: .shadow, name: "shadow of \(name)", context: &context)
        if let sharing {
            context.sharedShadows[sharing.key] = SharedShadow(surface: source, origin: sharing.origin)
        }
        appendShadowComposite(source, of: node, color: straight, offset: offset, into: &items)
    }

    /// The shadow's composite: the blurred alpha `source` tinted `color` at shadowOpacity, at `offset`.
    private func appendShadowComposite(_ source: EffectSurface, of node: RenderNode, color: SIMD4<Float>, offset: CGPoint,
                                       into items: inout [DrawItem]) {
        var straight = color
        straight.w *= Float(node.shadowOpacity)
        let rect = CGRect(x: Double(source.rect.minX) + offset.x, y: Double(source.rect.minY) + offset.y,
                          width: Double(source.rect.width), height: Double(source.rect.height))
        var shadow = compositeItem(source, at: rect, tint: ColorMatrix.tint(straight))
        shadow.layer = node.id
        items.append(shadow)
    }

    /// Runs one filter over `surface` (kernel passes, or a matrix kept pending).
    func apply(_ filter: LayerFilter, to surface: inout EffectSurface, toPixels: PlaneHomography, pixelsPerUnit: Double,
               reason: OffscreenReason = .filter, name: String, context: inout VisitContext) {
        /// A layer-space point in the surface's normalized space (0…1 across its pixels).
        func normalized(_ point: CGPoint) -> SIMD2<Float> {
            let h = toPixels.apply(point)
            guard h.z > 1e-12 else { return .zero }
            return SIMD2(Float((h.x / h.z - Double(surface.rect.minX)) / Double(surface.rect.width)),
                         Float((h.y / h.z - Double(surface.rect.minY)) / Double(surface.rect.height)))
        }
        /// A layer-space length in target pixels, within what an effect can use.
        func px(_ length: Double) -> Double { Self.pixelLength(length * pixelsPerUnit) }
        /// A layer-space length in the surface's normalized space, along x and y.
        func normalized(length: Double) -> SIMD2<Float> {
            SIMD2(Float(px(length) / Double(surface.rect.width)), Float(px(length) / Double(surface.rect.height)))
        }
        switch filter {
        case .color(let matrix):
            surface.pendingMatrix = surface.pendingMatrix.map { $0.then(matrix) } ?? matrix
        case .gaussianBlur(let sigma):
            gaussianBlur(&surface, sigmaPixels: px(sigma), reason: reason, name: "blur of \(name)", context: &context)
        case .boxBlur(let radius):
            separable(&surface, kind: .box, radiusPixels: Double(LayerFilter.boxHalfWidth(px(radius))), reason: reason,
                      name: "box blur of \(name)", context: &context)
        case .morphology(let maximum, let radius):
            separable(&surface, kind: maximum ? .maximum : .minimum, radiusPixels: px(radius), reason: reason,
                      name: "morphology of \(name)", context: &context)
        case .discBlur(let radius):
            var radiusTexels = px(radius)
            guard radiusTexels >= 1 else { return }
            resolveMatrix(&surface, reason: reason, name: name, context: &context)
            // A disc is not separable: its taps grow with the square of the radius; wide discs downsample.
            while radiusTexels > 8, surface.size.width >= 8, surface.size.height >= 8 {
                surface = kernelPass(surface, .copy, size: ((surface.size.width + 1) / 2, (surface.size.height + 1) / 2), reason: reason,
                                     name: "downsample for disc blur of \(name)", context: &context)
                radiusTexels /= 2
            }
            // The disc's taps grow with the square of its radius: at most `maximumDiscRadius` texels.
            surface = kernelPass(surface, FilterKernel(kind: .disc, radius: min(Int(radiusTexels.rounded()), Self.maximumDiscRadius)), reason: reason,
                                 name: "disc blur of \(name)", context: &context)
        case .zoomBlur(let center, let amount):
            let fraction = 1 - pow(0.98, min(max(amount, -1_000), 1_000))
            guard abs(fraction) > 1e-4 else { return }
            resolveMatrix(&surface, reason: reason, name: name, context: &context)
            let c = normalized(center)
            surface = kernelPass(surface, FilterKernel(kind: .zoom, parameters: SIMD4(c.x, c.y, Float(fraction), 0)), reason: reason,
                                 name: "zoom blur of \(name)", context: &context)
        case .pixellate(let center, let scale):
            resolveMatrix(&surface, reason: reason, name: name, context: &context)
            let (cell, origin) = (normalized(length: scale), normalized(center))
            surface = kernelPass(surface, FilterKernel(kind: .pixellate, parameters: SIMD4(cell.x, cell.y, origin.x, origin.y)),
                                 reason: reason, name: "pixellate of \(name)", context: &context)
        case .crystallize(let center, let radius):
            resolveMatrix(&surface, reason: reason, name: name, context: &context)
            let (cell, origin) = (normalized(length: radius), normalized(center))
            surface = kernelPass(surface, FilterKernel(kind: .crystallize, parameters: SIMD4(cell.x, cell.y, origin.x, origin.y)),
                                 reason: reason, name: "crystallize of \(name)", context: &context)
        case .vibrance(let amount):
            guard amount != 0 else { return }
            resolveMatrix(&surface, reason: reason, name: name, context: &context)
            surface = kernelPass(surface, FilterKernel(kind: .vibrance, parameters: SIMD4(Float(amount), 0, 0, 0)), reason: reason,
                                 name: "vibrance of \(name)", context: &context)
        case .bloom(let radius, let intensity):
            resolveMatrix(&surface, reason: reason, name: name, context: &context)
            var glow = surface
            gaussianBlur(&glow, sigmaPixels: px(radius), reason: reason, name: "bloom of \(name)", context: &context)
            // The image, then its blur added over it at `intensity`, in one pass.
            var base = compositeItem(surface, at: Self.cgRect(surface.rect), tint: nil)
            base.blend = .sourceOver
            var added = compositeItem(glow, at: Self.cgRect(surface.rect), tint: nil)
            added.instance.color = SIMD4(repeating: Float(intensity))
            added.blend = .compositing(.addition)
            surface = makeEffectSurface(surface.rect, items: [base, added], reason: reason, name: "bloom of \(name)", context: &context)
        case .custom(let kernel, let inputs):
            resolveMatrix(&surface, reason: reason, name: name, context: &context)
            surface = kernelPass(surface, FilterKernel(kind: .copy, parameters: inputs), custom: kernel, reason: reason,
                                 name: "kernel '\(kernel.name)' of \(name)", context: &context)
        case .motionBlur(let sigma, let angle):
            let sigmaPixels = px(sigma)
            guard sigmaPixels > 0.05 else { return }
            resolveMatrix(&surface, reason: reason, name: "colour filters of \(name)", context: &context)
            // Core Image's angle is counterclockwise in its y-up space: up on screen is −y here.
            let direction = SIMD2<Float>(Float(cos(angle)), -Float(sin(angle)))
            let radius = min(Int((3 * sigmaPixels).rounded(.up)), Self.maximumKernelRadius)
            surface = kernelPass(surface, FilterKernel(kind: .gaussian, step: direction, radius: radius, sigma: Float(sigmaPixels)),
                                 reason: reason, name: "motion blur of \(name)", context: &context)
        }
    }

    /// A Gaussian blur of standard deviation `sigmaPixels` (target pixels): downsamples while it is wider
    /// than `maximumSigmaTexels`, then one pass along x and one along y.
    func gaussianBlur(_ surface: inout EffectSurface, sigmaPixels: Double, reason: OffscreenReason, name: String,
                              context: inout VisitContext) {
        guard sigmaPixels > 0.05 else { return }
        resolveMatrix(&surface, reason: reason, name: name, context: &context)
        while sigmaPixels * Double(surface.size.width) / Double(surface.rect.width) > Self.maximumSigmaTexels,
              surface.size.width >= 8, surface.size.height >= 8 {
            let half = ((surface.size.width + 1) / 2, (surface.size.height + 1) / 2)
            surface = kernelPass(surface, .copy, size: half, reason: reason, name: "downsample for \(name)", context: &context)
        }
        let sigmaX = sigmaPixels * Double(surface.size.width) / Double(surface.rect.width)
        let sigmaY = sigmaPixels * Double(surface.size.height) / Double(surface.rect.height)
        surface = kernelPass(surface, FilterKernel(kind: .gaussian, step: SIMD2(1, 0),
                                                   radius: min(Int((3 * sigmaX).rounded(.up)), Self.maximumKernelRadius), sigma: Float(sigmaX)),
                             reason: reason, name: "\(name) (x)", context: &context)
        surface = kernelPass(surface, FilterKernel(kind: .gaussian, step: SIMD2(0, 1),
                                                   radius: min(Int((3 * sigmaY).rounded(.up)), Self.maximumKernelRadius), sigma: Float(sigmaY)),
                             reason: reason, name: "\(name) (y)", context: &context)
    }

    /// A square-window kernel (box or morphology) of half-width `radiusPixels`, as an x pass and a y pass.
    private func separable(_ surface: inout EffectSurface, kind: FilterKernel.Kind, radiusPixels: Double, reason: OffscreenReason,
                           name: String, context: inout VisitContext) {
        let radius = min(Int(radiusPixels.rounded()), Self.maximumKernelRadius)
        guard radius > 0 else { return }
        resolveMatrix(&surface, reason: reason, name: name, context: &context)
        surface = kernelPass(surface, FilterKernel(kind: kind, step: SIMD2(1, 0), radius: radius),
                             reason: reason, name: "\(name) (x)", context: &context)
        surface = kernelPass(surface, FilterKernel(kind: kind, step: SIMD2(0, 1), radius: radius),
                             reason: reason, name: "\(name) (y)", context: &context)
    }

    /// Applies a pending colour matrix in a pass of its own (before a kernel that must see its result).
    func resolveMatrix(_ surface: inout EffectSurface, reason: OffscreenReason, name: String, context: inout VisitContext) {
        guard surface.pendingMatrix != nil else { return }
        surface = kernelPass(surface, .copy, reason: reason, name: name, context: &context)
    }

    /// One pass reading `source` through `kernel` (and its pending matrix) into a new surface covering the
    /// same pixels, `size` texels (default: the source's).
    private func kernelPass(_ source: EffectSurface, _ kernel: FilterKernel, size: (width: Int, height: Int)? = nil,
                            custom: CIColorKernel? = nil, reason: OffscreenReason, name: String,
                            context: inout VisitContext) -> EffectSurface {
        var item = compositeItem(source, at: Self.cgRect(source.rect), tint: nil)
        item.instance.flags.insert(.filterKernel)
        item.instance.filterKernel = kernel
        item.customKernel = custom
        return makeEffectSurface(source.rect, items: [item], reason: reason, name: name, size: size ?? source.size, context: &context)
    }

    /// A surface covering the target pixels `rect` with `size` texels (default one per pixel), drawn by a
    /// pass of `items`; one small enough is packable, so the same step of many layers' effects shares one
    /// pass (`SurfacePacker` orders passes by what they sample: contents, then each kernel step).
    func makeEffectSurface(_ rect: PixelRect, items: [DrawItem], reason: OffscreenReason, name: String,
                                   size: (width: Int, height: Int)? = nil, context: inout VisitContext) -> EffectSurface {
        let texels = size ?? (rect.width, rect.height)
        let surface = makeSurface(rect, items: items, reason: reason, name: name, size: texels, context: &context)
        let side = min(Self.packableEffectSide, maxSurfaceSize)
        if texels.width <= side && texels.height <= side { context.offscreen.packable.insert(surface) }
        return EffectSurface(surface: surface, rect: rect, size: texels)
    }

    /// A quad drawing `source` stretched over the target pixels `rect` (frame clip space), read with
    /// linear filtering through the copy kernel, then its pending matrix followed by `tint`.
    func compositeItem(_ source: EffectSurface, at rect: CGRect, tint: ColorMatrix?) -> DrawItem {
        let bounds = Self.vector(rect)
        // Read through the filter paint even for a plain copy: its reads stay within the surface's own
        // texels (a pooled image is larger, and a fractional offset would filter in what lies beyond).
        var instance = LayerInstance(localToClip: Self.columnMajor(pixelToClip), quad: bounds, color: SIMD4(repeating: 1), shape: bounds,
                                     flags: [.filterKernel])
        instance.filterKernel = .copy
        let matrix: ColorMatrix? = switch (source.pendingMatrix, tint) {
        case let (pending?, tint?): pending.then(tint)
        case let (pending?, nil): pending
        case let (nil, tint?): tint
        case (nil, nil): nil
        }
        if let matrix {
            instance.flags.insert(.colorMatrix)
            instance.colorMatrix = matrix
        }
        return DrawItem(instance: instance, texture: TextureBinding(surface: source.surface, minification: .linear, magnification: .linear))
    }

    /// The target pixels a surface for `items` covers: their footprints (uncut by the target) grown by
    /// `reach` pixels, cut to the target grown by `margin` and to the largest surface; nil when empty.
    private func effectRect(of items: [DrawItem], growingBy reach: Double, margin: Double) -> (rect: PixelRect, whole: Bool)? {
        let footprints = items.compactMap {
            OffscreenDecision.footprint(of: $0, targetWidth: targetWidth, targetHeight: targetHeight, clippedToTarget: false)
        }
        guard let first = footprints.first else { return nil }
        let whole = footprints.dropFirst().reduce(first) { $0.union($1) }
        let pad = Int(Self.pixelLength(reach).rounded(.up)), border = Int(Self.pixelLength(margin).rounded(.up))
        let grown = PixelRect(minX: whole.minX - pad, minY: whole.minY - pad, maxX: whole.maxX + pad, maxY: whole.maxY + pad)
        let reachable = PixelRect(minX: -border, minY: -border, maxX: targetWidth + border, maxY: targetHeight + border)
        guard var rect = grown.intersection(reachable) else { return nil }
        rect.maxX = min(rect.maxX, rect.minX + maxSurfaceSize)
        rect.maxY = min(rect.maxY, rect.minY + maxSurfaceSize)
        return rect.isEmpty ? nil : (rect, rect == grown)
    }

    /// Target pixels per layer unit at `point`: the square root of the layer map's local area scale (the
    /// inverse of `onePixelInLayerUnits`).
    static func pixelsPerUnit(_ toPixels: PlaneHomography, at point: CGPoint) -> Double {
        Double(1 / onePixelInLayerUnits(toPixels, at: point))
    }

    static func cgRect(_ rect: PixelRect) -> CGRect {
        CGRect(x: rect.minX, y: rect.minY, width: rect.width, height: rect.height)
    }

    /// A layer-space offset at `point`, in target pixels.
    static func pixelOffset(_ toPixels: PlaneHomography, at point: CGPoint, by offset: CGSize) -> CGPoint {
        func project(_ p: CGPoint) -> CGPoint? {
            let h = toPixels.apply(p)
            guard h.z > 1e-12 else { return nil }
            return CGPoint(x: h.x / h.z, y: h.y / h.z)
        }
        guard let from = project(point), let to = project(CGPoint(x: point.x + offset.width, y: point.y + offset.height)) else { return .zero }
        return CGPoint(x: to.x - from.x, y: to.y - from.y)
    }
}

/// What makes two layers' blurred `shadowPath`s the same up to a whole-pixel move: the path, the blur,
/// the linear part of the map to pixels and the fractions of its translation (affine maps only).
struct SharedShadowKey: Hashable {
    let path: CGPath
    let sigma: Double
    let linear: SIMD4<Double>
    let fraction: SIMD2<Double>
}

/// A blurred `shadowPath` surface, whole, and the whole-pixel translation of the layer it was drawn for.
struct SharedShadow {
    var surface: RenderGraphBuilder.EffectSurface
    var origin: SIMD2<Int>
}

extension SharedShadowKey {
    /// The key of `path` blurred by `sigma` pixels under `layerToPixels`, with that map's whole-pixel
    /// translation; nil for a projective or non-finite map (no whole-pixel move relates two of those).
    static func make(path: CGPath, sigma: Double, layerToPixels m: CATransform3D) -> (key: SharedShadowKey, origin: SIMD2<Int>)? {
        guard m.m14 == 0, m.m24 == 0, m.m44 == 1, m.m41.isFinite, m.m42.isFinite, abs(m.m41) < 1e9, abs(m.m42) < 1e9 else { return nil }
        let whole = SIMD2(Double(m.m41).rounded(.down), Double(m.m42).rounded(.down))
        let key = SharedShadowKey(path: path, sigma: sigma, linear: SIMD4(Double(m.m11), Double(m.m12), Double(m.m21), Double(m.m22)),
                                  fraction: SIMD2(Double(m.m41), Double(m.m42)) - whole)
        return (key, SIMD2(Int(whole.x), Int(whole.y)))
    }
}

private extension SIMD4<Float> {
    /// The largest absolute component.
    var magnitudeBound: Float { Swift.max(Swift.max(abs(x), abs(y)), Swift.max(abs(z), abs(w))) }
}
