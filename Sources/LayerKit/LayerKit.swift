// LayerKit: the model — layers, animations, transactions and the Core Graphics value types.
//
// Does NOT: import Vulkan, read render-thread state, or draw. It records what changed and hands commit
// packets to the render server.

// `import LayerKit` gives CGFloat, CGPoint, CGSize and CGRect, as `import QuartzCore` does on Apple's
// platforms.
@_exported import Foundation
