import CPrefetch
import LayerKit

/// How a texture is filtered when sampled: Core Animation's `minificationFilter`/`magnificationFilter`
/// values, backend-neutral.
package enum TextureFilter: Hashable, Sendable {
    case nearest
    case linear
    /// Linear within and between mipmap levels (minification only).
    case trilinear
}

/// What a textured draw samples: a `CGImage` (uploaded once per image object), one tile of an image too
/// large for a single texture (`ImageTiling`), a page of the image atlas (`ImageAtlas`), or the surface an
/// earlier pass of the same graph rendered (`RenderTarget.offscreen`).
package enum TextureSource: Hashable, Sendable {
    case image(CGImage)
    /// The texels `region` of `image` (pixels, top row 0), uploaded as a texture of their own; uv 0…1
    /// spans the region.
    case imageTile(CGImage, region: PixelRect)
    case surface(SurfaceID)
    /// An atlas page; uv 0…1 spans the page (`ImageAtlas.pageSize` texels a side).
    case atlas(AtlasPageID)

    package static func == (lhs: TextureSource, rhs: TextureSource) -> Bool {
        switch (lhs, rhs) {
        case let (.image(a), .image(b)): a === b
        case let (.imageTile(a, ra), .imageTile(b, rb)): a === b && ra == rb
        case let (.surface(a), .surface(b)): a == b
        case let (.atlas(a), .atlas(b)): a == b
        default: false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case let .image(image):
            hasher.combine(0)
            hasher.combine(ObjectIdentifier(image))
        case let .surface(surface):
            hasher.combine(1)
            hasher.combine(surface)
        case let .imageTile(image, region):
            hasher.combine(2)
            hasher.combine(ObjectIdentifier(image))
            hasher.combine(region)
        case let .atlas(page):
            hasher.combine(3)
            hasher.combine(page)
        }
    }
}

/// A texture a draw samples: a source plus how to sample it. Image identity is the `CGImage` object, so
/// one image shown by many layers is uploaded once.
///
/// A surface is sampled over its whole logical size: uv (0, 0)…(1, 1) spans the `width`×`height` pixels
/// its pass declared, whatever size of image the backend draws it into.
package struct TextureBinding: Hashable, Sendable {
    package private(set) var source: TextureSource
    package var minification: TextureFilter
    package var magnification: TextureFilter

    package init(image: CGImage, minification: TextureFilter = .linear, magnification: TextureFilter = .linear) {
        self.init(source: .image(image), minification: minification, magnification: magnification)
    }

    /// Samples an earlier pass's surface; nearest by default, which with the 1:1 composites the builder
    /// makes reads each texel at its centre, exactly.
    package init(surface: SurfaceID, minification: TextureFilter = .nearest, magnification: TextureFilter = .nearest) {
        self.init(source: .surface(surface), minification: minification, magnification: magnification)
    }

    package init(source: TextureSource, minification: TextureFilter, magnification: TextureFilter) {
        self.source = source
        self.minification = minification
        self.magnification = magnification
    }

    /// Samples atlas page `page` instead, with the same filters; in place, so that a draw moved into the
    /// atlas releases its image without a copy of the binding retaining it first (`ImageAtlas.remap`).
    package mutating func sampleAtlasPage(_ page: AtlasPageID) {
        source = .atlas(page)
    }

    /// The image sampled, if the source is an image.
    package var image: CGImage? {
        if case let .image(image) = source { return image }
        return nil
    }

    /// The surface sampled, if the source is a surface.
    package var surface: SurfaceID? {
        if case let .surface(surface) = source { return surface }
        return nil
    }

    /// The image and region sampled, if the source is an image tile.
    package var imageTile: (image: CGImage, region: PixelRect)? {
        if case let .imageTile(image, region) = source { return (image, region) }
        return nil
    }

    /// The atlas page sampled, if the source is one.
    package var atlasPage: AtlasPageID? {
        if case let .atlas(page) = source { return page }
        return nil
    }
}

/// How a draw's premultiplied output `src` combines with the target's `dst`.
package enum BlendMode: Hashable, Sendable {
    /// Porter-Duff source-over: `dst = src + dst * (1 - src.a)`. Every layer draw.
    case sourceOver
    /// Porter-Duff destination-in: `dst = dst * src.a`. Applies a mask: drawn over a surface holding the
    /// masked content, with the mask's surface as `src`, it leaves content × mask alpha.
    case destinationIn
    /// `dst = src + dst`. Debug only: counts fragments into a surface (`DebugOptions.overdraw`).
    case additive
    /// A layer's `compositingFilter` (`CompositingOperation`): the composite of its subtree blended with
    /// what is behind it.
    case compositing(CompositingOperation)
    /// `dst = src`: the result of a blend kernel, which already holds the backdrop, replaces it.
    case replace

    /// The fixed-function blend that draws it.
    package var equation: BlendEquation {
        switch self {
        case .sourceOver: CompositingOperation.sourceOver.equation
        case .destinationIn: BlendEquation(color: (.zero, .sourceAlpha), alpha: (.zero, .sourceAlpha))
        case .additive: BlendEquation(color: (.one, .one), alpha: (.one, .one))
        case .compositing(let operation): operation.equation
        case .replace: BlendEquation(color: (.one, .zero), alpha: (.one, .zero))
        }
    }
}

/// One thing to draw in a pass: a quad instance, what it samples when textured, and how it blends.
package struct DrawItem: Equatable, Sendable {
    package var instance: LayerInstance
    package var texture: TextureBinding?
    package var blend: BlendMode
    /// The layer the item draws (its background, contents, border, or the composite of its surface);
    /// nil for items no layer owns (debug overlays). Statistics count layers by it; `flashUpdates`
    /// finds the items of updated layers by it.
    package var layer: LayerID?
    /// Non-nil for a stencil clip command (`StencilClipCommand`): the item draws its shape into the
    /// stencil, no color.
    package var stencilCommand: StencilClipCommand?
    /// How many stencil clips enclose the item; it is drawn where the stencil equals this.
    package var stencilLevel: UInt8 = 0
    /// The gradient the item paints (its instance has `Flags.gradient`): the backend writes its stops
    /// beside the frame's instances.
    package var gradient: GradientPaint?
    /// The group resolved by depth the item belongs to, if any (`DepthPhase.resolvedGroup`): a layer
    /// with group opacity over opaque children, drawn straight into the frame with its opacity folded
    /// in, where the depth test lets only the front-most child of the group paint each pixel.
    package var depthGroup: Int?
    /// A kernel pass that runs an app's `CIColorKernel` instead of the layer shader's fragment stage (its
    /// instance is a `filterKernel` copy whose parameters are the kernel's inputs).
    package var customKernel: CIColorKernel?

    package init(instance: LayerInstance, texture: TextureBinding? = nil, blend: BlendMode = .sourceOver, layer: LayerID? = nil,
                 gradient: GradientPaint? = nil) {
        self.instance = instance
        self.texture = texture
        self.blend = blend
        self.layer = layer
        self.gradient = gradient
    }
}

extension DrawItem {
    /// Asks the CPU to fetch the draw at `index` of `items` ahead of its use: a patch reads and writes a
    /// few scattered draws of a long list, each far from the last (`RenderGraphBuilder.patch`).
    package static func prefetch(_ items: UnsafeBufferPointer<DrawItem>, at index: Int) {
        lk_prefetch(items.baseAddress! + index, MemoryLayout<DrawItem>.size)
    }

    /// Asks the CPU to fetch the draw at `index` of `items` for writing, ahead of overwriting it.
    static func prefetchForWrite(_ items: UnsafeMutableBufferPointer<DrawItem>, at index: Int) {
        lk_prefetch_for_write(items.baseAddress! + index, MemoryLayout<DrawItem>.size)
    }
}
