import LayerKit

/// An emitter's particles as draws: one textured quad per particle, turned about its centre, in the
/// emitter layer's space; a cell's particles share one texture binding and blend, so they batch into
/// one draw call.
///
/// Input: the particles (`EmitterParticles`), the layer's map to pixels, its opacity and clip.
/// Output: draw items appended in the particles' order.
/// Cost: O(particles). The particle's map to clip space is the layer's, turned and moved: with the
/// layer's rows L1…L4 (row vectors, `columnMajor`), rows c·L1 + s·L2, −s·L1 + c·L2, L3 and
/// x·L1 + y·L2 + L4 — a few multiply-adds in `Float`, no 4×4 product per particle. A clipped emitter
/// works out each particle's clip fields from its own map.
extension RenderGraphBuilder {
    func appendParticles(of emitter: EmitterParticles, opacity: Float, toPixels: CATransform3D, clip: Clip?, layer: LayerID,
                         into items: inout [DrawItem]) {
        let (l1, l2, l3, l4) = Self.columnMajor(CATransform3DConcat(toPixels, pixelToClip))
        let blend: BlendMode = emitter.additive ? .compositing(.addition) : .sourceOver
        items.reserveCapacity(items.count + emitter.count)
        for group in emitter.groups {
            let crop = group.contentsRect
            let uv = SIMD4(Float(crop.minX), Float(crop.minY), Float(crop.maxX), Float(crop.maxY))
            let texture = TextureBinding(image: group.image, minification: Self.filter(group.minification),
                                         magnification: Self.filter(group.magnification))
            for particle in group.particles {
                let (c, s) = (cos(particle.angle), sin(particle.angle))
                let (x, y) = (particle.center.x, particle.center.y)
                let quad = SIMD4(-particle.halfSize.x, -particle.halfSize.y, particle.halfSize.x, particle.halfSize.y)
                var draw = LayerInstance(localToClip: (c * l1 + s * l2, c * l2 - s * l1, l3, x * l1 + y * l2 + l4),
                                         quad: quad, uv: uv, color: particle.color * opacity, shape: quad, flags: [.textured])
                if let clip {
                    let particleToLayer = CATransform3DConcat(CATransform3DMakeRotation(CGFloat(particle.angle), 0, 0, 1),
                                                              CATransform3DMakeTranslation(CGFloat(x), CGFloat(y), 0))
                    let particleToPixels = PlaneHomography(CATransform3DConcat(particleToLayer, toPixels).planeMap)
                    Self.setClip(clipInstanceFields(clip, localToPixels: particleToPixels), on: &draw)
                }
                items.append(DrawItem(instance: draw, texture: texture, blend: blend, layer: layer))
            }
        }
    }
}
