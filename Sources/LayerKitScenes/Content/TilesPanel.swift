import Foundation
import LayerKit

/// The content sample's tiles panel: `TiledImageScene`'s 100,000 × 100,000-point map, seen through a
/// viewport that the panel's constraints keep filling the stage.
enum TilesPanel {
    static func populate(_ stage: CALayer) -> TiledImageScene {
        let scene = TiledImageScene(root: stage, size: CGSize(width: 1, height: 1))
        scene.viewport.constraints = [
            CAConstraint(attribute: .minX, relativeTo: "superlayer", attribute: .minX),
            CAConstraint(attribute: .maxX, relativeTo: "superlayer", attribute: .maxX),
            CAConstraint(attribute: .minY, relativeTo: "superlayer", attribute: .minY),
            CAConstraint(attribute: .maxY, relativeTo: "superlayer", attribute: .maxY),
        ]
        return scene
    }
}
