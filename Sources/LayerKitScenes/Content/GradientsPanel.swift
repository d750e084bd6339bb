import LayerKit
enum GradientsPanel { static func populate(_ stage: CALayer) {} }
