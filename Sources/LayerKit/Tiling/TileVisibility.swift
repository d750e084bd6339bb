import Foundation

/// What part of a layer is on screen, and at what scale, computed from model geometry.
///
/// Input: a layer in a tree that hosts show (its root's `HostViewports`). Geometry is the model's, or the
/// presentation's (`presentation()`) when the layer or an ancestor has animations, so a zoom animation
/// asks for the tiles of what is on screen.
/// Output, per viewport showing the tree: `rect`, the visible part of the layer's bounds in its own
/// coordinates — the viewport, cut by the bounds of every `masksToBounds` ancestor (scroll layers
/// included), mapped back onto the layer's plane and cut to its bounds; and `pixelsPerPoint`, the
/// on-screen scale of the layer's content at the visible region's centre (the larger of the two axes'
/// scales, so content is never magnified along either). Rotated or projected layers get bounding boxes,
/// which may include a few tiles that are just off screen, never miss one. A viewport whose corners
/// cannot be mapped onto the layer's plane (seen edge-on, or from behind) shows nothing of it.
/// Does NOT: account for layers hidden by `isHidden`, opacity 0 or occlusion (a hidden tiled layer keeps
/// its visible tiles so it reappears complete), or for mask layers. Cost: O(depth × viewports).
package struct TileVisibility: Equatable, Sendable {
    package var rect: CGRect
    package var pixelsPerPoint: CGFloat

    package init(rect: CGRect, pixelsPerPoint: CGFloat) {
        self.rect = rect
        self.pixelsPerPoint = pixelsPerPoint
    }

    /// The visible regions of `layer`, one per viewport showing its tree that shows any of it.
    package static func regions(of layer: CALayer) -> [TileVisibility] {
        var root = layer
        var animated = !layer.animationList.entries.isEmpty
        while let parent = root.storedSuperlayer {
            root = parent
            animated = animated || !parent.animationList.entries.isEmpty
        }
        let shown = root.storedHostViewports?.viewports ?? []
        guard !shown.isEmpty else { return [] }
        let geometry = animated ? (layer.presentation() ?? layer) : layer
        return shown.compactMap { region(of: geometry, in: $0) }
    }

    /// The visible region of `layer` (model or presentation copy) through `viewport`.
    package static func region(of layer: CALayer, in viewport: HostViewports.Viewport) -> TileVisibility? {
        let bounds = layer.bounds
        guard bounds.width > 0, bounds.height > 0, viewport.scale > 0, viewport.scale.isFinite else { return nil }
        var world = viewport.rect
        var ancestor = layer.superlayer
        while let clipping = ancestor {
            if clipping.masksToBounds {
                let clip = clipping.convert(clipping.bounds, to: nil)
                guard !clip.isNull else { return nil }
                world = world.intersection(clip)
                guard !world.isNull, world.width > 0, world.height > 0 else { return nil }
            }
            ancestor = clipping.superlayer
        }
        let toWorld = layer.transformToWorld
        var local = mapToPlane(world, toWorld)
        if local == nil {
            // The viewport reaches past the horizon of the layer's plane: if the layer's own corners are
            // all in front of the eye, the part of its bounds inside the viewport is still known.
            let inside = layer.convert(bounds, to: nil)
            if !inside.isNull, world.contains(inside) { local = bounds }
        }
        guard let local else { return nil }
        let visible = local.intersection(bounds)
        guard !visible.isNull, visible.width > 0, visible.height > 0 else { return nil }
        guard let scale = screenScale(toWorld, at: CGPoint(x: visible.midX, y: visible.midY)) else { return nil }
        return TileVisibility(rect: visible, pixelsPerPoint: scale * viewport.scale)
    }

    /// The bounding box on the layer's plane of `rect`'s corners; nil when a corner has no image there.
    private static func mapToPlane(_ rect: CGRect, _ toWorld: CATransform3D) -> CGRect? {
        let corners = [CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
                       CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.maxY)]
        var low = CGPoint(x: CGFloat.infinity, y: .infinity), high = CGPoint(x: -CGFloat.infinity, y: -.infinity)
        for corner in corners {
            guard let p = toWorld.unproject(corner) else { return nil }
            low = CGPoint(x: min(low.x, p.x), y: min(low.y, p.y))
            high = CGPoint(x: max(high.x, p.x), y: max(high.y, p.y))
        }
        return CGRect(x: low.x, y: low.y, width: high.x - low.x, height: high.y - low.y)
    }

    /// World points per layer point at `p`: the longer of the images of the two unit axes.
    private static func screenScale(_ toWorld: CATransform3D, at p: CGPoint) -> CGFloat? {
        let (p0, w0) = toWorld.project(p)
        let (px, wx) = toWorld.project(CGPoint(x: p.x + 1, y: p.y))
        let (py, wy) = toWorld.project(CGPoint(x: p.x, y: p.y + 1))
        guard w0 > 0, wx > 0, wy > 0 else { return nil }
        let sx = hypot(px.x - p0.x, px.y - p0.y), sy = hypot(py.x - p0.x, py.y - p0.y)
        let scale = max(sx, sy)
        return scale.isFinite && scale > 0 ? scale : nil
    }
}
