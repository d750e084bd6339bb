import LayerKit
enum TilesPanel { static func populate(_ stage: CALayer) {} }
