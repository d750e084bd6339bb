/// What must be equal for draws to share one draw call: the pipeline state (blend mode, depth
/// phase, stencil clip command), the stencil reference, and the texture bound (source and filters;
/// untextured draws bind none, the backend's white texture). Stencil clip commands never share a draw
/// (`Batcher`), whatever their keys.
package struct BatchKey: Hashable, Sendable, CustomStringConvertible {
    package var texture: TextureBinding?
    package var blend: BlendMode
    package var depth: DepthPhase
    /// Non-nil for a stencil clip command's draw.
    package var stencilCommand: StencilClipCommand?
    /// The stencil value the draw tests for (`DrawItem.stencilReference`).
    package var stencilReference: UInt8
    /// An app's kernel the draw runs (`DrawItem.customKernel`): its own pipeline.
    package var customKernel: CIColorKernel?

    package init(texture: TextureBinding?, blend: BlendMode, depth: DepthPhase = .none, stencilCommand: StencilClipCommand? = nil,
                 stencilReference: UInt8 = 0) {
        self.texture = texture
        self.blend = blend
        self.depth = depth
        self.stencilCommand = stencilCommand
        self.stencilReference = stencilReference
    }

    /// The key of `item` drawn in `phase`.
    package init(_ item: DrawItem, depth phase: DepthPhase = .none) {
        self = withUnsafePointer(to: item) { BatchKey(at: $0, depth: phase) }
    }

    /// The key of the draw at `item` drawn in `phase`, read where it lies (passing a draw whole copies
    /// it out: 384 bytes and its references).
    package init(at item: UnsafePointer<DrawItem>, depth phase: DepthPhase = .none) {
        self.init(texture: item.pointee.texture, blend: item.pointee.blend, depth: phase, stencilCommand: item.pointee.stencilCommand,
                  stencilReference: item.pointee.stencilReference)
        customKernel = item.pointee.customKernel
    }

    /// Whether the draws at `a` and `b` have the same key in any one phase: `BatchKey(at: a, depth: p) ==
    /// BatchKey(at: b, depth: p)`, compared where both lie, so that a draw joining a batch (or patched into
    /// one) copies and retains nothing. (A key compared with a draw was copied out of its batch first, its
    /// value witness and retains, per draw per frame.)
    package static func drawsShareKey(_ a: UnsafePointer<DrawItem>, _ b: UnsafePointer<DrawItem>) -> Bool {
        a.pointee.blend == b.pointee.blend && a.pointee.stencilReference == b.pointee.stencilReference
            && a.pointee.texture == b.pointee.texture && a.pointee.stencilCommand == b.pointee.stencilCommand
            && a.pointee.customKernel == b.pointee.customKernel
    }

    package var description: String {
        var text: String
        switch texture?.source {
        case nil: text = "untextured"
        case let .image(image)?: text = "image \(image.width)×\(image.height)"
        case let .imageTile(image, region)?: text = "tile \(region) of image \(image.width)×\(image.height)"
        case let .surface(surface)?: text = "\(surface)"
        case let .atlas(page)?: text = "\(page)"
        }
        if blend != .sourceOver { text += " · \(blend)" }
        if let customKernel { text += " · kernel '\(customKernel.name)'" }
        if depth != .none { text += " · \(depth)" }
        if let stencilCommand { text = "stencil clip \(stencilCommand) (" + text + ")" }
        if stencilReference != 0 { text += " · stencil \(stencilReference)" }
        return text
    }
}

/// How a draw takes part in a depth-ordered pass (`RenderPass.depthOrdered`).
package enum DepthPhase: Hashable, Sendable {
    /// No depth test: the pass is drawn in painter's order.
    case none
    /// Opaque draws, front to back, first: depth test LESS and depth write; a fragment not fully covered
    /// is discarded, so depth is written only where the draw paints its pixel completely.
    case opaque
    /// Everything else, back to front, after the opaque draws: depth test LESS, no depth write.
    case translucent
    /// The draws of a group resolved by depth (`DrawItem.depthGroup`), among the translucent ones in
    /// painter's order, each group's front to back: depth test LESS with depth writes and source-over,
    /// so a child hidden by a sibling of its group paints nothing there, as in the group's composite.
    case resolvedGroup
}

/// One draw call: `key` and a contiguous run `range` of the pass's `drawOrder`, drawn with
/// `material`, the join of its draws' (`Material`).
package struct DrawBatch: Hashable, Sendable {
    package var key: BatchKey
    package var range: Range<Int>
    package var material: Material

    package init(key: BatchKey, range: Range<Int>, material: Material = .general) {
        self.key = key
        self.range = range
        self.material = material
    }

    package var count: Int { range.count }
}
