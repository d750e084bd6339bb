/// Drops draws that cannot touch their pass's target.
///
/// Input: a pass's items in painter's order and its target's size in pixels.
/// Output: each item's pixel footprint — the conservative bounding box of what it can touch, cut to the
/// target (`OffscreenDecision.footprint`) — or nil for an item with no pixel in the target: wholly
/// outside it, clipped away entirely by its analytic clip, or of no area. Nil items are culled.
/// An item whose projection crosses the eye plane (perspective behind the viewer) is kept, with the
/// whole target as its footprint. Culling by footprint never changes a pixel: a culled item would
/// have drawn nothing. Cost: O(1) per item (four corners projected).
package enum TargetCuller {
    /// The footprint of every item, nil for those to cull.
    package static func footprints(of items: [DrawItem], targetWidth: Int, targetHeight: Int) -> [PixelRect?] {
        // In place: iterating the array, or passing `items[index]`, copies every item out (384 bytes, and
        // retains its texture and gradient).
        items.withUnsafeBufferPointer { items in
            items.indices.map { OffscreenDecision.footprint(of: items[$0].instance, targetWidth: targetWidth, targetHeight: targetHeight) }
        }
    }
}
