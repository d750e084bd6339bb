import LayerKit

/// How a texture is filtered when sampled: Core Animation's `minificationFilter`/`magnificationFilter`
/// values, backend-neutral.
package enum TextureFilter: Hashable, Sendable {
    case nearest
    case linear
    /// Linear within and between mipmap levels (minification only).
    case trilinear
}

/// A texture a draw samples: an image plus how to sample it. Image identity is the `CGImage` object, so
/// one image shown by many layers is uploaded once.
package struct TextureBinding: Hashable, Sendable {
    package let image: CGImage
    package var minification: TextureFilter
    package var magnification: TextureFilter

    package init(image: CGImage, minification: TextureFilter = .linear, magnification: TextureFilter = .linear) {
        self.image = image
        self.minification = minification
        self.magnification = magnification
    }

    package static func == (lhs: TextureBinding, rhs: TextureBinding) -> Bool {
        lhs.image === rhs.image && lhs.minification == rhs.minification && lhs.magnification == rhs.magnification
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(image))
        hasher.combine(minification)
        hasher.combine(magnification)
    }
}

/// One thing to draw in a pass: a quad instance and, when textured, what it samples. Blending is always
/// premultiplied source-over (`dst = src + dst * (1 - src.a)`).
package struct DrawItem: Equatable, Sendable {
    package var instance: LayerInstance
    package var texture: TextureBinding?

    package init(instance: LayerInstance, texture: TextureBinding? = nil) {
        self.instance = instance
        self.texture = texture
    }
}
