// Cover Flow: album covers in perspective (the container's sublayerTransform.m34), turning as they pass
// the centre by implicit animations of their transforms, each with a reflection made by a replicator
// and faded by a gradient mask.
import Foundation
import LayerKit
import LayerKitScenes

public final class CoverFlowDemo: GalleryDemo {
    public static let name = "coverflow"
    public static let title = "Cover Flow"
    public static let summary = "Covers in perspective (m34), flipping past the centre; reflections by a replicator and a gradient mask. ← →"

    static let coverCount = 16
    static let coverSide: CGFloat = 160
    private let shelf = CALayer()
    private var covers: [CALayer] = []
    private var centre = 0

    public init(root: CALayer, startTime: CFTimeInterval) {
        root.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let atlas = CityScene.loadAtlas()
        shelf.frame = root.bounds
        // Perspective for everything on the shelf: the eye 500 points in front of it.
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 500
        shelf.sublayerTransform = perspective
        root.addSublayer(shelf)

        let side = Self.coverSide
        for k in 0..<Self.coverCount {
            // A cover and its reflection: the replicator's second instance is the cover flipped about
            // the replicator's centre (the cover's bottom edge) and darkened; a gradient mask fades the
            // pair out downwards.
            let holder = CAReplicatorLayer()
            holder.bounds = CGRect(x: 0, y: 0, width: side, height: side * 2)
            holder.anchorPoint = CGPoint(x: 0.5, y: 0.25)
            holder.instanceCount = 2
            holder.instanceTransform = CATransform3DMakeScale(1, -1, 1)
            holder.instanceRedOffset = -0.6
            holder.instanceGreenOffset = -0.6
            holder.instanceBlueOffset = -0.6
            let cover = CALayer()
            cover.frame = CGRect(x: 0, y: 0, width: side, height: side)
            cover.contents = atlas
            cover.contentsRect = DemoStyle.pictureRect(k)
            holder.addSublayer(cover)
            let fade = CAGradientLayer()
            fade.frame = holder.bounds
            fade.colors = [CGColor(gray: 1, alpha: 1), CGColor(gray: 1, alpha: 1), CGColor(gray: 1, alpha: 0.35), CGColor(gray: 1, alpha: 0)]
            fade.locations = [0, 0.5, 0.5, 0.85]
            holder.mask = fade
            shelf.addSublayer(holder)
            covers.append(holder)
        }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layOut()
        CATransaction.commit()
    }

    /// Places every cover for the current centre: the centre one flat and in front, the others turned
    /// 60° towards it, stacked closely on either side and pushed back.
    private func layOut() {
        let mid = CGPoint(x: shelf.bounds.midX, y: shelf.bounds.midY - 40)
        for (k, cover) in covers.enumerated() {
            let offset = k - centre
            let side = CGFloat(offset.signum())
            cover.position = CGPoint(x: mid.x + side * (Self.coverSide * 0.75 + CGFloat(abs(offset) - 1) * 42) * (offset == 0 ? 0 : 1),
                                     y: mid.y)
            cover.transform = offset == 0
                ? CATransform3DIdentity
                : CATransform3DRotate(CATransform3DMakeTranslation(0, 0, -120), -side * .pi / 3, 0, 1, 0)
            cover.zPosition = -CGFloat(abs(offset))
        }
    }

    private func show(_ index: Int) {
        guard (0..<Self.coverCount).contains(index), index != centre else { return }
        centre = index
        CATransaction.begin()
        CATransaction.setAnimationDuration(0.35)
        layOut()  // every cover's position and transform animate implicitly
        CATransaction.commit()
    }

    public func keyDown(_ key: GalleryKey) {
        switch key {
        case .right: show(centre + 1)
        case .left: show(centre - 1)
        default: break
        }
    }

    public func pointerDown(at point: CGPoint) {
        show(centre + (point.x > shelf.bounds.midX ? 1 : -1))
    }

    public func script(frame: Int, time: CFTimeInterval) {
        if frame % 12 == 6 { keyDown(frame < 60 ? .right : .left) }
    }
}
