import LayerKit

/// An emitter's particles as draws: one textured quad per particle, turned about its centre, in the
/// emitter layer's space; a cell's particles share one texture binding and blend, so they batch into
/// one draw call.
///
/// Input: the particles (`EmitterParticles`), the layer's map to pixels, its opacity and clip.
/// Output: draw items appended in the particles' order (group by group, or `depthOrder` across groups).
/// Cost: O(particles). The particle's map to clip space is the layer's, turned and moved: with the
/// layer's rows L1…L4 (row vectors, `columnMajor`), rows c·L1 + s·L2, −s·L1 + c·L2, L3 and
/// x·L1 + y·L2 + z·L3 + L4 (z only when the emitter preserves depth: the layer's 4×4 map then carries the
/// superlayer's perspective to it) — a few multiply-adds in `Float`, no 4×4 product per particle. A clipped emitter
/// works out each particle's clip fields from its own map.
extension RenderGraphBuilder {
    func appendParticles(of emitter: EmitterParticles, opacity: Float, toPixels: CATransform3D, clip: Clip?, layer: LayerID,
                         into items: inout [DrawItem]) {
        let (l1, l2, l3, l4) = localToClipColumns(toPixels)
        let blend: BlendMode = emitter.additive ? .compositing(.addition) : .sourceOver
        let textures = emitter.groups.map { group in
            TextureBinding(image: group.image, minification: Self.filter(group.minification), magnification: Self.filter(group.magnification))
        }
        let uvs = emitter.groups.map { group in
            let crop = group.contentsRect
            return SIMD4(Float(crop.minX), Float(crop.minY), Float(crop.maxX), Float(crop.maxY))
        }
        // A flattened particle lies in the layer's plane; a depth-preserving one is moved along z too.
        let keepsZ = emitter.preservesDepth
        func append(_ particle: EmitterParticles.Particle, group: Int) {
            let (c, s) = (cos(particle.angle), sin(particle.angle))
            let (x, y, z) = (particle.center.x, particle.center.y, keepsZ ? particle.z : 0)
            let quad = SIMD4(-particle.halfSize.x, -particle.halfSize.y, particle.halfSize.x, particle.halfSize.y)
            var draw = LayerInstance(localToClip: (c * l1 + s * l2, c * l2 - s * l1, l3, x * l1 + y * l2 + z * l3 + l4),
                                     quad: quad, uv: uvs[group], color: particle.color * opacity, shape: quad, flags: [.textured])
            if let clip {
                let particleToLayer = CATransform3DConcat(CATransform3DMakeRotation(CGFloat(particle.angle), 0, 0, 1),
                                                          CATransform3DMakeTranslation(CGFloat(x), CGFloat(y), CGFloat(z)))
                let particleToPixels = PlaneHomography(CATransform3DConcat(particleToLayer, toPixels).planeMap)
                Self.setClip(clipInstanceFields(clip, localToPixels: particleToPixels), on: &draw)
            }
            items.append(DrawItem(instance: draw, texture: textures[group], blend: blend, layer: layer))
        }
        items.reserveCapacity(items.count + emitter.count)
        if let order = emitter.depthOrder {
            for (group, index) in order { append(emitter.groups[group].particles[index], group: group) }
        } else {
            for (group, cell) in emitter.groups.enumerated() {
                for particle in cell.particles { append(particle, group: group) }
            }
        }
    }
}
