import Foundation

// Shadow: drawn behind the layer, from its contents' alpha or from `shadowPath`.

extension CALayer {
    /// The shadow's color. Default opaque black. Animatable.
    public var shadowColor: CGColor? {
        get { value(of: .shadowColor) }
        set { setValue(newValue, of: .shadowColor) }
    }

    /// The shadow's opacity, 0 to 1. Default 0 (no shadow). Animatable.
    public var shadowOpacity: Float {
        get { value(of: .shadowOpacity) }
        set { setValue(newValue, of: .shadowOpacity) }
    }

    /// The shadow's offset. Default (0, -3), as Core Animation (on iOS that is 3 points up). Animatable.
    public var shadowOffset: CGSize {
        get { value(of: .shadowOffset) }
        set { setValue(newValue, of: .shadowOffset) }
    }

    /// The blur radius of the shadow. Default 3. Animatable.
    public var shadowRadius: CGFloat {
        get { value(of: .shadowRadius) }
        set { setValue(newValue, of: .shadowRadius) }
    }

    /// The shape of the shadow, instead of the layer's alpha. Animatable.
    public var shadowPath: CGPath? {
        get { value(of: .shadowPath) }
        set { setValue(newValue, of: .shadowPath) }
    }
}
