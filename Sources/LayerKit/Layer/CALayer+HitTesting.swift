import Foundation

// Hit testing: which layer is front-most at a point.

extension CALayer {
    /// `hitTest(_:)`'s behaviour (the class declares it so subclasses can override it).
    package func defaultHitTest(_ p: CGPoint) -> CALayer? {
        guard !isHidden, let local = transformToSuperlayerPlane.unproject(p) else { return nil }
        return hitTestInOwnSpace(local)
    }

    /// The front-most layer at `local`, a point of this layer's own space: one of its descendants or
    /// itself (`masksToBounds` honoured). A transform layer reaches its sublayers' planes through this.
    package func hitTestInOwnSpace(_ local: CGPoint) -> CALayer? {
        if masksToBounds && !contains(local) { return nil }
        for sublayer in sublayersFrontToBack {
            if let hit = sublayer.hitTest(local) { return hit }
        }
        return contains(local) ? self : nil
    }

    /// The sublayers in hit-test order: highest `zPosition` first, later siblings before earlier ones.
    package var sublayersFrontToBack: [CALayer] {
        storedSublayers.enumerated()
            .sorted { lhs, rhs in
                let (lz, rz) = (lhs.element.zPosition, rhs.element.zPosition)
                return lz != rz ? lz > rz : lhs.offset > rhs.offset
            }
            .map(\.element)
    }

}
