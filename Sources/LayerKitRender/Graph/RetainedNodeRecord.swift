import LayerKit

/// What the graph builder derived for one render node in the frame it last drew it: the inputs its
/// visit had (everything a layer inherits from its ancestors) and where its subtree's draws landed.
///
/// Written by `RenderGraphBuilder` for every node it visits while building a retained frame
/// (`RetainedFrame`); read by `RenderGraphBuilder.patch(_:tree:time:dirty:animations:)`, which redraws a
/// changed node's subtree from these inputs without walking its ancestors or siblings. A record belongs
/// to the frame whose `generation` it carries; records of older frames describe nothing.
struct RetainedNodeRecord {
    /// The retained frame that wrote it; 0: never drawn.
    var generation: UInt64 = 0
    /// The node's superlayer in the drawn tree (for a mask layer: the masked layer); nil for the root.
    /// A reference, so climbing to ancestors costs no lookups. Unowned and unretained: a patch copies,
    /// reads and rewrites the records of its roots and climbs their ancestors, and retaining each
    /// parent there (a write to a node far off in a big tree, which waited for it) was a quarter of
    /// `big`'s patch. It is read only in a record of the retained frame's generation, whose nodes the
    /// tree still holds: a frame is patched only while no layer of its tree was attached, detached or
    /// released since it was built (`FrameProducer`), and a build writes a parent's record before its
    /// children's. Kept as an unmanaged reference, so that climbing reads it without retaining it.
    var parentReference: Unmanaged<RenderNode>?
    /// `parentReference`'s node.
    var parent: RenderNode? { parentReference?.takeUnretainedValue() }
    /// The last patch that chose this node as a root (`RenderGraphBuilder.patch`).
    var patchSerial: UInt64 = 0
    /// Whether the subtree's draws are a contiguous range of the frame pass (`items`) that can be
    /// redrawn alone: not drawn inside an isolated ancestor's surface or fold, and drawing no cached
    /// bitmap (`shouldRasterize`, a cached group) nor asking the cache whether to. It may make offscreen
    /// passes (`surfaces`).
    var patchable = false
    /// The surfaces the subtree's visit opened (numbers in the order the builder opens them; each one's
    /// pass drawn by the subtree alone), empty where it made no offscreen pass.
    var surfaces: Range<Int> = 0..<0
    /// The visit's inputs: the parent's sublayer space → pixels, the opacity folded down from ancestors,
    /// the analytic clip in force, and whether contents lay out mirrored.
    var parentSpace = CATransform3DIdentity
    var opacity: CGFloat = 1
    var clip: RenderGraphBuilder.Clip?
    var contentsFlipped = false
    /// The subtree's draws in the frame pass (empty where it draws nothing).
    var items: Range<Int> = 0..<0
    /// The presented `zPosition` it was ordered among its siblings by.
    var zPosition: CGFloat = 0
}
