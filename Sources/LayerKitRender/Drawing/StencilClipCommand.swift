/// A change of the stencil clip, as a draw item of its own (`DrawItem.stencilCommand`): the clips that
/// the shader cannot do analytically (DESIGN.md §4: "clip of a subtree by stencil").
///
/// Analytic clips carry one rounded rect per instance (`LayerInstance.clipRect`, the innermost clip, or
/// the intersection of nested clips when it is itself a rounded rect). When a rotated or projected clip
/// nests inside another and neither contains the other, the builder keeps the inner clip analytic and
/// brackets the subtree with a `push` and a `pop` of the outer clip's shape into the stencil:
///
///     push(outer)   level L → L + 1 where the shape covers a pixel's centre (stencil == L there)
///     …subtree…     drawn where stencil == L + 1, each item also clipped analytically by the inner clip
///     pop(outer)    L + 1 → L under the same shape
///
/// Every item records its level (`DrawItem.stencilLevel`, the number of stencil clips around it) and is
/// drawn where the stencil equals it; a command records the level it is issued at (outside its own
/// bracket). The stencil is cleared to 0 each frame. Commands draw no color, are never culled, never
/// batched with anything, and no draw moves across one (`Batcher`). A frame target with a stencil the
/// frame may use (`BackendCapabilities.frameStencil`) keeps them, and so does an offscreen
/// surface whose pass holds commands where the backend offers it (`BackendCapabilities.surfaceStencil`;
/// each surface pass clears it to 0); elsewhere — a color-only target, surfaces of a backend without —
/// `DrawListCompiler` drops the commands, leaving the inner clip alone.
package enum StencilClipCommand: Hashable, Sendable, CustomStringConvertible {
    /// Raise the stencil from the command's level by one under the item's shape.
    case push
    /// Lower it back, under the same shape as the matching push.
    case pop

    package var description: String {
        switch self {
        case .push: "push"
        case .pop: "pop"
        }
    }
}

extension DrawItem {
    /// The stencil reference the item is drawn with: the stencil value it requires (and, for a command,
    /// changes): its level, or for a pop the level inside the bracket it closes.
    package var stencilReference: UInt8 {
        stencilCommand == .pop ? stencilLevel &+ 1 : stencilLevel
    }

    /// A clip-shape command of `command` for `shape` (an item whose quad, shape, radii and analytic clip
    /// describe the outer clip), at stencil level `level`.
    package static func stencilClip(_ command: StencilClipCommand, shape: LayerInstance, level: UInt8) -> DrawItem {
        var instance = shape
        instance.color = .zero
        instance.flags.subtract([.textured, .clampUV, .border, .antialiasEdges])
        var item = DrawItem(instance: instance)
        item.stencilCommand = command
        item.stencilLevel = level
        return item
    }
}
